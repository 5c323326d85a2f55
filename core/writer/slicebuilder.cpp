// SPDX-License-Identifier: MIT
#include "core/writer/slicebuilder.h"

#include <algorithm>
#include <array>
#include <limits>

namespace memhist {

namespace {

constexpr std::uint8_t operationCodes[] = { 1, 2, 4 }; // chunk rowid order: by code, then address

// Indices (into the slice's accesses) of one operation, sorted by first byte, ties in trace order.
// An LSD radix sort of (address, index) pairs, one byte per pass: stable, so equal addresses keep
// trace order, and a byte that every address of the slice shares (most of the high ones: a
// slice's addresses sit in a few regions) costs one counting pass and no move. It replaced a
// comparison sort of indices that was the planner's main cost.
std::vector<std::uint32_t> sortedByAddress(std::span<const BufferedAccess> accesses, std::uint8_t operation)
{
    struct Key
    {
        std::uint64_t address;
        std::uint32_t index;
    };
    std::vector<Key> keys;
    for (std::uint32_t i = 0; i < accesses.size(); ++i) {
        if (accesses[i].operation == operation)
            keys.push_back({ accesses[i].physical, i });
    }
    std::vector<Key> scratch(keys.size());
    for (int shift = 0; shift < 64; shift += 8) {
        std::array<std::size_t, 257> offsets {};
        for (const Key &key : keys)
            ++offsets[((key.address >> shift) & 0xff) + 1];
        if (std::find(offsets.begin() + 1, offsets.end(), keys.size()) != offsets.end())
            continue; // every key has the same byte here
        for (std::size_t byte = 1; byte < offsets.size(); ++byte)
            offsets[byte] += offsets[byte - 1];
        for (const Key &key : keys)
            scratch[offsets[(key.address >> shift) & 0xff]++] = key;
        keys.swap(scratch);
    }
    std::vector<std::uint32_t> indices(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        indices[i] = keys[i].index;
    return indices;
}

// A run of accesses (in address order) that overlap one another transitively: no chunk boundary
// can fall inside it, because an access must lie entirely inside its chunk and chunks of one
// operation must not overlap. Touching accesses (one ends at x, the next starts at x + 1) start a
// new group: a boundary may fall between them.
struct Group
{
    std::size_t begin; // position in the sorted index list
    std::size_t end;
    std::uint64_t first;
    std::uint64_t last;
};

std::vector<Group> unsplittableGroups(
    std::span<const BufferedAccess> accesses, const std::vector<std::uint32_t> &sorted)
{
    std::vector<Group> groups;
    for (std::size_t position = 0; position < sorted.size(); ++position) {
        const BufferedAccess &access = accesses[sorted[position]];
        if (!groups.empty() && access.physical <= groups.back().last) {
            groups.back().end = position + 1;
            groups.back().last = std::max(groups.back().last, access.lastByte());
        } else {
            groups.push_back({ position, position + 1, access.physical, access.lastByte() });
        }
    }
    return groups;
}

// Per operation: its accesses in address order and their unsplittable groups.
struct OperationLayout
{
    std::uint8_t operation;
    std::vector<std::uint32_t> sorted;
    std::vector<Group> groups;
};

std::vector<OperationLayout> layOut(std::span<const BufferedAccess> accesses)
{
    std::vector<OperationLayout> layouts;
    for (const std::uint8_t operation : operationCodes) {
        OperationLayout layout { operation, sortedByAddress(accesses, operation), {} };
        layout.groups = unsplittableGroups(accesses, layout.sorted);
        layouts.push_back(std::move(layout));
    }
    return layouts;
}

// The smallest trace index that must be left out of the slice so that no unsplittable group holds
// more than `cap` accesses, or accesses.size() when every group fits. Removing later accesses only
// splits groups further, so cutting before the (cap+1)-th access (in trace order) of every
// oversized group is enough.
std::size_t firstOverflowingAccess(
    std::size_t accessCount, const std::vector<OperationLayout> &layouts, std::uint32_t cap)
{
    std::size_t cut = accessCount;
    for (const OperationLayout &layout : layouts) {
        for (const Group &group : layout.groups) {
            if (group.end - group.begin <= cap)
                continue;
            std::vector<std::uint32_t> members(layout.sorted.begin() + group.begin, layout.sorted.begin() + group.end);
            std::nth_element(members.begin(), members.begin() + cap, members.end());
            cut = std::min<std::size_t>(cut, members[cap]);
        }
    }
    return cut;
}

std::size_t startOfTransition(std::span<const BufferedAccess> accesses, std::size_t index)
{
    while (index > 0 && accesses[index - 1].transition == accesses[index].transition)
        --index;
    return index;
}

std::size_t endOfTransition(std::span<const BufferedAccess> accesses, std::size_t index)
{
    while (index + 1 < accesses.size() && accesses[index + 1].transition == accesses[index].transition)
        ++index;
    return index + 1;
}

// Packs consecutive groups into chunks: a chunk ends at a gap (coverage), at 2^63 (the index orders
// addresses as signed values), when it reached the target size, or when the next group would take
// it over the cap.
void planChunks(const OperationLayout &layout, const ChunkingLimits &limits, SlicePlan *plan)
{
    const std::uint8_t operation = layout.operation;
    const std::vector<std::uint32_t> &sorted = layout.sorted;
    for (const Group &group : layout.groups) {
        const std::uint32_t size = std::uint32_t(group.end - group.begin);
        bool startNew = plan->chunks.empty() || plan->chunks.back().operation != operation;
        if (!startNew) {
            const PlannedChunk &current = plan->chunks.back();
            const bool gap = group.first - current.last > 1; // groups are disjoint: first > last
            const bool crossesSign = current.first < signBoundary && group.first >= signBoundary;
            startNew = gap || crossesSign || current.accesses >= limits.chunkTargetAccesses
                || std::uint64_t(current.accesses) + size > limits.chunkAccessCap;
        }
        if (startNew)
            plan->chunks.push_back({ group.first, group.last, operation, 0 });
        PlannedChunk &chunk = plan->chunks.back();
        chunk.last = std::max(chunk.last, group.last);
        chunk.accesses += size;
        const auto chunkIndex = std::uint32_t(plan->chunks.size() - 1);
        for (std::size_t position = group.begin; position < group.end; ++position)
            plan->chunkOfAccess[sorted[position]] = chunkIndex;
    }
}

} // namespace

SlicePlan planSlice(std::span<const BufferedAccess> accesses, const ChunkingLimits &limits)
{
    std::vector<OperationLayout> layouts = layOut(accesses);
    std::size_t count = firstOverflowingAccess(accesses.size(), layouts, limits.chunkAccessCap);
    if (count < accesses.size()) {
        count = startOfTransition(accesses, count);
        if (count == 0) // the first transition alone overflows: it becomes a slice of its own
            count = endOfTransition(accesses, 0);
        accesses = accesses.first(count);
        layouts = layOut(accesses);
    }

    SlicePlan plan;
    plan.accessCount = count;
    plan.chunkOfAccess.assign(count, std::numeric_limits<std::uint32_t>::max());
    for (const OperationLayout &layout : layouts)
        planChunks(layout, limits, &plan);
    return plan;
}

std::vector<AccessKey> accessKeysInIndexOrder(std::span<const BufferedAccess> accesses, const SlicePlan &plan)
{
    // A counting sort by chunk: stable, so each chunk's accesses keep their trace order.
    std::vector<std::uint32_t> start(plan.chunks.size() + 1, 0);
    for (std::size_t access = 0; access < plan.accessCount; ++access)
        ++start[plan.chunkOfAccess[access] + 1];
    for (std::size_t chunk = 1; chunk < start.size(); ++chunk)
        start[chunk] += start[chunk - 1];
    std::vector<AccessKey> keys(plan.accessCount);
    for (std::size_t access = 0; access < plan.accessCount; ++access) {
        const std::uint32_t chunk = plan.chunkOfAccess[access];
        keys[start[chunk]++] = { accesses[access].transition, chunk, std::uint32_t(access) };
    }
    return keys;
}

} // namespace memhist
