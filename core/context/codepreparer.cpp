// SPDX-License-Identifier: MIT
#include "core/context/codepreparer.h"

#include "core/context/symbolizer.h"

namespace memhist {

CodePreparer::CodePreparer(InstructionSet set)
    : m_disassembler(set)
{ }

void CodePreparer::addModule(Symbolizer &symbolizer, const LoadedModule &module)
{
    LoadedModule probe = module;
    probe.first = Transition { ~std::uint64_t(0) };
    probe.last = Transition { 0 };
    const int load = symbolizer.addModule(probe);
    if (const auto extent = symbolizer.extent(load))
        m_modules.push_back(Module { module, load, *extent });
}

void CodePreparer::prepare(Symbolizer &symbolizer, const std::vector<NewCodeRun> &runs)
{
    for (const NewCodeRun &entry : runs) {
        const Transition at = entry.firstExecution;
        for (qsizetype i = 0; i < entry.run.sizes.size(); ++i) {
            const Address pc = pcInRun(entry.run, i);
            const auto tracedSize = std::uint8_t(entry.run.sizes[i]);
            if (m_prepared.contains(pc.value))
                continue;
            // The latest load alive at `at` that holds the PC, as Symbolizer::moduleAt picks.
            for (int index = int(m_modules.size()) - 1; index >= 0; --index) {
                const Module &module = m_modules[std::size_t(index)];
                if (!module.extent.contains(pc) || at < module.module.first || module.module.last < at)
                    continue;
                prepareOne(symbolizer, index, pc, tracedSize);
                break;
            }
        }
    }
}

void CodePreparer::prepareOne(Symbolizer &symbolizer, int moduleIndex, Address pc, std::uint8_t tracedSize)
{
    const int load = m_modules[std::size_t(moduleIndex)].load;
    const CodeLocation location = symbolizer.describeCode(load, pc);
    PreparedPc prepared;
    prepared.module = moduleIndex;
    if (location.hasFunction() || location.functionRange != AddressRange {}) {
        const TableKey key { moduleIndex, { location.functionRange.first.value, location.functionRange.last.value } };
        auto function = m_functionIndex.constFind(key);
        if (function == m_functionIndex.cend()) {
            function = m_functionIndex.insert(key, qint32(m_functions.size()));
            m_functions.push_back(Function { location.function, location.functionRange });
        }
        prepared.function = *function;
    }
    if (!location.sourceFile.isEmpty() || location.line != 0 || location.lineRange != AddressRange {}) {
        const TableKey key { moduleIndex, { location.lineRange.first.value, location.lineRange.last.value } };
        auto line = m_lineIndex.constFind(key);
        if (line == m_lineIndex.cend()) {
            line = m_lineIndex.insert(key, qint32(m_lineTable.size()));
            m_lineTable.push_back(Line { location.sourceFile, location.line, location.lineRange });
        }
        prepared.line = *line;
    }
    m_prepared.insert(pc.value, prepared);

    m_lines.add(location, &m_rows.sourceFiles, &m_rows.sourceLines);
    const QByteArray bytes = symbolizer.codeBytes(load, pc);
    if (!bytes.isEmpty() && m_disassembler.isValid()) {
        const DecodedInstruction decoded = m_disassembler.decode(bytes, pc);
        InstructionRow row { pc, storedInstructionBytes(bytes, decoded, tracedSize), decoded.text };
        m_madeInstructions.insert(pc.value, row);
        m_rows.instructions.push_back(std::move(row));
    }
}

int CodePreparer::moduleIndex(const LoadedModule &module) const
{
    for (std::size_t index = 0; index < m_modules.size(); ++index) {
        const LoadedModule &named = m_modules[index].module;
        if (named.path == module.path && named.bias == module.bias && named.buildId == module.buildId)
            return int(index);
    }
    return -1;
}

EarlyCodeDeletions CodePreparer::keepOnlyNewRows(ResolvedContext *resolved) const
{
    EarlyCodeDeletions deletions;
    // Instructions by pc: the same row is kept, another replaces it, none deletes it.
    QSet<std::uint64_t> resolvedPcs;
    std::vector<InstructionRow> instructions;
    for (InstructionRow &row : resolved->instructions) {
        resolvedPcs.insert(row.pc.value);
        const auto early = m_madeInstructions.constFind(row.pc.value);
        if (early != m_madeInstructions.cend() && *early == row)
            continue;
        if (early != m_madeInstructions.cend())
            deletions.instructions.push_back(row.pc);
        instructions.push_back(std::move(row));
    }
    for (auto early = m_madeInstructions.cbegin(); early != m_madeInstructions.cend(); ++early) {
        if (!resolvedPcs.contains(early.key()))
            deletions.instructions.push_back(Address { early.key() });
    }
    resolved->instructions = std::move(instructions);

    // Lines: kept when every early one is resolved the same, else all stored again.
    const auto &madeLines = m_lines.linesGiven();
    qsizetype earlyLinesResolved = 0;
    std::vector<SourceLineRow> lines;
    for (const SourceLineRow &row : resolved->sourceLines) {
        const auto early = madeLines.constFind({ row.range.first.value, row.range.last.value });
        if (early == madeLines.cend())
            lines.push_back(row);
        else if (*early == QPair<qint64, int> { row.fileId, row.line })
            ++earlyLinesResolved;
        else
            deletions.allSourceLines = true;
    }
    if (earlyLinesResolved != madeLines.size())
        deletions.allSourceLines = true;
    if (!deletions.allSourceLines)
        resolved->sourceLines = std::move(lines);

    // Files by id (the resolution keeps the preparer's ids): those the resolved lines use.
    const QSet<qint64> &madeFiles = m_lines.filesGiven();
    QSet<qint64> resolvedFiles;
    std::vector<SourceFileRow> files;
    for (SourceFileRow &row : resolved->sourceFiles) {
        resolvedFiles.insert(row.id);
        if (!madeFiles.contains(row.id))
            files.push_back(std::move(row));
    }
    for (const qint64 id : madeFiles) {
        if (!resolvedFiles.contains(id))
            deletions.sourceFiles.push_back(id);
    }
    resolved->sourceFiles = std::move(files);
    return deletions;
}

std::optional<CodeLocation> CodePreparer::location(int moduleIndex, Address pc) const
{
    const auto prepared = m_prepared.constFind(pc.value);
    if (prepared == m_prepared.cend() || prepared->module != moduleIndex)
        return std::nullopt;
    CodeLocation location;
    location.moduleOffset = Address { pc.value - m_modules[std::size_t(moduleIndex)].module.bias };
    if (prepared->function >= 0) {
        const Function &function = m_functions[std::size_t(prepared->function)];
        location.function = function.name;
        location.functionRange = function.range;
        location.functionOffset = pc.value - function.range.first.value;
    }
    if (prepared->line >= 0) {
        const Line &line = m_lineTable[std::size_t(prepared->line)];
        location.sourceFile = line.sourceFile;
        location.line = line.line;
        location.lineRange = line.range;
    }
    return location;
}

const InstructionRow *CodePreparer::madeInstruction(Address pc) const
{
    const auto made = m_madeInstructions.constFind(pc.value);
    return made == m_madeInstructions.cend() ? nullptr : &*made;
}

} // namespace memhist
