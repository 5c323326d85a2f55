// SPDX-License-Identifier: MIT
#include "diffentrytargets.h"

#include <algorithm>

namespace memhist {

Access accessOf(const DiffAccess &access)
{
    Access result;
    result.rowId = access.rowId;
    result.transition = access.transition;
    result.operation = access.operation;
    result.physical = access.address;
    result.linear = access.address;
    result.size = std::max<std::uint32_t>(1, access.size);
    return result;
}

namespace {

std::optional<DiffTarget> targetOfAccesses(const QList<std::optional<DiffAccess>> &candidates)
{
    QList<Access> accesses;
    for (const std::optional<DiffAccess> &candidate : candidates) {
        if (!candidate)
            continue;
        const Access access = accessOf(*candidate);
        if (std::none_of(accesses.begin(), accesses.end(), [&](const Access &a) { return a.rowId == access.rowId; }))
            accesses << access;
    }
    if (accesses.isEmpty())
        return std::nullopt;
    std::sort(accesses.begin(), accesses.end(), [](const Access &x, const Access &y) { return x.rowId < y.rowId; });
    DiffTarget target;
    target.firstTransition = accesses.first().transition;
    target.lastTransition = accesses.first().transition;
    target.firstAddress = accesses.first().physical;
    target.lastAddress = accesses.first().lastByte();
    for (const Access &access : std::as_const(accesses)) {
        target.firstTransition = std::min(target.firstTransition, access.transition);
        target.lastTransition = std::max(target.lastTransition, access.transition);
        target.firstAddress = std::min(*target.firstAddress, access.physical);
        target.lastAddress = std::max(*target.lastAddress, access.lastByte());
    }
    target.accesses = accesses;
    return target;
}

} // namespace

std::optional<DiffTarget> diffTarget(const DiffEntry &entry, DiffSide side)
{
    const bool a = side == DiffSide::A;
    switch (entry.kind) {
    case DiffEntry::Kind::Control: {
        const Transition first = a ? entry.control.aFirst : entry.control.bFirst;
        const std::uint64_t count = a ? entry.control.aCount : entry.control.bCount;
        DiffTarget target;
        target.firstTransition = first;
        target.lastTransition = Transition { first.value + (count > 0 ? count - 1 : 0) };
        return target;
    }
    case DiffEntry::Kind::Memory:
        return targetOfAccesses({ a ? entry.memory.a : entry.memory.b });
    case DiffEntry::Kind::Object:
        return targetOfAccesses(a ? QList { entry.object.aFirstDiffering, entry.object.aLast }
                                  : QList { entry.object.bFirstDiffering, entry.object.bLast });
    }
    return std::nullopt;
}

std::optional<qsizetype> entryAt(const QList<DiffEntry> &entries, DiffSide side, Transition t, Address a,
    const std::optional<Access> &accessUnderCursor)
{
    // The better of two candidates: a box before a control hunk (bytes say more than time), then
    // the shorter in time, then the earlier entry.
    struct Candidate
    {
        qsizetype index = -1;
        bool hasBytes = false;
        std::uint64_t span = 0;
    };
    std::optional<Candidate> best;
    for (qsizetype index = 0; index < entries.size(); ++index) {
        const std::optional<DiffTarget> target = diffTarget(entries.at(index), side);
        if (!target)
            continue;
        if (accessUnderCursor
            && std::any_of(target->accesses.begin(), target->accesses.end(),
                [&](const Access &access) { return access.rowId == accessUnderCursor->rowId; }))
            return index;
        if (t < target->firstTransition || target->lastTransition < t)
            continue;
        const bool hasBytes = target->firstAddress.has_value();
        if (hasBytes && (a < *target->firstAddress || *target->lastAddress < a))
            continue;
        const Candidate candidate { index, hasBytes, target->lastTransition.value - target->firstTransition.value };
        if (!best || (candidate.hasBytes && !best->hasBytes)
            || (candidate.hasBytes == best->hasBytes && candidate.span < best->span))
            best = candidate;
    }
    if (!best)
        return std::nullopt;
    return best->index;
}

} // namespace memhist
