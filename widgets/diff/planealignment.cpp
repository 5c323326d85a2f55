// SPDX-License-Identifier: MIT
#include "planealignment.h"

#include "widgets/plane/planewidget.h"

namespace memhist {

namespace {

std::uint64_t shiftedBy(std::uint64_t value, std::int64_t offset)
{
    if (offset < 0)
        return value < std::uint64_t(-(offset + 1)) + 1 ? 0 : value - (std::uint64_t(-(offset + 1)) + 1);
    return value > ~std::uint64_t(0) - std::uint64_t(offset) ? ~std::uint64_t(0) : value + std::uint64_t(offset);
}

} // namespace

PlaneAlignment::PlaneAlignment(PlaneWidget *top, PlaneWidget *bottom, QObject *parent)
    : QObject(parent)
    , m_planes { top, bottom }
{
    for (int side = 0; side < 2; ++side)
        connect(m_planes[side], &PlaneWidget::visibleRangeChanged, this,
            [this, side](const ViewRange &range) { follow(side, range); });
}

ViewRange PlaneAlignment::shifted(const ViewRange &range, std::int64_t offset, const ViewRange &addresses)
{
    ViewRange result = addresses;
    result.firstTransition = Transition { shiftedBy(range.firstTransition.value, offset) };
    result.lastTransition = Transition { shiftedBy(range.lastTransition.value, offset) };
    return result;
}

void PlaneAlignment::follow(int leader, const ViewRange &range)
{
    const int follower = 1 - leader;
    if (!m_planes[0] || !m_planes[1] || !m_planes[follower]->isHistoryLoaded())
        return;
    // The leader reporting what it was told (maybe clamped): not a move of the user's.
    const bool told = m_told[leader] && *m_told[leader] == range;
    m_told[leader].reset();
    if (told)
        return;
    PlaneWidget *plane = m_planes[follower];
    const ViewRange current = plane->visibleRange();
    const ViewRange wanted = shifted(range, leader == 0 ? m_offset : -m_offset, current);
    if (wanted.firstTransition == current.firstTransition && wanted.lastTransition == current.lastTransition)
        return;
    // Following is not a move of the user's on this plane: no step of its zoom history.
    plane->setVisibleRange(wanted, false);
    m_told[follower] = plane->visibleRange();
}

void PlaneAlignment::show(const ViewRange &a, const ViewRange &b)
{
    m_offset = std::int64_t(b.firstTransition.value - a.firstTransition.value);
    for (int side = 0; side < 2; ++side) {
        if (!m_planes[side])
            continue;
        m_planes[side]->setVisibleRange(side == 0 ? a : b);
        m_told[side] = m_planes[side]->visibleRange();
    }
}

void PlaneAlignment::alignBottom()
{
    if (m_planes[0] && m_planes[0]->isHistoryLoaded())
        follow(0, m_planes[0]->visibleRange());
}

} // namespace memhist
