// SPDX-License-Identifier: MIT
// Resolves the code a trace executes while the trace still runs, so that the end of a recording
// finds most of its PCs done: for each new PC, its function, source line, file bytes and
// disassembly, in the module the trace named for it at the time, and the instructions,
// source_files and source_lines rows they make, for the writer to store while the trace goes on.
// It runs on the collector's file-reading thread, which is idle once the libraries are read,
// while valgrind runs the program.
//
// The answer for a PC depends only on the module's file, bias and build-id, and the PC, so it is
// kept under that module. The resolution at the end (contextresolver.h) takes it only for a PC it
// places in the same module, and resolves any other PC itself; the collector then replaces the
// early rows that differ from the end's: a history is the same, row for row, with or without
// what was prepared.
#pragma once

#include "core/context/codetrace.h"
#include "core/context/contextresolver.h"
#include "core/context/contexttypes.h"
#include "core/context/disassembler.h"

#include <QHash>
#include <QSet>
#include <optional>
#include <utility>
#include <vector>

namespace memhist {

class Symbolizer;

// A run of instructions as the collector saw it when it was new, with its first execution.
struct NewCodeRun
{
    CodeRun run;
    Transition firstExecution;
};

class CodePreparer
{
public:
    explicit CodePreparer(InstructionSet set);

    // Both on one thread, in trace order, with the Symbolizer that thread uses.
    // A module the trace named (its load is added to `symbolizer` with an empty lifetime, so that
    // no lookup by transition ever picks it).
    void addModule(Symbolizer &symbolizer, const LoadedModule &module);
    // Each PC of `runs` not prepared before, in the latest named module loaded at its run's first
    // execution whose extent holds it; PCs in no named module are left (a later run may place them).
    void prepare(Symbolizer &symbolizer, const std::vector<NewCodeRun> &runs);
    // The rows of the PCs prepared since the last call: an instruction for each PC whose file
    // has bytes there, each line-table row and each source file once. The caller stores them all.
    EarlyCodeRows takeRows() { return std::exchange(m_rows, {}); }

    // Once the last call above has returned:
    // The preparer's own index for `module` (same path, bias and build-id); -1 when none.
    int moduleIndex(const LoadedModule &module) const;
    // Where `pc` is, when it was prepared in module `moduleIndex`: what Symbolizer::describeCode
    // gives for it in that module, except `module` (-1, for the caller to set).
    std::optional<CodeLocation> location(int moduleIndex, Address pc) const;
    // The instruction row made for `pc`, when its module's file has bytes there; null otherwise.
    const InstructionRow *madeInstruction(Address pc) const;
    InstructionSet instructionSet() const { return m_disassembler.instructionSet(); }
    qsizetype preparedCount() const { return m_prepared.size(); }
    // The ids of the source files of the rows made, which the end keeps.
    const QHash<QString, qint64> &fileIds() const { return m_lines.fileIds(); }
    // Leaves in `resolved` only the code rows that were not made here the same, and returns the
    // rows made here that `resolved` does not have: instructions by pc, files by id, and all
    // lines when any line differs (then `resolved` keeps all of its lines).
    EarlyCodeDeletions keepOnlyNewRows(ResolvedContext *resolved) const;

private:
    void prepareOne(Symbolizer &symbolizer, int moduleIndex, Address pc, std::uint8_t tracedSize);

    struct Module
    {
        LoadedModule module;
        int load = -1; // in the Symbolizer
        AddressRange extent;
    };

    // A prepared PC, in a few bytes (a large program has hundreds of thousands): its module and
    // indexes into the tables of functions and lines below, -1 for none.
    struct PreparedPc
    {
        qint32 module = -1;
        qint32 function = -1;
        qint32 line = -1;
    };
    struct Function
    {
        QString name;
        AddressRange range; // run-time
    };
    struct Line
    {
        QString sourceFile;
        int line = 0;
        AddressRange range; // run-time
    };

    Disassembler m_disassembler;
    std::vector<Module> m_modules; // those with a readable file, in the order named
    QHash<std::uint64_t, PreparedPc> m_prepared; // by PC
    std::vector<Function> m_functions;
    // (module, (first, last)): a range of one module is another one's after an unload.
    using TableKey = QPair<int, QPair<std::uint64_t, std::uint64_t>>;
    QHash<TableKey, qint32> m_functionIndex;
    std::vector<Line> m_lineTable;
    QHash<TableKey, qint32> m_lineIndex;
    SourceLineRows m_lines; // and so every line and file row made
    EarlyCodeRows m_rows; // made since the last takeRows()
    QHash<std::uint64_t, InstructionRow> m_madeInstructions; // every instruction row made, by pc
};

} // namespace memhist
