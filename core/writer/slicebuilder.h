// SPDX-License-Identifier: MIT
// Decides how the buffered accesses of one slice become chunks, keeping the spec's properties:
// per operation, chunks do not overlap, are in address order, every byte of a chunk is covered by
// one of its accesses, every access lies inside its chunk, and no chunk exceeds the cap.
// Pure computation (no SQLite), so it is tested on its own.
#pragma once

#include "core/model/types.h"

#include <cstdint>
#include <span>
#include <vector>

namespace memhist {

// Compact form of an access while its slice is being built.
struct BufferedAccess
{
    std::uint64_t transition;
    std::uint64_t physical;
    std::uint64_t linear;
    std::uint32_t size;
    std::uint8_t operation; // 1, 2 or 4
    bool hasLinear;

    std::uint64_t lastByte() const { return physical + size - 1; }
};

struct PlannedChunk
{
    std::uint64_t first; // first byte
    std::uint64_t last; // last byte
    std::uint8_t operation;
    std::uint32_t accesses;
};

struct SlicePlan
{
    // How many of the buffered accesses (a prefix, ending on a transition boundary) form the slice.
    std::size_t accessCount = 0;
    // Ordered by operation code, then address: their database rowids are consecutive in this order.
    std::vector<PlannedChunk> chunks;
    // For each of the first accessCount accesses, the index of its chunk in `chunks`.
    std::vector<std::uint32_t> chunkOfAccess;
};

struct ChunkingLimits
{
    // The same defaults as WriterOptions, which is what sets them in practice.
    std::uint32_t chunkAccessCap = 4096;
    std::uint32_t chunkTargetAccesses = 16;
};

// Plans a slice from `accesses` (trace order, non-decreasing transitions, none straddling 2^63).
// Uses all of them unless a group of accesses that cannot be split (they overlap one another at the
// same addresses) would exceed the cap: then the slice is the longest prefix, ending on a
// transition boundary, in which every chunk respects the cap. Only when the first transition alone
// overflows a group is a chunk allowed above the cap (the slice is then that single transition).
SlicePlan planSlice(std::span<const BufferedAccess> accesses, const ChunkingLimits &limits);

// An access's key in idx_accesses_1 (chunk_id, transition, rowid), relative to its slice: the
// index of its chunk in the plan and its own among the slice's accesses.
struct AccessKey
{
    std::uint64_t transition;
    std::uint32_t chunk;
    std::uint32_t access;
};

// The keys of the plan's accesses in index order: by chunk, in trace order within a chunk (chunk
// ids follow the chunks' order, rowids the trace's). The writer appends them in this order; made
// on the planner's thread so that the store thread reads them front to back.
std::vector<AccessKey> accessKeysInIndexOrder(std::span<const BufferedAccess> accesses, const SlicePlan &plan);

} // namespace memhist
