// SPDX-License-Identifier: MIT
#include "core/summary/addressfold.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace memhist::summary {

namespace {

constexpr std::uint64_t maxAddress = std::numeric_limits<std::uint64_t>::max();

// A hotspot gets its extra length only when its region is at least this many times its size.
constexpr double hotspotRegionRatio = 8;

// Bytes strictly between two sorted, disjoint, non-adjacent intervals.
std::uint64_t gapBetween(const AddressInterval &lower, const AddressInterval &upper)
{
    return upper.first - lower.last - 1;
}

// mergeIntervals() without a second buffer: the merged intervals are the first ones of
// `intervals`, which keeps its capacity.
void mergeInPlace(std::vector<AddressInterval> *intervals)
{
    for (auto &interval : *intervals) {
        if (interval.first > interval.last)
            std::swap(interval.first, interval.last);
    }
    std::sort(intervals->begin(), intervals->end(),
        [](const AddressInterval &a, const AddressInterval &b) { return a.first < b.first; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < intervals->size(); ++i) {
        const AddressInterval interval = (*intervals)[i];
        if (kept > 0) {
            AddressInterval &back = (*intervals)[kept - 1];
            // Overlapping, or adjacent (back.last + 1 would wrap when back ends at 2^64 - 1, but then
            // everything after it overlaps it anyway).
            if (interval.first <= back.last || (back.last != maxAddress && interval.first == back.last + 1)) {
                back.last = std::max(back.last, interval.last);
                continue;
            }
        }
        (*intervals)[kept++] = interval;
    }
    intervals->resize(kept);
}

} // namespace

std::vector<AddressInterval> mergeIntervals(std::vector<AddressInterval> intervals)
{
    mergeInPlace(&intervals);
    return intervals;
}

std::vector<AddressInterval> mergeSmallestGaps(const std::vector<AddressInterval> &sorted, std::size_t count)
{
    if (sorted.size() < 2 || count == 0)
        return sorted;
    const std::size_t gaps = sorted.size() - 1;
    count = std::min(count, gaps);
    std::vector<std::size_t> order(gaps);
    std::iota(order.begin(), order.end(), std::size_t(0));
    // A total order (size, then position), so that ties are broken the same way on every run.
    const auto smaller = [&sorted](std::size_t a, std::size_t b) {
        const std::uint64_t ga = gapBetween(sorted[a], sorted[a + 1]);
        const std::uint64_t gb = gapBetween(sorted[b], sorted[b + 1]);
        return ga != gb ? ga < gb : a < b;
    };
    std::nth_element(order.begin(), order.begin() + (count - 1), order.end(), smaller);
    std::vector<bool> mergeGap(gaps, false);
    for (std::size_t i = 0; i < count; ++i)
        mergeGap[order[i]] = true;

    std::vector<AddressInterval> result;
    result.reserve(sorted.size() - count);
    result.push_back(sorted.front());
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        if (mergeGap[i - 1])
            result.back().last = sorted[i].last;
        else
            result.push_back(sorted[i]);
    }
    return result;
}

OccupiedRegionsBuilder::OccupiedRegionsBuilder(FoldOptions options, std::size_t batchSize, std::size_t compactAbove)
    : m_options(options)
    , m_batchSize(std::max<std::size_t>(batchSize, 1))
    , m_compactAbove(std::max<std::size_t>(compactAbove, 2))
{
    // Room for a batch and the regions merged so far (at most compactAbove between two flushes):
    // flush() then sorts and merges in this one buffer, which it keeps.
    m_pending.reserve(std::min<std::size_t>(m_batchSize, std::size_t(1) << 20) + m_compactAbove);
}

void OccupiedRegionsBuilder::addAccess(std::uint64_t address, std::uint32_t size)
{
    m_accesses += 1;
    if (m_blockShift == 0)
        m_blockShift = m_hotOptions.blockShift;
    // An access counts in the block of its first byte; its bytes up to that block's end.
    const std::uint64_t block = address >> m_blockShift;
    if (block != m_lastBlock || !m_lastHot) {
        m_lastHot = &m_hotBlocks[block];
        m_lastBlock = block;
    }
    const std::uint64_t blockLast = address | ((std::uint64_t(1) << m_blockShift) - 1);
    const std::uint64_t last = size == 0 || blockLast - address < size - 1 ? blockLast : address + (size - 1);
    m_lastHot->accesses += 1;
    m_lastHot->first = std::min(m_lastHot->first, address);
    m_lastHot->last = std::max(m_lastHot->last, last);
    if (m_hotBlocks.size() > m_hotOptions.maxBlocks) {
        coarsenHotBlocks();
        m_lastHot = nullptr;
    }
}

