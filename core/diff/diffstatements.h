// SPDX-License-Identifier: MIT
// The statements `memhist diff` reads with (core/diff): streams in time order and the small
// context tables it loads whole.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::diffstatements {

// A diff reads both histories from end to end once: memory-mapping them (the readers' default,
// schema::readerPragmas) would leave every page of both files resident, over a GiB for two runs
// of 10^7 accesses; through SQLite's page cache (64 MiB each) the resident memory stays bounded.
inline constexpr const char *streamingPragmas = "PRAGMA mmap_size = 0";
// The connection that reads the accesses and their values ahead (AccessStream) goes forward only:
// besides the b-trees' upper pages it never reads a page twice, so 8 MiB of cache suffice.
inline constexpr const char *accessReaderPragmas = "PRAGMA mmap_size = 0; PRAGMA cache_size = -8192";

// The first transition of the code trace.
inline constexpr const char *codeTraceStart = "SELECT min(transition_first) FROM code_trace";
// Every access in rowid (time) order, a batch at a time: the rows of rowids [?1, ?2) (one range
// search), each passed to the aggregate function collectAccess (registered by AccessReader on its
// own connection) within one step, instead of one step and a call per column for each access (27 M
// accesses in a diff of two gzip runs). Not in diffStatements: a connection without the function cannot prepare it
// (tst_diffaccessstream checks its plan).
inline constexpr const char *collectAccess = "memhist_collect_access";
inline constexpr const char *accessBatch
    = "SELECT memhist_collect_access(rowid, transition, phy_first, size, operation) FROM accesses "
      "WHERE rowid >= ?1 AND rowid < ?2";
// Where the batches end, and where the next one starts after rowids without a row.
inline constexpr const char *lastAccess = "SELECT max(rowid) FROM accesses";
inline constexpr const char *firstAccessFrom = "SELECT min(rowid) FROM accesses WHERE rowid >= ?1";
// The instruction at a PC (its text tells calls and returns).
inline constexpr const char *instructionText = "SELECT text FROM instructions WHERE pc = ?1";
// The whole memory map and the data objects (small tables: thousands of rows).
inline constexpr const char *memoryMap = "SELECT addr_first, addr_last, file_offset, path FROM memory_map";
inline constexpr const char *dataObjects = "SELECT name, addr_first, addr_last FROM data_objects";
// The modules with their build-ids (which program a history recorded).
inline constexpr const char *modules = "SELECT path, build_id FROM modules ORDER BY id";

inline constexpr memhist::statements::NamedStatement diffStatements[] = {
    MEMHIST_STATEMENT(codeTraceStart),
    MEMHIST_STATEMENT(lastAccess),
    MEMHIST_STATEMENT(firstAccessFrom),
    MEMHIST_STATEMENT(instructionText),
    MEMHIST_STATEMENT(memoryMap),
    MEMHIST_STATEMENT(dataObjects),
    MEMHIST_STATEMENT(modules),
};

} // namespace memhist::diffstatements
