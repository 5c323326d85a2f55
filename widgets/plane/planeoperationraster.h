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
#include <array>
#include <cstdint>
#include <vector>

namespace memhist::plane {

class OperationRaster
{
public:
    OperationRaster(int width, int height);

    int width() const { return m_width; }
    int height() const { return m_height; }

    // Adds `weight` of operation `op` (operationIndex()) to the pixels [x0, x1) x [y0, y1), clamped
    // to the raster. Non-positive weights add nothing.
    void add(int x0, int x1, int y0, int y1, int op, float weight);
    // The same for all three operations at once (by operationIndex()): one pass over the pixels.
    void add(int x0, int x1, int y0, int y1, const std::array<float, 3> &weights);

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