void OccupiedRegionsBuilder::coarsenHotBlocks()
{
    while (m_hotBlocks.size() > m_hotOptions.maxBlocks / 2 && m_blockShift < 63) {
        ++m_blockShift;
        std::unordered_map<std::uint64_t, HotBlock> coarser;
        coarser.reserve(m_hotBlocks.size() / 2 + 1);
        for (const auto &[block, hot] : m_hotBlocks) {
            HotBlock &merged = coarser[block >> 1];
            merged.accesses += hot.accesses;
            merged.first = std::min(merged.first, hot.first);
            merged.last = std::max(merged.last, hot.last);
        }
        m_hotBlocks = std::move(coarser);
    }
}

void OccupiedRegionsBuilder::add(std::uint64_t first, std::uint64_t last)
{
    m_pending.push_back({ first, last });
    ++m_added;
    if (m_pending.size() >= m_batchSize)
        flush();
}

void OccupiedRegionsBuilder::flush()
{
    if (m_pending.empty())
        return;
    m_pending.insert(m_pending.end(), m_merged.begin(), m_merged.end());
    mergeInPlace(&m_pending);
    m_merged.assign(m_pending.begin(), m_pending.end());
    m_pending.clear();
    if (m_merged.size() > m_compactAbove)
        m_merged = mergeSmallestGaps(m_merged, m_merged.size() - m_compactAbove / 2);
}

