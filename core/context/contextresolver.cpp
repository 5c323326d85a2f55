// SPDX-License-Identifier: MIT
#include "core/context/contextresolver.h"

#include "core/context/codepreparer.h"
#include "core/context/disassembler.h"
#include "core/context/symbolizer.h"

#include <QSet>
#include <algorithm>

namespace memhist {

QByteArray storedInstructionBytes(QByteArray bytes, const DecodedInstruction &decoded, std::uint8_t tracedSize)
{
    if (decoded.isValid())
        bytes.truncate(decoded.size);
    else if (tracedSize > 0)
        bytes.truncate(tracedSize);
    return bytes;
}

void SourceLineRows::add(
    const CodeLocation &location, std::vector<SourceFileRow> *files, std::vector<SourceLineRow> *lines)
{
    if (!location.hasSource())
        return;
    const LineKey key { location.lineRange.first.value, location.lineRange.last.value };
    if (m_linesGiven.contains(key))
        return;
    qint64 &fileId = m_fileIds[location.sourceFile];
    if (fileId == 0)
        fileId = qint64(m_fileIds.size());
    if (!m_filesGiven.contains(fileId)) {
        m_filesGiven.insert(fileId);
        files->push_back(SourceFileRow { fileId, location.sourceFile });
    }
    m_linesGiven.insert(key, { fileId, location.line });
    lines->push_back(SourceLineRow { location.lineRange, fileId, location.line });
}

void resolveModules(const Symbolizer &symbolizer, const std::vector<ModuleRow> &modules, const SymbolizedModules &loads,
    ResolvedContext *out)
{
    for (std::size_t i = 0; i < modules.size(); ++i) {
        const int load = loads.loads[i];
        for (const SectionRange &section : symbolizer.sections(load))
            out->sections.push_back(ModuleSectionRow { modules[i].id, section });
        for (const DataObject &object : symbolizer.dataObjects(load))
            out->dataObjects.push_back(DataObjectRow { modules[i].id, object });
    }
}

void resolveCode(Symbolizer &symbolizer, const Disassembler &disassembler, const std::vector<CodeRun> &runs,
    const std::vector<Transition> &firstExecutions, const QHash<std::uint64_t, QByteArray> &traceBytes,
    const SymbolizedModules &loads, const CodePreparer &prepared, ResolvedContext *out, qint64 *distinctPcs)
{
    // Each distinct PC once, with the run that first reached it (for the module of that time) and
    // the size the trace gave it.
    struct Pc
    {
        std::uint64_t pc;
        std::size_t run;
        std::uint8_t size;
    };
    std::vector<Pc> pcs;
    {
        QSet<std::uint64_t> seen;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            std::uint64_t pc = runs[r].pc.value;
            for (const char size : runs[r].sizes) {
                if (!seen.contains(pc)) {
                    seen.insert(pc);
                    pcs.push_back(Pc { pc, r, std::uint8_t(size) });
                }
                pc += std::uint8_t(size);
            }
        }
    }
    // In stored order (the signed bit pattern): rowid tables fill page after page.
    std::sort(pcs.begin(), pcs.end(), [](const Pc &a, const Pc &b) { return toStored(a.pc) < toStored(b.pc); });
    *distinctPcs = qint64(pcs.size());

    QHash<QPair<qint64, std::uint64_t>, bool> functions; // (module, first address)
    SourceLineRows sourceLines(prepared.fileIds());
    QHash<int, int> preparedModuleOfLoad;
    const bool preparedDecodes = prepared.instructionSet() == disassembler.instructionSet();
    for (const Pc &entry : pcs) {
        const Address pc { entry.pc };
        QByteArray bytes = traceBytes.value(entry.pc);
        if (const auto load = symbolizer.moduleAt(pc, firstExecutions[entry.run])) {
            const qint64 moduleId = loads.moduleIdOfLoad.value(*load);
            auto preparedModule = preparedModuleOfLoad.constFind(*load);
            if (preparedModule == preparedModuleOfLoad.cend())
                preparedModule = preparedModuleOfLoad.insert(*load, prepared.moduleIndex(symbolizer.module(*load)));
            const std::optional<CodeLocation> early = prepared.location(*preparedModule, pc);
            const CodeLocation location = early ? *early : symbolizer.describeCode(*load, pc);
            if (location.hasFunction()) {
                const QPair<qint64, std::uint64_t> key { moduleId, location.functionRange.first.value };
                if (!functions.contains(key)) {
                    functions.insert(key, true);
                    out->functions.push_back(FunctionRow {
                        qint64(out->functions.size()) + 1, moduleId, location.function, location.functionRange });
                }
            }
            sourceLines.add(location, &out->sourceFiles, &out->sourceLines);
            if (bytes.isEmpty()) {
                // The row made from the same file's bytes is this one, unless they did not decode
                // (then its bytes were cut at the size another run gave).
                const InstructionRow *made = early && preparedDecodes ? prepared.madeInstruction(pc) : nullptr;
                if (made && made->text != badInstructionText()) {
                    out->instructions.push_back(*made);
                    continue;
                }
                bytes = symbolizer.codeBytes(*load, pc);
            }
        }
        if (bytes.isEmpty() || !disassembler.isValid())
            continue;
        const DecodedInstruction decoded = disassembler.decode(bytes, pc);
        out->instructions.push_back(
            InstructionRow { pc, storedInstructionBytes(bytes, decoded, entry.size), decoded.text });
    }
}

} // namespace memhist
