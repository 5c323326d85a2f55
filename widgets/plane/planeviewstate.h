// SPDX-License-Identifier: MIT
// What the plane shows and where it has been: the history's extent, the current viewport and the
// zoom history (back and forward), with the actions that change them. No widget, no events: the
// widget turns wheel, drag, key and button input into these actions and reacts to what they
// report (Qt Creator's timeline zoom control and KDAB hotspot's FilterAndZoomStack play this part).
// Tested in tests/widgets/tst_planeviewstate.cpp.
#pragma once

#include "widgets/plane/planecoordinates.h"

#include <QList>
#include <Qt>
#include <optional>

namespace memhist::plane {

class PlaneViewState
{
public:
    // At most this many steps back are kept; the oldest go first.
    static constexpr int maxHistory = 100;

    // A new history (or none): its extent, all of it in view, no steps back or forward.
    void reset(const PlaneExtent &extent);

    const PlaneExtent &extent() const { return m_extent; }
    const PlaneViewport &view() const { return m_view; }

    // Makes `view` (clamped to the extent) current. With `recordPrevious`, the view it replaces becomes a
    // step back and the steps forward are dropped. False, and nothing changes, when the clamped view
    // is the current one.
    bool show(const PlaneViewport &view, bool recordPrevious);
    // Records `view` as a step back and drops the steps forward (a drag that panned without
    // recording ends: the whole drag is one step).
    void record(const PlaneViewport &view);
    // The whole history, as a step (false when it is already shown).
    bool home() { return show(m_extent.bounds, true); }
    // The previous view, the current one becoming a step forward; false when there is none.
    bool back();
    // The next view, the current one becoming a step back; false when there is none.
    bool forward();

    bool canGoBack() const { return !m_back.isEmpty(); }
    bool canGoForward() const { return !m_forward.isEmpty(); }
    int backSteps() const { return int(m_back.size()); }

    // The current view zoomed by the factors at `anchor` (see zoomViewport()).
    PlaneViewport zoomed(QPointF anchor, double factorX, double factorY) const;
    // The current view, same size, centred on plane point (x, y) (then clamped by show()).
    PlaneViewport centredOn(double x, double y) const;

private:
    // The view on top of `from` becomes current; the current one goes on top of `to`.
    bool step(QList<PlaneViewport> &from, QList<PlaneViewport> &to);

    PlaneExtent m_extent;
    PlaneViewport m_view;
    QList<PlaneViewport> m_back;
    QList<PlaneViewport> m_forward;
};

// Wheel: one notch (120 units) zooms by this factor.
inline constexpr double wheelZoomPerNotch = 1.25;
// Keyboard +/-: one press zooms by this factor.
inline constexpr double keyZoomFactor = 1.5;
// A rubber band thinner than this many pixels in one direction zooms the other direction only.
inline constexpr double minRubberBandPixels = 5;

// The zoom factors of a wheel turn of `angle` units (> 0 zooms in): both axes, with Ctrl
// transitions (x) only, with Shift addresses (y) only.
struct ZoomFactors
{
    double x = 1;
    double y = 1;
    friend bool operator==(const ZoomFactors &, const ZoomFactors &) = default;
};
ZoomFactors wheelZoomFactors(int angle, Qt::KeyboardModifiers modifiers);

// The viewport a rubber band from `a` to `b` (plot pixels) selects in `mapping`: a band thinner than
// minRubberBandPixels in one direction keeps the current span in that direction; none when it is
// that thin in both (a click, not a band).
std::optional<PlaneViewport> rubberBandViewport(const PixelMapping &mapping, QPointF a, QPointF b);

// The pan of a drag by `delta` pixels over a plot of `plotSize` pixels, as fractions of the view:
// the picture moves with the cursor (right shows earlier transitions, down higher addresses).
QPointF dragPanFractions(QPoint delta, QSize plotSize);

} // namespace memhist::plane
