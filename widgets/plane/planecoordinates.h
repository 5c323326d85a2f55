// The coordinate maths of the transition x address plane, free of widgets and of the database so
// that every edge case can be tested on its own (tests/widgets/tst_planecoordinates.cpp).
//
// Three spaces meet here:
// - data space: a Transition (x) and an Address (y), both unsigned 64-bit;
// - plane space: doubles. x is the transition itself (transition t covers [t, t + 1)); y is a
//   "display" coordinate: the address after the empty gaps between occupied regions have been
//   folded to thin bands (AddressFold). Plane space is linear in both directions, so an image
//   rendered for one viewport is shown for another one by a plain scale and translation;
// - pixel space: a viewport (PlaneViewport) stretched over a pixel rectangle, addresses growing
//   upward as in the storage model's diagram (pixel y grows downward, hence the flip).
#pragma once

#include "common/viewrange.h"

#include <QPointF>
#include <QSizeF>
#include <QString>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace memhist::plane {

// An inclusive range of addresses.
struct AddressInterval
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;

    // The byte count as a double: [0, 2^64 - 1] holds 2^64 bytes, which no uint64 can hold.
    double bytes() const { return double(last - first) + 1.0; }
    friend bool operator==(const AddressInterval &, const AddressInterval &) = default;
};

// When an empty gap between occupied addresses is folded.
struct FoldOptions
{
    // A gap is folded only when it is at least this large in bytes (a gap of a few pages inside a
    // library or between heap blocks is part of the picture, not something to hide) ...
    std::uint64_t minFoldedGap = 64 * 1024;
    // ... and at least this fraction of all occupied bytes (a 1 MiB hole in a 16 GiB heap is not).
    double minFoldedGapFraction = 0.02;
    // At most this many occupied regions: the smallest remaining gaps are merged first. Keeps the
    // axis readable and the fold bands few whatever the address layout.
    int maxRegions = 32;
};

// Merges a stream of chunk ranges (in any order) into the occupied regions of a history, the input
// of AddressFold. Memory stays bounded however many chunks are streamed: ranges are buffered, and
// every `batchSize` of them are sorted and merged into the regions found so far; when more than
// `compactAbove` disjoint regions accumulate, the smallest gaps among them are merged early (they
// are the first the final cap would merge, except when later chunks shrink the larger gaps below
// them: with more than `compactAbove` disjoint regions the result is then approximate).
class OccupiedRegionsBuilder
{
public:
    explicit OccupiedRegionsBuilder(FoldOptions options = {}, std::size_t batchSize = std::size_t(1) << 20,
        std::size_t compactAbove = std::size_t(1) << 16);

    // first <= last is expected; a reversed range is swapped (the checker reports such chunks, the
    // viewer still shows them).
    void add(std::uint64_t first, std::uint64_t last);
    // The occupied regions, sorted, disjoint, separated by gaps that are all folded (each at least
    // the threshold of FoldOptions), at most options.maxRegions of them. Empty when nothing was
    // added (an empty history).
    std::vector<AddressInterval> finish();

    std::size_t added() const { return m_added; }

private:
    void flush();

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
};

// The folded address axis: address <-> display coordinate, monotonic in both directions.
//
// Layout: each occupied region gets a display length of its byte count, but at least a share of the
// whole (so that an 8 KiB stack stays visible next to a 64 MiB heap); each folded gap gets a small
// fixed share, whatever its size. Within a segment the mapping is linear.
//
// Edge cases:
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
    };

    AddressFold(); // the empty history's identity axis
    explicit AddressFold(const std::vector<AddressInterval> &regions) { *this = fromRegions(regions, Layout {}); }
    static AddressFold fromRegions(const std::vector<AddressInterval> &regions, const Layout &layout);

    bool isEmpty() const { return m_regionCount == 0; }
    int regionCount() const { return m_regionCount; }
    const std::vector<FoldSegment> &segments() const { return m_segments; }
    // The occupied regions in address order (the unfolded segments).
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

// The part of plane space shown: [left, right) transitions x [bottom, top) display units.
struct PlaneViewport
{
    double left = 0;
    double right = 1;
    double bottom = 0;
    double top = 1;

    double width() const { return right - left; }
    double height() const { return top - bottom; }
    friend bool operator==(const PlaneViewport &, const PlaneViewport &) = default;
};

