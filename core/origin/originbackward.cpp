// SPDX-License-Identifier: MIT
// The backward walk of the origin tree: a read's last writes, a write's instruction sources, a
// register's last writer in the same thread, and on.
#include "core/origin/origintreebuilder.h"
#include "core/origin/registerfamily.h"
#include "core/values/syscallnames.h"

namespace memhist {

void OriginTreeBuilder::readOrigin(const Access &read, const QByteArray &readBytes, int parent, int depth)
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

void OriginTreeBuilder::writeOrigin(const Access &write, const QByteArray &written, int parent, int depth)
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

void OriginTreeBuilder::instructionSources(
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

void OriginTreeBuilder::registerOrigin(
    const RegisterOperand &reg, Transition before, int parent, int depth, const QByteArray &expected)
{
    if (depth > m_request.depth || full())
        return;
    const RegisterStep step = walk.lastWriteBefore(before, familyBit(reg.family));
    if (!walk.error().isEmpty()) {
        m_error = walk.error();
        return;
    }
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

} // namespace memhist
