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
    , m_weights(std::size_t(m_width) * std::size_t(m_height) * 3, 0.0f)
{ }

void OperationRaster::add(int x0, int x1, int y0, int y1, int op, float weight)
{
    if (!(weight > 0) || op < 0 || op > 2)
        return;
    x0 = std::max(x0, 0);
    y0 = std::max(y0, 0);
    x1 = std::min(x1, m_width);
    y1 = std::min(y1, m_height);
    for (int y = y0; y < y1; ++y) {
        float *cell = m_weights.data() + index(x0, y) + std::size_t(op);
        for (int x = x0; x < x1; ++x, cell += 3)
            *cell += weight;
    }
}

std::uint8_t OperationRaster::operationsAt(int x, int y) const
{
    std::uint8_t mask = 0;
    for (int op = 0; op < 3; ++op) {
        if (weight(x, y, op) > 0)
            mask |= std::uint8_t(1u << op);
    }
    return mask;
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
    const auto blendOf = [&](QRgb under, int op) {
        const quint64 key = (quint64(under) << 8) | quint64(op);
        const auto it = blends.constFind(key);
        if (it != blends.constEnd())
            return *it;
        QImage pixel(1, 1, QImage::Format_RGB32);
        pixel.setPixel(0, 0, under);
        QPainter painter(&pixel);
        QColor color = colors.ofOperation(op);
        color.setAlpha(alpha);
        painter.fillRect(QRect(0, 0, 1, 1), color);
        painter.end();
        const QRgb result = pixel.pixel(0, 0);
        blends.insert(key, result);
        return result;
    };
    QRgb lastUnder = 0;
    int lastOp = -1;
    QRgb lastResult = 0;
    for (int y = 0; y < m_height; ++y) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        const float *cell = m_weights.data() + index(0, y);
        for (int x = 0; x < m_width; ++x, cell += 3) {
            if (cell[0] == 0 && cell[1] == 0 && cell[2] == 0)
                continue;
            const int op = ditheredOperation({ cell[0], cell[1], cell[2] }, x, y);
            if (op != lastOp || line[x] != lastUnder) {
                lastUnder = line[x];
                lastOp = op;
                lastResult = blendOf(lastUnder, op);
            }
            line[x] = lastResult;
        }
    }
}

} // namespace memhist::plane
