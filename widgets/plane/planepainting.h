// SPDX-License-Identifier: MIT
// The renderer's paint passes: rows in, pixels out, no SQL. Each draws into the render image with
// fillRect and no antialiasing, coalescing what lands on one pixel row of a slice band into one
// rectangle, so that a view costs about one primitive per pixel run whatever it holds. Chunks are
// first weighed per pixel and operation into an OperationRaster (planeoperationraster.h), which
// paints each pixel once with every operation visible in its proportion.
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
class OperationRaster;
}

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
// Chunks are drawn translucent over the slice bands; behind single accesses they are only a faint
// hint of the chunk structure, as long as the view holds few accesses ...
inline constexpr int chunkAlphaAlone = 190;
inline constexpr int chunkAlphaBehindAccesses = 30;
// ... and from this share of the access limit on they deepen, and the accesses fade, so that the
// picture changes gradually as a zoom crosses the limit (issue 13, 4e): at the limit the chunks
// behind the accesses are as deep as chunks alone, and the accesses as translucent.
inline constexpr double fadeStartShare = 0.25;

// How far a view's accesses are into the fade: 0 up to fadeStartShare of `limit`, 1 at the limit
// (and past it), smoothly (smoothstep) between.
double accessFade(double estimatedAccesses, double limit);

// The alpha of the chunks of a view drawn as `plan` says, with `limit` the access detail limit it
// was planned with.
int chunkAlpha(const DetailPlan &plan, double limit = DetailLimits {}.accessDetailLimit);
// The alpha of its single accesses (255 well below the limit, chunkAlphaAlone at it).
int accessAlpha(const DetailPlan &plan, double limit = DetailLimits {}.accessDetailLimit);

// Whether a view's single accesses, drawn as `plan` says, still stand out from the chunks behind
// them: accesses are drawn and less than half faded. Past that the chunks are nearly as deep as
// alone and the accesses as translucent, so that the picture reads as chunk fill (the legend says
// so: a view just under the access limit looks like one just over it).
bool accessesStandOut(const DetailPlan &plan, double limit = DetailLimits {}.accessDetailLimit);

// The pixel columns [x0, x1) of a slice band in an image `width` pixels wide: at least one pixel.
std::pair<int, int> sliceColumns(const SliceSpan &slice, const PixelMapping &mapping, int width);

// The pixel rectangle of an access's size bar in `mapping` (the same rounding the renderer uses, so
// hit tests agree with what is drawn).
QRect accessBarRect(const Access &access, const PixelMapping &mapping, const AddressFold &fold);

// Every other visible slice (by index, so that the shading does not flicker while panning) on the
// alternate background, with an edge line at its left, when bands are wide enough to be told apart.
void paintSliceBands(QPainter &painter, const HistoryOverview &overview, const DetailPlan &plan,
    const PixelMapping &mapping, const PlaneColors &colors);

// The accesses of operation `op` (operationIndex()) in the history.
qint64 accessesOf(const HistoryOverview &overview, int op);

// ChunkSource::Coverage: each pixel row of each visible slice band where the coverage has a bin set,
// per operation, weighed by the chunks the coverage estimates there times the operation's accesses
// per chunk over the history. False when cancelled (checked
// once per operation and slice).
bool addCoverage(OperationRaster &raster, const HistoryOverview &overview, const DetailPlan &plan,
    const PixelMapping &mapping, const std::function<bool()> &cancelled);

// ChunkSource::ChunkRows: the chunks, counted per pixel row within each (operation, slice) band. A
// chunk row tells nothing of its accesses: each stands for an equal share of its operation's
// accesses over the history (the operation's accesses / its chunks among `chunks`), so that an
// operation's weight in the view is its share of the accesses wherever its chunks are spread alike,
// spread evenly over the chunk's pixel rows.
// `chunks` is grouped by operation, then slice (as readChunks() returns them).
void addChunks(OperationRaster &raster, const HistoryOverview &overview, const std::vector<ChunkRow> &chunks,
    const PixelMapping &mapping);

// Chunk rows as the faint hint behind single accesses well below the access limit (chunkAlpha() is
// chunkAlphaBehindAccesses there): each (operation, slice) band's rows as translucent rectangles,
// one operation after another. At that alpha the operations' proportions are the accesses' to
// show, and this costs a fraction of an OperationRaster on views of a few hundred accesses.
void paintFaintChunks(QPainter &painter, const HistoryOverview &overview, const std::vector<ChunkRow> &chunks,
    const PixelMapping &mapping, const PlaneColors &colors, int alpha);

// Single accesses as size bars at `alpha` (opaque by default), in the order given (the last drawn is
// on top).
void paintAccesses(QPainter &painter, const std::vector<Access> &accesses, const PixelMapping &mapping,
    const AddressFold &fold, const PlaneColors &colors, int alpha = 255);

} // namespace memhist::plane
