// The SQL the plane reads, in one reviewed place. All read-only; parameters bound, never pasted.
// INDEXED BY pins the plans the drawing relies on (HistoryDatabase::open has checked the indexes).
#pragma once

namespace memhist::plane::statements {

// Applied after HistoryDatabase::open() on the plane's connections. The shared reader pragmas map
// the whole file; every page the plane ever touched would then stay in the viewer's resident set
// (a 10^7-access history is ~650 MiB). Plain reads through a bounded page cache keep the viewer's
// memory bounded whatever the file size.
inline constexpr const char *connectionPragmas = "PRAGMA mmap_size = 0; PRAGMA cache_size = -32768;";

// Every slice, in transition order: a few hundred rows, read once per history.
inline constexpr const char *slices
    = "SELECT rowid, transition_first, transition_last FROM slices ORDER BY transition_first, rowid";

// Every chunk's address range, streamed once per history to find the occupied regions (the fold).
// A plain table scan: the order does not matter, the builder sorts.
inline constexpr const char *chunkRanges = "SELECT phy_first, phy_last FROM chunks";

// The same, with the slice and operation: the second pass that builds the per-slice coverage.
inline constexpr const char *chunkCoverage = "SELECT slice_id, phy_first, phy_last, operation FROM chunks";

// The chunks of one operation and slice that end at or after the window's first byte, in address
// order (the spec's find_chunks_between). The reader stops at the first chunk that starts after
// the window: chunks of one operation never overlap, so none after it can match.
inline constexpr const char *chunksFrom = "SELECT rowid, phy_first, phy_last FROM chunks INDEXED BY idx_chunks_1 "
                                          "WHERE operation = ?1 AND slice_id = ?2 AND phy_last >= ?3 "
                                          "ORDER BY phy_last";

// The accesses of one chunk within a transition range, through (chunk_id, transition).
inline constexpr const char *chunkAccesses
    = "SELECT rowid, transition, phy_first, linear, size, operation FROM accesses INDEXED BY idx_accesses_1 "
      "WHERE chunk_id = ?1 AND transition >= ?2 AND transition <= ?3";

// Every access of a rowid range (the visible transitions: rowid order is time order), read in
// table order; the caller filters by address. Cheaper than per-chunk queries when the view spans
// most addresses of a short stretch of time.
inline constexpr const char *accessesByRowId
    = "SELECT rowid, transition, phy_first, linear, size, operation FROM accesses WHERE rowid BETWEEN ?1 AND ?2";

} // namespace memhist::plane::statements
