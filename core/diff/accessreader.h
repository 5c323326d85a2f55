// SPDX-License-Identifier: MIT
// Reads one history's accesses in rowid (time) order, with their values where the history has
// them, a batch at a time: the SQLite side of AccessStream, which runs it on a thread of its own.
// One forward cursor over the accesses and one over the value blocks.
#pragma once

#include "core/diff/accessbytes.h"
#include "core/storage/sqlite.h"
#include "core/values/accessvaluereader.h"
#include "core/values/valueblock.h"

#include <vector>

namespace memhist {

struct StreamedAccess
{
    std::int64_t rowId = 0;
    std::uint64_t transition = 0;
    std::uint64_t address = 0;
    std::uint32_t size = 0;
    int operation = 0; // 2 write, 4 read (1 execute: skipped)
    AccessBytes value; // empty when unknown
};

class AccessReader
{
public:
    // Reads through `connection`, which must outlive this object and be used by no other thread
    // while read() runs.
    explicit AccessReader(sqlite::Connection &connection);

    bool isValid() const { return m_accesses.isValid(); }
    // Appends up to `count` accesses (executes skipped) to `batch`. False once the cursor has
    // ended: at the end of the table, or on a database error (error()).
    bool read(std::vector<StreamedAccess> *batch, std::size_t count);
    // A database error ended the cursor early (its message), or empty.
    const QString &error() const { return m_error; }

private:
    // Sets `value` to the bytes of access `rowId` (empty when unknown).
    void readValue(std::int64_t rowId, AccessBytes *value);

    sqlite::Connection &m_connection;
    sqlite::Statement m_accesses;
    sqlite::Statement m_blocks; // the value blocks in rowid order, one forward cursor
    ValueBlockCursor m_block; // the last block read from it
    bool m_blocksEnded = false;
    AccessValueReader m_values; // histories of the table before the blocks
    bool m_ended = false;
    QString m_error;
};

} // namespace memhist
