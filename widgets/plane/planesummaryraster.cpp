#include "widgets/plane/planesummaryraster.h"

#include <QHash>
#include <QPainter>
#include <cmath>

namespace memhist::plane {

namespace {

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
    , m_marks(std::size_t(std::max(m_width, 0)) * std::size_t(std::max(m_height, 0)), 0)
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
    for (const summary::Cell &cell : cells) {
        const double bottom = cell.bin * displayPerBin;
        const double top = bottom + displayPerBin;
        if (top <= view.bottom || bottom >= view.top)
            continue;
        std::uint8_t mask = 0;
        double accesses = 0;
        double chunks = 0;
        for (int op = 0; op < summary::operationSlots; ++op) {
            if (cell.accesses[op] != 0 || cell.chunks[op] != 0)
                mask |= std::uint8_t(1u << op);
            accesses += cell.accesses[op];
            chunks += cell.chunks[op];
        }
        m_estimate.accesses += accesses * timeShare;
        m_estimate.chunks += chunks * timeShare;
        if (!drawn)
            continue;
        // Rows grow downward from the view's top (m_mapping.yToPixel, inlined).
        const int y0 = clampedPixel(std::floor((view.top - top) * pixelsPerDisplay), m_height - 1);
        const int y1 = std::max(y0 + 1, clampedPixel(std::ceil((view.top - bottom) * pixelsPerDisplay), m_height));
        for (int y = y0; y < y1; ++y) {
            std::uint8_t *row = m_marks.data() + std::size_t(y) * std::size_t(m_width);
            for (int x = x0; x < x1; ++x)
                row[x] |= mask;
        }
    }
}

void SummaryRaster::paint(QImage &image, const PlaneColors &colors, int alpha) const
{
    if (image.format() != QImage::Format_RGB32 || image.width() != m_width || image.height() != m_height)
        return;
    // The blend of each (colour under it, operations) pair, made with QPainter once: the same
    // arithmetic as filling the operations' rectangles one after another.
    QHash<quint64, QRgb> blends;
    const auto blendOf = [&](QRgb under, std::uint8_t mask) {
        const quint64 key = (quint64(under) << 8) | mask;
        const auto it = blends.constFind(key);
        if (it != blends.constEnd())
            return *it;
        QImage pixel(1, 1, QImage::Format_RGB32);
        pixel.setPixel(0, 0, under);
        QPainter painter(&pixel);
        for (int op = 0; op < summary::operationSlots; ++op) {
            if (mask & (1u << op)) {
                QColor color = colors.ofOperation(op);
                color.setAlpha(alpha);
                painter.fillRect(QRect(0, 0, 1, 1), color);
            }
        }
        painter.end();
        const QRgb result = pixel.pixel(0, 0);
        blends.insert(key, result);
        return result;
    };
    QRgb lastUnder = 0;
    std::uint8_t lastMask = 0;
    QRgb lastResult = 0;
    for (int y = 0; y < m_height; ++y) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
        const std::uint8_t *marks = m_marks.data() + std::size_t(y) * std::size_t(m_width);
        for (int x = 0; x < m_width; ++x) {
            const std::uint8_t mask = marks[x];
            if (!mask)
                continue;
            if (mask != lastMask || line[x] != lastUnder) {
                lastUnder = line[x];
                lastMask = mask;
                lastResult = blendOf(lastUnder, mask);
            }
            line[x] = lastResult;
        }
    }
}

} // namespace memhist::plane
