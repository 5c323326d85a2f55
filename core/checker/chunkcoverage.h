// SPDX-License-Identifier: MIT
// The bytes a chunk's accesses cover, gathered while the accesses stream past in trace order, so
// that the checker can name the first byte of a chunk that no access covers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace memhist {

// An inclusive byte range [first, last].
struct ByteRange
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    friend bool operator==(const ByteRange &, const ByteRange &) = default;
};

class ChunkCoverage
{
public:
    // Records that [first, last] is covered (first <= last; any order of calls).
    void add(std::uint64_t first, std::uint64_t last);

    // The first maximal sub-range of [first, last] covered by no recorded range; nothing when every
    // byte is covered. Requires first <= last.
    std::optional<ByteRange> firstHole(std::uint64_t first, std::uint64_t last);

    // How many ranges are held right now (merged or not): the memory this chunk costs.
    std::size_t heldRanges() const { return m_ranges.size(); }

private:
    // Sorts and merges overlapping or touching ranges. A valid chunk collapses to a handful of
    // runs, so memory follows the number of holes still open, not the number of accesses.
    void compact();

    std::vector<ByteRange> m_ranges;
    // Compacting whenever the buffer doubles keeps add() amortised O(log n).
    std::size_t m_compactAt = 8;
};

} // namespace memhist
