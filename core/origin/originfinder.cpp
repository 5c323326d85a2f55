// SPDX-License-Identifier: MIT
#include "core/origin/originfinder.h"

#include "core/context/contextreader.h"
#include "core/origin/instructionflow.h"
#include "core/origin/originstatements.h"
#include "core/origin/registerfamily.h"
#include "core/origin/registerwalk.h"
#include "core/query/accessrow.h"
#include "core/query/rowidsearch.h"
#include "core/search/lastwrites.h"
#include "core/search/searchstatements.h"
#include "core/storage/historydatabase.h"
#include "core/values/accessvaluereader.h"
#include "core/values/syscallnames.h"

#include <QHash>
#include <algorithm>
#include <vector>

namespace memhist {

const char *hopKindName(HopKind kind)
{
    switch (kind) {
    case HopKind::Access:
        return "access";
    case HopKind::LastWrite:
        return "last_write";
    case HopKind::Register:
        return "register";
    case HopKind::Load:
        return "load";
    case HopKind::Computed:
        return "computed";
    case HopKind::Kernel:
        return "kernel";
    case HopKind::Initial:
        return "initial";
    case HopKind::Unknown:
        break;
    }
    return "unknown";
}

const char *confidenceName(Confidence confidence)
{
    switch (confidence) {
    case Confidence::Exact:
        return "exact";
    case Confidence::Computed:
        return "computed";
    case Confidence::Unchecked:
        break;
    }
    return "unchecked";
}

namespace {

// Later accesses of a write's bytes read per page of the forward walk, and pages at most.
constexpr quint64 forwardPageRows = 64;
constexpr int maxForwardPages = 64;
// Instructions that use a register followed forward, at most, before it is overwritten or stored.
constexpr int maxRegisterUses = 8;

// The bytes `count` bytes from `address` of an access at `first` holding `bytes`; empty when it
// does not hold them all.
QByteArray bytesAt(const QByteArray &bytes, std::uint64_t first, std::uint64_t address, std::uint64_t count)
{
    if (address < first || address - first + count > std::uint64_t(bytes.size()))
        return {};
    return bytes.mid(qsizetype(address - first), qsizetype(count));
}

// Whether a copied value (`expected`, the bytes the copy ended in) starts with `moved` or the other
// way round: a copy may widen (movzx) or narrow (a store of al) the value.
bool samePrefix(const QByteArray &expected, const QByteArray &moved)
{
    const qsizetype common = std::min(expected.size(), moved.size());
    return common > 0 && expected.left(common) == moved.left(common);
}

QByteArray littleEndian(std::int64_t value, qsizetype size)
{
    QByteArray bytes;
    for (qsizetype i = 0; i < size && i < 8; ++i)
        bytes.append(char((std::uint64_t(value) >> (8 * i)) & 0xff));
    return bytes;
}

} // namespace

class OriginFinder::Private
{
public:
    explicit Private(HistoryDatabase &database)
        : context(database)
        , values(database.connection())
        , lastWrites(database)
        , flows(database.connection())
        , walk(database, flows)
        , rows(database.connection())
        , engine(database)
        , accessByRowId(database.connection().prepare(originstatements::accessByRowId))
        , accessesBetween(database.connection().prepare(searchstatements::accessesBetween))
    {
        rowsLoaded = rows.load();
        code = walk.available() && flows.available();
    }

    bool find(const OriginRequest &request, OriginTree *tree, QString *error);

    ContextReader context;
    AccessValueReader values;
    LastWrites lastWrites;
    InstructionFlowReader flows;
    RegisterWalk walk;
    RowIdSearch rows;
    HalfAxisQueryEngine engine;
    sqlite::Statement accessByRowId;
    sqlite::Statement accessesBetween;
    bool rowsLoaded = false;
    bool code = false;

private:
    std::optional<Access> accessAt(RowId row);
    QList<Access> accessesAt(Transition transition, Operation operation);
    QByteArray bytesOf(RowId row);
    // Appends `hop` under `parent` with its function and source line; -1 when the tree is full.
    int addHop(OriginHop hop, int parent, int depth);
    // A hop already in the tree under `key`: a second one says so instead of repeating its subtree.
    bool repeated(const QString &key, OriginHop hop, int parent, int depth);
    bool full() const { return m_tree->truncated || !m_error.isEmpty(); }

