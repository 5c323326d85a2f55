// SPDX-License-Identifier: MIT
#include "widgets/plane/planeoperationraster.h"

#include <QPainter>
#include <algorithm>

namespace memhist::plane {

namespace {

// The 4x4 Bayer matrix: thresholds (i + 0.5) / 16 spread so that any share of n/16 lights n
// pixels of every 4x4 block, evenly.
constexpr int bayer[4][4] = { { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 } };

} // namespace

RowWeights::RowWeights(int height)
    : m_rows(std::size_t(std::max(height, 0)))
    , m_low(std::max(height, 0))
{ }

void RowWeights::add(int y0, int y1, int op, float weight)
{
    if (op < 0 || op > 2)
        return;
    std::array<float, 3> weights {};
    weights[std::size_t(op)] = weight;
    add(y0, y1, weights);
}

OperationRaster::OperationRaster(int width, int height)
    : m_width(std::max(width, 0))
    , m_height(std::max(height, 0))
    , m_blocksWide((m_width + 3) / 4)
    , m_marks(std::size_t(m_width) * std::size_t(m_height), 0)
    , m_weights(std::size_t(m_blocksWide) * std::size_t((m_height + 3) / 4) * 3, 0.0f)
    , m_rowSpans(std::size_t(m_height), { m_width, 0 })
{ }

void OperationRaster::add(int x0, int x1, RowWeights &rows)
{
    const int low = rows.m_low;
    const int touchedEnd = rows.m_high;
    const int high = std::min(touchedEnd, m_height);
    rows.m_low = int(rows.m_rows.size());
    rows.m_high = 0;
    x0 = std::max(x0, 0);
    x1 = std::min(x1, m_width);
    if (x1 <= x0 || high <= low) {
        if (low < touchedEnd)
            std::fill(rows.m_rows.begin() + low, rows.m_rows.begin() + touchedEnd, std::array<float, 3> {});
        return;
    }
    const int firstBlockColumn = x0 >> 2;
    const int lastBlockColumn = (x1 - 1) >> 2;
    // Block row by block row: each row marks its pixels, and the block row's summed weights go to
    // its blocks in proportion to the columns of each they hold.
    for (int blockRow = low >> 2; blockRow <= (high - 1) >> 2; ++blockRow) {
        std::array<float, 3> sum {};
        const int end = std::min(high, blockRow * 4 + 4);
        for (int y = std::max(low, blockRow * 4); y < end; ++y) {
            std::array<float, 3> &weights = rows.m_rows[std::size_t(y)];
            std::uint8_t bits = 0;
            for (int op = 0; op < 3; ++op) {
                if (weights[std::size_t(op)] > 0) {
                    bits |= std::uint8_t(1u << op);
                    sum[std::size_t(op)] += weights[std::size_t(op)];
                }
            }
            weights = {};
            if (!bits)
                continue;
            std::uint8_t *marks = m_marks.data() + std::size_t(y) * std::size_t(m_width);
            for (int x = x0; x < x1; ++x)
                marks[x] |= bits;
            auto &[first, last] = m_rowSpans[std::size_t(y)];
            first = std::min(first, x0);
            last = std::max(last, x1);
        }
        if (!(sum[0] > 0 || sum[1] > 0 || sum[2] > 0))
            continue;
        for (int blockColumn = firstBlockColumn; blockColumn <= lastBlockColumn; ++blockColumn) {
            const float columns = float(std::min(x1, blockColumn * 4 + 4) - std::max(x0, blockColumn * 4));
            float *block = m_weights.data() + blockIndex(blockColumn * 4, blockRow * 4);
            for (int op = 0; op < 3; ++op)
                block[op] += sum[std::size_t(op)] * columns;
        }
    }
    if (high < touchedEnd) // rows below a raster shorter than `rows`
        std::fill(rows.m_rows.begin() + high, rows.m_rows.begin() + touchedEnd, std::array<float, 3> {});
}

namespace {

// One block's dither: its operations' cumulative weights, so that each of its pixels costs a
// threshold and two comparisons.
struct BlockDither
{
    float executes = 0; // the cumulative weights, operation by operation
    float reads = 0;
    float total = 0;
    int last = -1; // the last operation with weight

