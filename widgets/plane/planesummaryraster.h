// The display summary's blocks of one view, turned into pixels and estimates: each block's cells
// mark, per pixel of the image, which operations are there (a byte per pixel, a bit per
// operation), and add what they count inside the view to the chunk and access estimates the
// level-of-detail plan weighs. Painting then blends each marked pixel once, over the slice bands,
// exactly as the translucent chunk rectangles would have been blended one operation after another:
// a view costs a pass over its blocks' cells and one over its pixels, however many blocks it has.
#pragma once

#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planedetail.h"
#include "widgets/plane/planeoverview.h"
#include "widgets/plane/planepainting.h"

#include <QImage>
#include <span>
#include <vector>

namespace memhist::plane {

class SummaryRaster
{
public:
    SummaryRaster(const HistoryOverview &overview, const PixelMapping &mapping);

    // One block read by the TileReader (any levels).
    void add(const summary::TileKey &key, std::span<const summary::Cell> cells);

    // Chunks and accesses of the blocks inside the view, each tile's share scaled by the share of
    // its transitions in view.
    SummaryEstimate estimate() const { return m_estimate; }
    qint64 cellsAdded() const { return m_cells; }

    // Blends every marked pixel of `image` (slice bands already painted) with the colours of its
    // operations at `alpha`, in drawing order (execute, read, write).
    void paint(QImage &image, const PlaneColors &colors, int alpha) const;

    // The operations marked at a pixel (bit operationIndex()), for tests.
    std::uint8_t operationsAt(int x, int y) const
    {
        return m_marks[std::size_t(y) * std::size_t(m_width) + std::size_t(x)];
    }

private:
    const HistoryOverview &m_overview;
    PixelMapping m_mapping;
    int m_width;
    int m_height;
    std::vector<std::uint8_t> m_marks; // a byte per pixel, row by row
    SummaryEstimate m_estimate;
    qint64 m_cells = 0;
};

} // namespace memhist::plane
