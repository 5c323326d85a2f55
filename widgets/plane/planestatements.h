// SPDX-License-Identifier: MIT
// The SQL only the plane reads, in one reviewed place. All read-only; parameters bound, never pasted.
// What the plane shares with the engine it reads through the engine's statements: the slices and
// the chunks' coverage as the summariser scans them (summary/summarystatements.h), the chunks of a
// window as the query engine finds them (query/querystatements.h). Accesses come in the engine's
// column order, decoded by query/accessrow.h.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::plane::statements {

// Applied after HistoryDatabase::open() on the plane's connections. The shared reader pragmas map
// the whole file; every page the plane ever touched would then stay in the viewer's resident set
// (a 10^7-access history is ~650 MiB). Plain reads through a bounded page cache keep the viewer's
// memory bounded whatever the file size.
inline constexpr const char *connectionPragmas = "PRAGMA mmap_size = 0; PRAGMA cache_size = -32768;";

// Every chunk's address range, streamed once per history to find the occupied regions (the fold).
// A plain table scan: the order does not matter, the builder sorts.
inline constexpr const char *chunkRanges = "SELECT phy_first, phy_last FROM chunks";

// The accesses of one chunk within a transition range, through (chunk_id, transition).
inline constexpr const char *chunkAccesses
    = "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses INDEXED BY idx_accesses_1 "
      "WHERE chunk_id = ?1 AND transition >= ?2 AND transition <= ?3";

// Every access of a rowid range (the visible transitions: rowid order is time order), read in
// table order; the caller filters by address. Cheaper than per-chunk queries when the view spans
// most addresses of a short stretch of time.
inline constexpr const char *accessesByRowId
    = "SELECT rowid, transition, operation, phy_first, linear, size FROM accesses WHERE rowid BETWEEN ?1 AND ?2";

// The region names of the address axis (planecontext.h), read once per history from the optional
// context tables (contextschema.h): every mapping of the memory map and every module's sections
// (its data objects come from ContextReader::namedRanges). Plain scans: the tables hold a few
// thousand rows, and the axis needs all of them.
inline constexpr const char *mappingNames = "SELECT addr_first, addr_last, path, module_id FROM memory_map";
inline constexpr const char *sectionNames = "SELECT module_id, name, addr_first, addr_last FROM module_sections";

inline constexpr memhist::statements::NamedStatement planeStatements[] = {
    MEMHIST_STATEMENT(connectionPragmas),
    MEMHIST_STATEMENT(chunkRanges),
    MEMHIST_STATEMENT(chunkAccesses),
    MEMHIST_STATEMENT(accessesByRowId),
    MEMHIST_STATEMENT(mappingNames),
    MEMHIST_STATEMENT(sectionNames),
};

} // namespace memhist::plane::statements
