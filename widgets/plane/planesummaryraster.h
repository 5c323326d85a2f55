// SPDX-License-Identifier: MIT
// The display summary's blocks of one view, turned into pixels and estimates: each block's cells
// add, per pixel of the image, how many accesses of each operation are there (an OperationRaster),
// and what they count inside the view to the chunk and access estimates the level-of-detail plan
// weighs. Painting then blends each pixel once, over the slice bands, in the colour of one of its
// operations dithered by their counts (planeoperationraster.h): a view costs a pass over its
// blocks' cells and one over its pixels, however many blocks it has.
#pragma once

#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planedetail.h"
#include "widgets/plane/planeoperationraster.h"
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
    // its transitions in view. The accesses are an upper bound: a cell counts an access in every bin
    // it touches, divided only by the bins a byte covers at least (add()).
    SummaryEstimate estimate() const { return m_estimate; }
    qint64 cellsAdded() const { return m_cells; }

    // Blends every pixel with some operation in `image` (slice bands already painted) at `alpha`
    // (OperationRaster::paint).
    void paint(QImage &image, const PlaneColors &colors, int alpha) const { m_raster.paint(image, colors, alpha); }

    // The operations at a pixel (bit operationIndex()), for tests.
    std::uint8_t operationsAt(int x, int y) const { return m_raster.operationsAt(x, y); }

private:
    const HistoryOverview &m_overview;
    PixelMapping m_mapping;
    int m_width;
    int m_height;
    OperationRaster m_raster;
    RowWeights m_rows; // one block's cells, summed per row before they reach m_raster
    SummaryEstimate m_estimate;
    qint64 m_cells = 0;
};

} // namespace memhist::plane
