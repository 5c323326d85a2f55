// SPDX-License-Identifier: MIT
// Keeps the planes of two compared runs time aligned: the bottom plane (B) shows the top one's (A)
// visible transitions shifted by an offset, each keeping its own addresses. The offset is 0 at
// first (the same transition numbers) and, once an entry of the comparison is picked, B's
// transition there minus A's, so that scrolling on from an entry keeps both runs' sides of it
// together. Whichever plane the user zooms or scrolls, the other follows; what a follower was told
// to show is not followed back (visibleRangeChanged() comes later, throttled, and may be clamped to
// the follower's shorter history).
#pragma once

#include "core/model/viewrange.h"

#include <QObject>
#include <QPointer>
#include <cstdint>
#include <optional>

namespace memhist {

class PlaneWidget;

class PlaneAlignment : public QObject
{
    Q_OBJECT
public:
    PlaneAlignment(PlaneWidget *top, PlaneWidget *bottom, QObject *parent = nullptr);

    // B's transition minus A's at the same moment of the runs.
    void setOffset(std::int64_t bMinusA) { m_offset = bMinusA; }
    std::int64_t offset() const { return m_offset; }

    // Shows `a` on the top plane and `b` on the bottom one, as one step of each zoom history, and
    // aligns on them (the offset becomes b's first transition minus a's).
    void show(const ViewRange &a, const ViewRange &b);
    // The bottom plane to the top one's transitions now (after B's history has loaded).
    void alignBottom();

    // `range`'s transitions shifted by `offset`, at `addresses`' addresses; saturating at 0 and 2^64 - 1.
    static ViewRange shifted(const ViewRange &range, std::int64_t offset, const ViewRange &addresses);

private:
    void follow(int leader, const ViewRange &range);

    QPointer<PlaneWidget> m_planes[2];
    std::optional<ViewRange> m_told[2]; // what each plane was last told to show by the other
    std::int64_t m_offset = 0;
};

} // namespace memhist
