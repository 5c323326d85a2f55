// SPDX-License-Identifier: MIT
// The optional context tables of a history (DESIGN.md §1, the context design of issue 9): the PC of
// every transition, the memory map and modules over time, symbols, source lines, disassembly and
// access values. Every table is optional to a reader; a writer creates only those it fills. The
// statements that create and fill them are here (the inserts as heads for sqlite::BatchInsert);
// those that read them in contextstatements.h.
#pragma once

namespace memhist::contextschema {

// The distinct straight-line runs of instructions (codetrace.h): the i-th PC of a run is pc plus
// the first i bytes of `sizes` (one byte per instruction, its length).
inline constexpr const char *createCodeRunsTable
    = "CREATE TABLE code_runs(id INTEGER PRIMARY KEY, pc int8 not null, sizes blob not null)";
inline constexpr const char *insertCodeRun = "INSERT INTO code_runs(id, pc, sizes) VALUES";

// The executed sequence of runs: each row covers the transitions from transition_first on with at
// most 1,024 varint pairs (run id, instruction count); run 0 = unknown PCs. Rows are contiguous.
inline constexpr const char *createCodeTraceTable
    = "CREATE TABLE code_trace(transition_first INTEGER PRIMARY KEY, runs blob not null)";
inline constexpr const char *insertCodeTrace = "INSERT INTO code_trace(transition_first, runs) VALUES";

// The process memory map over time, one row per mapping and lifetime (inclusive transitions and
// addresses); path is the file or "[stack]", "[heap]", "[anon]", "[vdso]", ...; module_id the
// module the mapping belongs to (NULL for none).
inline constexpr const char *createMemoryMapTable
    = "CREATE TABLE memory_map(transition_first int8 not null, transition_last int8 not null, "
      "addr_first int8 not null, addr_last int8 not null, permissions text not null, file_offset int8 not null, "
      "path text not null, module_id int)";
inline constexpr const char *createMemoryMapIndex = "CREATE INDEX idx_memory_map_1 ON memory_map(addr_last)";
inline constexpr const char *insertMemoryMap
    = "INSERT INTO memory_map(transition_first, transition_last, addr_first, addr_last, permissions, file_offset, "
      "path, module_id) VALUES";

// Loaded objects: path, load bias (run-time address - ELF address), GNU build-id in lowercase hex
// ('' when none is known), lifetime.
inline constexpr const char *createModulesTable
    = "CREATE TABLE modules(id INTEGER PRIMARY KEY, path text not null, bias int8 not null, build_id text not null, "
      "transition_first int8 not null, transition_last int8 not null)";
inline constexpr const char *insertModule
    = "INSERT INTO modules(id, path, bias, build_id, transition_first, transition_last) VALUES";

// A module's allocated sections at run-time addresses, for region names ("libc.so.6 .bss").
inline constexpr const char *createModuleSectionsTable
    = "CREATE TABLE module_sections(module_id int not null, name text not null, addr_first int8 not null, "
      "addr_last int8 not null)";
inline constexpr const char *createModuleSectionsIndex
    = "CREATE INDEX idx_module_sections_1 ON module_sections(addr_last)";
inline constexpr const char *insertModuleSection
    = "INSERT INTO module_sections(module_id, name, addr_first, addr_last) VALUES";

// Functions holding at least one executed PC, at run-time addresses, demangled.
inline constexpr const char *createFunctionsTable
    = "CREATE TABLE functions(id INTEGER PRIMARY KEY, module_id int not null, name text not null, "
      "addr_first int8 not null, addr_last int8 not null)";
inline constexpr const char *createFunctionsIndex = "CREATE INDEX idx_functions_1 ON functions(addr_last)";
inline constexpr const char *insertFunction
    = "INSERT INTO functions(id, module_id, name, addr_first, addr_last) VALUES";

// Global and static data objects of the loaded modules at run-time addresses.
inline constexpr const char *createDataObjectsTable
    = "CREATE TABLE data_objects(module_id int not null, name text not null, addr_first int8 not null, "
      "addr_last int8 not null)";
inline constexpr const char *createDataObjectsIndex = "CREATE INDEX idx_data_objects_1 ON data_objects(addr_last)";
inline constexpr const char *insertDataObject
    = "INSERT INTO data_objects(module_id, name, addr_first, addr_last) VALUES";

// Source lines of executed PCs: one row per line-table row (a range of run-time addresses).
inline constexpr const char *createSourceFilesTable
    = "CREATE TABLE source_files(id INTEGER PRIMARY KEY, path text not null)";
inline constexpr const char *insertSourceFile = "INSERT INTO source_files(id, path) VALUES";
inline constexpr const char *createSourceLinesTable
    = "CREATE TABLE source_lines(addr_first int8 not null, addr_last int8 not null, file_id int not null, "
      "line int not null)";
inline constexpr const char *createSourceLinesIndex = "CREATE INDEX idx_source_lines_1 ON source_lines(addr_last)";
inline constexpr const char *insertSourceLine = "INSERT INTO source_lines(addr_first, addr_last, file_id, line) VALUES";

// Each distinct executed instruction whose bytes are known: raw bytes and capstone's Intel text.
inline constexpr const char *createInstructionsTable
    = "CREATE TABLE instructions(pc INTEGER PRIMARY KEY, bytes blob not null, text text not null)";
inline constexpr const char *insertInstruction = "INSERT INTO instructions(pc, bytes, text) VALUES";

// Rows stored while the trace was read that its end resolved otherwise (EarlyCodeDeletions).
inline constexpr const char *deleteInstruction = "DELETE FROM instructions WHERE pc = ?1";
inline constexpr const char *deleteSourceFile = "DELETE FROM source_files WHERE id = ?1";
inline constexpr const char *deleteSourceLines = "DELETE FROM source_lines";

// The bytes accesses read or wrote, where the trace has them: core/values/valuestatements.h.

// meta.context: what the history holds, comma-separated, from the parts below (in this order).
namespace meta {
inline constexpr const char *context = "context";
} // namespace meta
namespace part {
inline constexpr const char *pcs = "pcs"; // code_runs + code_trace
inline constexpr const char *map = "map"; // memory_map
inline constexpr const char *modules = "modules"; // modules (+ module_sections)
inline constexpr const char *symbols = "symbols"; // functions or data_objects
inline constexpr const char *lines = "lines"; // source_files + source_lines
inline constexpr const char *disassembly = "disassembly"; // instructions
inline constexpr const char *values = "values"; // access_value_blocks (access_values before)
} // namespace part

} // namespace memhist::contextschema
