// SPDX-License-Identifier: MIT
// The SQL that builds and reads the optional address summary (its tables are defined in
// storage/schema.h; storage/addresssummaryformat.h says what they hold), in one reviewed place.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::statements {

inline constexpr const char *addressSummaryTables = "SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                                                    "name IN ('address_summary', 'address_summary_info')";
// Two rows at most: one is right, a second one is enough to say there are too many.
inline constexpr const char *addressSummaryInfo
    = "SELECT version, finest_shift, level_step, levels, row_bytes, max_span, slices, last_chunk, wide_postings, "
      "checksum FROM address_summary_info LIMIT 2";
// The rows of the level of blocks of 2^?1 bytes that start at or before block ?2, last first (the
// caller stops at the first one that starts at or before the window; the level's header row,
// block -1, is the last).
inline constexpr const char *addressSummaryRowsDown
    = "SELECT block, next, checksum, postings FROM address_summary INDEXED BY idx_address_summary_1 "
      "WHERE shift = ?1 AND block <= ?2 ORDER BY block DESC";
// Every row in key order: what `memhist check` compares with a summary rebuilt from the chunks.
inline constexpr const char *addressSummaryAllRows
    = "SELECT shift, block, next, checksum, postings FROM address_summary "
      "INDEXED BY idx_address_summary_1 ORDER BY shift, block";

// What a summary is built from, and what it records about it: historystatements.h (sliceCount,
// lastChunkRowId).

// The builder's scratch tables, in the connection's temporary database (never in the history):
// postings spilled when the builder's memory budget is reached (one run per spill, each run in
// slice order), and the rows of the coarser levels, which are complete only after the finest one.
inline constexpr const char *createAddressSummaryScratch = R"sql(
CREATE TEMP TABLE IF NOT EXISTS memhist_summary_runs(block int8 not null, operation int not null, run int not null,
    postings blob not null);
CREATE TEMP TABLE IF NOT EXISTS memhist_summary_coarse(shift int not null, block int8 not null, postings blob not null);
DELETE FROM temp.memhist_summary_runs;
DELETE FROM temp.memhist_summary_coarse;
)sql";
// Emptied rather than dropped at the end: SQLite refuses to drop a table while any statement of the
// connection is running (`memhist check` reads the stored summary while the builder finishes).
inline constexpr const char *clearAddressSummaryScratch
    = "DELETE FROM temp.memhist_summary_runs; DELETE FROM temp.memhist_summary_coarse;";
inline constexpr const char *insertAddressSummaryRun
    = "INSERT INTO temp.memhist_summary_runs(block, operation, run, postings) VALUES(?1, ?2, ?3, ?4)";
inline constexpr const char *addressSummaryRunsInOrder
    = "SELECT block, operation, postings FROM temp.memhist_summary_runs ORDER BY block, operation, run";
inline constexpr const char *insertAddressSummaryCoarse
    = "INSERT INTO temp.memhist_summary_coarse(shift, block, postings) VALUES(?1, ?2, ?3)";
// Each level's rows were kept in order: rowid order within a level.
inline constexpr const char *addressSummaryCoarseInOrder
    = "SELECT shift, block, postings FROM temp.memhist_summary_coarse ORDER BY shift, rowid";

inline constexpr NamedStatement addressSummaryStatements[] = {
    MEMHIST_STATEMENT(addressSummaryTables),
    MEMHIST_STATEMENT(addressSummaryInfo),
    MEMHIST_STATEMENT(addressSummaryRowsDown),
    MEMHIST_STATEMENT(addressSummaryAllRows),
    MEMHIST_STATEMENT(createAddressSummaryScratch),
    MEMHIST_STATEMENT(clearAddressSummaryScratch),
    MEMHIST_STATEMENT(insertAddressSummaryRun),
    MEMHIST_STATEMENT(addressSummaryRunsInOrder),
    MEMHIST_STATEMENT(insertAddressSummaryCoarse),
    MEMHIST_STATEMENT(addressSummaryCoarseInOrder),
};

} // namespace memhist::statements
