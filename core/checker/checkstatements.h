// SPDX-License-Identifier: MIT
// Every statement the checker runs, in one reviewed place (STYLE.md §12), but those it shares with
// the readers (the slices in rowid order: querystatements.h; the last chunk's rowid:
// historystatements.h). The checker reads the base tables in the orders its checks need: slices and
// chunks by rowid, chunks per slice and operation in idx_chunks_1 order (the order readers use),
// accesses by rowid (trace order).
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::check::sql {

inline constexpr const char *chunks
    = "SELECT rowid, slice_id, phy_first, phy_last, operation FROM chunks ORDER BY rowid";
inline constexpr const char *maxSliceRowId = "SELECT max(rowid) FROM slices";
inline constexpr const char *accessRowIdSpan = "SELECT min(rowid), max(rowid) FROM accesses";
// The last stored access: where the reference writer's discard_after may have left chunks behind.
inline constexpr const char *lastAccessTransition = "SELECT transition FROM accesses ORDER BY rowid DESC LIMIT 1";
// The chunks of one slice and operation as idx_chunks_1 holds them (rowid is the index's implicit
// last column, so ties come in rowid order and nothing is sorted).
inline constexpr const char *chunksOfSliceAndOperationInIndexOrder = "SELECT rowid, phy_first, phy_last FROM chunks "
                                                                     "WHERE operation = ?1 AND slice_id = ?2 "
                                                                     "ORDER BY phy_last, rowid";
// idx_chunks_1 narrows this to one slice; only those few rows are sorted.
inline constexpr const char *chunksOfSlice = "SELECT rowid, phy_first, phy_last, operation FROM chunks "
                                             "WHERE operation IN (1, 2, 4) AND slice_id = ?1 ORDER BY rowid";
inline constexpr const char *chunkById = "SELECT slice_id, phy_first, phy_last, operation FROM chunks WHERE rowid = ?1";
inline constexpr const char *accesses
    = "SELECT rowid, chunk_id, transition, phy_first, size, operation FROM accesses ORDER BY rowid";

// SQLite's own check of the file: b-tree pages, free list, and every index entry against its table.
inline constexpr const char *integrityCheck = "PRAGMA integrity_check";
// What the integrity check will cost, from the shape of a table (names bound, never spliced).
inline constexpr const char *tableColumns = "SELECT count(*), coalesce(sum(\"notnull\"), 0) FROM pragma_table_info(?1)";
inline constexpr const char *tableIndexColumns
    = "SELECT count(DISTINCT il.name), count(*) FROM pragma_index_list(?1) AS il, pragma_index_info(il.name) AS ii";

// The optional thread_spans table in time order, for the check that its spans never overlap (the
// thread filter and the thread at a transition assume one thread per transition).
inline constexpr const char *threadSpansInOrder = "SELECT rowid, thread_id, transition_first, transition_last "
                                                  "FROM thread_spans ORDER BY transition_first, transition_last";

// The optional code trace (core/context/codetrace.h): whether both of its tables are there, each
// run's length, and the rows in time order (a rowid scan).
inline constexpr const char *codeTraceTableCount
    = "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('code_trace', 'code_runs')";
inline constexpr const char *codeRunLengths = "SELECT id, length(sizes) FROM code_runs";
inline constexpr const char *codeTraceRowsInOrder
    = "SELECT transition_first, runs FROM code_trace ORDER BY transition_first";

// The value index's second level (core/values/valuegroups.h): its rows, counted once.
inline constexpr const char *valueGroupRowCount = "SELECT count(*) FROM access_value_groups";

inline constexpr memhist::statements::NamedStatement checkStatements[] = {
    MEMHIST_STATEMENT(valueGroupRowCount),
    MEMHIST_STATEMENT(threadSpansInOrder),
    MEMHIST_STATEMENT(codeTraceTableCount),
    MEMHIST_STATEMENT(codeRunLengths),
    MEMHIST_STATEMENT(codeTraceRowsInOrder),
    MEMHIST_STATEMENT(chunks),
    MEMHIST_STATEMENT(maxSliceRowId),
    MEMHIST_STATEMENT(accessRowIdSpan),
    MEMHIST_STATEMENT(lastAccessTransition),
    MEMHIST_STATEMENT(chunksOfSliceAndOperationInIndexOrder),
    MEMHIST_STATEMENT(chunksOfSlice),
    MEMHIST_STATEMENT(chunkById),
    MEMHIST_STATEMENT(accesses),
    MEMHIST_STATEMENT(integrityCheck),
    MEMHIST_STATEMENT(tableColumns),
    MEMHIST_STATEMENT(tableIndexColumns),
};

} // namespace memhist::check::sql
