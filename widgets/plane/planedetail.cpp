// SPDX-License-Identifier: MIT
#include "widgets/plane/planedetail.h"

#include <cmath>
#include <limits>

namespace memhist::plane {

TransitionWindow visibleTransitions(const PlaneViewport &view)
{
    return { std::uint64_t(std::max(0.0, std::floor(view.left))),
        std::uint64_t(std::max(0.0, std::ceil(view.right) - 1)) };
}

AddressWindow visibleAddresses(const PlaneViewport &view, const AddressFold &fold)
{
    const std::uint64_t first = fold.toAddress(view.bottom);
    const std::uint64_t last = std::max(first,
        view.top >= fold.displayLength() ? fold.lastAddress() : fold.toAddress(std::nextafter(view.top, view.bottom)));
    return { first, last };
}

bool hasCoverage(const HistoryOverview &overview)
{
    return overview.summaryBins > 0 && overview.summaries.size() == overview.slices.size();
}

double coverageBinsPerDisplay(const HistoryOverview &overview)
{
    return hasCoverage(overview) ? overview.summaryBins / overview.fold.displayLength() : 0.0;
}

std::pair<int, int> coverageBins(double bottom, double top, int bins, double binsPerDisplay)
{
    const int first = std::clamp(int(std::floor(bottom * binsPerDisplay)), 0, bins - 1);
    const int last = std::clamp(int(std::ceil(top * binsPerDisplay)) - 1, first, bins - 1);
    return { first, last };
}

DetailPlan visiblePart(const HistoryOverview &overview, const PlaneViewport &view)
{
    DetailPlan plan;
    plan.transitions = visibleTransitions(view);
    plan.addresses = visibleAddresses(view, overview.fold);
    plan.firstSlice = firstSliceEndingAfter(overview.slices, view.left);
    plan.endSlice = plan.firstSlice;
    while (plan.endSlice < overview.slices.size() && double(overview.slices[plan.endSlice].first) < view.right)
        ++plan.endSlice;
    return plan;
}

namespace {

// The ways of reading and drawing, from the estimates in `plan` (`coverage`: whether a summary or
// coverage is there to stand in for chunk rows).
void decide(DetailPlan &plan, bool coverage, double rowsInRange, const DetailLimits &limits)
{
    // A view holds at most the accesses of its transitions. The display summary's estimate can
    // exceed them many times over: it counts an access once in every bin its bytes touch, and on a
    // fold of a few KiB its bins are narrower than a byte (10,000 reads in 512 bytes would count as
    // more than 150,000 and be drawn as chunks).
    plan.estimatedAccesses = std::min(plan.estimatedAccesses, rowsInRange);
    // What each way of drawing would read, in row-equivalents.
    const double chunkCost = coverage ? plan.estimatedChunks : std::numeric_limits<double>::infinity();
    const double accessByChunkCost = chunkCost * limits.perQueryCost + plan.estimatedAccesses;
    const double accessByScanCost = rowsInRange;
    const double accessCost = std::min(accessByChunkCost, accessByScanCost);
    if (plan.estimatedAccesses <= limits.accessDetailLimit && accessCost <= limits.accessCostBudget)
        plan.accesses = accessByScanCost <= accessByChunkCost ? AccessSource::RowScan : AccessSource::ChunkQueries;

    // The coverage stands in for the chunk rows when there are too many of them, as long as a bin is
    // about a pixel (or, with far too many chunks, a few pixels).
    const bool coverageFineEnough = coverage
        && (plan.pixelsPerBin <= limits.coverageMaxPixelsPerBin
            || (plan.estimatedChunks > limits.coarseCoverageChunkFactor * limits.chunkReadLimit
                && plan.pixelsPerBin <= limits.coarseCoverageMaxPixelsPerBin));
    if (coverageFineEnough && plan.estimatedChunks > limits.chunkReadLimit
        && plan.accesses != AccessSource::ChunkQueries)
        plan.chunks = ChunkSource::Coverage;
    else if (plan.endSlice > plan.firstSlice)
        plan.chunks = ChunkSource::ChunkRows;
}

} // namespace

DetailPlan planDetail(const HistoryOverview &overview, const PlaneViewport &view, int pixelHeight, double rowsInRange,
    const DetailLimits &limits)
{
    DetailPlan plan = visiblePart(overview, view);

    // The fraction of each slice's transitions that are visible: scales the access estimate.
    const auto visibleFraction = [&](const SliceSpan &s) {
        const double first = std::max(double(s.first), view.left);
        const double end = std::min(double(s.last) + 1.0, view.right);
        return std::clamp((end - first) / (double(s.last - s.first) + 1.0), 0.0, 1.0);
    };

    // Estimate the chunks in view from the coverage's per-bin chunk counts.
    const bool coverage = hasCoverage(overview);
    const double binsPerDisplay = coverageBinsPerDisplay(overview);
    if (coverage) {
        const auto [firstBin, lastBin] = coverageBins(view.bottom, view.top, overview.summaryBins, binsPerDisplay);
        for (std::size_t i = plan.firstSlice; i < plan.endSlice; ++i) {
            double sliceChunks = 0;
            for (const auto &operation : overview.summaries[i].ops)
                sliceChunks += operation.estimateChunks(firstBin, lastBin);
            plan.estimatedChunks += sliceChunks;
            plan.estimatedAccesses += sliceChunks * visibleFraction(overview.slices[i]) * overview.accessesPerChunk;
        }
        plan.pixelsPerBin = pixelHeight / (view.height() * binsPerDisplay);
    }
    decide(plan, coverage, rowsInRange, limits);
    return plan;
}

DetailPlan planDetail(const HistoryOverview &overview, const PlaneViewport &view, double rowsInRange,
    const SummaryEstimate &estimate, double pixelsPerBin, const DetailLimits &limits)
{
    DetailPlan plan = visiblePart(overview, view);
    plan.estimatedChunks = estimate.chunks;
    plan.estimatedAccesses = estimate.accesses;
    plan.pixelsPerBin = pixelsPerBin;
    decide(plan, overview.summaryInfo != nullptr, rowsInRange, limits);
    return plan;
}

SummaryView summaryView(const HistoryOverview &overview, const DetailPlan &visible, const PlaneViewport &view,
    QSize pixels, double maxPixelsPerBin)
{
    SummaryView result;
    if (!overview.summaryInfo || visible.endSlice <= visible.firstSlice || pixels.isEmpty())
        return result;
    const summary::SummaryLevels &levels = overview.summaryInfo->levels;
    // Time: 2^t slices a tile, at most two pixels' worth of them (one pixel's at most would make
    // tiles of half a pixel: twice the tiles to read, and levels a pyramid stores less often).
    const double slicesPerPixel = double(visible.endSlice - visible.firstSlice) / pixels.width();
    int timeLevel = 0;
    while (timeLevel < levels.topTimeLevel() && std::ldexp(1.0, timeLevel + 1) <= 2 * slicesPerPixel)
        ++timeLevel;
    // Address: the fewest bins that are at most maxPixelsPerBin tall.
    const double displayLength = overview.fold.displayLength();
    const double binsWanted = displayLength * pixels.height() / (view.height() * maxPixelsPerBin);
    int addressLevel = levels.minAddressLevel;
    while (addressLevel < levels.maxAddressLevel && std::ldexp(1.0, addressLevel) < binsWanted)
        ++addressLevel;
    const double bins = std::ldexp(1.0, addressLevel);
    const double binsPerDisplay = bins / displayLength;
    const double firstBin = std::clamp(std::floor(view.bottom * binsPerDisplay), 0.0, bins - 1);
    const double lastBin = std::clamp(std::ceil(view.top * binsPerDisplay) - 1, firstBin, bins - 1);

    result.window.timeLevel = timeLevel;
    result.window.addressLevel = addressLevel;
    result.window.firstTile = std::int64_t(visible.firstSlice) >> timeLevel;
    result.window.lastTile = std::int64_t(visible.endSlice - 1) >> timeLevel;
    result.window.firstBin = std::uint32_t(firstBin);
    result.window.lastBin = std::uint32_t(lastBin);
    result.pixelsPerBin = pixels.height() / (view.height() * binsPerDisplay);
    return result;
}

} // namespace memhist::plane
