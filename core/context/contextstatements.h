// SPDX-License-Identifier: MIT
// The SQL that reads the optional context tables (contextschema.h), in one reviewed place, bound
// parameters only. tst_contextschema proves with EXPLAIN QUERY PLAN that each statement uses the
// index or rowid it was written for.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::contextstatements {

// Which context tables the history has (each is optional).
inline constexpr const char *tableNames = "SELECT name FROM sqlite_schema WHERE type = 'table'";

// The code_trace row holding transition ?1, if any: the last row starting at or before it (rows
// are contiguous, so the caller only checks that ?1 is before the row's end). A rowid probe.
inline constexpr const char *codeTraceRowAtOrBefore
    = "SELECT transition_first, runs FROM code_trace WHERE transition_first <= ?1 "
      "ORDER BY transition_first DESC LIMIT 1";
// The rows from the one starting at ?1 on, in time order, and from ?1 back (rowid ranges): the
// walk of `memhist query --pc`.
inline constexpr const char *codeTraceRowsForward
    = "SELECT transition_first, runs FROM code_trace WHERE transition_first >= ?1 ORDER BY transition_first";
inline constexpr const char *codeTraceRowsBackward
    = "SELECT transition_first, runs FROM code_trace WHERE transition_first <= ?1 ORDER BY transition_first DESC";
// The first row starting at or after ?1: the next row of a forward walk (codetracewalk.h).
inline constexpr const char *codeTraceRowAtOrAfter
    = "SELECT transition_first, runs FROM code_trace WHERE transition_first >= ?1 ORDER BY transition_first LIMIT 1";

// One run by its id (a rowid probe), and every run (a scan: which runs hold a given PC).
inline constexpr const char *codeRunById = "SELECT pc, sizes FROM code_runs WHERE id = ?1";
inline constexpr const char *allCodeRuns = "SELECT id, pc, sizes FROM code_runs";

// Every module (a small table, read once per reader).
inline constexpr const char *allModules
    = "SELECT id, path, bias, build_id, transition_first, transition_last FROM modules ORDER BY id";

// The rows that may hold address ?1, nearest first: those ending at or after it, in order of
// their end (idx_*_1 on addr_last, pinned with INDEXED BY as the query engine does), at most 16.
// The caller keeps the first that starts at or before ?1 (and whose module was loaded at the
// time asked about): symbols of one load do not overlap, so the answer is among the first few,
// and the walk stays short even when no row holds the address.
inline constexpr const char *functionCandidates
    = "SELECT id, module_id, name, addr_first, addr_last FROM functions INDEXED BY idx_functions_1 "
      "WHERE addr_last >= ?1 ORDER BY addr_last LIMIT 16";
inline constexpr const char *sourceLineCandidates
    = "SELECT source_lines.addr_first, source_lines.addr_last, source_files.path, source_lines.line "
      "FROM source_lines INDEXED BY idx_source_lines_1 JOIN source_files ON source_files.id = source_lines.file_id "
      "WHERE source_lines.addr_last >= ?1 ORDER BY source_lines.addr_last LIMIT 16";
inline constexpr const char *dataObjectCandidates
    = "SELECT module_id, name, addr_first, addr_last FROM data_objects INDEXED BY idx_data_objects_1 "
      "WHERE addr_last >= ?1 ORDER BY addr_last LIMIT 16";
inline constexpr const char *sectionCandidates
    = "SELECT module_id, name, addr_first, addr_last FROM module_sections INDEXED BY idx_module_sections_1 "
      "WHERE addr_last >= ?1 ORDER BY addr_last LIMIT 16";

// The mapping holding address ?1 at transition ?2. Mappings of one moment do not overlap, but a
// range may be mapped many times over the run: the walk goes on (by addr_last) until one was
// there at ?2.
inline constexpr const char *mappingAt
    = "SELECT transition_first, transition_last, addr_first, addr_last, permissions, file_offset, path, module_id "
      "FROM memory_map INDEXED BY idx_memory_map_1 "
      "WHERE addr_last >= ?1 AND addr_first <= ?1 AND transition_first <= ?2 AND transition_last >= ?2 "
      "ORDER BY addr_last LIMIT 1";

// Functions named ?1 exactly, or C++ functions whose name is ?1 followed by their parameters
// ("area" finds "Shape::area() const" only when written "Shape::area"). A scan: the table holds
// the executed functions only.
inline constexpr const char *functionsNamed
    = "SELECT id, module_id, name, addr_first, addr_last FROM functions "
      "WHERE name = ?1 OR substr(name, 1, length(?1) + 1) = ?1 || '(' ORDER BY addr_first";

// Every function and every data object with its run-time range, by name: what the viewer's "Go to
// address or symbol" completes. Scans (the tables hold the executed functions and the program's
// data objects only); a history without one of the tables leaves that statement unprepared.
inline constexpr const char *allFunctionNames
    = "SELECT name, addr_first, addr_last FROM functions ORDER BY name, addr_first";
inline constexpr const char *allDataObjectNames
    = "SELECT name, addr_first, addr_last FROM data_objects ORDER BY name, addr_first";

// The instruction at PC ?1 (a rowid probe).
inline constexpr const char *instructionAt = "SELECT bytes, text FROM instructions WHERE pc = ?1";

// The instructions known below PC ?1, nearest first, at most ?2 (a rowid range). PCs are stored as
// signed: neighbours do not cross 2^63 (user space lies below it).
inline constexpr const char *instructionsBefore
    = "SELECT pc, bytes, text FROM instructions WHERE pc < ?1 ORDER BY pc DESC LIMIT ?2";
// The instructions known above PC ?1, nearest first, at most ?2 (a rowid range).
inline constexpr const char *instructionsAfter
    = "SELECT pc, bytes, text FROM instructions WHERE pc > ?1 ORDER BY pc LIMIT ?2";

inline constexpr memhist::statements::NamedStatement contextStatements[] = {
    MEMHIST_STATEMENT(tableNames),
    MEMHIST_STATEMENT(codeTraceRowAtOrBefore),
    MEMHIST_STATEMENT(codeTraceRowsForward),
    MEMHIST_STATEMENT(codeTraceRowsBackward),
    MEMHIST_STATEMENT(codeTraceRowAtOrAfter),
    MEMHIST_STATEMENT(codeRunById),
    MEMHIST_STATEMENT(allCodeRuns),
    MEMHIST_STATEMENT(allModules),
    MEMHIST_STATEMENT(functionCandidates),
    MEMHIST_STATEMENT(sourceLineCandidates),
    MEMHIST_STATEMENT(dataObjectCandidates),
    MEMHIST_STATEMENT(sectionCandidates),
    MEMHIST_STATEMENT(mappingAt),
    MEMHIST_STATEMENT(functionsNamed),
    MEMHIST_STATEMENT(allFunctionNames),
    MEMHIST_STATEMENT(allDataObjectNames),
    MEMHIST_STATEMENT(instructionAt),
    MEMHIST_STATEMENT(instructionsBefore),
    MEMHIST_STATEMENT(instructionsAfter),
};

} // namespace memhist::contextstatements
