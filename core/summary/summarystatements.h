// SPDX-License-Identifier: MIT
// The SQL of the display summary, in one reviewed place. Two optional tables (DESIGN.md §1): a
// history without them works everywhere; the viewer then summarises it itself, into a cache file
// outside the history that holds the same two tables.
//
// summary_info: one row per key (see summary::infoKeys), the summary's levels, the regions of its
//   address fold and what it was built from, so that a reader can tell a summary that no longer
//   matches its history.
// summary_tiles: one row per stored block of a tile. The integer key packs (time level, address
//   level, block, tile) (summary::storedTileKey), so that the tiles of one block of one level are
//   one range of the table's own b-tree (no index needed); `cells` is the block's cell count (what
//   a reader weighs before reading it), `data` its cells (tilecodec.h).
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::summary::statements {

inline constexpr const char *createTables = R"sql(
CREATE TABLE summary_info(key text primary key, value text not null) WITHOUT ROWID;
CREATE TABLE summary_tiles(key integer primary key, cells int8 not null, data blob not null);
)sql";

inline constexpr const char *insertInfo = "INSERT OR REPLACE INTO summary_info(key, value) VALUES(?1, ?2)";
inline constexpr const char *insertTile = "INSERT INTO summary_tiles(key, cells, data) VALUES(?1, ?2, ?3)";

// Whether both tables exist (a reader looks before it asks for rows).
inline constexpr const char *hasTables = "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
                                         "('summary_info', 'summary_tiles')";
inline constexpr const char *selectInfo = "SELECT key, value FROM summary_info";

// The stored tiles of one level in a range of tile numbers (keys ?1..?2), in tile order.
inline constexpr const char *selectTiles = "SELECT key, cells, data FROM summary_tiles WHERE key BETWEEN ?1 AND ?2";

// What a summary is checked against when its history is opened: cheap (the largest rowid is the
// last entry of each table's b-tree).
// The summariser's scans of a history without a summary (historysummarizer.cpp): the slices in
// transition order, then every chunk and every access in rowid order.
inline constexpr const char *scanSlices
    = "SELECT rowid, transition_first, transition_last FROM slices ORDER BY transition_first, rowid";
inline constexpr const char *scanChunks = "SELECT slice_id, phy_first, phy_last, operation FROM chunks";
inline constexpr const char *scanAccesses = "SELECT transition, phy_first, size, operation FROM accesses";

// The summariser's connections: two sequential scans of the history through a small cache keep the
// memory bounded; the summary file is written in one transaction and renamed into place when
// complete (no journal needed).
inline constexpr const char *scanPragmas = "PRAGMA mmap_size = 0; PRAGMA cache_size = -16384;";
inline constexpr const char *summaryFilePragmas
    = "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 16384;";

// The bytes the summary's two tables take in the file (SQLite's dbstat table: whole pages), for
// the benchmarks.
inline constexpr const char *summaryBytes = "SELECT sum(pgsize) FROM dbstat WHERE name IN ('summary_info', "
                                            "'summary_tiles', 'sqlite_autoindex_summary_info_1')";

inline constexpr const char *historyShape
    = "SELECT (SELECT count(*) FROM slices), (SELECT max(rowid) FROM chunks), (SELECT max(rowid) FROM accesses)";

inline constexpr memhist::statements::NamedStatement summaryStatements[] = {
    MEMHIST_STATEMENT(createTables),
    MEMHIST_STATEMENT(insertInfo),
    MEMHIST_STATEMENT(insertTile),
    MEMHIST_STATEMENT(hasTables),
    MEMHIST_STATEMENT(selectInfo),
    MEMHIST_STATEMENT(selectTiles),
    MEMHIST_STATEMENT(scanSlices),
    MEMHIST_STATEMENT(scanChunks),
    MEMHIST_STATEMENT(scanAccesses),
    MEMHIST_STATEMENT(scanPragmas),
    MEMHIST_STATEMENT(summaryFilePragmas),
    MEMHIST_STATEMENT(summaryBytes),
    MEMHIST_STATEMENT(historyShape),
};

} // namespace memhist::summary::statements
