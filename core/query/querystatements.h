// SPDX-License-Identifier: MIT
// The SQL of the half-axis query engine, in one reviewed place. INDEXED BY pins the plans the
// algorithm depends on (HistoryDatabase::open guarantees the indexes exist): SQLite's planner must
// never trade the (chunk_id, transition) index for a rowid range scan on its own.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::statements {

// In rowid order: the engine checks at load that this is transition order (slices do not overlap).
inline constexpr const char *slicesInOrder
    = "SELECT rowid, transition_first, transition_last FROM slices ORDER BY rowid";

// The distinct operation codes of the chunks, one index seek each (idx_chunks_1 leads with the
// operation): the first chunk in index order, then the first with a code above the previous one.
// A valid database has at most three, so this costs at most four seeks whatever its size.
#define MEMHIST_CHUNK_OPERATION_SQL                                                                                    \
    "SELECT rowid, slice_id, phy_first, phy_last, operation FROM chunks INDEXED BY idx_chunks_1 "
inline constexpr const char *lowestChunkOperation = MEMHIST_CHUNK_OPERATION_SQL "ORDER BY operation LIMIT 1";
inline constexpr const char *nextChunkOperation
    = MEMHIST_CHUNK_OPERATION_SQL "WHERE operation > ?1 ORDER BY operation LIMIT 1";
#undef MEMHIST_CHUNK_OPERATION_SQL

// The spec's find_chunks_between: chunks of one operation and slice, from the first that ends at or
// after the window's first byte, in address order. The caller stops at the first chunk that starts
// after the window, or, without reading another row, at one that reaches the window's last byte.
inline constexpr const char *chunksOverlapping
    = "SELECT rowid, phy_first, phy_last FROM chunks INDEXED BY idx_chunks_1 "
      "WHERE operation = ?1 AND slice_id = ?2 AND phy_last >= ?3 "
      "ORDER BY phy_last";

// The matches of one chunk in rowid order (transitions never decrease with rowid, so the index order
// (chunk_id, transition, rowid) is rowid order). ?2/?3: the start (transition and rowid bounds);
// ?6: the far transition bound, past which no row can enter the page any more; ?4/?5: the window's
// last and first byte (inclusive overlap: phy_first <= B and last byte >= A).
inline constexpr const char *chunkAccessesForward
    = "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses INDEXED BY idx_accesses_1 "
      "WHERE chunk_id = ?1 AND transition >= ?2 AND transition <= ?6 AND rowid >= ?3 "
      "AND phy_first <= ?4 AND phy_first + size - 1 >= ?5 ORDER BY transition, rowid";
inline constexpr const char *chunkAccessesBackward
    = "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses INDEXED BY idx_accesses_1 "
      "WHERE chunk_id = ?1 AND transition <= ?2 AND transition >= ?6 AND rowid <= ?3 "
      "AND phy_first <= ?4 AND phy_first + size - 1 >= ?5 ORDER BY transition DESC, rowid DESC";

// Rows ?1..?2 in rowid order, filtered by operation mask ?3 and the window as two stored ranges
// (?4/?5 and ?6/?7; the same range twice unless the window crosses 2^63), at most ?8 rows.
#define MEMHIST_SCAN_SQL                                                                                               \
    "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses "                                      \
    "WHERE rowid BETWEEN ?1 AND ?2 AND (operation & ?3) != 0 "                                                         \
    "AND ((phy_first <= ?4 AND phy_first + size - 1 >= ?5) OR (phy_first <= ?6 AND phy_first + size - 1 >= ?7)) "
inline constexpr const char *scanForward = MEMHIST_SCAN_SQL "ORDER BY rowid LIMIT ?8";
inline constexpr const char *scanBackward = MEMHIST_SCAN_SQL "ORDER BY rowid DESC LIMIT ?8";
#undef MEMHIST_SCAN_SQL
// The same for a window that does not cross 2^63 (one stored range, ?4/?5; ?6/?7 unused): most
// scanned rows do not match, and the two-range form tests such a row against the same range twice.
#define MEMHIST_SCAN_ONE_RANGE_SQL                                                                                     \
    "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses "                                      \
    "WHERE rowid BETWEEN ?1 AND ?2 AND phy_first <= ?4 AND phy_first + size - 1 >= ?5 AND (operation & ?3) != 0 "
inline constexpr const char *scanOneRangeForward = MEMHIST_SCAN_ONE_RANGE_SQL "ORDER BY rowid LIMIT ?8";
inline constexpr const char *scanOneRangeBackward = MEMHIST_SCAN_ONE_RANGE_SQL "ORDER BY rowid DESC LIMIT ?8";
#undef MEMHIST_SCAN_ONE_RANGE_SQL

inline constexpr const char *rowAtOrAfter
    = "SELECT rowid, transition FROM accesses WHERE rowid >= ?1 ORDER BY rowid LIMIT 1";
inline constexpr const char *rowAtOrBefore
    = "SELECT rowid, transition FROM accesses WHERE rowid <= ?1 ORDER BY rowid DESC LIMIT 1";
// The first and the last row: historystatements.h (firstAccess, lastAccess).

inline constexpr NamedStatement queryStatements[] = {
    MEMHIST_STATEMENT(slicesInOrder),
    MEMHIST_STATEMENT(lowestChunkOperation),
    MEMHIST_STATEMENT(nextChunkOperation),
    MEMHIST_STATEMENT(chunksOverlapping),
    MEMHIST_STATEMENT(chunkAccessesForward),
    MEMHIST_STATEMENT(chunkAccessesBackward),
    MEMHIST_STATEMENT(scanForward),
    MEMHIST_STATEMENT(scanBackward),
    MEMHIST_STATEMENT(scanOneRangeForward),
    MEMHIST_STATEMENT(scanOneRangeBackward),
    MEMHIST_STATEMENT(rowAtOrAfter),
    MEMHIST_STATEMENT(rowAtOrBefore),
};

} // namespace memhist::statements
