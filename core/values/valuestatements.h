// SPDX-License-Identifier: MIT
// The table of access values (values/valueblock.h packs its rows) and the statements that read it.
// Optional, like every context table: a history without values has none.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::valueschema {

// The values of the accesses access_first..access_last (rowids), packed: `layout` holds one varint
// head per access (and a syscall varint after a kernel access's head), `bytes` each access's value
// then its before bytes, in rowid order (valueblock.h).
inline constexpr const char *createBlocksTable
    = "CREATE TABLE access_value_blocks(access_first INTEGER PRIMARY KEY, access_last int8 not null, "
      "layout blob not null, bytes blob not null)";
inline constexpr const char *insertBlock
    = "INSERT INTO access_value_blocks(access_first, access_last, layout, bytes) VALUES";

// The block that holds an access, if any: the last one starting at or before it.
inline constexpr const char *blockAtOrBefore
    = "SELECT access_first, access_last, layout, bytes FROM access_value_blocks "
      "WHERE access_first <= ?1 ORDER BY access_first DESC LIMIT 1";
// The blocks starting at or after rowid ?1, in rowid order (reading every value in order: check).
inline constexpr const char *blocksFrom = "SELECT access_first, access_last, layout, bytes FROM access_value_blocks "
                                          "WHERE access_first >= ?1 ORDER BY access_first";

// Histories written before the blocks (Tenet imports of earlier versions) keep one row per access
// in this table, which is read but no longer written.
inline constexpr const char *createLegacyTable
    = "CREATE TABLE access_values(access_id INTEGER PRIMARY KEY, bytes blob not null)";
inline constexpr const char *legacyValue = "SELECT bytes FROM access_values WHERE access_id = ?1";

inline constexpr memhist::statements::NamedStatement valueStatements[] = {
    MEMHIST_STATEMENT(blockAtOrBefore),
    MEMHIST_STATEMENT(blocksFrom),
    MEMHIST_STATEMENT(legacyValue),
};

} // namespace memhist::valueschema
