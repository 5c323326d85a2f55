// SPDX-License-Identifier: MIT
// The forward walk of the origin tree: a write's later reads before its bytes are overwritten, and
// what their instructions wrote, memory and registers, followed to their uses.
#include "core/origin/origintreebuilder.h"
#include "core/origin/registerfamily.h"

#include <algorithm>
#include <vector>

namespace memhist {

namespace {

// Later accesses of a write's bytes read per page of the forward walk, and pages at most.
constexpr quint64 forwardPageRows = 64;
constexpr int maxForwardPages = 64;
// Instructions that use a register followed forward, at most, before it is overwritten or stored.
constexpr int maxRegisterUses = 8;

} // namespace

void OriginTreeBuilder::forwardFromWrite(const Access &write, const QByteArray &written, int parent, int depth)
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

void OriginTreeBuilder::forwardFromInstruction(Transition transition, const QByteArray &moved, int parent, int depth)
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
    const QList<Access> writes = accessesAt(transition, Operation::Write);
    const bool writesRegister = std::any_of(flow.destinations.cbegin(), flow.destinations.cend(),
        [](const RegisterOperand &destination) { return destination.family != noRegisterFamily; });
    if (writes.isEmpty() && !writesRegister)
        return; // a comparison, a jump: the value goes no further
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
    for (const Access &write : writes) {
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
        if (destination.family == noRegisterFamily || destination.family == rspFamily || full())
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

void OriginTreeBuilder::forwardRegister(
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
    if (!walk.error().isEmpty()) {
        m_error = walk.error();
        return;
    }
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

} // namespace memhist
