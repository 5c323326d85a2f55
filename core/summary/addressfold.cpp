// SPDX-License-Identifier: MIT
#include "core/summary/addressfold.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace memhist::summary {

namespace {

constexpr std::uint64_t maxAddress = std::numeric_limits<std::uint64_t>::max();

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
    return regions;
}

AddressFold::AddressFold()
{
    m_segments.push_back({ { 0, maxAddress }, 0.0, AddressInterval { 0, maxAddress }.bytes(), false });
}

AddressFold AddressFold::fromRegions(const std::vector<AddressInterval> &input, const Layout &layout)
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
    for (std::size_t i = 0; i < regions.size(); ++i) {
        if (i > 0) {
            // mergeIntervals() left no adjacent regions, so every gap holds at least one byte.
            const AddressInterval gap { regions[i - 1].last + 1, regions[i].first - 1 };
            fold.m_segments.push_back({ gap, position, foldLength, true });
            position += foldLength;
        }
        const double length = std::max(regions[i].bytes(), minRegion);
        fold.m_segments.push_back({ regions[i], position, length, false });
        position += length;
    }
    return fold;
}

std::vector<AddressInterval> AddressFold::regions() const
{
    std::vector<AddressInterval> result;
    for (const auto &segment : m_segments) {
        if (!segment.folded)
            result.push_back(segment.addresses);
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
