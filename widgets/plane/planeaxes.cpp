#include "widgets/plane/planeaxes.h"

#include "widgets/plane/planehittest.h"

#include <cmath>
#include <limits>

namespace memhist::plane {

namespace {

// Margins around the plot, besides the labels' own sizes.
constexpr int labelGap = 16; // between the address labels and the plot
constexpr int rightMargin = 14;
// Address labels at least this many lines apart.
constexpr double addressLabelLines = 2.5;
// At most this many regular ticks per region, and transition ticks per view: a cap that only a
// degenerate view reaches.
constexpr int maxAddressTicks = 256;
constexpr int maxTransitionTicks = 512;
// Room around a transition label, and the least gap between two labels.
constexpr int transitionLabelPadding = 28;
constexpr int transitionLabelGap = 12;
// How far a transition label may stick out left of the plot.
constexpr int transitionLabelOverhang = 8;

} // namespace

int addressLabelWidth(std::uint64_t widestAddress, const std::function<int(const QString &)> &textWidth)
{
    // As wide as the longest label can be: hex digits are not equally wide in most fonts.
    const QString widest = formatAddress(widestAddress);
    int digitWidth = 0;
    for (const QChar digit : QStringLiteral("0123456789abcdef"))
        digitWidth = std::max(digitWidth, textWidth(QString(digit)));
    const int separators = int(widest.count(u'\''));
    const int digits = int(widest.size()) - 2 - separators;
    return textWidth(QStringLiteral("0x")) + digits * digitWidth + separators * textWidth(QStringLiteral("'"));
}

QRect plotArea(QSize size, int labelWidth, int lineHeight)
{
    const int left = labelWidth + labelGap;
    const int top = lineHeight + 12;
    const int bottom = 2 * lineHeight + 10;
    return QRect(left, top, std::max(1, size.width() - left - rightMargin), std::max(1, size.height() - top - bottom));
}

std::vector<AddressTick> addressTicks(const PlaneViewport &view, const AddressFold &fold, QRect plot, int lineHeight)
{
    const PixelMapping mapping(view, QSizeF(plot.size()));
    std::vector<AddressTick> ticks;
    const auto overlaps = [&ticks, lineHeight](int top) {
        const int bottom = top + lineHeight;
        return std::any_of(ticks.begin(), ticks.end(), [&](const AddressTick &placed) {
            return top < placed.labelTop + lineHeight + 2 && bottom > placed.labelTop - 2;
        });
    };
    // First each visible region's lowest address at its lower edge (where a fold ends, the reader
    // needs to know where the axis picks up again), then the regular ticks around them.
    for (const FoldSegment &segment : fold.segments()) {
        if (segment.folded || segment.displayStart < view.bottom || segment.displayStart >= view.top)
            continue;
        const int y = plot.top() + int(std::lround(mapping.yToPixel(segment.displayStart)));
        const int labelTop = std::min(y - lineHeight / 2, plot.bottom() - lineHeight / 2);
        if (!overlaps(labelTop))
            ticks.push_back({ y, labelTop, segment.addresses.first, true });
    }
    const double labelSpacing = lineHeight * addressLabelLines;
    const double pixelsPerDisplay = plot.height() / view.height();
    for (const FoldSegment &segment : fold.segments()) {
        if (segment.folded)
            continue;
        const double bottom = std::max(segment.displayStart, view.bottom);
        const double top = std::min(segment.displayEnd(), view.top);
        if (top <= bottom)
            continue;
        const double bytesPerPixel = 1.0 / (segment.scale() * pixelsPerDisplay);
        const std::uint64_t step = addressTickStep(labelSpacing * bytesPerPixel);
        const std::uint64_t first = fold.toAddress(bottom);
        const std::uint64_t last = fold.toAddress(std::nextafter(top, bottom));
        std::uint64_t tick = first % step == 0 ? first : first - first % step + step;
        if (tick < first)
            continue; // wrapped past 2^64 - 1
        for (int n = 0; tick <= last && n < maxAddressTicks; ++n) {
            const int y = plot.top() + int(std::lround(mapping.yToPixel(fold.toDisplay(tick))));
            const int labelTop = y - lineHeight / 2;
            if (y >= plot.top() && y <= plot.bottom() && !overlaps(labelTop))
                ticks.push_back({ y, labelTop, tick, false });
            if (last - tick < step)
                break;
            tick += step;
        }
    }
    return ticks;
}

std::vector<TransitionTick> transitionTicks(
    const PlaneViewport &view, QRect plot, int widgetWidth, const std::function<int(const QString &)> &textWidth)
{
    const PixelMapping mapping(view, QSizeF(plot.size()));
    const double pixelsPerTransition = plot.width() / view.width();
    const int labelWidth
        = textWidth(formatTransition(std::uint64_t(std::max(0.0, view.right)))) + transitionLabelPadding;
    const double step = transitionTickStep(labelWidth / pixelsPerTransition);
    std::vector<TransitionTick> ticks;
    double tick = std::ceil((view.left - 0.5) / step) * step;
    int lastRight = std::numeric_limits<int>::min();
    for (int n = 0; tick < view.right && n < maxTransitionTicks; ++n, tick += step) {
        const int x = plot.left() + int(std::lround(mapping.xToPixel(tick + 0.5)));
        if (x < plot.left() || x > plot.right())
            continue;
        TransitionTick placed;
        placed.x = x;
        placed.transition = std::uint64_t(tick);
        placed.labelWidth = textWidth(formatTransition(placed.transition));
        placed.labelLeft = std::clamp(
            x - placed.labelWidth / 2, plot.left() - transitionLabelOverhang, widgetWidth - placed.labelWidth - 2);
        if (placed.labelLeft > lastRight + transitionLabelGap) {
            placed.labelled = true;
            lastRight = placed.labelLeft + placed.labelWidth;
        }
        ticks.push_back(placed);
    }
    return ticks;
}

std::vector<FoldBand> foldBands(const AddressFold &fold, const PixelMapping &mapping)
{
    std::vector<FoldBand> bands;
    for (const FoldSegment &segment : fold.segments()) {
        if (!segment.folded)
            continue;
        const double top = mapping.yToPixel(segment.displayEnd());
        const double bottom = mapping.yToPixel(segment.displayStart);
        if (bottom < 0 || top > mapping.pixels().height())
            continue;
        const int y0 = int(std::floor(top));
        bands.push_back({ y0, std::max(y0 + 3, int(std::ceil(bottom))), segment.addresses });
    }
    return bands;
}

QList<QPoint> markerPositions(const QList<Access> &marked, const PixelMapping &mapping, const AddressFold &fold)
{
    const QSizeF size = mapping.pixels();
    const int cellsX = int(size.width()) / markerCellPixels + 1;
    const int cellsY = int(size.height()) / markerCellPixels + 1;
    std::vector<bool> taken(std::size_t(cellsX) * std::size_t(cellsY), false);
    QList<QPoint> positions;
    for (const Access &access : marked) {
        const QPointF p = accessCentre(access, mapping, fold);
        if (p.x() < -markerRadius || p.y() < -markerRadius || p.x() > size.width() + markerRadius
            || p.y() > size.height() + markerRadius)
            continue;
        const int cx = std::clamp(int(p.x()) / markerCellPixels, 0, cellsX - 1);
        const int cy = std::clamp(int(p.y()) / markerCellPixels, 0, cellsY - 1);
        const std::size_t cell = std::size_t(cy) * std::size_t(cellsX) + std::size_t(cx);
        if (taken[cell])
            continue;
        taken[cell] = true;
        positions << p.toPoint();
    }
    return positions;
}

} // namespace memhist::plane
