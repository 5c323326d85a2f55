#include "widgets/plane/planeoperationraster.h"

#include <QHash>
#include <QPainter>
#include <algorithm>

namespace memhist::plane {

namespace {

// The 4x4 Bayer matrix: thresholds (i + 0.5) / 16 spread so that any share of n/16 lights n
// pixels of every 4x4 block, evenly.
constexpr int bayer[4][4] = { { 0, 8, 2, 10 }, { 12, 4, 14, 6 }, { 3, 11, 1, 9 }, { 15, 7, 13, 5 } };

} // namespace

OperationRaster::OperationRaster(int width, int height)
    : m_width(std::max(width, 0))
    , m_height(std::max(height, 0))
    , m_blocksWide((m_width + 3) / 4)
    , m_marks(std::size_t(m_width) * std::size_t(m_height), 0)
    , m_weights(std::size_t(m_blocksWide) * std::size_t((m_height + 3) / 4) * 3, 0.0f)
    , m_rowSpans(std::size_t(m_height), { m_width, 0 })
{ }

void OperationRaster::add(int x0, int x1, int y0, int y1, int op, float weight)
{
    if (op < 0 || op > 2)
        return;
    std::array<float, 3> weights {};
    weights[std::size_t(op)] = weight;
    add(x0, x1, y0, y1, weights);
}

void OperationRaster::add(int x0, int x1, int y0, int y1, const std::array<float, 3> &weights)
{
    std::uint8_t bits = 0;
    for (int op = 0; op < 3; ++op) {
        if (weights[std::size_t(op)] > 0)
            bits |= std::uint8_t(1u << op);
    }
    x0 = std::max(x0, 0);
    y0 = std::max(y0, 0);
    x1 = std::min(x1, m_width);
    y1 = std::min(y1, m_height);
    if (!bits || x1 <= x0 || y1 <= y0)
        return;
    for (int y = y0; y < y1; ++y) {
        std::uint8_t *row = m_marks.data() + std::size_t(y) * std::size_t(m_width);
        for (int x = x0; x < x1; ++x)
            row[x] |= bits;
        auto &[first, end] = m_rowSpans[std::size_t(y)];
        first = std::min(first, x0);
        end = std::max(end, x1);
    }
    // Each block gets the weight of the pixels of the rectangle it holds.
    for (int by = y0 >> 2; by <= (y1 - 1) >> 2; ++by) {
        const int rows = std::min(y1, by * 4 + 4) - std::max(y0, by * 4);
        for (int bx = x0 >> 2; bx <= (x1 - 1) >> 2; ++bx) {
            const float pixels = float(rows * (std::min(x1, bx * 4 + 4) - std::max(x0, bx * 4)));
            float *block = m_weights.data() + blockIndex(bx * 4, by * 4);
            for (int op = 0; op < 3; ++op) {
                if (bits & (1u << op))
                    block[op] += weights[std::size_t(op)] * pixels;
            }
        }
    }
}

int OperationRaster::ditheredOperation(const std::array<float, 3> &weights, int x, int y)
{
    const float total = weights[0] + weights[1] + weights[2];
    if (!(total > 0))
        return -1;
    const float threshold = (float(bayer[y & 3][x & 3]) + 0.5f) / 16.0f * total;
    float cumulative = 0;
    int last = -1;
    for (int op = 0; op < 3; ++op) {
        if (!(weights[std::size_t(op)] > 0))
            continue;
        cumulative += weights[std::size_t(op)];
        last = op;
        if (cumulative > threshold)
            return op;
    }
    return last;
}

void OperationRaster::paint(QImage &image, const PlaneColors &colors, int alpha) const
{
    if (image.format() != QImage::Format_RGB32 || image.width() != m_width || image.height() != m_height)
        return;
    // The blend of each (colour under it, operation) pair, made with QPainter once: the same
    // arithmetic as filling the operation's rectangle.
    QHash<quint64, QRgb> blends;
    // The last blend of each operation, before the hash: runs mostly repeat their neighbours'.
    QRgb lastUnder[3] = {};
    QRgb lastBlend[3] = {};
    bool hasLast[3] = {};
    const auto blendOf = [&](QRgb under, int op) {
        if (hasLast[op] && lastUnder[op] == under)
            return lastBlend[op];
        const quint64 key = (quint64(under) << 8) | quint64(op);
        const auto it = blends.constFind(key);
        if (it != blends.constEnd()) {
            hasLast[op] = true;
            lastUnder[op] = under;
            lastBlend[op] = *it;
            return *it;
        }
        QImage pixel(1, 1, QImage::Format_RGB32);
        pixel.setPixel(0, 0, under);
        QPainter painter(&pixel);
        QColor color = colors.ofOperation(op);
        color.setAlpha(alpha);
        painter.fillRect(QRect(0, 0, 1, 1), color);
        painter.end();
        const QRgb result = pixel.pixel(0, 0);
        blends.insert(key, result);
        hasLast[op] = true;
        lastUnder[op] = under;
        lastBlend[op] = result;
        return result;
    };
    // Row by row, in runs of one mask over one colour (a slice band): a run of one operation is
    // one blend and a fill, a run of several dithers pixel by pixel.
    for (int y = 0; y < m_height; ++y) {
        const auto [first, end] = m_rowSpans[std::size_t(y)];
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        const std::uint8_t *marks = m_marks.data() + std::size_t(y) * std::size_t(m_width);
        for (int x = first; x < end;) {
            const std::uint8_t mask = marks[x];
            if (!mask) {
                ++x;
                continue;
            }
            const QRgb under = line[x];
            int runEnd = x + 1;
            while (runEnd < end && marks[runEnd] == mask && line[runEnd] == under)
                ++runEnd;
            if (mask == 1 || mask == 2 || mask == 4) {
                std::fill(line + x, line + runEnd, blendOf(under, mask == 1 ? 0 : mask == 2 ? 1 : 2));
            } else {
                QRgb blended[3] = {};
                for (int op = 0; op < 3; ++op) {
                    if (mask & (1u << op))
                        blended[op] = blendOf(under, op);
                }
                for (; x < runEnd; ++x) {
                    const float *block = m_weights.data() + blockIndex(x, y);
                    const int op = ditheredOperation(
                        { mask & 1 ? block[0] : 0.0f, mask & 2 ? block[1] : 0.0f, mask & 4 ? block[2] : 0.0f }, x, y);
                    line[x] = blended[op];
                }
            }
            x = runEnd;
        }
    }
}

} // namespace memhist::plane
