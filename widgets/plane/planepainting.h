// The renderer's paint passes: rows in, pixels out, no SQL. Each draws into the render image with
// fillRect and no antialiasing, coalescing what lands on one pixel row of a slice band into one
// rectangle, so that a view costs about one primitive per pixel run whatever it holds.
#pragma once

#include "core/model/types.h"
#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planedetail.h"
#include "widgets/plane/planereads.h"

#include <QColor>
#include <QRect>
#include <functional>
#include <vector>

class QPainter;

namespace memhist::plane {

// The colours of the data, chosen by the widget from its palette.
struct PlaneColors
{
    QColor background;
    QColor alternateBackground; // every other slice band
    QColor sliceEdge;
    QColor read;
    QColor write;
    QColor execute;

    // By operationIndex(): execute, read, write.
    QColor ofOperation(int index) const { return index == 0 ? execute : index == 1 ? read : write; }
};

// A slice band narrower than this is not shaded (it would only flicker while panning) ...
inline constexpr int minShadedBandPixels = 3;
// ... and one narrower than this has no edge line (the edges would hide the data).
inline constexpr int minEdgedBandPixels = 12;
// Once a transition is this wide, its bars leave a one-pixel gap to the next transition's.
inline constexpr int minGappedTransitionPixels = 4;
// Chunks are drawn translucent so that where reads and writes overlap both show; behind single
// accesses they are only a faint hint of the chunk structure.
inline constexpr int chunkAlphaAlone = 190;
inline constexpr int chunkAlphaBehindAccesses = 30;

// The alpha of the chunks of a view drawn as `plan` says.
int chunkAlpha(const DetailPlan &plan);

// The pixel columns [x0, x1) of a slice band in an image `width` pixels wide: at least one pixel.
std::pair<int, int> sliceColumns(const SliceSpan &slice, const PixelMapping &mapping, int width);

// The pixel rectangle of an access's size bar in `mapping` (the same rounding the renderer uses, so
// hit tests agree with what is drawn).
QRect accessBarRect(const Access &access, const PixelMapping &mapping, const AddressFold &fold);

// Every other visible slice (by index, so that the shading does not flicker while panning) on the
// alternate background, with an edge line at its left, when bands are wide enough to be told apart.
void paintSliceBands(QPainter &painter, const HistoryOverview &overview, const DetailPlan &plan,
    const PixelMapping &mapping, const PlaneColors &colors);

// ChunkSource::Coverage: each pixel row of each visible slice band where the coverage has a bin set,
// per operation. False when cancelled (checked once per operation and slice).
bool paintCoverage(QPainter &painter, const HistoryOverview &overview, const DetailPlan &plan,
    const PixelMapping &mapping, const PlaneColors &colors, const std::function<bool()> &cancelled);

// ChunkSource::ChunkRows: the chunks, coalesced per pixel row within each (operation, slice) band.
// `chunks` is grouped by operation, then slice (as readChunks() returns them).
void paintChunks(QPainter &painter, const HistoryOverview &overview, const std::vector<ChunkRow> &chunks,
    const DetailPlan &plan, const PixelMapping &mapping, const PlaneColors &colors);

// Single accesses, opaque, as size bars, in the order given (the last drawn is on top).
void paintAccesses(QPainter &painter, const std::vector<Access> &accesses, const PixelMapping &mapping,
    const AddressFold &fold, const PlaneColors &colors);

} // namespace memhist::plane
