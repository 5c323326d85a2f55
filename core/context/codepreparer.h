// Resolves the code a trace executes while the trace still runs, so that the end of a recording
// finds most of its PCs done: for each new PC, its function, source line, file bytes and
// disassembly, in the module the trace named for it at the time. It runs on the collector's
// file-reading thread, which is idle once the libraries are read, while valgrind runs the program.
//
// The answer for a PC depends only on the module's file, bias and build-id, and the PC, so it is
// kept under that module. The resolution at the end (contextresolver.h) takes it only for a PC it
// places in the same module, and resolves any other PC itself: a history is the same, row for
// row, with or without what was prepared.
#pragma once

#include "core/context/codetrace.h"
#include "core/context/contexttypes.h"
#include "core/context/disassembler.h"

#include <QHash>
#include <QSet>
#include <vector>

namespace memhist {

class Symbolizer;

struct PreparedInstruction
{
    CodeLocation location; // location.module is the preparer's own load: the caller sets its own
    QByteArray fileBytes; // up to 15 bytes of the module's file at the PC; empty when none
    DecodedInstruction decoded; // of fileBytes, when it is not empty
};

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

    // Once the last call above has returned:
    // The preparer's own index for `module` (same path, bias and build-id); -1 when none.
    int moduleIndex(const LoadedModule &module) const;
    // What was prepared for `pc` in module `moduleIndex`; null when nothing.
    const PreparedInstruction *find(int moduleIndex, Address pc) const;
    InstructionSet instructionSet() const { return m_disassembler.instructionSet(); }
    qsizetype preparedCount() const { return m_prepared.size(); }

private:
    struct Module
    {
        LoadedModule module;
        int load = -1; // in the Symbolizer
        AddressRange extent;
    };

    Disassembler m_disassembler;
    std::vector<Module> m_modules; // those with a readable file, in the order named
    QSet<std::uint64_t> m_seen; // the PCs prepared
    QHash<QPair<int, std::uint64_t>, PreparedInstruction> m_prepared; // (module index, PC)
};

} // namespace memhist
