// SPDX-License-Identifier: MIT
// The plane's thread filter (issue 13 item 3): with threads chosen in the query panel's thread
// filter, the plane keeps only the accesses of the transitions those threads ran, exactly as
// HalfAxisQuery::threads (`memhist query --thread N`) does: an access at a transition no span covers
// belongs to no thread and is dropped. Chunks and summary density record no threads, so where they
// are drawn the transitions other threads ran are dimmed instead (the legend says which).
//
// The chosen threads' spans are read on the render thread, through the engine's thread_spans
// statements (core/storage/threadspanstatements.h), and only when a filter is set: without one the
// renderer does no extra work at all.
#pragma once

#include "core/model/types.h"
#include "core/storage/threadspans.h"
#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planedetail.h"

#include <QColor>
#include <QList>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

class QPainter;

namespace memhist::sqlite {
class Connection;
}

namespace memhist::plane {

// How deep the transitions of other threads are dimmed over chunks and density: the background
// colour at this alpha over a column no chosen thread ran, less over a column they partly ran.
inline constexpr int otherThreadsDimAlpha = 200;

// The transitions a thread filter keeps within a window of transitions.
struct KeptTransitions
{
    QList<qint64> threads; // the filter; empty: no filter, everything is kept
    std::vector<ThreadSpan> spans; // the chosen threads' spans overlapping the window, in time order

    bool isFiltered() const { return !threads.isEmpty(); }
    // Whether transition `t` is kept: always without a filter; with one, when a chosen thread's
    // span holds it (binary search: spans of one timeline never overlap).
    bool keeps(Transition t) const;
};

// Span rows between two cancellation checks (a zoomed-out view of a long history meets many).
inline constexpr qint64 spanRowsPerCancelCheck = 4096;

// The spans of `threads` overlapping `window`, read through `db` (a history's connection). A history
// without thread_spans keeps nothing (a filter there matches nothing, as in the engine). Null on a
// database error or when `cancelled()` turns true.
std::optional<KeptTransitions> readKeptTransitions(sqlite::Connection &db, const QList<qint64> &threads,
    const TransitionWindow &window, const std::function<bool()> &cancelled);

// Drops the accesses whose transition `kept` does not keep, keeping the order of the others.
void keepThreadAccesses(std::vector<Access> *accesses, const KeptTransitions &kept);

// For each of the `columns` pixel columns of `mapping`, the share (0..1) of its transitions that
// `kept`'s spans cover. All 1 without a filter.
std::vector<double> keptShareByColumn(const KeptTransitions &kept, const PixelMapping &mapping, int columns);

// Dims the columns of transitions other threads ran (keptShareByColumn()) with `background` at up
// to otherThreadsDimAlpha, one rectangle per run of equally dimmed columns. Nothing without a filter.
void dimOtherThreads(QPainter &painter, const KeptTransitions &kept, const PixelMapping &mapping, QColor background);

// What the legend says about a filter: "thread 4 only" where single accesses are drawn, "thread 4:
// other threads dimmed" where chunks are; empty without a filter.
QString threadFilterLegend(const QList<qint64> &threads, bool accessDetail);

} // namespace memhist::plane
