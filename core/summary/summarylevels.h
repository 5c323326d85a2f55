// SPDX-License-Identifier: MIT
// The geometry of the display summary, a tile pyramid over the transition x folded-address plane
// (DESIGN.md §1: an optional table; see core/summary/summarybuilder.h for how it is built).
//
// - Time: slices, in transition order, numbered 0..S-1. Time level t groups 2^t consecutive
//   slices into one tile: tile k of level t covers slices [k * 2^t, min((k + 1) * 2^t, S)). The top
//   level is the first whose single tile covers every slice.
// - Address: the history's folded address axis (addressfold.h) cut into 2^a equal display bins at
//   address level a, from minAddressLevel (coarse, the whole axis on a screen) to maxAddressLevel.
//   Bins nest: bin b of level a holds bins 2b and 2b + 1 of level a + 1.
// - A cell is one bin of one tile: per operation, how many accesses overlap the bin (an access
//   counts in every bin its bytes touch) and how many chunks start in it. A tile lists its
//   non-empty cells in bin order.
//
// Pure functions, shared by the builder and the plane, and tested against a brute-force count
// (tests/tst_summarybuilder.cpp).
#pragma once

#include "core/summary/addressfold.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace memhist::summary {

// The version of the summary's layout and encoding; a reader ignores a summary of any other
// version (and the viewer then summarises the history itself, as it does a foreign one), except
// that it reads version 1 as a version 2 without access hotspots (its fold is the same).
// Version 2: the fold's access hotspots (AccessHotspot), which an older reader would not apply.
inline constexpr int formatVersion = 2;
inline constexpr int oldestReadableFormatVersion = 1;

// Cells keep the three operations in the plane's drawing order: execute, read, write.
inline constexpr int operationSlots = 3;
constexpr int operationSlot(std::uint8_t code)
{
    return code == 1 ? 0 : code == 4 ? 1 : 2;
}
inline constexpr std::uint8_t slotOperation[operationSlots] = { 1, 4, 2 };

// One bin of one tile. Counts saturate at 2^32 - 1 (a single cell of more than four billion
// accesses is drawn and estimated as four billion).
struct Cell
{
    std::uint32_t bin = 0;
    std::uint32_t accesses[operationSlots] = {};
    std::uint32_t chunks[operationSlots] = {};

    bool isEmpty() const
    {
        return std::all_of(std::begin(accesses), std::end(accesses), [](std::uint32_t n) { return n == 0; })
            && std::all_of(std::begin(chunks), std::end(chunks), [](std::uint32_t n) { return n == 0; });
    }
    friend bool operator==(const Cell &, const Cell &) = default;
};

constexpr std::uint32_t saturatingAdd(std::uint32_t a, std::uint64_t b)
{
    const std::uint64_t sum = std::uint64_t(a) + b;
    return sum > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                           : std::uint32_t(sum);
}

// Adds `from`'s counts to `into` (same bin).
inline void addCounts(Cell &into, const Cell &from)
{
    for (int op = 0; op < operationSlots; ++op) {
        into.accesses[op] = saturatingAdd(into.accesses[op], from.accesses[op]);
        into.chunks[op] = saturatingAdd(into.chunks[op], from.chunks[op]);
    }
}

// Tiles are cut along the address axis into blocks of 2^blockShift bins (one block at levels of
// fewer bins), so that a view of one region reads that region's blocks, not the whole axis. Larger
// blocks compress better, smaller ones waste less of a narrow view's reading.
inline constexpr int blockShift = 11;
constexpr std::int64_t blocksAt(int addressLevel)
{
    return addressLevel <= blockShift ? 1 : std::int64_t(1) << (addressLevel - blockShift);
}
constexpr std::int64_t blockOf(std::uint32_t bin)
{
    return std::int64_t(bin >> blockShift);
}

// One stored piece of the pyramid: the cells of `block` of tile `tile` at (timeLevel,
// addressLevel).
struct TileKey
{
    int timeLevel = 0;
    int addressLevel = 0;
    std::int64_t block = 0;
    std::int64_t tile = 0;
    friend bool operator==(const TileKey &, const TileKey &) = default;
};

// The levels of one summary.
struct SummaryLevels
{
    // 2^10 bins: the whole folded axis at a bin per pixel on a screen 1000 pixels tall.
    int minAddressLevel = 10;
    // 2^16 bins: fine enough for every view holding more chunks than the plane reads as rows.
    int maxAddressLevel = 16;
    std::int64_t slices = 0;

    // The level whose single tile covers every slice (0 for a history of at most one slice).
    int topTimeLevel() const
    {
        int level = 0;
        while ((std::int64_t(1) << level) < slices)
            ++level;
        return level;
    }
    std::int64_t tilesAt(int timeLevel) const { return (slices + (std::int64_t(1) << timeLevel) - 1) >> timeLevel; }
    // Slices [firstSlice, endSlice) of a tile.
    static std::int64_t firstSlice(int timeLevel, std::int64_t tile) { return tile << timeLevel; }
    std::int64_t endSlice(int timeLevel, std::int64_t tile) const { return std::min(slices, (tile + 1) << timeLevel); }
    bool isValid() const
    {
        return minAddressLevel >= 1 && minAddressLevel <= maxAddressLevel && maxAddressLevel <= 22 && slices >= 0
            && slices < (std::int64_t(1) << 40);
    }
    friend bool operator==(const SummaryLevels &, const SummaryLevels &) = default;
};

// The bins [first, last] at address level `level` (2^level bins over the fold's display length)
// that the bytes [firstByte, lastByte] touch. Computed at the finest level and shifted for coarser
// ones (binsAt), so that bins nest exactly whatever the rounding of the display coordinates.
struct BinRange
{
    std::uint32_t first = 0;
    std::uint32_t last = 0;

    BinRange at(int shift) const { return { first >> shift, last >> shift }; }
};
BinRange binsOf(const AddressFold &fold, std::uint64_t firstByte, std::uint64_t lastByte, int level);

// binsOf() for many ranges in a row: remembers the segment of the last lookup, so that ranges
// given in address order (as the builder gives them) skip the binary search. Same results.
class BinMapper
{
public:
    BinMapper(const AddressFold &fold, int level);
    BinRange operator()(std::uint64_t firstByte, std::uint64_t lastByte);

private:
    double displayOf(std::uint64_t address, bool end);

    const AddressFold &m_fold;
    double m_scale;
    std::uint32_t m_maxBin;
    int m_segment = 0;
};

} // namespace memhist::summary
