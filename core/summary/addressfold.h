// SPDX-License-Identifier: MIT
// The folded address axis: the occupied address regions of a history, found from a stream of
// chunk ranges, and the piecewise-linear map between addresses and "display" coordinates in which
// the empty gaps between regions are squeezed to thin bands. GUI-free: the plane draws in these
// coordinates (widgets/plane/planecoordinates.h) and the display summary bins in them
// (core/summary/summarylevels.h), so both must agree on every byte.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace memhist::summary {

// An inclusive range of addresses.
struct AddressInterval
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;

    // The byte count as a double: [0, 2^64 - 1] holds 2^64 bytes, which no uint64 can hold.
    double bytes() const { return double(last - first) + 1.0; }
    friend bool operator==(const AddressInterval &, const AddressInterval &) = default;
};

// When an empty gap between occupied addresses is folded. The history's footprint is the bytes its
// chunk ranges cover (merged).
struct FoldOptions
{
    // A gap is folded only when it is at least as large as the footprint, but at least
    // minFoldedGapLow (a smaller hole is part of the picture) and at most minFoldedGapHigh: a gap
    // smaller than all the bytes a small history touches is part of its picture, a larger one is
    // mostly empty space. (A fixed 64 KiB gave the tenet example, 719 bytes in chunks, more than
    // half of the plane for a 24 KiB range holding a few hundred of them; a floor of a page, 4 KiB,
    // still gave a third of it to 6 KiB of stack whose accesses are in its lowest 1.4 KiB. The
    // lackey examples, 47 and 65 KiB in chunks, keep the regions they had: the floor only decides
    // under its own size in chunks.) ...
    std::uint64_t minFoldedGapLow = 1024;
    std::uint64_t minFoldedGapHigh = 64 * 1024;
    // ... and at least this fraction of the footprint (a 1 MiB hole in a 16 GiB heap is not folded).
    double minFoldedGapFraction = 0.02;
    // At most this many occupied regions: the smallest remaining gaps are merged first. Keeps the
    // axis readable and the fold bands few whatever the address layout.
    int maxRegions = 32;
};

// A small address range that receives a large share of a history's accesses (a 128-byte array
// read 3.3 million times next to a large buffer): the fold gives it display length by accesses,
// not only by bytes, so that it is visible at Home.
struct AccessHotspot
{
    AddressInterval addresses;
    double share = 0; // of all the accesses summarised, (0, 1]
    friend bool operator==(const AccessHotspot &, const AccessHotspot &) = default;
};

// Which ranges are hotspots: accesses grouped in blocks of 2^blockShift bytes (larger when there are
// more than maxBlocks of them: memory stays bounded), a run of blocks each with at least minShare of
// all the accesses, the maxCount largest shares.
struct HotspotOptions
{
    int blockShift = 6; // 64-byte blocks to start with
    std::size_t maxBlocks = std::size_t(1) << 16;
    double minShare = 0.01;
    int maxCount = 16;
};

// Merges a stream of chunk ranges (in any order) into the occupied regions of a history, the input
// of AddressFold. Memory stays bounded however many chunks are streamed: ranges are buffered, and
// every `batchSize` of them are sorted and merged into the regions found so far, in one buffer
// kept from merge to merge (4 MiB for the default batch; batches of 2^20 merged into new buffers
// took 48 MiB and more at each merge, and made the writer's peak RSS at 10^8 accesses); when more than
// `compactAbove` disjoint regions accumulate, the smallest gaps among them are merged early (they
// are the first the final cap would merge, except when later chunks shrink the larger gaps below
// them: with more than `compactAbove` disjoint regions the result is then approximate).
class OccupiedRegionsBuilder
{
public:
    explicit OccupiedRegionsBuilder(FoldOptions options = {}, std::size_t batchSize = std::size_t(1) << 18,
        std::size_t compactAbove = std::size_t(1) << 16);

    // first <= last is expected; a reversed range is swapped (the checker reports such chunks, the
    // viewer still shows them).
    void add(std::uint64_t first, std::uint64_t last);
    // One access of `size` bytes at `address`, for the hotspots (not a region: its chunk is one).
    // Every access of a history, in any order: the writer's and the summariser's folds must agree.
    void addAccess(std::uint64_t address, std::uint32_t size);
    // The occupied regions, sorted, disjoint, separated by gaps that are all folded (each at least
    // the threshold of FoldOptions), at most options.maxRegions of them. Empty when nothing was
    // added (an empty history).
    std::vector<AddressInterval> finish();

    std::size_t added() const { return m_added; }
    // After finish(): the hotspots among the chunks added with their accesses, in address order,
    // disjoint (empty when none was).
    const std::vector<AccessHotspot> &hotspots() const { return m_hotspots; }

private:
    void flush();
    void coarsenHotBlocks();

    struct HotBlock
    {
        double accesses = 0;
        std::uint64_t first = ~std::uint64_t(0); // the accessed bytes within the block
        std::uint64_t last = 0;
    };
    HotspotOptions m_hotOptions;
    int m_blockShift = 0;
    double m_accesses = 0;
    std::unordered_map<std::uint64_t, HotBlock> m_hotBlocks;
    std::uint64_t m_lastBlock = ~std::uint64_t(0); // consecutive accesses mostly share a block
    HotBlock *m_lastHot = nullptr;
    std::vector<AccessHotspot> m_hotspots;

    FoldOptions m_options;
    std::size_t m_batchSize;
    std::size_t m_compactAbove;
    std::size_t m_added = 0;
    std::vector<AddressInterval> m_pending;
    std::vector<AddressInterval> m_merged; // sorted, disjoint, non-adjacent
};