    explicit BlockDither(const std::array<float, 3> &weights)
    {
        for (int op = 0; op < 3; ++op) {
            if (weights[std::size_t(op)] > 0) {
                total += weights[std::size_t(op)];
                last = op;
            }
            if (op == 0)
                executes = total;
            else if (op == 1)
                reads = total;
        }
    }
    // The first operation whose cumulative weight passes the pixel's threshold (an operation
    // without weight adds nothing, so is never first), else the last with weight.
    int at(int x, int y) const
    {
        if (last < 0)
            return -1;
        const float threshold = (float(bayer[y & 3][x & 3]) + 0.5f) / 16.0f * total;
        return executes > threshold ? 0 : reads > threshold ? 1 : total > threshold ? 2 : last;
    }
};

// The blends of the three operations' colours at one alpha over each colour under them, made with
// QPainter once per colour: the same arithmetic as filling the operation's rectangle. A view has a
// handful of colours under its pixels (the background and the slice bands), looked up in order.
class OperationBlends
{
public:
    OperationBlends(const PlaneColors &colors, int alpha)
    {
        for (int op = 0; op < 3; ++op) {
            m_colors[op] = colors.ofOperation(op);
            m_colors[op].setAlpha(alpha);
        }
    }

    const std::array<QRgb, 3> &over(QRgb under)
    {
        if (m_last < m_entries.size() && m_entries[m_last].under == under)
            return m_entries[m_last].blends;
        for (std::size_t i = 0; i < m_entries.size(); ++i) {
            if (m_entries[i].under == under) {
                m_last = i;
                return m_entries[i].blends;
            }
        }
        Entry entry { under, {} };
        for (int op = 0; op < 3; ++op) {
            QImage pixel(1, 1, QImage::Format_RGB32);
            pixel.setPixel(0, 0, under);
            QPainter painter(&pixel);
            painter.fillRect(QRect(0, 0, 1, 1), m_colors[op]);
            painter.end();
            entry.blends[std::size_t(op)] = pixel.pixel(0, 0);
        }
        m_last = m_entries.size();
        m_entries.push_back(entry);
        return m_entries.back().blends;
    }

private:
    struct Entry
    {
        QRgb under;
        std::array<QRgb, 3> blends;
    };
    QColor m_colors[3];
    std::vector<Entry> m_entries;
    std::size_t m_last = 0;
};

} // namespace

int OperationRaster::ditheredOperation(const std::array<float, 3> &weights, int x, int y)
{
    return BlockDither(weights).at(x, y);
}

void OperationRaster::paint(QImage &image, const PlaneColors &colors, int alpha) const
{
    if (image.format() != QImage::Format_RGB32 || image.width() != m_width || image.height() != m_height)
        return;
    OperationBlends blends(colors, alpha);
    // The operation of a mask of one operation's bit, -1 for a mask of several.
    constexpr int onlyOperation[8] = { -1, 0, 1, -1, 2, -1, -1, -1 };
    for (int y = 0; y < m_height; ++y) {
        const auto [first, end] = m_rowSpans[std::size_t(y)];
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        const std::uint8_t *marks = m_marks.data() + std::size_t(y) * std::size_t(m_width);
        QRgb lastUnder = 0;
        const std::array<QRgb, 3> *blended = nullptr;
        // The dither of the block and mask of the pixel before: a block's pixels share it.
        int ditherBlock = -1;
        std::uint8_t ditherMask = 0;
        BlockDither dither({});
        for (int x = first; x < end; ++x) {
            const std::uint8_t mask = marks[x];
            if (!mask)
                continue;
            if (!blended || line[x] != lastUnder) {
                lastUnder = line[x];
                blended = &blends.over(lastUnder);
            }
            int op = onlyOperation[mask];
            if (op < 0) {
                if (x >> 2 != ditherBlock || mask != ditherMask) {
                    const float *block = m_weights.data() + blockIndex(x, y);
                    dither = BlockDither(
                        { mask & 1 ? block[0] : 0.0f, mask & 2 ? block[1] : 0.0f, mask & 4 ? block[2] : 0.0f });
                    ditherBlock = x >> 2;
                    ditherMask = mask;
                }
                op = dither.at(x, y);
                if (op < 0)
                    continue;
            }
            line[x] = (*blended)[std::size_t(op)];
        }
    }
}

} // namespace memhist::plane
