// SPDX-License-Identifier: MIT
#include "widgets/plane/planesummaryraster.h"

#include <cmath>

namespace memhist::plane {

namespace {

// The weight of an operation whose chunks reach a bin without an access of it there.
constexpr float chunkOnlyWeight = 0.5f;

int clampedPixel(double value, int limit)
{
    return int(std::clamp(value, 0.0, double(limit)));
}

} // namespace

SummaryRaster::SummaryRaster(const HistoryOverview &overview, const PixelMapping &mapping)
    : m_overview(overview)
    , m_mapping(mapping)
    , m_width(int(mapping.pixels().width()))
    , m_height(int(mapping.pixels().height()))
    , m_raster(m_width, m_height)
    , m_rows(m_height)
{ }

void SummaryRaster::add(const summary::TileKey &key, std::span<const summary::Cell> cells)
{
    const summary::SummaryLevels &levels = m_overview.summaryInfo->levels;
    const std::int64_t firstSlice = summary::SummaryLevels::firstSlice(key.timeLevel, key.tile);
    const std::int64_t endSlice
        = std::min<std::int64_t>(levels.endSlice(key.timeLevel, key.tile), std::int64_t(m_overview.slices.size()));
    if (firstSlice >= endSlice)
        return;
    m_cells += qint64(cells.size());
    const SliceSpan &first = m_overview.slices[std::size_t(firstSlice)];
    const SliceSpan &last = m_overview.slices[std::size_t(endSlice - 1)];
    const int x0 = sliceColumns(first, m_mapping, m_width).first;
    const int x1 = sliceColumns(last, m_mapping, m_width).second;

    // The share of the tile's transitions in view scales what it counts.
    const PlaneViewport &view = m_mapping.view();
    const double span = double(last.last - first.first) + 1.0;
    const double shown = std::min(double(last.last) + 1.0, view.right) - std::max(double(first.first), view.left);
    const double timeShare = std::clamp(shown / span, 0.0, 1.0);

    const double displayPerBin = m_overview.fold.displayLength() / std::ldexp(1.0, key.addressLevel);
    const double pixelsPerDisplay = m_height / view.height();
    const bool drawn = x1 > x0 && m_width > 0 && m_height > 0;
    // Locals, not members, in the loop: the rows written through m_rows could alias them, and the
    // compiler would read them again for every cell.
    const double viewTop = view.top;
    const double viewBottom = view.bottom;
    const int height = m_height;
    double accesses = 0;
    double chunks = 0;
    for (const summary::Cell &cell : cells) {
        const double bottom = cell.bin * displayPerBin;
        const double top = bottom + displayPerBin;
        if (top <= viewBottom || bottom >= viewTop)
            continue;
        // Each operation weighs by its accesses in the cell; one with chunks but no access of its
        // own in the bin still shows where nothing else is.
        std::array<float, summary::operationSlots> weights {};
        for (int op = 0; op < summary::operationSlots; ++op) {
            if (cell.accesses[op] != 0)
                weights[op] = float(cell.accesses[op]);
            else if (cell.chunks[op] != 0)
                weights[op] = chunkOnlyWeight;
            accesses += cell.accesses[op];
            chunks += cell.chunks[op];
        }
        if (!drawn)
            continue;
        // Rows grow downward from the view's top (m_mapping.yToPixel, inlined).
        const int y0 = clampedPixel(std::floor((viewTop - top) * pixelsPerDisplay), height - 1);
        const int y1 = std::max(y0 + 1, clampedPixel(std::ceil((viewTop - bottom) * pixelsPerDisplay), height));
        m_rows.add(y0, y1, weights);
    }
    // An access counts in every bin its bytes touch (summarylevels.h), and a byte of an occupied
    // region is at least one display unit tall (addressfold.h): on bins narrower than that, every
    // access touches at least floor(1 / displayPerBin) of them, so the sum divided by that still
    // bounds the accesses from above (planDetail() caps it at the rows of the visible transitions).
    const double binsPerAccess = displayPerBin < 1 ? std::floor(1 / displayPerBin) : 1;
    m_estimate.accesses += accesses * timeShare / binsPerAccess;
    m_estimate.chunks += chunks * timeShare;
    if (drawn)
        m_raster.add(x0, x1, m_rows);
}

} // namespace memhist::plane
