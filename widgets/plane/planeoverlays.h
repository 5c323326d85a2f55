// SPDX-License-Identifier: MIT
// What the plane widget paints over and around the rendered image: the folded gaps, the markers of
// the query results and the current result, the axes and the legend, from the lists planeaxes
// computes, in the colours of the widget's palette.
#pragma once

#include "widgets/plane/planeaxes.h"
#include "widgets/plane/planepainting.h"

#include <QFontMetrics>
#include <QPalette>
#include <optional>

class QPainter;

namespace memhist::plane {

// Read, write and execute colours that keep their contrast on the palette's base colour, with the
// backgrounds of the slice bands.
PlaneColors planeColors(const QPalette &palette);

// The bands of the folded gaps across a plot `width` pixels wide, each with a zig-zag along both
// edges (the axis is cut there, as on a broken-axis chart), and `captions` (foldCaptions()): what
// they hide.
void paintFoldBands(QPainter &painter, const std::vector<FoldBand> &bands, const std::vector<FoldCaption> &captions,
    int width, const QPalette &palette);

// A hollow diamond at each marker position, and the current result circled with guides across the
// plot (`size` pixels).
void paintMarkers(QPainter &painter, const QList<QPoint> &markers, const std::optional<QPointF> &current, QSizeF size,
    const QPalette &palette);

// An origin tree's memory hops at `points`, each joined by a line to the point `joins` names (-1:
// none), a dot at each and a ring round the first (the access asked about).
void paintOriginPath(QPainter &painter, const QList<QPointF> &points, const QList<int> &joins, const QPalette &palette);

// Where Go to Address or Symbol went: a two-pixel outline in the highlight colour round `outline`
// (targetRect()) with a faint fill, drawn over the markers.
void paintTargetOutline(QPainter &painter, QRect outline, const QPalette &palette);

// Both axes around `plot` in a widget `widgetSize` big: ticks, labels, grid lines and titles.
void paintAxes(QPainter &painter, const std::vector<AddressTick> &addressTicks,
    const std::vector<TransitionTick> &transitionTicks, QRect plot, const QPalette &palette,
    const QFontMetrics &metrics);

// The colour of thread index `index` (AddressNames::threads): eight hues apart from the operations'
// blue, orange and green, then round again.
QColor threadColor(int index, const QPalette &palette);
// The thread strip's height in pixels, along the bottom of the plot.
inline constexpr int threadStripPixels = 6;

// The names of regions (at column `x` of the plot) or symbols: a bracket along each range's rows
// and its name beside it on a translucent plate (rangeLabelPlate()).
void paintRangeLabels(QPainter &painter, const std::vector<RangeLabel> &labels, int x, const QPalette &palette,
    const QFontMetrics &metrics);

// The current position: a line down the plot at `column` and the transition on a tag at its top.
void paintCurrentLine(QPainter &painter, int column, Transition transition, QSizeF size, const QPalette &palette,
    const QFontMetrics &metrics);

// Which thread ran each column: a strip along the bottom of a plot `size` big. With `chosen` (the
// thread filter's indexes into AddressNames::threads; empty: no filter), the other threads' runs are
// faded, as the plane dims their transitions, so that the chosen threads' stand out.
void paintThreadStrip(QPainter &painter, const std::vector<ThreadRun> &runs, QSizeF size, const QPalette &palette,
    const QList<int> &chosen = {});
// The alpha of a thread the filter leaves out, in the thread strip.
inline constexpr int fadedThreadAlpha = 50;

// The colour legend above the plot, then `threads` (ids, each in threadColor() of its index; at most
// a few, then how many more) and `detail` (what the image shows) right-aligned beside it.
void paintLegend(QPainter &painter, QRect plot, const QString &detail, const QPalette &palette,
    const QFontMetrics &metrics, const QList<qint64> &threads = {});

} // namespace memhist::plane
