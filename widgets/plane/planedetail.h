// SPDX-License-Identifier: MIT
// The level of detail of one view of the plane: which slices it shows, how many chunks and accesses
// it is estimated to hold, and from that what the renderer reads and draws. A pure function of the
// history's overview, the view and one figure read from the database (the rows of the visible
// transitions), so that every decision can be tested on its own (tests/widgets/tst_planerenderer).
//
// The ways of drawing, from coarse to fine:
// - coverage: the history's display summary (its tiles, read for the view), or without one the
//   per-slice coverage bits of the overview, stand in for the chunk rows (no row is read) when
//   there are too many chunks to read and a bin is about a pixel tall;
// - chunk rows: the visible chunks, read through idx_chunks_1;
// - single accesses over the chunks, either by a sequential scan of the visible transitions' rows
//   or by one query per visible chunk, whichever reads less.
#pragma once

#include "core/summary/tilereader.h"
#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planeoverview.h"

#include <QSize>
#include <cstdint>

namespace memhist::plane {

// The thresholds of the decision. The defaults suit a real display; tests lower them so that every
// way of drawing runs on a history of a few hundred accesses.
struct DetailLimits
{
    // Single accesses are drawn only when the view is estimated to hold at most this many ...
    double accessDetailLimit = 150000;
    // ... and when reading them costs at most this many row-equivalents (~60 ms): beyond it a view
    // shows chunks, however few accesses it is estimated to hold.
    double accessCostBudget = 400000;
    // A chunk scan or a per-chunk access query costs about as much as reading this many rows in
    // order.
    double perQueryCost = 20;
    // Beyond this many chunks a view is drawn from the coverage rather than from chunk rows (when
    // the coverage is fine enough for the view): about 50 ms of index reads.
    double chunkReadLimit = 60000;
    // The coverage is fine enough when a bin is at most this many pixels tall ...
    double coverageMaxPixelsPerBin = 1.5;
    // ... or, with more than coarseCoverageChunkFactor x chunkReadLimit chunks, at most this many:
    // coarse beats slow.
    double coarseCoverageMaxPixelsPerBin = 4;
    double coarseCoverageChunkFactor = 4;
};

// Where the chunks of a view come from.
enum class ChunkSource {
    None, // no slice is visible
    Coverage, // the display summary's tiles, or the overview's per-slice coverage bits
    ChunkRows, // chunk rows read from the database
};

// Where the single accesses of a view come from, if they are drawn at all.
enum class AccessSource {
    None, // too many: the view shows chunks only
    RowScan, // every row of the visible transitions, in rowid order, filtered by address
    ChunkQueries, // one query per visible chunk, through (chunk_id, transition)
};

// The transitions a viewport shows, as whole transitions (inclusive).
struct TransitionWindow
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;
};
TransitionWindow visibleTransitions(const PlaneViewport &view);

// The addresses a viewport shows (inclusive): from the byte at its bottom edge to the byte just
// below its top edge (or the axis' last address when the top edge is the axis' end).
struct AddressWindow
{
    std::uint64_t first = 0;
    std::uint64_t last = 0;
};
AddressWindow visibleAddresses(const PlaneViewport &view, const AddressFold &fold);

struct DetailPlan
{
    // The visible slices: indexes [firstSlice, endSlice) into the overview's slices.
    std::size_t firstSlice = 0;
    std::size_t endSlice = 0;
    TransitionWindow transitions;
    AddressWindow addresses;
    // Both 0 when the overview has no coverage (then chunk rows are read for every visible slice).
    // The accesses never exceed the rows of the visible transitions.
    double estimatedChunks = 0;
    double estimatedAccesses = 0;
    // The height of one coverage bin in pixels (0 without coverage).
    double pixelsPerBin = 0;
    ChunkSource chunks = ChunkSource::None;
    AccessSource accesses = AccessSource::None;

    bool accessDetail() const { return accesses != AccessSource::None; }
    friend bool operator==(const DetailPlan &, const DetailPlan &) = default;
};

// Whether the overview has per-slice coverage to estimate and draw from.
bool hasCoverage(const HistoryOverview &overview);

// The coverage bins [first, last] under display range [bottom, top) of coverage with `bins` bins at
// `binsPerDisplay` bins per display unit: at least one bin, clamped to the axis.
std::pair<int, int> coverageBins(double bottom, double top, int bins, double binsPerDisplay);
// Bins per display unit of the overview's coverage (0 without coverage).
double coverageBinsPerDisplay(const HistoryOverview &overview);

// The visible slices, transitions and addresses of `view`: the first fields of a plan.
DetailPlan visiblePart(const HistoryOverview &overview, const PlaneViewport &view);

// The summary tiles a view is drawn from, for an overview with a display summary: the coarsest
// time level whose tiles are at most two pixels wide and the coarsest address level whose bins are at
// most `maxPixelsPerBin` tall (or the finest there is), over the plan's visible slices and the
// view's display range.
struct SummaryView
{
    summary::TileWindow window;
    double pixelsPerBin = 0; // the height of one bin of window.addressLevel, in pixels
};
SummaryView summaryView(const HistoryOverview &overview, const DetailPlan &visible, const PlaneViewport &view,
    QSize pixels, double maxPixelsPerBin);

// What the summary's tiles say a view holds.
struct SummaryEstimate
{
    double chunks = 0;
    double accesses = 0;
};

// Decides how to draw `view` at `pixelHeight` pixels, given `rowsInRange`, the number of rows the
// visible transitions span in the accesses table (the cost of scanning them in order).
//
// Per-chunk access queries need the chunk rows: when they are chosen, the coverage never stands in
// for the chunks (with the default limits the two never meet: a view with more chunks than
// chunkReadLimit costs more than accessCostBudget to query per chunk).
DetailPlan planDetail(const HistoryOverview &overview, const PlaneViewport &view, int pixelHeight, double rowsInRange,
    const DetailLimits &limits = {});
// The same for an overview with a display summary: the estimates come from the summary's tiles of
// the view (`pixelsPerBin` tall), read before deciding.
DetailPlan planDetail(const HistoryOverview &overview, const PlaneViewport &view, double rowsInRange,
    const SummaryEstimate &estimate, double pixelsPerBin, const DetailLimits &limits = {});

} // namespace memhist::plane
