// SPDX-License-Identifier: MIT
// How much of each operation lies under each pixel of a chunk-level image, and the pixels painted
// from it so that every operation stays visible in its proportion (issue 13, 4e). Painting chunks
// one operation after another put the writes over the reads: a history of 70 % reads looked all
// orange. Here each chunk path (chunk rows, scanned coverage, display summary) adds weights, and
// each pixel is painted in one operation's colour chosen by an ordered (4x4 Bayer) dither of the
// pixel's weights: a region read 7 times for every 3 writes shows about 7 read pixels for 3 write
// pixels, in the legend's exact colours, and a pixel with one operation is painted in that one.
//
// Which operations touch a pixel is kept per pixel (a byte, a bit per operation: shapes stay exact);
// how much of each, per 4x4 block of pixels (the dither's cell), so that the raster costs about a
// byte per pixel, as the marks the chunk paths kept before, and painting skips untouched rows.
#pragma once

#include "widgets/plane/planepainting.h"

#include <QImage>
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace memhist::plane {

// Weights of the three operations (by operationIndex()) per pixel row, summed before they reach an
// OperationRaster for one column range: a view's summary cells and chunks are a pixel or two tall
// each, and adding each as its own rectangle cost a rectangle's bookkeeping per cell (a quarter of a
// whole-history view's time); summed per row, each row and 4x4 block is touched once per column
// range.
class RowWeights
{
public:
    explicit RowWeights(int height);

    // Adds `weights` to the rows [y0, y1), clamped to the height.
    void add(int y0, int y1, const std::array<float, 3> &weights)
    {
        y0 = std::max(y0, 0);
        y1 = std::min(y1, int(m_rows.size()));
        if (y1 <= y0)
            return;
        for (int y = y0; y < y1; ++y) {
            std::array<float, 3> &row = m_rows[std::size_t(y)];
            row[0] += weights[0];
            row[1] += weights[1];
            row[2] += weights[2];
        }
        m_low = std::min(m_low, y0);
        m_high = std::max(m_high, y1);
    }
    // The same for one operation (operationIndex()).
    void add(int y0, int y1, int op, float weight);

private:
    friend class OperationRaster;
    std::vector<std::array<float, 3>> m_rows;
    int m_low; // the touched rows [m_low, m_high), so that adding them to a raster is cheap
    int m_high = 0;
};

class OperationRaster
{
public:
    OperationRaster(int width, int height);

    int width() const { return m_width; }
    int height() const { return m_height; }

    // Adds each row's weights in `rows` (as tall as the raster) to the pixels [x0, x1) of that row,
    // clamped to the raster, and clears `rows` for the next column range. Non-positive weights add
    // nothing.
    void add(int x0, int x1, RowWeights &rows);

    // The operations with weight at a pixel (bit operationIndex()).
    std::uint8_t operationsAt(int x, int y) const
    {
        return m_marks[std::size_t(y) * std::size_t(m_width) + std::size_t(x)];
    }

    // The operation a pixel with `weights` (by operationIndex()) is painted in at (x, y): the
    // first whose cumulative share passes the pixel's Bayer threshold; -1 without weight.
    static int ditheredOperation(const std::array<float, 3> &weights, int x, int y);

    // Blends every pixel with weight in `image` (RGB32, the raster's size; slice bands already
    // painted) with the colour of its operation at `alpha`, exactly as a translucent fillRect of
    // that colour would: its only one, or the one dithered from its block's weights of the
    // operations it has.
    void paint(QImage &image, const PlaneColors &colors, int alpha) const;

private:
    std::size_t blockIndex(int x, int y) const
    {
        return (std::size_t(y >> 2) * std::size_t(m_blocksWide) + std::size_t(x >> 2)) * 3;
    }

    int m_width;
    int m_height;
    int m_blocksWide;
    std::vector<std::uint8_t> m_marks; // a byte per pixel, row by row
    std::vector<float> m_weights; // three per 4x4 block, row by row
    std::vector<std::pair<int, int>> m_rowSpans; // per row, the columns [first, end) marked
};

} // namespace memhist::plane
