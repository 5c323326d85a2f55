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
// edges (the axis is cut there, as on a broken-axis chart) and, when tall enough, what it hides.
void paintFoldBands(QPainter &painter, const std::vector<FoldBand> &bands, int width, const QPalette &palette,
    const QFontMetrics &metrics);

// A hollow diamond at each marker position, and the current result circled with guides across the
// plot (`size` pixels).
void paintMarkers(QPainter &painter, const QList<QPoint> &markers, const std::optional<QPointF> &current, QSizeF size,
    const QPalette &palette);

// Both axes around `plot` in a widget `widgetSize` big: ticks, labels, grid lines and titles.
void paintAxes(QPainter &painter, const std::vector<AddressTick> &addressTicks,
    const std::vector<TransitionTick> &transitionTicks, QRect plot, const QPalette &palette,
    const QFontMetrics &metrics);

// The colour legend above the plot, and `detail` (what the image shows) right-aligned beside it.
void paintLegend(
    QPainter &painter, QRect plot, const QString &detail, const QPalette &palette, const QFontMetrics &metrics);

} // namespace memhist::plane