    void readOrigin(const Access &read, const QByteArray &readBytes, int parent, int depth);
    void writeOrigin(const Access &write, const QByteArray &written, int parent, int depth);
    void instructionSources(const InstructionFlow &flow, Transition transition, Address pc, int parent, int depth,
        const QByteArray &expected);
    void registerOrigin(
        const RegisterOperand &reg, Transition before, int parent, int depth, const QByteArray &expected);

    void forwardFromWrite(const Access &write, const QByteArray &written, int parent, int depth);
    void forwardFromInstruction(Transition transition, const QByteArray &moved, int parent, int depth);
    void forwardRegister(const RegisterOperand &reg, Transition after, const QByteArray &moved, int parent, int depth);

    OriginRequest m_request;
    OriginTree *m_tree = nullptr;
    QString m_error;
    QHash<QString, int> m_seen;
};

std::optional<Access> OriginFinder::Private::accessAt(RowId row)
{
    if (!accessByRowId.isValid())
        return std::nullopt;
    accessByRowId.bind(1, row.value);
    std::optional<Access> access;
    if (accessByRowId.step() == SQLITE_ROW) {
        const query::AccessRow stored = query::readAccessRow(accessByRowId);
        if (isValidOperationCode(stored.operation) && stored.size > 0 && stored.transition >= 0)
            access = query::toAccess(stored);
    }
    accessByRowId.reset();
    return access;
}

QList<Access> OriginFinder::Private::accessesAt(Transition transition, Operation operation)
{
    QList<Access> found;
    if (!rowsLoaded || !accessesBetween.isValid() || transition.value >= signBoundary - 1)
        return found;
    const std::int64_t first = rows.firstRowIdAtOrAfter(std::int64_t(transition.value));
    const std::int64_t last = rows.firstRowIdAtOrAfter(std::int64_t(transition.value + 1)) - 1;
    if (rows.failed() || first > last)
        return found;
    accessesBetween.bind(1, first);
    accessesBetween.bind(2, last);
    while (accessesBetween.step() == SQLITE_ROW) {
        const query::AccessRow stored = query::readAccessRow(accessesBetween);
        if (!isValidOperationCode(stored.operation) || stored.size <= 0 || stored.transition < 0)
            continue;
        const Access access = query::toAccess(stored);
        if (access.operation == operation && access.transition == transition)
            found << access;
    }
    accessesBetween.reset();
    return found;
}

QByteArray OriginFinder::Private::bytesOf(RowId row)
{
    const std::optional<AccessValue> value = values.value(row);
    return value ? value->bytes : QByteArray();
}

int OriginFinder::Private::addHop(OriginHop hop, int parent, int depth)
{
    if (m_tree->hops.size() >= m_request.maxHops) {
        m_tree->truncated = true;
        return -1;
    }
    hop.parent = parent;
    hop.depth = depth;
    if (hop.pc) {
        const CodeDescription code = context.describeCode(*hop.pc, hop.transition);
        hop.function = code.functionText();
        hop.source = code.sourceText();
    }
    m_tree->hops << hop;
    return int(m_tree->hops.size() - 1);
}

bool OriginFinder::Private::repeated(const QString &key, OriginHop hop, int parent, int depth)
{
    const auto known = m_seen.constFind(key);
    if (known == m_seen.constEnd())
        return false;
    hop.note = QStringLiteral("as step %1").arg(*known);
    addHop(hop, parent, depth);
    return true;
}

void OriginFinder::Private::readOrigin(const Access &read, const QByteArray &readBytes, int parent, int depth)
{
    if (depth > m_request.depth || full())
        return;
    QList<LastWrite> writes;
    QList<LastWrite> unwritten;
    if (!lastWrites.lastWritesOf(read, &writes, &unwritten)) {
        lastWrites.failed(&m_error);
        return;
    }
    for (const LastWrite &last : std::as_const(writes)) {
        const Access &write = last.write;
        const std::optional<AccessValue> value = values.value(write.rowId);
        OriginHop hop;
        hop.kind = value && value->kernelSyscall ? HopKind::Kernel : HopKind::LastWrite;
        hop.rowId = write.rowId;
        hop.transition = write.transition;
        hop.address = write.physical;
        hop.size = write.size;
        hop.value = value ? value->bytes : QByteArray();
        const std::uint64_t count = last.last.value - last.first.value + 1;
        const QByteArray left = bytesAt(hop.value, write.physical.value, last.first.value, count);
        const QByteArray seen = bytesAt(readBytes, read.physical.value, last.first.value, count);
        if (!left.isEmpty() && !seen.isEmpty() && left != seen)
            hop.note = QStringLiteral("left %1, but the read saw %2: memory changed behind the trace's back")
                           .arg(QString::fromLatin1(left.toHex()), QString::fromLatin1(seen.toHex()));
        hop.confidence = !left.isEmpty() && left == seen ? Confidence::Exact : Confidence::Unchecked;
        if (code)
            hop.pc = walk.pcAt(write.transition);
        if (hop.kind == HopKind::Kernel)
            hop.note = kernelAccessText(*value->kernelSyscall);
        else if (hop.pc && hop.note.isEmpty())
            hop.note = flows.flowAt(*hop.pc).text;
        if (repeated(QStringLiteral("w%1").arg(write.rowId.value), hop, parent, depth))
            continue;
        const int index = addHop(hop, parent, depth);
        if (index < 0)
            return;
        m_seen.insert(QStringLiteral("w%1").arg(write.rowId.value), index);
        if (hop.kind == HopKind::LastWrite)
            writeOrigin(write, hop.value, index, depth + 1);
    }
    for (const LastWrite &range : std::as_const(unwritten)) {
        OriginHop hop;
        hop.kind = HopKind::Initial;
        hop.address = range.first;
        hop.size = std::uint32_t(range.last.value - range.first.value + 1);
        hop.value = bytesAt(readBytes, read.physical.value, range.first.value, hop.size);
        hop.note = QStringLiteral("no write of these bytes in the history before the read");
        if (addHop(hop, parent, depth) < 0)
            return;
    }
}

void OriginFinder::Private::writeOrigin(const Access &write, const QByteArray &written, int parent, int depth)
{
    if (depth > m_request.depth || !code || full())
        return;
    const std::optional<Address> pc = walk.pcAt(write.transition);
    if (!pc) {
        OriginHop hop;
        hop.transition = write.transition;
        hop.note = QStringLiteral("the code trace does not know the instruction of transition %1")
                       .arg(write.transition.value);
        addHop(hop, parent, depth);
        return;
    }
    const InstructionFlow flow = flows.flowAt(*pc);
    if (flow.kind == FlowKind::Unknown) {
        OriginHop hop;
        hop.transition = write.transition;
        hop.pc = pc;
        hop.note = flow.unknownReason;
        addHop(hop, parent, depth);
        return;
    }
    if (flow.kind == FlowKind::Copy) {
        instructionSources(flow, write.transition, *pc, parent, depth, written);
        return;
    }
    // A store that computes (add [m], 1; a push of rip by call): the instruction is a hop of its own.
    OriginHop hop;
    hop.kind = HopKind::Computed;
    hop.transition = write.transition;
    hop.pc = pc;
    hop.confidence = Confidence::Computed;
    hop.note = flow.text;
    const int index = addHop(hop, parent, depth);
    if (index >= 0)
        instructionSources(flow, write.transition, *pc, index, depth + 1, {});
}

void OriginFinder::Private::instructionSources(
    const InstructionFlow &flow, Transition transition, Address pc, int parent, int depth, const QByteArray &expected)
{
    if (depth > m_request.depth || full())
        return;
    const bool copy = flow.kind == FlowKind::Copy;
    if (flow.usesMemorySource) {
        for (const Access &read : accessesAt(transition, Operation::Read)) {
            OriginHop hop;
            hop.kind = HopKind::Load;
            hop.rowId = read.rowId;
            hop.transition = transition;
            hop.pc = pc;
            hop.address = read.physical;
            hop.size = read.size;
            hop.value = bytesOf(read.rowId);
            hop.note = flow.text;
            // A copy's load is exact when its bytes are what the copy ended in, or, below a
            // computed hop (where no bytes are expected), when it has bytes at all.
            if (!copy)
                hop.confidence = Confidence::Computed;
            else if (expected.isEmpty() ? !hop.value.isEmpty() : samePrefix(expected, hop.value))
                hop.confidence = Confidence::Exact;
            if (repeated(QStringLiteral("l%1").arg(read.rowId.value), hop, parent, depth))
                continue;
            const int index = addHop(hop, parent, depth);
            if (index < 0)
                return;
            m_seen.insert(QStringLiteral("l%1").arg(read.rowId.value), index);
            readOrigin(read, hop.value, index, depth + 1);
        }
    }
    for (const RegisterOperand &source : flow.sources) {
        if (full())
            return;
        if (source.family == noRegisterFamily) {
            OriginHop hop;
            hop.transition = transition;
            hop.pc = pc;
            hop.registerName = source.name;
            hop.note = QStringLiteral("%1 is not followed (only general and vector registers are)").arg(source.name);
            addHop(hop, parent, depth);
            continue;
        }
        registerOrigin(source, transition, parent, depth, copy ? expected : QByteArray());
    }
}

void OriginFinder::Private::registerOrigin(
    const RegisterOperand &reg, Transition before, int parent, int depth, const QByteArray &expected)
{
    if (depth > m_request.depth || full())
        return;
    const RegisterStep step = walk.lastWriteBefore(before, familyBit(reg.family));
    OriginHop hop;
    hop.registerName = reg.name;
    hop.size = reg.size;
    hop.transition = step.transition;
    switch (step.outcome) {
    case RegisterStep::Outcome::TooFar:
        hop.note = QStringLiteral("%1: no write by this thread in the %2 transitions before %3; not searched further")
                       .arg(reg.name)
                       .arg(RegisterWalk::maxDistance)
                       .arg(before.value);
        addHop(hop, parent, depth);
        return;
    case RegisterStep::Outcome::TraceEnd:
        hop.kind = HopKind::Initial;
        hop.transition.reset();
        hop.note = QStringLiteral("%1: not written by this thread since the history began").arg(reg.name);
        addHop(hop, parent, depth);
        return;
    case RegisterStep::Outcome::UnknownCode:
        hop.note = QStringLiteral("%1: the instructions of transition %2 are unknown")
                       .arg(reg.name)
                       .arg(step.transition.value);
        addHop(hop, parent, depth);
        return;
    case RegisterStep::Outcome::Found:
        break;
    }
    hop.pc = step.pc;
    const InstructionFlow flow = flows.flowAt(step.pc);
    hop.note = flow.text;
    switch (flow.kind) {
    case FlowKind::Unknown:
        hop.note = flow.unknownReason;
        addHop(hop, parent, depth);
        return;
    case FlowKind::Kernel:
        hop.kind = HopKind::Kernel;
        hop.note = QStringLiteral("%1: the result of a system call").arg(reg.name);
        addHop(hop, parent, depth);
        return;
    case FlowKind::Copy:
        hop.kind = HopKind::Register;
        break;
    case FlowKind::Compute:
        hop.kind = HopKind::Computed;
        hop.confidence = Confidence::Computed;
        if (flow.zeroIdiom)
            hop.note += QStringLiteral(" (zero)");
        break;
    }
    const QString key = QStringLiteral("r%1:%2").arg(reg.family).arg(step.transition.value);
    if (repeated(key, hop, parent, depth))
        return;
    const int index = addHop(hop, parent, depth);
    if (index < 0)
        return;
    m_seen.insert(key, index);
    const bool copy = flow.kind == FlowKind::Copy;
    instructionSources(flow, step.transition, step.pc, index, depth + 1, copy ? expected : QByteArray());
    if (!copy)
        return;
    // A copy is exact when what it copied is: a load or register below it whose bytes matched, or
    // an immediate equal to the bytes the chain ends in.
    bool exact = false;
    for (qsizetype i = index + 1; i < m_tree->hops.size(); ++i) {
        if (m_tree->hops[i].parent == index && m_tree->hops[i].confidence == Confidence::Exact)
            exact = true;
    }
    for (const std::int64_t immediate : flow.immediates) {
        if (!expected.isEmpty() && samePrefix(expected, littleEndian(immediate, std::max<qsizetype>(reg.size, 1))))
            exact = true;
    }
    m_tree->hops[index].confidence = exact ? Confidence::Exact : Confidence::Unchecked;
}

void OriginFinder::Private::forwardFromWrite(const Access &write, const QByteArray &written, int parent, int depth)
{
    if (depth > m_request.depth || full())
        return;
    const std::uint64_t first = write.physical.value;
    const std::uint64_t count = write.lastByte().value - first + 1;
    std::vector<bool> overwritten(count, false);
    std::uint64_t open = count;
    HalfAxisQuery query = queryFromAccess(write, Direction::Forward);
    query.resumeAfter = write.rowId; // the accesses after the write itself
    query.limit = forwardPageRows;
    int reads = 0;
    for (int page = 0; page < maxForwardPages && open > 0; ++page) {
        QueryPage found;
        if (!engine.run(query, &found, &m_error))
            return;
        for (const Access &access : std::as_const(found.accesses)) {
            const std::uint64_t from = std::max(access.physical.value, first) - first;
            const std::uint64_t to = std::min(access.lastByte().value, first + count - 1) - first;
            bool reachesOpenByte = false;
            for (std::uint64_t i = from; i <= to; ++i)
                reachesOpenByte = reachesOpenByte || !overwritten[std::size_t(i)];
            if (access.operation == Operation::Write) {
                for (std::uint64_t i = from; i <= to; ++i) {
                    if (!overwritten[std::size_t(i)]) {
                        overwritten[std::size_t(i)] = true;
                        --open;
                    }
                }
                continue;
            }
            if (access.operation != Operation::Read || !reachesOpenByte)
                continue;
            if (++reads > m_request.maxReadsPerWrite || full())
                return;
            OriginHop hop;
            hop.kind = HopKind::Load;
            hop.rowId = access.rowId;
            hop.transition = access.transition;
            hop.address = access.physical;
            hop.size = access.size;
            hop.value = bytesOf(access.rowId);
            if (code)
                hop.pc = walk.pcAt(access.transition);
            const std::uint64_t overlapFirst = std::max(access.physical.value, first);
            const std::uint64_t overlapCount = std::min(access.lastByte().value, first + count - 1) - overlapFirst + 1;
            const QByteArray seen = bytesAt(hop.value, access.physical.value, overlapFirst, overlapCount);
            const QByteArray left = bytesAt(written, first, overlapFirst, overlapCount);
            hop.confidence = !seen.isEmpty() && seen == left ? Confidence::Exact : Confidence::Unchecked;
            if (repeated(QStringLiteral("l%1").arg(access.rowId.value), hop, parent, depth))
                continue;
            const int index = addHop(hop, parent, depth);
            if (index < 0)
                return;
            m_seen.insert(QStringLiteral("l%1").arg(access.rowId.value), index);
            forwardFromInstruction(access.transition, hop.value, index, depth + 1);
        }
        if (found.exhausted)
            return;
        query.resumeAfter = found.resumePoint();
    }
}

void OriginFinder::Private::forwardFromInstruction(
    Transition transition, const QByteArray &moved, int parent, int depth)
{
    if (depth > m_request.depth || full())
        return;
    const QString key = QStringLiteral("i%1").arg(transition.value);
    if (m_seen.contains(key))
        return; // its outputs are in the tree already
    m_seen.insert(key, parent);
    std::optional<Address> pc;
    InstructionFlow flow;
    if (code) {
        pc = walk.pcAt(transition);
        if (pc)
            flow = flows.flowAt(*pc);
    }
    const bool compute = flow.kind == FlowKind::Compute;
    if (compute) {
        OriginHop hop;
        hop.kind = HopKind::Computed;
        hop.transition = transition;
        hop.pc = pc;
        hop.confidence = Confidence::Computed;
        hop.note = flow.text;
        const QList<RegisterOperand> &destinations = flow.destinations;
        if (!destinations.isEmpty())
            hop.registerName = destinations.constFirst().name;
        parent = addHop(hop, parent, depth);
        if (parent < 0)
            return;
        ++depth;
    }
    for (const Access &write : accessesAt(transition, Operation::Write)) {
        OriginHop hop;
        hop.kind = HopKind::LastWrite;
        hop.rowId = write.rowId;
        hop.transition = transition;
        hop.pc = pc;
        hop.address = write.physical;
        hop.size = write.size;
        hop.value = bytesOf(write.rowId);
        hop.note = flow.text;
        hop.confidence = compute                                          ? Confidence::Computed
            : flow.kind == FlowKind::Copy && samePrefix(moved, hop.value) ? Confidence::Exact
                                                                          : Confidence::Unchecked;
        const int index = addHop(hop, parent, depth);
        if (index < 0)
            return;
        forwardFromWrite(write, hop.value, index, depth + 1);
    }
    if (flow.kind == FlowKind::Unknown || flow.kind == FlowKind::Kernel)
        return;
    for (const RegisterOperand &destination : flow.destinations) {
        if (destination.family == noRegisterFamily || destination.family == 4 || full())
            continue; // rsp: where the stack is, not a value
        if (compute) {
            forwardRegister(destination, transition, {}, parent, depth);
            continue;
        }
        OriginHop hop;
        hop.kind = HopKind::Register;
        hop.transition = transition;
        hop.pc = pc;
        hop.registerName = destination.name;
        hop.size = destination.size;
        hop.note = flow.text;
        hop.confidence = moved.isEmpty() ? Confidence::Unchecked : Confidence::Exact;
        const int index = addHop(hop, parent, depth);
        if (index < 0)
            return;
        forwardRegister(destination, transition, moved, index, depth + 1);
    }
}

void OriginFinder::Private::forwardRegister(
    const RegisterOperand &reg, Transition after, const QByteArray &moved, int parent, int depth)
{
    if (depth > m_request.depth || full())
        return;
    const std::uint64_t family = familyBit(reg.family);
    QList<Transition> uses;
    const RegisterStep step = walk.scanAfter(after, family, [&](Transition transition, Address pc) {
        const InstructionFlow &flow = flows.flowAt(pc);
        if (flow.kind == FlowKind::Unknown)
            return false;
        const bool reads = (flow.sourceFamilies() & family) != 0;
        if (reads)
            uses << transition;
        // The value ends where it is overwritten, or stored to memory, or after a few uses.
        if ((flow.writtenFamilies & family) != 0 || uses.size() >= maxRegisterUses)
            return false;
        return !(reads && !accessesAt(transition, Operation::Write).isEmpty());
    });
    if (uses.isEmpty() && step.outcome == RegisterStep::Outcome::TooFar) {
        OriginHop hop;
        hop.registerName = reg.name;
        hop.transition = step.transition;
        hop.note = QStringLiteral("%1: not used by this thread in the %2 transitions after %3; not searched further")
                       .arg(reg.name)
                       .arg(RegisterWalk::maxDistance)
                       .arg(after.value);
        addHop(hop, parent, depth);
        return;
    }
    for (const Transition use : std::as_const(uses))
        forwardFromInstruction(use, moved, parent, depth);
}

bool OriginFinder::Private::find(const OriginRequest &request, OriginTree *tree, QString *error)
{
    m_request = request;
    m_tree = tree;
    m_error.clear();
    m_seen.clear();
    tree->hops.clear();
    tree->truncated = false;
    const std::optional<Access> access = accessAt(request.row);
    if (!access) {
        *error = QStringLiteral("no access has rowid %1").arg(request.row.value);
        return false;
    }
    OriginHop root;
    root.kind = HopKind::Access;
    root.rowId = access->rowId;
    root.transition = access->transition;
    root.address = access->physical;
    root.size = access->size;
    root.value = bytesOf(access->rowId);
    root.confidence = root.value.isEmpty() ? Confidence::Unchecked : Confidence::Exact;
    if (code) {
        root.pc = walk.pcAt(access->transition);
        if (root.pc)
            root.note = flows.flowAt(*root.pc).text;
    }
    addHop(root, -1, 0);
    const bool write = access->operation == Operation::Write;
    if (request.direction == Direction::Backward) {
        if (write)
            writeOrigin(*access, root.value, 0, 1);
        else
            readOrigin(*access, root.value, 0, 1);
    } else {
        if (write)
            forwardFromWrite(*access, root.value, 0, 1);
        else
            forwardFromInstruction(access->transition, root.value, 0, 1);
    }
    if (!m_error.isEmpty()) {
        *error = m_error;
        return false;
    }
    return true;
}

OriginFinder::OriginFinder(HistoryDatabase &database)
    : d(std::make_unique<Private>(database))
{ }

OriginFinder::~OriginFinder() = default;

bool OriginFinder::hasCode() const
{
    return d->code;
}

bool OriginFinder::hasValues() const
{
    return d->values.available();
}

bool OriginFinder::find(const OriginRequest &request, OriginTree *tree, QString *error)
{
    return d->find(request, tree, error);
}

} // namespace memhist
