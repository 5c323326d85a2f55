// SPDX-License-Identifier: MIT
// Where the plane's axes put their ticks and labels, the folded gaps their bands and the query
// results their markers: lists computed from the view, the fold and the sizes of the texts, drawn by
// planeoverlays and tested on their own (tests/widgets/tst_planeaxes.cpp), as Qt Creator's timeline
// rulers compute their ticks apart from painting them.
#pragma once

#include "core/storage/threadspans.h"
#include "widgets/plane/planecontext.h"
#include "widgets/plane/planecoordinates.h"

#include <QList>
#include <QPoint>
#include <QRect>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace memhist::plane {

// The widest a label of the address axis can be: "0x" and the digits of `widestAddress`, each as
// wide as the widest hex digit, with their group separators.
int addressLabelWidth(std::uint64_t widestAddress, const std::function<int(const QString &)> &textWidth);

// The plot inside a widget of `size`: room on the left for address labels `labelWidth` wide, above
// for the legend and below for the transition labels, with text `lineHeight` pixels high.
QRect plotArea(QSize size, int labelWidth, int lineHeight);

// A labelled tick of the address axis, in widget pixels.
struct AddressTick
{
    int y = 0; // the tick's row
    int labelTop = 0; // the label's row (lineHeight high, right-aligned left of the plot)
    std::uint64_t address = 0;
    bool regionStart = false; // a region's lowest address, where the axis picks up after a fold
    friend bool operator==(const AddressTick &, const AddressTick &) = default;
};

// The address ticks of `view` on `plot`: first each visible region's lowest address at its lower
// edge, then per visible region power-of-two steps at least 2.5 lines apart. A label that would
// overlap one already placed is left out with its tick (and grid line).
std::vector<AddressTick> addressTicks(const PlaneViewport &view, const AddressFold &fold, QRect plot, int lineHeight);

// A tick of the transition axis, at the centre of its transition, in widget pixels.
struct TransitionTick
{
    int x = 0;
    std::uint64_t transition = 0;
    bool labelled = false; // labels that would crowd the previous one are left out
    int labelLeft = 0;
    int labelWidth = 0;
    friend bool operator==(const TransitionTick &, const TransitionTick &) = default;
};

// The transition ticks of `view` on `plot` in a widget `widgetWidth` wide: 1-2-5 steps with room for
// the widest label, labels centred under their ticks, kept inside the widget, 12 pixels apart.
std::vector<TransitionTick> transitionTicks(
    const PlaneViewport &view, QRect plot, int widgetWidth, const std::function<int(const QString &)> &textWidth);

// The band of a folded gap in plot pixels: rows [top, bottom), at least 3 tall.
struct FoldBand
{
    int top = 0;
    int bottom = 0;
    AddressInterval addresses;
    friend bool operator==(const FoldBand &, const FoldBand &) = default;
};
// The bands of the folded gaps that show in `mapping`.
std::vector<FoldBand> foldBands(const AddressFold &fold, const PixelMapping &mapping);

// Query results are marked at most once per cell of this many pixels square: a million results
// cost a million cheap tests, not a million drawn shapes.
inline constexpr int markerCellPixels = 3;
// Markers stand this far (pixels) from their centre; one within it of the plot still shows in part.
inline constexpr int markerRadius = 4;

// Where to draw the markers of `marked` (plot pixels): one per cell, the first access in a cell wins.
QList<QPoint> markerPositions(const QList<Access> &marked, const PixelMapping &mapping, const AddressFold &fold);

// A name placed beside the address axis, inside the plot (plot pixels): the rows [top, bottom) of
// its range's visible part, and its label's row (lineHeight tall, centred on them).
struct RangeLabel
{
    int top = 0;
    int bottom = 0;
    int labelTop = 0;
    QString text;
    friend bool operator==(const RangeLabel &, const RangeLabel &) = default;
};

// The labels of `ranges` in `mapping`: each range whose visible part is at least `lineHeight`
// pixels tall (it fits its name), by priority, then taller ones first (then lower addresses), leaving out a label
// that would come closer than 2 pixels to one already placed. In top-to-bottom order.
std::vector<RangeLabel> rangeLabels(
    const std::vector<NamedRange> &ranges, const PixelMapping &mapping, const AddressFold &fold, int lineHeight);

// The plate a range label's name is drawn on when its bracket stands at column `x` (plot pixels):
// right of the bracket, as wide as the name and 6 pixels more, lineHeight tall.
QRect rangeLabelPlate(
    const RangeLabel &label, int x, int lineHeight, const std::function<int(const QString &)> &textWidth);
// The plates of `labels` with their brackets at column `x`.
std::vector<QRect> rangeLabelPlates(
    const std::vector<RangeLabel> &labels, int x, int lineHeight, const std::function<int(const QString &)> &textWidth);

// What a fold band says it hides, and where (plot pixels, lineHeight tall).
struct FoldCaption
{
    QRect box;
    QString text;
    friend bool operator==(const FoldCaption &, const FoldCaption &) = default;
};
// The captions of `bands` on a plot `width` wide, never over the names of regions and symbols
// (`plates`, which win: a name says what a range is, a caption only that some of it is hidden).
// A band whose visible rows are at least lineHeight + 2 tall gets "<size> without chunks folded",
// centred on those rows, 8 pixels in from the left edge, or 8 pixels right of the last plate that
// comes within 2 pixels of its row. When that does not fit in the plot (8 pixels from its right edge) it gets the
// shorter "<size> folded", and none when neither fits.
std::vector<FoldCaption> foldCaptions(const std::vector<FoldBand> &bands, const std::vector<QRect> &plates, int width,
    int height, int lineHeight, const std::function<int(const QString &)> &textWidth);

// The plot column of the current position's line (the selected access's transition, its centre):
// none when the transition is outside the view.
std::optional<int> currentLineColumn(Transition transition, const PixelMapping &mapping);

// A run of pixel columns [x0, x1) of the thread strip, in the colour of thread index `thread` (in
// AddressNames::threads).
struct ThreadRun
{
    int x0 = 0;
    int x1 = 0;
    int thread = 0;
    friend bool operator==(const ThreadRun &, const ThreadRun &) = default;
};
// The thread strip of `spans` (in time order) in `mapping`: each span's columns, at least one; where
// several spans share a column the later wins; adjacent runs of one thread merged.
std::vector<ThreadRun> threadRuns(
    const QList<ThreadSpan> &spans, const QList<qint64> &threads, const PixelMapping &mapping);

// The thread spans' thread at transition t (spans in time order), none when no span holds it.
std::optional<qint64> threadOf(const QList<ThreadSpan> &spans, Transition t);

} // namespace memhist::plane
