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

// The value index (valuefilter.h): one filter per block, under the block's first rowid. Optional
// even where blocks exist (histories written before it): a search then decodes every block.
inline constexpr const char *createFiltersTable
    = "CREATE TABLE access_value_filters(access_first INTEGER PRIMARY KEY, filter blob not null)";
inline constexpr const char *insertFilter = "INSERT INTO access_value_filters(access_first, filter) VALUES";
// The filters of the blocks after / before rowid ?1, in the direction of a search.
inline constexpr const char *filtersAfter
    = "SELECT access_first, filter FROM access_value_filters WHERE access_first > ?1 ORDER BY access_first";
inline constexpr const char *filtersBefore
    = "SELECT access_first, filter FROM access_value_filters WHERE access_first < ?1 ORDER BY access_first DESC";
// The value index's second level (valuegroups.h): per pair or window and span, the groups that
// may hold it; the row of key -1 gives the group's size.
inline constexpr const char *createGroupsTable
    = "CREATE TABLE access_value_groups(key INTEGER PRIMARY KEY, bits blob not null)";
inline constexpr const char *insertGroups = "INSERT INTO access_value_groups(key, bits) VALUES";
inline constexpr const char *groupBits = "SELECT bits FROM access_value_groups WHERE key = ?1";
// The blocks after / before rowid ?1 (a search of a history without filters).
inline constexpr const char *blocksAfter = "SELECT access_first, access_last, layout, bytes FROM access_value_blocks "
                                           "WHERE access_first > ?1 ORDER BY access_first";
inline constexpr const char *blocksBefore = "SELECT access_first, access_last, layout, bytes FROM access_value_blocks "
                                            "WHERE access_first < ?1 ORDER BY access_first DESC";
// The block starting at rowid ?1.
inline constexpr const char *blockAt
    = "SELECT access_first, access_last, layout, bytes FROM access_value_blocks WHERE access_first = ?1";

// Histories written before the blocks (Tenet imports of earlier versions) keep one row per access
// in this table, which is read but no longer written.
inline constexpr const char *createLegacyTable
    = "CREATE TABLE access_values(access_id INTEGER PRIMARY KEY, bytes blob not null)";
inline constexpr const char *legacyValue = "SELECT bytes FROM access_values WHERE access_id = ?1";

inline constexpr memhist::statements::NamedStatement valueStatements[] = {
    MEMHIST_STATEMENT(blockAtOrBefore),
    MEMHIST_STATEMENT(blocksFrom),
    MEMHIST_STATEMENT(filtersAfter),
    MEMHIST_STATEMENT(filtersBefore),
    MEMHIST_STATEMENT(groupBits),
    MEMHIST_STATEMENT(blocksAfter),
    MEMHIST_STATEMENT(blocksBefore),
    MEMHIST_STATEMENT(blockAt),
    MEMHIST_STATEMENT(legacyValue),
};

} // namespace memhist::valueschema
