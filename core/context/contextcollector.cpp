// SPDX-License-Identifier: MIT
#include "core/context/contextcollector.h"

#include "core/context/contextresolver.h"
#include "core/context/contextschema.h"
#include "core/context/contexttablewriter.h"
#include "core/context/symbolizer.h"

#include <QSet>

namespace memhist {

namespace {

constexpr std::uint64_t pageMask = ~std::uint64_t(0xfff);

} // namespace

ContextCollector::ContextCollector(ContextCollectorOptions options)
    : m_options(std::move(options))
    , m_preparer(m_options.instructionSet)
{
    if (m_options.debugRoots.isEmpty())
        m_options.debugRoots = Symbolizer::defaultDebugRoots();
    m_symbolizer = std::make_unique<Symbolizer>(m_options.debugRoots);
    // One thread: the Symbolizer is not thread-safe, and files are read in the order named.
    m_fileReader.setMaxThreadCount(1);
}

ContextCollector::~ContextCollector()
{
    m_fileReader.waitForDone();
}

void ContextCollector::addMapping(Transition from, const Mapping &mapping)
{
    m_map.addMapping(from, mapping);
    // Only a file with an executable mapping can become a module (memorymaphistory.h).
    if (mapping.isFile() && mapping.permissions.contains(u'x'))
        readModuleFile(mapping.path);
}

void ContextCollector::addModule(const LoadedModule &module)
{
    m_map.addModule(module);
    readModuleFile(module.path);
    if (!m_symbolizer)
        return;
    m_modulesNamed = true;
    Symbolizer *symbolizer = m_symbolizer.get();
    m_fileReader.start([this, symbolizer, module] { m_preparer.addModule(*symbolizer, module); });
}

void ContextCollector::prepareNewRuns()
{
    const std::vector<CodeRun> &runs = m_codeTrace.runs();
    // A trace of another instruction set (setInstructionSet) is left to the end, whose
    // disassembler decodes it.
    if (!m_symbolizer || !m_modulesNamed || m_preparer.instructionSet() != m_options.instructionSet) {
        m_runsPrepared = runs.size();
        return;
    }
    std::vector<NewCodeRun> newRuns;
    newRuns.reserve(runs.size() - m_runsPrepared);
    for (std::size_t i = m_runsPrepared; i < runs.size(); ++i)
        newRuns.push_back(NewCodeRun { runs[i], m_codeTrace.firstExecutions()[i] });
    m_runsPrepared = runs.size();
    Symbolizer *symbolizer = m_symbolizer.get();
    m_fileReader.start([this, symbolizer, newRuns = std::move(newRuns)] {
        m_preparer.prepare(*symbolizer, newRuns);
        EarlyCodeRows rows = m_preparer.takeRows();
        if (rows.isEmpty())
            return;
        const QMutexLocker locker(&m_earlyMutex);
        m_earlyRows.append(std::move(rows));
        m_earlyRowsWaiting.store(m_earlyRows.size(), std::memory_order_relaxed);
    });
}

void ContextCollector::readModuleFile(const QString &path)
{
    if (!m_symbolizer || path.isEmpty() || m_filesRead.contains(path))
        return;
    m_filesRead.insert(path);
    Symbolizer *symbolizer = m_symbolizer.get();
    m_fileReader.start([symbolizer, path] { symbolizer->readFile(path); });
}

void ContextCollector::addInstructionBytes(Address pc, QByteArrayView bytes)
{
    if (!bytes.isEmpty() && !m_instructionBytes.contains(pc.value))
        m_instructionBytes.insert(pc.value, bytes.toByteArray());
}

void ContextCollector::addValue(RowId access, const AccessValueView &value)
{
    if (access.value <= m_lastValueAccess || value.bytes.isEmpty())
        return;
    m_lastValueAccess = access.value;
    if (std::optional<ValueBlock> block = m_valueEncoder.add(access.value, value)) {
        m_pendingValueBytes += block->layout.size() + block->bytes.size();
        m_pending.values.push_back(std::move(*block));
    }
    m_pendingValueBytes += value.bytes.size() + value.before.size();
    ++m_values;
}

ContextBatch ContextCollector::takeBatch()
{
    ContextBatch batch;
    batch.codeTrace = m_codeTrace.takeRows();
    if (std::optional<ValueBlock> block = m_valueEncoder.take())
        m_pending.values.push_back(std::move(*block));
    batch.values = std::move(m_pending.values);
    m_pending.values = {};
    m_pendingValueBytes = 0;
    if (m_earlyRowsWaiting.load(std::memory_order_relaxed) > 0)
        batch.code = takeEarlyRows();
    return batch;
}

EarlyCodeRows ContextCollector::takeEarlyRows()
{
    const QMutexLocker locker(&m_earlyMutex);
    m_earlyRowsWaiting.store(0, std::memory_order_relaxed);
    return std::exchange(m_earlyRows, {});
}

bool ContextCollector::writeLastRows(ContextTableWriter &tables)
{
    return tables.writeBatch(takeBatch());
}

void ContextCollector::resolve(Transition historyLast)
{
    m_fileReader.waitForDone();
    // Read ahead or not, the files are the Symbolizer's from here on; it goes when resolve() ends.
    const std::unique_ptr<Symbolizer> owned
        = m_symbolizer ? std::move(m_symbolizer) : std::make_unique<Symbolizer>(m_options.debugRoots);
    Symbolizer &symbolizer = *owned;
    // A file the trace did not name is placed by its mapping at file offset 0, which holds the
    // page of its lowest loadable segment. A probe load that no lookup can pick (its lifetime is
    // empty) tells where that segment is.
    const auto biasOf = [&](const Mapping &offsetZero) -> std::optional<std::uint64_t> {
        LoadedModule probe;
        probe.path = offsetZero.path;
        probe.first = Transition { ~std::uint64_t(0) };
        probe.last = Transition { 0 };
        const auto extent = symbolizer.extent(symbolizer.addModule(probe));
        if (!extent)
            return std::nullopt;
        return offsetZero.first.value - (extent->first.value & pageMask);
    };
    MemoryMapHistory::Result map = m_map.finish(historyLast, biasOf);

    ResolvedContext resolved;
    resolved.codeRuns = m_codeTrace.runs();
    SymbolizedModules loads;
    QSet<QString> notedPaths;
    QStringList notes;
    for (const QString &problem : std::as_const(map.problems))
        notes << QStringLiteral("no symbols for ") + problem;
    for (ModuleRow &row : map.modules) {
        const int load = symbolizer.addModule(row.module);
        loads.loads.push_back(load);
        loads.moduleIdOfLoad.insert(load, row.id);
        const ModuleStatus &status = symbolizer.status(load);
        if (row.module.buildId.isEmpty())
            row.module.buildId = status.fileBuildId;
        if (status.state != ModuleState::Ready && !notedPaths.contains(row.module.path)) {
            notedPaths.insert(row.module.path);
            notes << QStringLiteral("no symbols for ") + status.message;
        }
    }
    resolved.modules = std::move(map.modules);
    resolved.memoryMap = std::move(map.rows);
    resolveModules(symbolizer, resolved.modules, loads, &resolved);
    const Disassembler disassembler(m_options.instructionSet);
    if (!disassembler.isValid() && !m_codeTrace.isEmpty())
        notes << disassembler.errorString();
    qint64 distinctPcs = 0;
    resolveCode(symbolizer, disassembler, resolved.codeRuns, m_codeTrace.firstExecutions(), m_instructionBytes, loads,
        m_preparer, &resolved, &distinctPcs);

    ContextSummary result;
    namespace part = contextschema::part;
    const auto addPart = [&](bool present, const char *name) {
        if (present)
            result.parts << QLatin1String(name);
    };
    addPart(!m_codeTrace.isEmpty(), part::pcs);
    addPart(!resolved.memoryMap.empty(), part::map);
    addPart(!resolved.modules.empty(), part::modules);
    addPart(!resolved.functions.empty() || !resolved.dataObjects.empty(), part::symbols);
    addPart(!resolved.sourceLines.empty(), part::lines);
    addPart(!resolved.instructions.empty(), part::disassembly);
    addPart(m_values > 0, part::values);
    result.notes = notes;
    result.instructions = m_codeTrace.instructions();
    result.runs = qint64(resolved.codeRuns.size());
    result.distinctPcs = distinctPcs;
    result.mappings = qint64(resolved.memoryMap.size());
    result.modules = qint64(resolved.modules.size());
    result.functions = qint64(resolved.functions.size());
    result.sourceLines = qint64(resolved.sourceLines.size());
    result.disassembled = qint64(resolved.instructions.size());
    result.values = m_values;
    m_summary = result;
    // Here, beside the index build, rather than in writeResolved(): some 17,000 rows compared for
    // a one-second recording. After the summary, which counts every row the history holds.
    m_earlyDeletions = m_preparer.keepOnlyNewRows(&resolved);
    m_resolved = std::move(resolved);
}

bool ContextCollector::writeResolved(ContextTableWriter &tables)
{
    // The early rows made after the last batch was taken go in now, so that every row the
    // preparer made is stored before the ones resolved otherwise are deleted.
    ContextBatch leftover;
    leftover.code = takeEarlyRows();
    const bool written = tables.writeBatch(leftover) && tables.deleteEarlyCode(m_earlyDeletions)
        && tables.writeResolved(m_resolved) && tables.createIndexes();
    m_resolved = {};
    return written;
}

} // namespace memhist
