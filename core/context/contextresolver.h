// SPDX-License-Identifier: MIT
// The end of an import or recording: what the collected PCs and modules are, resolved once with
// the symbolizer and the disassembler into the rows of the symbol tables, so that the history
// opens with its context on a machine without the binaries.
#pragma once

#include "core/context/contextrows.h"
#include "core/context/disassembler.h"

#include <QHash>
#include <QSet>
#include <vector>

namespace memhist {

class CodePreparer;
class Symbolizer;

// The source_files and source_lines rows of code locations, one per line-table row and one per
// file, file ids from 1 in the order files are first used, or as given (with the preparer's).
class SourceLineRows
{
public:
    SourceLineRows() = default;
    explicit SourceLineRows(QHash<QString, qint64> fileIds)
        : m_fileIds(std::move(fileIds))
    { }

    // Appends the line row of `location` the first time its line-table row is given, and its
    // file's row the first time that file is used here.
    void add(const CodeLocation &location, std::vector<SourceFileRow> *files, std::vector<SourceLineRow> *lines);
    const QHash<QString, qint64> &fileIds() const { return m_fileIds; }
    // Every line row appended, by range (first, last): its file id and line.
    using LineKey = QPair<std::uint64_t, std::uint64_t>;
    const QHash<LineKey, QPair<qint64, int>> &linesGiven() const { return m_linesGiven; }
    // The id of every file row appended.
    const QSet<qint64> &filesGiven() const { return m_filesGiven; }

private:
    QHash<LineKey, QPair<qint64, int>> m_linesGiven;
    QHash<QString, qint64> m_fileIds;
    QSet<qint64> m_filesGiven;
};

// The bytes of an instruction as stored: those of the decoded instruction, or, when the bytes
// decode to none, as many as the trace said the instruction took.
QByteArray storedInstructionBytes(QByteArray bytes, const DecodedInstruction &decoded, std::uint8_t tracedSize);

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
// it again, and its file ids are kept. Rows are appended to `out` in PC order; out->sourceFiles
// gets every file the lines use.
void resolveCode(Symbolizer &symbolizer, const Disassembler &disassembler, const std::vector<CodeRun> &runs,
    const std::vector<Transition> &firstExecutions, const QHash<std::uint64_t, QByteArray> &traceBytes,
    const SymbolizedModules &loads, const CodePreparer &prepared, ResolvedContext *out, qint64 *distinctPcs);

} // namespace memhist
