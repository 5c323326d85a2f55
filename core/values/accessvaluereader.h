// SPDX-License-Identifier: MIT
// Reads the values of a history's accesses (access_value_blocks, valueblock.h; or the one-row-per-
// access table of histories written before it). Keeps the last block it decoded, so reading the
// values of neighbouring accesses, as a page of results does, costs one query per block.
#pragma once

#include "core/model/types.h"
#include "core/storage/sqlite.h"
#include "core/values/accessvalue.h"
#include "core/values/valueblock.h"

#include <optional>

namespace memhist {

class AccessValueReader
{
public:
    // Reads through `connection`, which must outlive this object.
    explicit AccessValueReader(sqlite::Connection &connection);

    // The history keeps values (either table).
    bool available() const { return m_block.isValid() || m_legacy.isValid(); }
    // The value of `access`, when the history has one. A damaged block reads as no value.
    std::optional<AccessValue> value(RowId access);

private:
    sqlite::Statement m_block;
    sqlite::Statement m_legacy;
    DecodedValueBlock m_decoded;
};

} // namespace memhist