// Sorts and merges overlapping or adjacent intervals (adjacent: a.last + 1 == b.first; an interval
// ending at 2^64 - 1 has no successor and never wraps to 0).
std::vector<AddressInterval> mergeIntervals(std::vector<AddressInterval> intervals);
// Merges the `count` smallest gaps of sorted disjoint intervals (ties: the lower gap first).
std::vector<AddressInterval> mergeSmallestGaps(const std::vector<AddressInterval> &sorted, std::size_t count);

// The most occupied regions an AddressFold has, whatever its input: beyond it the smallest gaps are
// merged. The builder keeps to FoldOptions::maxRegions (32); a summary naming more than this was not
// written by it and is refused (readSummaryInfo), and a crafted one naming 2,000,000 regions made
// every paint draw 2,000,000 fold bands.
constexpr int maxFoldRegions = 1024;

// One piece of the folded address axis: either an occupied region (shown at a scale of at least one
// display unit per byte) or a folded gap (squeezed into a thin band). Segments tile the axis
// without holes from the lowest occupied address to the highest.
struct FoldSegment
{
    AddressInterval addresses;
    double displayStart = 0;
    double displayLength = 0;
    bool folded = false;

    // Display units per byte, constant within the segment: the fold is piecewise linear.
    double scale() const { return displayLength / addresses.bytes(); }
    double displayEnd() const { return displayStart + displayLength; }
    bool contains(std::uint64_t address) const { return address >= addresses.first && address <= addresses.last; }
    // The lower and upper edges of the byte at `address`, which must lie in this segment (what
    // AddressFold::toDisplay and toDisplayEnd compute once they have found the segment).
    double displayOf(std::uint64_t address) const { return displayStart + double(address - addresses.first) * scale(); }
    double displayEndOf(std::uint64_t address) const
    {
        if (address == addresses.last)
            return displayEnd(); // exact, whatever the rounding of the multiplication
        return displayStart + double(address - addresses.first + 1) * scale();
    }
};

// The folded address axis: address <-> display coordinate, monotonic in both directions.
//
// Layout: each occupied region gets a display length of its byte count, but at least a share of the
// whole (so that an 8 KiB stack stays visible next to a 64 MiB heap); each folded gap gets a small
// fixed share, whatever its size. Within a segment the mapping is linear.
//
// Edge cases:
// - More than maxFoldRegions regions: the smallest gaps between them are merged until that many are
//   left (ties: the lower gap), so the axis has at most 2 * maxFoldRegions - 1 segments.
// - Empty history (no regions): one unfolded segment [0, 2^64 - 1] at one display unit per byte.
// - Addresses below the lowest region or above the highest clamp to the axis' ends: nothing is
//   drawn there and the axis does not extend to 0 or 2^64 - 1 (a region that does reach 0 or
//   2^64 - 1 is handled like any other; byte counts are doubles so [0, 2^64 - 1] has no overflow).
// - Precision: display coordinates are doubles, exact for offsets inside a segment below 2^53
//   bytes (8 PiB); beyond that an address round-trips to within a few bytes.
// - Round trip: toAddress(toDisplay(a)) == a for every address inside an occupied region (scale
//   >= 1, so each byte owns at least one display unit); inside a folded gap many addresses share a
//   display unit and the round trip lands on the first of them.
class AddressFold
{
public:
    // Shares of the layout above, as fractions of the occupied display length.
    struct Layout
    {
        double minRegionShare = 0.08; // further capped at 0.5 / region count
        double foldShare = 0.012; // per gap, further capped at 0.25 / gap count
        // A hotspot gets this much more display length, as a fraction of the occupied display length:
        // its share of the accesses times hotAccessWeight, but at least minHotShare.
        double hotAccessWeight = 1.0;
        double minHotShare = 0.03;
    };

    AddressFold(); // the empty history's identity axis
    explicit AddressFold(const std::vector<AddressInterval> &regions) { *this = fromRegions(regions, Layout {}); }
    // `hotspots` (sorted, disjoint; those outside the regions are ignored, those across a region's
    // edge clipped to it, those taking more than an eighth of their region ignored: that region is
    // hot as a whole and has its minimum share) split their regions into pieces: each piece keeps its region's display
    // units per byte, a hotspot's piece gets its extra length (Layout) on top, so the fold stays
    // piecewise linear, monotonic and at least one display unit per byte.
    static AddressFold fromRegions(const std::vector<AddressInterval> &regions, const Layout &layout,
        const std::vector<AccessHotspot> &hotspots = {});

    bool isEmpty() const { return m_regionCount == 0; }
    int regionCount() const { return m_regionCount; }
    const std::vector<FoldSegment> &segments() const { return m_segments; }
    // The occupied regions in address order (the unfolded segments, a region's pieces merged).
    std::vector<AddressInterval> regions() const;

    std::uint64_t firstAddress() const { return m_segments.front().addresses.first; }
    std::uint64_t lastAddress() const { return m_segments.back().addresses.last; }
    double displayLength() const { return m_segments.back().displayEnd(); }

    // The segment holding `address` (clamped to the axis first).
    int segmentIndexOf(std::uint64_t address) const;
    // The segment holding display coordinate `display` (clamped to [0, displayLength())).
    int segmentIndexAtDisplay(double display) const;

    // The lower edge of the byte at `address`; addresses outside the axis clamp to its ends.
    double toDisplay(std::uint64_t address) const;
    // The upper edge of the byte at `address` (toDisplay(address) + its segment's scale), so that
    // byte `a` covers [toDisplay(a), toDisplayEnd(a)).
    double toDisplayEnd(std::uint64_t address) const;
    // The address whose byte covers `display`; clamps to the first/last address outside the axis.
    std::uint64_t toAddress(double display) const;

private:
    std::vector<FoldSegment> m_segments; // never empty
    int m_regionCount = 0;
};

} // namespace memhist::summary
