// SPDX-License-Identifier: MIT
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

#include "core/model/viewrange.h"
#include "core/summary/addressfold.h"

#include <QPointF>
#include <QRect>
#include <QSizeF>
#include <QString>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace memhist::plane {

// The folded address axis lives in core (the display summary bins in the same coordinates).
using summary::AccessHotspot;
using summary::AddressFold;
using summary::AddressInterval;
using summary::FoldOptions;
using summary::FoldSegment;
using summary::mergeIntervals;
using summary::mergeSmallestGaps;
using summary::OccupiedRegionsBuilder;

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

// `view` at the same transitions, its address span zoomed and moved so that the bytes [first, last]
// fill its middle third, centred in display units (so a fold in the margin does not push them off
// centre), at least four zoom limits tall (extent.minHeightAt(), 32 bytes of the object's region);
// then clamped to the extent (at an end of the axis the object is off-centre but in view).
PlaneViewport framedViewport(
    const PlaneViewport &view, const PlaneExtent &extent, std::uint64_t first, std::uint64_t last);

// Moves the view by a fraction of its size (positive dx: later transitions come into view; positive
// dy: higher addresses), clamped to the extent.
PlaneViewport panViewport(const PlaneViewport &view, const PlaneExtent &extent, double dxFraction, double dyFraction);

// The transitions and addresses a viewport shows (inclusive, as ViewRange is) and back. A viewport
// made from a ViewRange covers whole transitions and whole bytes.
ViewRange toViewRange(const PlaneViewport &view, const AddressFold &fold);
PlaneViewport toViewport(const ViewRange &range, const AddressFold &fold);

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

// The pixel rectangle (in a plot of `plot` pixels, origin top-left) of `target`'s transitions and
// bytes, inclusive: at least minTargetPixels wide and tall round its centre (one byte of a whole
// history is far under a pixel), clipped to the plot; nullopt when nothing of it is in view.
inline constexpr int minTargetPixels = 6;
std::optional<QRect> targetRect(
    const ViewRange &target, const PixelMapping &mapping, const AddressFold &fold, QSize plot);

// Axis ticks. The step between transition labels is 1, 2 or 5 times a power of ten and at least
// `minStep` (and at least 1: transitions are integers).
double transitionTickStep(double minStep);
// The step between address labels is a power of two of at least `minStep` bytes (hex labels then
// end in zeros), at least 1.
std::uint64_t addressTickStep(double minStep);

// "4 KiB", "1.5 GiB": a byte count for fold labels.
QString formatByteCount(double bytes);

} // namespace memhist::plane
