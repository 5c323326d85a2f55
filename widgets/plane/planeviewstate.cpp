// SPDX-License-Identifier: MIT
#include "widgets/plane/planeviewstate.h"

#include <QSize>
#include <cmath>

namespace memhist::plane {

void PlaneViewState::reset(const PlaneExtent &extent)
{
    m_extent = extent;
    m_view = extent.bounds;
    m_back.clear();
    m_forward.clear();
}

bool PlaneViewState::show(const PlaneViewport &view, bool recordPrevious)
{
    const PlaneViewport clamped = clampViewport(view, m_extent);
    if (clamped == m_view)
        return false;
    if (recordPrevious)
        record(m_view);
    m_view = clamped;
    return true;
}

void PlaneViewState::record(const PlaneViewport &view)
{
    m_back.append(view);
    while (m_back.size() > maxHistory)
        m_back.removeFirst();
    m_forward.clear();
}

bool PlaneViewState::back()
{
    return step(m_back, m_forward);
}

bool PlaneViewState::forward()
{
    return step(m_forward, m_back);
}

bool PlaneViewState::step(QList<PlaneViewport> &from, QList<PlaneViewport> &to)
{
    if (from.isEmpty())
        return false;
    to.append(m_view);
    m_view = clampViewport(from.takeLast(), m_extent);
    return true;
}

PlaneViewport PlaneViewState::zoomed(QPointF anchor, double factorX, double factorY) const
{
    return zoomViewport(m_view, m_extent, anchor, factorX, factorY);
}

PlaneViewport PlaneViewState::centredOn(double x, double y) const
{
    PlaneViewport view = m_view;
    view.left = x - m_view.width() / 2;
    view.right = view.left + m_view.width();
    view.bottom = y - m_view.height() / 2;
    view.top = view.bottom + m_view.height();
    return view;
}

ZoomFactors wheelZoomFactors(int angle, Qt::KeyboardModifiers modifiers)
{
    const double factor = std::pow(wheelZoomPerNotch, angle / 120.0);
    return { (modifiers & Qt::ShiftModifier) ? 1.0 : factor, (modifiers & Qt::ControlModifier) ? 1.0 : factor };
}

std::optional<PlaneViewport> rubberBandViewport(const PixelMapping &mapping, QPointF a, QPointF b)
{
    const bool wide = std::abs(a.x() - b.x()) >= minRubberBandPixels;
    const bool tall = std::abs(a.y() - b.y()) >= minRubberBandPixels;
    if (!wide && !tall)
        return std::nullopt;
    PlaneViewport view = mapping.viewportOf(a, b);
    if (!wide) {
        view.left = mapping.view().left;
        view.right = mapping.view().right;
    }
    if (!tall) {
        view.bottom = mapping.view().bottom;
        view.top = mapping.view().top;
    }
    return view;
}

QPointF dragPanFractions(QPoint delta, QSize plotSize)
{
    return { -double(delta.x()) / plotSize.width(), double(delta.y()) / plotSize.height() };
}

} // namespace memhist::plane