// What the viewport may show: the whole history, and how far it may zoom in.
//
// Edge cases:
// - Empty history: extentFor() gives [0, 1) x the empty fold's axis; there is nothing to draw.
// - Single-transition history: the extent is [t, t + 1), narrower than minWidth: the zoom limit
//   becomes the extent itself (a history is never shown narrower than it is).
// - Zoom limit: at least minWidth transitions and minBytes bytes stay visible, so that the view
//   never magnifies a fraction of a transition or a byte into a blur. Regions have different
//   scales (a small region is stretched to stay visible), so the height limit in display units
//   depends on the region at the zoom's anchor.
struct PlaneExtent
{
    PlaneViewport bounds;
    AddressFold fold;
    double minWidth = 8;
    double minBytes = 8;

    double effectiveMinWidth() const { return std::min(minWidth, bounds.width()); }
    // The smallest viewport height (display units) around display coordinate `display`.
    double minHeightAt(double display) const;
};

// The extent of a history with transitions [first, last] (none when the history is empty) over
// `fold`.
PlaneExtent extentFor(std::optional<Transition> first, std::optional<Transition> last, const AddressFold &fold);

// Returns `view` with each span brought into [effective minimum, extent span] around its centre,
// then shifted (not resized) to lie inside the extent.
PlaneViewport clampViewport(PlaneViewport view, const PlaneExtent &extent);

// Zooms by `factorX` and `factorY` (> 1 zooms in, < 1 out, 1 leaves that axis alone) keeping the
// plane point under `anchor` where it is. `anchor` is a fraction of the viewport: (0, 0) is its
// bottom-left corner, (1, 1) its top-right one. The anchor holds exactly unless the result had to
// be clamped: at the zoom limit the spans stop shrinking (and the anchor still holds), at the edge
// of the history the view is shifted back inside, so the anchor moves by that shift.
PlaneViewport zoomViewport(
    const PlaneViewport &view, const PlaneExtent &extent, QPointF anchor, double factorX, double factorY);

// Moves the view by a fraction of its size (positive dx: later transitions come into view; positive
// dy: higher addresses), clamped to the extent.
PlaneViewport panViewport(const PlaneViewport &view, const PlaneExtent &extent, double dxFraction, double dyFraction);

// The transitions and addresses a viewport shows (inclusive, as ViewRange is) and back. A viewport
// made from a ViewRange covers whole transitions and whole bytes.
ViewRange toViewRange(const PlaneViewport &view, const AddressFold &fold);
PlaneViewport toViewport(const ViewRange &range, const AddressFold &fold);

// The last byte an access covers, saturating at 2^64 - 1 (Access::lastByte() wraps past it); an
// access of size 0 covers one byte.
constexpr std::uint64_t lastByteOf(const Access &access)
{
    const std::uint64_t size = std::max<std::uint32_t>(access.size, 1);
    return access.physical.value > ~std::uint64_t(0) - (size - 1) ? ~std::uint64_t(0)
                                                                  : access.physical.value + size - 1;
}

// A viewport stretched over a pixel rectangle of `pixels` (origin top-left, y down).
class PixelMapping
{
public:
    PixelMapping() = default;
    PixelMapping(const PlaneViewport &view, QSizeF pixels)
        : m_view(view)
        , m_pixels(pixels)
    { }

    const PlaneViewport &view() const { return m_view; }
    QSizeF pixels() const { return m_pixels; }

    double xToPixel(double x) const { return (x - m_view.left) / m_view.width() * m_pixels.width(); }
    double pixelToX(double px) const { return m_view.left + px / m_pixels.width() * m_view.width(); }
    // Addresses grow upward: the viewport's top is pixel row 0.
    double yToPixel(double y) const { return (m_view.top - y) / m_view.height() * m_pixels.height(); }
    double pixelToY(double py) const { return m_view.top - py / m_pixels.height() * m_view.height(); }

    // The viewport-relative fraction of a pixel position, as zoomViewport() takes it.
    QPointF anchorAt(QPointF pixel) const
    {
        return { pixel.x() / m_pixels.width(), 1.0 - pixel.y() / m_pixels.height() };
    }
    // The viewport covering the pixel rectangle spanned by two corners (in any order).
    PlaneViewport viewportOf(QPointF a, QPointF b) const;

private:
    PlaneViewport m_view;
    QSizeF m_pixels { 1, 1 };
};

// Axis ticks. The step between transition labels is 1, 2 or 5 times a power of ten and at least
// `minStep` (and at least 1: transitions are integers).
double transitionTickStep(double minStep);
// The step between address labels is a power of two of at least `minStep` bytes (hex labels then
// end in zeros), at least 1.
std::uint64_t addressTickStep(double minStep);

// "0x7ffd'4c3b'a000": lowercase hex, digits grouped by four from the right for reading.
QString formatAddress(std::uint64_t address);
// "12,345,678": decimal, groups of three.
QString formatTransition(std::uint64_t transition);
// "4 KiB", "1.5 GiB": a byte count for fold labels.
QString formatByteCount(double bytes);

} // namespace memhist::plane
