#include "planecoordinates.h"

#include <QStringBuilder>
#include <cmath>
#include <limits>
#include <numeric>

namespace memhist::plane {

namespace {

constexpr std::uint64_t maxAddress = std::numeric_limits<std::uint64_t>::max();

// Bytes strictly between two sorted, disjoint, non-adjacent intervals.
std::uint64_t gapBetween(const AddressInterval &lower, const AddressInterval &upper)
{
    return upper.first - lower.last - 1;
}

// Brings [start, start + span) inside [low, high) by shifting it (span <= high - low).
void shiftInside(double &start, double &end, double span, double low, double high)
{
    if (start < low)
        start = low;
    if (start + span > high)
        start = high - span;
    end = start + span;
}

} // namespace

std::vector<AddressInterval> mergeIntervals(std::vector<AddressInterval> intervals)
{
    for (auto &interval : intervals) {
        if (interval.first > interval.last)
            std::swap(interval.first, interval.last);
    }
    std::sort(intervals.begin(), intervals.end(),
        [](const AddressInterval &a, const AddressInterval &b) { return a.first < b.first; });
    std::vector<AddressInterval> merged;
    merged.reserve(intervals.size());
    for (const auto &interval : intervals) {
        if (!merged.empty()) {
            AddressInterval &back = merged.back();
            // Overlapping, or adjacent (back.last + 1 would wrap when back ends at 2^64 - 1, but then
            // everything after it overlaps it anyway).
            if (interval.first <= back.last || (back.last != maxAddress && interval.first == back.last + 1)) {
                back.last = std::max(back.last, interval.last);
                continue;
            }
        }
        merged.push_back(interval);
    }
    return merged;
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
    m_pending.reserve(std::min<std::size_t>(m_batchSize, std::size_t(1) << 20));
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
    m_merged = mergeIntervals(std::move(m_pending));
    m_pending = {};
    if (m_merged.size() > m_compactAbove)
        m_merged = mergeSmallestGaps(m_merged, m_merged.size() - m_compactAbove / 2);
}

std::vector<AddressInterval> OccupiedRegionsBuilder::finish()
{
    flush();
    double occupied = 0;
    for (const auto &interval : m_merged)
        occupied += interval.bytes();
    const double threshold = std::max(double(m_options.minFoldedGap), m_options.minFoldedGapFraction * occupied);

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
    const std::vector<AddressInterval> regions = mergeIntervals(input);
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
    const FoldSegment &segment = m_segments[std::size_t(segmentIndexOf(address))];
    return segment.displayStart + double(address - segment.addresses.first) * segment.scale();
}

double AddressFold::toDisplayEnd(std::uint64_t address) const
{
    address = std::clamp(address, firstAddress(), lastAddress());
    const FoldSegment &segment = m_segments[std::size_t(segmentIndexOf(address))];
    if (address == segment.addresses.last)
        return segment.displayEnd(); // exact, whatever the rounding of the multiplication below
    return segment.displayStart + double(address - segment.addresses.first + 1) * segment.scale();
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

PlaneExtent extentFor(std::optional<Transition> first, std::optional<Transition> last, const AddressFold &fold)
{
    PlaneExtent extent;
    extent.fold = fold;
    if (first && last && first->value <= last->value) {
        extent.bounds.left = double(first->value);
        extent.bounds.right = double(last->value) + 1.0;
    } else {
        extent.bounds.left = 0;
        extent.bounds.right = 1;
    }
    extent.bounds.bottom = 0;
    extent.bounds.top = fold.displayLength();
    return extent;
}

double PlaneExtent::minHeightAt(double display) const
{
    const FoldSegment &segment = fold.segments()[std::size_t(fold.segmentIndexAtDisplay(display))];
    // In a folded gap a byte is a sliver of a display unit: limit by display units there instead.
    return std::min(minBytes * std::max(segment.scale(), 1.0), bounds.height());
}

PlaneViewport clampViewport(PlaneViewport view, const PlaneExtent &extent)
{
    const PlaneViewport &b = extent.bounds;
    // A degenerate or non-finite viewport (a zero-sized widget, a NaN from a division) shows all.
    if (!(view.width() > 0) || !std::isfinite(view.width()) || !(view.height() > 0) || !std::isfinite(view.height()))
        return b;
    const double width = std::clamp(view.width(), extent.effectiveMinWidth(), b.width());
    const double centreY = (view.bottom + view.top) / 2;
    const double height = std::clamp(view.height(), extent.minHeightAt(centreY), b.height());
    double left = (view.left + view.right) / 2 - width / 2;
    double bottom = centreY - height / 2;
    shiftInside(left, view.right, width, b.left, b.right);
    shiftInside(bottom, view.top, height, b.bottom, b.top);
    view.left = left;
    view.bottom = bottom;
    return view;
}

PlaneViewport zoomViewport(
    const PlaneViewport &view, const PlaneExtent &extent, QPointF anchor, double factorX, double factorY)
{
    const PlaneViewport &b = extent.bounds;
    PlaneViewport result = view;
    if (factorX > 0 && factorX != 1) {
        const double anchorX = view.left + anchor.x() * view.width();
        const double width = std::clamp(view.width() / factorX, extent.effectiveMinWidth(), b.width());
        double left = anchorX - anchor.x() * width;
        shiftInside(left, result.right, width, b.left, b.right);
        result.left = left;
    }
    if (factorY > 0 && factorY != 1) {
        const double anchorY = view.bottom + anchor.y() * view.height();
        const double height = std::clamp(view.height() / factorY, extent.minHeightAt(anchorY), b.height());
        double bottom = anchorY - anchor.y() * height;
        shiftInside(bottom, result.top, height, b.bottom, b.top);
        result.bottom = bottom;
    }
    return result;
}

PlaneViewport panViewport(const PlaneViewport &view, const PlaneExtent &extent, double dxFraction, double dyFraction)
{
    PlaneViewport result = view;
    double left = view.left + dxFraction * view.width();
    double bottom = view.bottom + dyFraction * view.height();
    shiftInside(
        left, result.right, std::min(view.width(), extent.bounds.width()), extent.bounds.left, extent.bounds.right);
    shiftInside(
        bottom, result.top, std::min(view.height(), extent.bounds.height()), extent.bounds.bottom, extent.bounds.top);
    result.left = left;
    result.bottom = bottom;
    return result;
}

ViewRange toViewRange(const PlaneViewport &view, const AddressFold &fold)
{
    ViewRange range;
    const double left = std::max(view.left, 0.0);
    range.firstTransition = Transition { std::uint64_t(std::floor(left)) };
    // [left, right) is half-open: a right edge on a transition boundary excludes that transition.
    const double lastTransition = std::ceil(view.right) - 1;
    range.lastTransition
        = Transition { std::max(range.firstTransition.value, lastTransition > 0 ? std::uint64_t(lastTransition) : 0) };
    range.firstAddress = Address { fold.toAddress(view.bottom) };
    // The top edge is exclusive too: the last byte is the one just below it. At the axis' end that
    // is the last address itself (computed, not divided back: near 2^64 a double cannot tell the
    // last few thousand addresses apart).
    const std::uint64_t top
        = view.top >= fold.displayLength() ? fold.lastAddress() : fold.toAddress(std::nextafter(view.top, view.bottom));
    range.lastAddress = Address { std::max(range.firstAddress.value, top) };
    return range;
}

PlaneViewport toViewport(const ViewRange &range, const AddressFold &fold)
{
    PlaneViewport view;
    view.left = double(range.firstTransition.value);
    view.right = double(std::max(range.lastTransition.value, range.firstTransition.value)) + 1.0;
    view.bottom = fold.toDisplay(range.firstAddress.value);
    view.top = fold.toDisplayEnd(std::max(range.lastAddress.value, range.firstAddress.value));
    return view;
}

PlaneViewport PixelMapping::viewportOf(QPointF a, QPointF b) const
{
    PlaneViewport view;
    view.left = pixelToX(std::min(a.x(), b.x()));
    view.right = pixelToX(std::max(a.x(), b.x()));
    view.top = pixelToY(std::min(a.y(), b.y()));
    view.bottom = pixelToY(std::max(a.y(), b.y()));
    return view;
}

double transitionTickStep(double minStep)
{
    if (!(minStep > 1))
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(minStep)));
    for (const double multiple : { 1.0, 2.0, 5.0, 10.0 }) {
        if (multiple * power >= minStep)
            return multiple * power;
    }
    return 10 * power;
}

std::uint64_t addressTickStep(double minStep)
{
    if (!(minStep > 1))
        return 1;
    if (minStep >= 0x1p63)
        return std::uint64_t(1) << 63;
    std::uint64_t step = 1;
    while (double(step) < minStep)
        step <<= 1;
    return step;
}

QString formatAddress(std::uint64_t address)
{
    const QString digits = QString::number(address, 16);
    QString grouped;
    grouped.reserve(digits.size() + digits.size() / 4 + 2);
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 4 == 0)
            grouped += u'\'';
        grouped += digits.at(i);
    }
    return QStringLiteral("0x") + grouped;
}

QString formatTransition(std::uint64_t transition)
{
    const QString digits = QString::number(transition);
    QString grouped;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            grouped += u',';
        grouped += digits.at(i);
    }
    return grouped;
}

QString formatByteCount(double bytes)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int unit = 0;
    while (bytes >= 1024 && unit < 6) {
        bytes /= 1024;
        ++unit;
    }
    const int decimals = (unit == 0 || bytes >= 10) ? 0 : 1;
    return QString::number(bytes, 'f', decimals) + u' ' + QLatin1String(units[unit]);
}

} // namespace memhist::plane
