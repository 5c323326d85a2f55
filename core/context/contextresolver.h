// The end of an import or recording: what the collected PCs and modules are, resolved once with
// the symbolizer and the disassembler into the rows of the symbol tables, so that the history
// opens with its context on a machine without the binaries.
#pragma once

#include "core/context/contextrows.h"

#include <QHash>
#include <vector>

namespace memhist {

class CodePreparer;
class Disassembler;
class Symbolizer;

// The modules of a history as loads of `symbolizer`: index i of `loads` is module row i.
struct SymbolizedModules
{
    std::vector<int> loads; // symbolizer index of each module row
    QHash<int, qint64> moduleIdOfLoad; // symbolizer index -> modules.id
};

// The sections and data objects of every module whose file was usable.
void resolveModules(const Symbolizer &symbolizer, const std::vector<ModuleRow> &modules, const SymbolizedModules &loads,
    ResolvedContext *out);

// For each distinct PC of `runs` (each taken in the module loaded when its run first executed):
// the function and source line holding it (one row per function and per line-table row), and
// its instruction, decoded from the trace's bytes for it when given (`traceBytes`), else from the
// module's file. What `prepared` holds for a PC in the same module is taken instead of resolving
// it again. Rows are appended to `out` in PC order.
void resolveCode(Symbolizer &symbolizer, const Disassembler &disassembler, const std::vector<CodeRun> &runs,
    const std::vector<Transition> &firstExecutions, const QHash<std::uint64_t, QByteArray> &traceBytes,
    const SymbolizedModules &loads, const CodePreparer &prepared, ResolvedContext *out, qint64 *distinctPcs);

} // namespace memhist
