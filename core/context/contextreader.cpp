// SPDX-License-Identifier: MIT
#include "core/context/contextreader.h"

#include "core/context/contextschema.h"
#include "core/context/contextstatements.h"
#include "core/model/visibletext.h"
#include "core/storage/historydatabase.h"

#include <QFileInfo>
#include <QSet>
#include <algorithm>

namespace memhist {

namespace {

// What a history says about code is shown as it comes (the Detail pane, the results table, the
// CLI's columns): bounded and with control characters escaped, since a crafted file may hold a
// 300 MB instruction text (Qt's text layout crashes on it) or terminal escapes in a name.
constexpr qsizetype maxInstructionCharacters = 512;
constexpr qsizetype maxNameCharacters = 4096;

// Caches stay small next to a history: cleared when they reach this many entries.
constexpr qsizetype maxCachedEntries = 1 << 16;

QString fileName(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(u'/');
    return slash < 0 ? path : path.mid(slash + 1);
}

AddressRange rangeOf(const sqlite::Statement &row, int firstColumn)
{
    return AddressRange { Address { fromStored(row.int64(firstColumn)) },
        Address { fromStored(row.int64(firstColumn + 1)) } };
}

} // namespace

QString CodeDescription::functionText() const
{
    return function.isEmpty() ? QString() : symbolWithOffset(function, functionOffset);
}

QString CodeDescription::sourceText() const
{
    return line > 0 ? sourceFile + u':' + QString::number(line) : QString();
}

QString CodeDescription::moduleText() const
{
    return hasModule() ? fileName(modulePath) + QStringLiteral("+0x") + QString::number(moduleOffset.value, 16)
                       : QString();
}

QString AddressDescription::text() const
{
    return object.isEmpty() ? region : symbolWithOffset(object, objectOffset);
}

ContextReader::ContextReader(HistoryDatabase &database)
    : m_connection(database.connection())
    , m_values(database.connection())
{
    QSet<QString> tables;
    sqlite::Statement names = m_connection.prepare(contextstatements::tableNames);
    while (names.isValid() && names.step() == SQLITE_ROW)
        tables.insert(names.text(0));
    const auto has = [&](const char *table) { return tables.contains(QLatin1String(table)); };
    namespace part = contextschema::part;
    const auto addPart = [&](bool present, const char *name) {
        if (present)
            m_parts << QLatin1String(name);
    };
    addPart(has("code_trace") && has("code_runs"), part::pcs);
    addPart(has("memory_map"), part::map);
    addPart(has("modules"), part::modules);
    addPart(has("functions") || has("data_objects"), part::symbols);
    addPart(has("source_lines") && has("source_files"), part::lines);
    addPart(has("instructions"), part::disassembly);
    addPart(has("access_value_blocks") || has("access_values"), part::values);

    // A statement of a missing table does not prepare: its lookups answer "unknown".
    using namespace contextstatements;
    m_rowAtOrBefore = m_connection.prepare(codeTraceRowAtOrBefore);
    m_rowAtOrAfter = m_connection.prepare(codeTraceRowAtOrAfter);
    m_runById = m_connection.prepare(codeRunById);
    m_functionCandidates = m_connection.prepare(functionCandidates);
    m_lineCandidates = m_connection.prepare(sourceLineCandidates);
    m_instructionAt = m_connection.prepare(instructionAt);
    m_instructionsBefore = m_connection.prepare(instructionsBefore);
    m_instructionsAfter = m_connection.prepare(instructionsAfter);
    m_objectCandidates = m_connection.prepare(dataObjectCandidates);
    m_sectionCandidates = m_connection.prepare(sectionCandidates);
    m_mappingAt = m_connection.prepare(mappingAt);

    if (has("modules")) {
        sqlite::Statement rows = m_connection.prepare(allModules);
        while (rows.isValid() && m_modules.size() < maxModules && rows.step() == SQLITE_ROW) {
            ModuleRow row;
            row.id = rows.int64(0);
            row.module.path = rows.text(1);
            row.module.bias = fromStored(rows.int64(2));
            row.module.buildId = rows.text(3);
            row.module.first = Transition { fromStored(rows.int64(4)) };
            row.module.last = Transition { fromStored(rows.int64(5)) };
            m_modules << row;
        }
    }
}

ContextReader::~ContextReader()
{
    if (m_cancelled)
        sqlite3_progress_handler(m_connection.handle(), 0, nullptr, nullptr);
}

void ContextReader::setCancelCheck(std::function<bool()> cancelled)
{
    m_cancelled = std::move(cancelled);
    // Every 4096 virtual-machine steps: microseconds apart, so a stop is felt at once and costs
    // nothing measurable.
    sqlite3_progress_handler(
        m_connection.handle(), m_cancelled ? 4096 : 0, m_cancelled ? &progressHandler : nullptr, this);
}

int ContextReader::progressHandler(void *reader)
{
    return static_cast<ContextReader *>(reader)->cancelled() ? 1 : 0;
}

void ContextReader::DecodedRow::reset(std::uint64_t firstTransition, QByteArrayView blob, std::uint64_t nextFirst)
{
    limit = std::min(nextFirst, signBoundary);
    // Into the vectors of the previous row: no allocation once they have grown to a row's size.
    first = firstTransition;
    end = firstTransition;
    starts.clear();
    pairs.clear();
    runs = blob.toByteArray();
    decoder = CodeTraceDecoder(runs);
}

bool ContextReader::DecodedRow::decodeThrough(std::uint64_t transition)
{
    CodeTracePair pair;
    while (end <= transition && decoder.next(&pair)) {
        // A foreign row that runs past 2^63 - 1 ends there (no access has such a transition, and the
        // sum would wrap): `memhist check` reports it.
        if (pair.count > signBoundary - end)
            break;
        pairs.push_back(pair);
        starts.push_back(end);
        end += pair.count;
    }
    return first <= transition && transition < end && transition < limit;
}

bool ContextReader::loadRowHolding(std::uint64_t transition)
{
    if (m_hasRow && m_row.first <= transition && m_row.decodeThrough(transition))
        return true;
    if (!m_rowAtOrBefore.isValid())
        return false;
    m_rowAtOrBefore.bind(1, toStored(transition));
    const bool found = m_rowAtOrBefore.step() == SQLITE_ROW;
    if (found) {
        const std::uint64_t first = fromStored(m_rowAtOrBefore.int64(0));
        m_row.reset(first, m_rowAtOrBefore.blobView(1), nextRowFirst(first));
    }
    m_rowAtOrBefore.reset();
    m_hasRow = found;
    return found && m_row.decodeThrough(transition);
}

std::uint64_t ContextReader::nextRowFirst(std::uint64_t first)
{
    if (first >= signBoundary - 1 || !m_rowAtOrAfter.isValid())
        return signBoundary;
    m_rowAtOrAfter.bind(1, toStored(first + 1));
    const std::uint64_t next = m_rowAtOrAfter.step() == SQLITE_ROW ? fromStored(m_rowAtOrAfter.int64(0)) : signBoundary;
    m_rowAtOrAfter.reset();
    return next;
}

const CodeRun *ContextReader::run(std::uint64_t id)
{
    const auto known = m_runs.constFind(id);
    if (known != m_runs.constEnd())
        return &*known;
    if (!m_runById.isValid())
        return nullptr;
    m_runById.bind(1, toStored(id));
    std::optional<CodeRun> found;
    if (m_runById.step() == SQLITE_ROW)
        found = CodeRun { Address { fromStored(m_runById.int64(0)) }, m_runById.blob(1) };
    m_runById.reset();
    if (!found)
        return nullptr;
    if (m_runs.size() >= maxCachedEntries)
        m_runs.clear();
    return &*m_runs.insert(id, *found);
}

std::optional<Address> ContextReader::pcAt(Transition transition)
{
    if (transition.value >= signBoundary || !loadRowHolding(transition.value))
        return std::nullopt;
    // The last pair starting at or before the transition holds it.
    const auto after = std::upper_bound(m_row.starts.begin(), m_row.starts.end(), transition.value);
    const std::size_t index = std::size_t(after - m_row.starts.begin()) - 1;
    const CodeTracePair &pair = m_row.pairs[index];
    if (pair.run == unknownCodeRun)
        return std::nullopt;
    const CodeRun *stored = run(pair.run);
    const std::uint64_t offset = transition.value - m_row.starts[index];
    if (!stored || offset >= std::uint64_t(stored->sizes.size()))
        return std::nullopt; // a damaged or foreign file: a pair longer than its run
    return pcInRun(*stored, qsizetype(offset));
}

const ModuleRow *ContextReader::moduleById(qint64 id) const
{
    for (const ModuleRow &row : m_modules) {
        if (row.id == id)
            return &row;
    }
    return nullptr;
}

bool ContextReader::moduleAlive(qint64 moduleId, std::optional<Transition> at) const
{
    if (!at)
        return true;
    const ModuleRow *row = moduleById(moduleId);
    return !row || (row->module.first <= *at && *at <= row->module.last);
}

CodeDescription ContextReader::describeCode(Address pc, std::optional<Transition> at)
{
    const auto known = m_codeDescriptions.constFind(pc.value);
    if (known != m_codeDescriptions.constEnd())
        return *known;

    CodeDescription description;
    description.pc = pc;
    qint64 moduleId = 0;
    if (at && m_mappingAt.isValid()) {
        m_mappingAt.bind(1, toStored(pc.value));
        m_mappingAt.bind(2, toStored(at->value));
        if (m_mappingAt.step() == SQLITE_ROW && !m_mappingAt.isNull(7))
            moduleId = m_mappingAt.int64(7);
        m_mappingAt.reset();
    }
    if (m_functionCandidates.isValid()) {
        m_functionCandidates.bind(1, toStored(pc.value));
        while (m_functionCandidates.step() == SQLITE_ROW) {
            const qint64 functionModule = m_functionCandidates.int64(1);
            const AddressRange range = rangeOf(m_functionCandidates, 3);
            if (!range.contains(pc) || (moduleId != 0 && functionModule != moduleId)
                || !moduleAlive(functionModule, at))
                continue;
            description.function = visibleText(m_functionCandidates.text(2), maxNameCharacters);
            description.functionOffset = pc.value - range.first.value;
            if (moduleId == 0)
                moduleId = functionModule;
            break;
        }
        m_functionCandidates.reset();
    }
    if (const ModuleRow *module = moduleById(moduleId)) {
        description.modulePath = module->module.path;
        description.moduleOffset = Address { pc.value - module->module.bias };
    }
    if (m_lineCandidates.isValid()) {
        m_lineCandidates.bind(1, toStored(pc.value));
        while (m_lineCandidates.step() == SQLITE_ROW) {
            if (!rangeOf(m_lineCandidates, 0).contains(pc))
                continue;
            description.sourceFile = visibleText(m_lineCandidates.text(2), maxNameCharacters);
            description.line = int(m_lineCandidates.int64(3));
            break;
        }
        m_lineCandidates.reset();
    }
    if (m_instructionAt.isValid()) {
        m_instructionAt.bind(1, toStored(pc.value));
        if (m_instructionAt.step() == SQLITE_ROW) {
            description.bytes = m_instructionAt.blob(0);
            description.instruction = visibleText(m_instructionAt.text(1), maxInstructionCharacters);
        }
        m_instructionAt.reset();
    }
    if (m_codeDescriptions.size() >= maxCachedEntries)
        m_codeDescriptions.clear();
    m_codeDescriptions.insert(pc.value, description);
    return description;
}

QList<KnownInstruction> ContextReader::instructionsAround(Address pc, int before, int after)
{
    QList<KnownInstruction> instructions;
    const auto read = [](sqlite::Statement &statement) {
        return KnownInstruction { Address { fromStored(statement.int64(0)) }, statement.blob(1), statement.text(2) };
    };
    if (m_instructionsBefore.isValid()) {
        m_instructionsBefore.bind(1, toStored(pc.value));
        m_instructionsBefore.bind(2, std::int64_t(before));
        while (m_instructionsBefore.step() == SQLITE_ROW)
            instructions.prepend(read(m_instructionsBefore));
        m_instructionsBefore.reset();
    }
    if (m_instructionAt.isValid()) {
        m_instructionAt.bind(1, toStored(pc.value));
        if (m_instructionAt.step() == SQLITE_ROW)
            instructions.append({ pc, m_instructionAt.blob(0), m_instructionAt.text(1) });
        m_instructionAt.reset();
    }
    if (m_instructionsAfter.isValid()) {
        m_instructionsAfter.bind(1, toStored(pc.value));
        m_instructionsAfter.bind(2, std::int64_t(after));
        while (m_instructionsAfter.step() == SQLITE_ROW)
            instructions.append(read(m_instructionsAfter));
        m_instructionsAfter.reset();
    }
    return instructions;
}

AddressDescription ContextReader::describeAddress(Address address, Transition at)
{
    AddressDescription description;
    if (m_objectCandidates.isValid()) {
        m_objectCandidates.bind(1, toStored(address.value));
        while (m_objectCandidates.step() == SQLITE_ROW) {
            const AddressRange range = rangeOf(m_objectCandidates, 2);
            if (!range.contains(address) || !moduleAlive(m_objectCandidates.int64(0), at))
                continue;
            description.object = visibleText(m_objectCandidates.text(1), maxNameCharacters);
            description.objectOffset = address.value - range.first.value;
            break;
        }
        m_objectCandidates.reset();
    }
    if (m_sectionCandidates.isValid()) {
        m_sectionCandidates.bind(1, toStored(address.value));
        while (m_sectionCandidates.step() == SQLITE_ROW) {
            const qint64 moduleId = m_sectionCandidates.int64(0);
            if (!rangeOf(m_sectionCandidates, 2).contains(address) || !moduleAlive(moduleId, at))
                continue;
            const ModuleRow *module = moduleById(moduleId);
            description.region = (module ? fileName(module->module.path) + u' ' : QString())
                + visibleText(m_sectionCandidates.text(1), maxNameCharacters);
            break;
        }
        m_sectionCandidates.reset();
    }
    if (description.region.isEmpty() && m_mappingAt.isValid()) {
        m_mappingAt.bind(1, toStored(address.value));
        m_mappingAt.bind(2, toStored(at.value));
        if (m_mappingAt.step() == SQLITE_ROW) {
            const QString path = m_mappingAt.text(6);
            description.region = path.startsWith(u'[') ? path : fileName(path);
        }
        m_mappingAt.reset();
    }
    return description;
}

std::optional<AccessValue> ContextReader::value(RowId access)
{
    return m_values.value(access);
}

QList<Transition> ContextReader::executionsOf(
    const QList<Address> &pcs, Transition from, Direction direction, int limit, QString *error)
{
    QList<Transition> found;
    // A step that ended neither with a row nor at the end: the file is damaged (or the walk was
    // cancelled, which the caller knows about).
    const auto readFailed = [&](int rc, const char *what) {
        if (rc == SQLITE_ROW || rc == SQLITE_DONE || cancelled())
            return false;
        if (error)
            *error = QLatin1String(what) + QStringLiteral(": ") + m_connection.errorFor(rc);
        return true;
    };
    if (pcs.isEmpty() || limit <= 0 || !has(contextschema::part::pcs))
        return found;

    // Run id -> the position of a wanted PC in it (PCs increase along a run, so there is at most one).
    QHash<std::uint64_t, std::uint64_t> wanted;
    {
        QSet<std::uint64_t> targets;
        for (const Address pc : pcs)
            targets.insert(pc.value);
        sqlite::Statement runs = m_connection.prepare(contextstatements::allCodeRuns);
        int rc = SQLITE_DONE;
        while (runs.isValid() && (rc = runs.step()) == SQLITE_ROW) {
            std::uint64_t pc = fromStored(runs.int64(1));
            const QByteArrayView sizes = runs.blobView(2);
            for (qsizetype i = 0; i < sizes.size(); ++i) {
                if (targets.contains(pc)) {
                    wanted.insert(fromStored(runs.int64(0)), std::uint64_t(i));
                    break;
                }
                pc += static_cast<unsigned char>(sizes[i]);
            }
        }
        if (readFailed(rc, "cannot read the code trace's runs"))
            return found;
    }
    if (wanted.isEmpty())
        return found;

    // The walk starts at the row holding `from` (or the last before it).
    std::uint64_t startRow = from.value;
    if (direction == Direction::Forward && m_rowAtOrBefore.isValid()) {
        m_rowAtOrBefore.bind(1, toStored(from.value));
        if (m_rowAtOrBefore.step() == SQLITE_ROW)
            startRow = fromStored(m_rowAtOrBefore.int64(0));
        m_rowAtOrBefore.reset();
    }
    sqlite::Statement rows
        = m_connection.prepare(direction == Direction::Forward ? contextstatements::codeTraceRowsForward
                                                               : contextstatements::codeTraceRowsBackward);
    rows.bind(1, toStored(startRow));
    DecodedRow row;
    int rc = SQLITE_DONE;
    while (rows.isValid() && !cancelled() && found.size() < limit && (rc = rows.step()) == SQLITE_ROW) {
        const std::uint64_t first = fromStored(rows.int64(0));
        if (first >= signBoundary)
            continue;
        // A row holds its transitions up to the next row's start, as for pcAt(), so that the two
        // agree on a file whose rows overlap.
        row.reset(first, rows.blobView(1), nextRowFirst(first));
        row.decodeThrough(~std::uint64_t(0));
        const std::size_t count = row.pairs.size();
        for (std::size_t n = 0; n < count && found.size() < limit; ++n) {
            const std::size_t i = direction == Direction::Forward ? n : count - 1 - n;
            const auto position = wanted.constFind(row.pairs[i].run);
            if (position == wanted.constEnd() || *position >= row.pairs[i].count)
                continue;
            const std::uint64_t transition = row.starts[i] + *position;
            if (transition >= row.limit)
                continue;
            if (direction == Direction::Forward ? transition >= from.value : transition <= from.value)
                found << Transition { transition };
        }
    }
    readFailed(rc, "cannot read the code trace");
    return found;
}

QList<FunctionInfo> ContextReader::functionsNamed(const QString &name)
{
    QList<FunctionInfo> functions;
    sqlite::Statement rows = m_connection.prepare(contextstatements::functionsNamed);
    rows.bind(1, name);
    while (rows.isValid() && rows.step() == SQLITE_ROW)
        functions << FunctionInfo { rows.int64(0), rows.int64(1), rows.text(2), rangeOf(rows, 3) };
    return functions;
}

QList<NamedRange> ContextReader::namedRanges(std::optional<NamedRange::Kind> kind)
{
    QList<NamedRange> ranges;
    qint64 bytes = 0;
    // A missing table's statement does not prepare: that list is empty.
    const auto readAll = [&](const char *sql, NamedRange::Kind wanted) {
        if (kind && *kind != wanted)
            return;
        sqlite::Statement rows = m_connection.prepare(sql);
        while (rows.isValid() && ranges.size() < maxNamedRanges && bytes < maxNamedRangeBytes && !cancelled()
            && rows.step() == SQLITE_ROW) {
            ranges << NamedRange { visibleText(rows.text(0), maxNameCharacters), rangeOf(rows, 1), wanted };
            bytes += ranges.constLast().name.size() * qint64(sizeof(QChar));
        }
    };
    readAll(contextstatements::allFunctionNames, NamedRange::Kind::Function);
    readAll(contextstatements::allDataObjectNames, NamedRange::Kind::DataObject);
    return ranges;
}

} // namespace memhist