std::vector<AddressInterval> OccupiedRegionsBuilder::finish()
{
    flush();
    double footprint = 0;
    for (const auto &interval : m_merged)
        footprint += interval.bytes();
    const double gapLow = double(m_options.minFoldedGapLow);
    const double gapHigh = std::max(gapLow, double(m_options.minFoldedGapHigh));
    const double threshold
        = std::max(m_options.minFoldedGapFraction * footprint, std::clamp(footprint, gapLow, gapHigh));

    std::vector<AddressInterval> regions;
    for (const auto &interval : m_merged) {
        if (!regions.empty() && double(gapBetween(regions.back(), interval)) < threshold)
            regions.back().last = interval.last;
        else
            regions.push_back(interval);
    }
    const std::size_t maxRegions = std::size_t(std::max(m_options.maxRegions, 1));
    if (regions.size() > maxRegions)
        regions = mergeSmallestGaps(regions, regions.size() - maxRegions);
    m_merged.clear();

    // Hotspots: runs of consecutive blocks, each block with at least minShare of the accesses.
    m_hotspots.clear();
    std::vector<std::pair<std::uint64_t, HotBlock>> hot;
    for (const auto &[block, counts] : m_hotBlocks) {
        if (m_accesses > 0 && counts.accesses / m_accesses >= m_hotOptions.minShare)
            hot.emplace_back(block, counts);
    }
    std::sort(hot.begin(), hot.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (std::size_t i = 0; i < hot.size(); ++i) {
        const double share = hot[i].second.accesses / m_accesses;
        if (i > 0 && hot[i - 1].first + 1 == hot[i].first) {
            m_hotspots.back().addresses.last = hot[i].second.last;
            m_hotspots.back().share += share;
        } else {
            m_hotspots.push_back({ { hot[i].second.first, hot[i].second.last }, share });
        }
    }
    for (AccessHotspot &hotspot : m_hotspots)
        hotspot.share = std::min(hotspot.share, 1.0); // a sum of fractions can round past 1
    if (m_hotspots.size() > std::size_t(std::max(m_hotOptions.maxCount, 0))) {
        std::stable_sort(m_hotspots.begin(), m_hotspots.end(),
            [](const AccessHotspot &a, const AccessHotspot &b) { return a.share > b.share; });
        m_hotspots.resize(std::size_t(std::max(m_hotOptions.maxCount, 0)));
        std::sort(m_hotspots.begin(), m_hotspots.end(),
            [](const AccessHotspot &a, const AccessHotspot &b) { return a.addresses.first < b.addresses.first; });
    }
    m_hotBlocks.clear();
    return regions;
}

AddressFold::AddressFold()
{
    m_segments.push_back({ { 0, maxAddress }, 0.0, AddressInterval { 0, maxAddress }.bytes(), false });
}

AddressFold AddressFold::fromRegions(
    const std::vector<AddressInterval> &input, const Layout &layout, const std::vector<AccessHotspot> &hotspots)
{
    std::vector<AddressInterval> regions = mergeIntervals(input);
    if (regions.size() > std::size_t(maxFoldRegions))
        regions = mergeSmallestGaps(regions, regions.size() - std::size_t(maxFoldRegions));
    AddressFold fold;
    if (regions.empty())
        return fold;

    const double count = double(regions.size());
    double occupied = 0;
    for (const auto &region : regions)
        occupied += region.bytes();
    const double minRegion = std::min(layout.minRegionShare, 0.5 / count) * occupied;
    double occupiedDisplay = 0;
    for (const auto &region : regions)
        occupiedDisplay += std::max(region.bytes(), minRegion);
    const double gaps = count - 1;
    const double foldLength = gaps > 0 ? std::min(layout.foldShare, 0.25 / gaps) * occupiedDisplay : 0.0;

    fold.m_segments.clear();
    fold.m_regionCount = int(regions.size());
    double position = 0;
    std::size_t h = 0; // the next hotspot
    for (std::size_t i = 0; i < regions.size(); ++i) {
        if (i > 0) {
            // mergeIntervals() left no adjacent regions, so every gap holds at least one byte.
            const AddressInterval gap { regions[i - 1].last + 1, regions[i].first - 1 };
            fold.m_segments.push_back({ gap, position, foldLength, true });
            position += foldLength;
        }
        const AddressInterval &region = regions[i];
        const double length = std::max(region.bytes(), minRegion);
        const double scale = length / region.bytes();
        // The region's pieces: cold ones at its scale, hotspots with their extra length on top.
        std::uint64_t next = region.first; // the first byte not yet in a piece
        bool covered = false;
        const auto addPiece = [&](std::uint64_t first, std::uint64_t last, double extra) {
            const AddressInterval piece { first, last };
            const double pieceLength = piece.bytes() * scale + extra;
            fold.m_segments.push_back({ piece, position, pieceLength, false });
            position += pieceLength;
        };
        while (h < hotspots.size() && hotspots[h].addresses.last < region.first)
            ++h;
        for (; h < hotspots.size() && hotspots[h].addresses.first <= region.last; ++h) {
            const std::uint64_t first = std::max(hotspots[h].addresses.first, next);
            const std::uint64_t last = std::min(hotspots[h].addresses.last, region.last);
            // A hotspot is an object inside a larger region; a region hot as a whole already has its
            // minimum share, and stretching it would only blur the plane's estimates of what is in view.
            if (first > last || !(hotspots[h].share > 0)
                || double(last - first + 1) * hotspotRegionRatio > region.bytes())
                continue;
            if (first > next)
                addPiece(next, first - 1, 0);
            const double share = std::min(hotspots[h].share, 1.0);
            addPiece(first, last, occupiedDisplay * std::max(layout.hotAccessWeight * share, layout.minHotShare));
            if (last == region.last) {
                covered = true;
                break;
            }
            next = last + 1;
        }
        if (!covered)
            addPiece(next, region.last, 0);
    }
    return fold;
}

std::vector<AddressInterval> AddressFold::regions() const
{
    std::vector<AddressInterval> result;
    bool previousFolded = true;
    for (const auto &segment : m_segments) {
        if (!segment.folded) {
            if (previousFolded)
                result.push_back(segment.addresses);
            else
                result.back().last = segment.addresses.last; // the next piece of the same region
        }
        previousFolded = segment.folded;
    }
    return result;
}

int AddressFold::segmentIndexOf(std::uint64_t address) const
{
    const auto it = std::upper_bound(m_segments.begin(), m_segments.end(), address,
        [](std::uint64_t a, const FoldSegment &s) { return a < s.addresses.first; });
    return it == m_segments.begin() ? 0 : int(it - m_segments.begin()) - 1;
}

int AddressFold::segmentIndexAtDisplay(double display) const
{
    const auto it = std::upper_bound(m_segments.begin(), m_segments.end(), display,
        [](double d, const FoldSegment &s) { return d < s.displayStart; });
    return it == m_segments.begin() ? 0 : int(it - m_segments.begin()) - 1;
}

double AddressFold::toDisplay(std::uint64_t address) const
{
    address = std::clamp(address, firstAddress(), lastAddress());
    return m_segments[std::size_t(segmentIndexOf(address))].displayOf(address);
}

double AddressFold::toDisplayEnd(std::uint64_t address) const
{
    address = std::clamp(address, firstAddress(), lastAddress());
    return m_segments[std::size_t(segmentIndexOf(address))].displayEndOf(address);
}

std::uint64_t AddressFold::toAddress(double display) const
{
    if (!(display > 0)) // also catches NaN
        return firstAddress();
    if (display >= displayLength())
        return lastAddress();
    const FoldSegment &segment = m_segments[std::size_t(segmentIndexAtDisplay(display))];
    const std::uint64_t span = segment.addresses.last - segment.addresses.first;
    const double raw = std::floor((display - segment.displayStart) / segment.scale());
    std::uint64_t offset = raw <= 0 ? 0 : raw >= double(span) ? span : std::uint64_t(raw);
    // Dividing back can land one byte off either way (toDisplay() rounds twice): settle it against
    // toDisplay() itself, so that byte a covers exactly [toDisplay(a), toDisplayEnd(a)).
    const auto lowerEdge = [&segment](std::uint64_t o) { return segment.displayStart + double(o) * segment.scale(); };
    if (offset < span && lowerEdge(offset + 1) <= display)
        ++offset;
    else if (offset > 0 && lowerEdge(offset) > display)
        --offset;
    return segment.addresses.first + offset;
}

} // namespace memhist::summary
