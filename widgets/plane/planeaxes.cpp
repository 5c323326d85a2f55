// SPDX-License-Identifier: MIT
#include "widgets/plane/planeaxes.h"

#include "core/model/numbertext.h"
#include "widgets/plane/planehittest.h"

#include <QCoreApplication>
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

// A fold band's caption stands this far (pixels) from the plot's edges and the names beside it.
constexpr int captionMargin = 8;
// A name closer than this (pixels) above or below a caption's row counts as on its row.
constexpr int captionClearance = 2;

// The texts are the plane widget's (one translation context for everything it shows).
QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::PlaneWidget", text);
}

} // namespace

int addressLabelWidth(std::uint64_t widestAddress, const std::function<int(const QString &)> &textWidth)
{
    // As wide as the longest label can be: hex digits are not equally wide in most fonts.
    const int digits = int(hexText(widestAddress).size()) - 2;
    int digitWidth = 0;
    for (const QChar digit : QStringLiteral("0123456789abcdef"))
        digitWidth = std::max(digitWidth, textWidth(QString(digit)));
    return textWidth(QStringLiteral("0x")) + digits * digitWidth;
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
    const int labelWidth = textWidth(countText(std::uint64_t(std::max(0.0, view.right)))) + transitionLabelPadding;
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
        placed.labelWidth = textWidth(countText(placed.transition));
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

std::vector<RangeLabel> rangeLabels(
    const std::vector<NamedRange> &ranges, const PixelMapping &mapping, const AddressFold &fold, int lineHeight)
{
    std::vector<std::pair<int, RangeLabel>> candidates; // with their priority
    if (fold.isEmpty() || lineHeight <= 0)
        return {};
    const double height = mapping.pixels().height();
    const PlaneViewport &view = mapping.view();
    const std::uint64_t lowest = fold.toAddress(std::max(view.bottom, 0.0));
    const std::uint64_t highest = fold.toAddress(std::min(view.top, fold.displayLength()));
    for (const NamedRange &range : ranges) {
        if (range.first > highest || range.last < lowest)
            continue;
        const double top = std::clamp(mapping.yToPixel(fold.toDisplayEnd(range.last)), 0.0, height);
        const double bottom = std::clamp(mapping.yToPixel(fold.toDisplay(range.first)), 0.0, height);
        if (bottom - top < lineHeight)
            continue;
        const int y0 = int(std::floor(top));
        const int y1 = int(std::ceil(bottom));
        candidates.push_back({ range.priority, { y0, y1, (y0 + y1 - lineHeight) / 2, range.name } });
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const auto &a, const auto &b) {
        if (a.first != b.first)
            return a.first > b.first;
        return a.second.bottom - a.second.top > b.second.bottom - b.second.top;
    });
    std::vector<RangeLabel> placed;
    for (const auto &[priority, label] : candidates) {
        const bool clashes = std::any_of(placed.begin(), placed.end(), [&](const RangeLabel &other) {
            return label.labelTop < other.labelTop + lineHeight + 2 && other.labelTop < label.labelTop + lineHeight + 2;
        });
        if (!clashes)
            placed.push_back(label);
    }
    std::sort(
        placed.begin(), placed.end(), [](const RangeLabel &a, const RangeLabel &b) { return a.labelTop < b.labelTop; });
    return placed;
}

QRect rangeLabelPlate(
    const RangeLabel &label, int x, int lineHeight, const std::function<int(const QString &)> &textWidth)
{
    return QRect(x + 6, label.labelTop, textWidth(label.text) + 6, lineHeight);
}

std::vector<QRect> rangeLabelPlates(
    const std::vector<RangeLabel> &labels, int x, int lineHeight, const std::function<int(const QString &)> &textWidth)
{
    std::vector<QRect> plates;
    plates.reserve(labels.size());
    for (const RangeLabel &label : labels)
        plates.push_back(rangeLabelPlate(label, x, lineHeight, textWidth));
    return plates;
}

std::vector<FoldCaption> foldCaptions(const std::vector<FoldBand> &bands, const std::vector<QRect> &plates, int width,
    int height, int lineHeight, const std::function<int(const QString &)> &textWidth)
{
    std::vector<FoldCaption> captions;
    for (const FoldBand &band : bands) {
        const int y0 = std::max(band.top, 0);
        const int y1 = std::min(band.bottom, height);
        if (y1 - y0 < lineHeight + 2)
            continue;
        const int top = (y0 + y1 - lineHeight) / 2;
        int left = captionMargin;
        for (const QRect &plate : plates) {
            if (plate.top() < top + lineHeight + captionClearance && top < plate.bottom() + 1 + captionClearance)
                left = std::max(left, plate.right() + 1 + captionMargin);
        }
        const QString size = formatByteCount(band.addresses.bytes());
        for (const QString &text : { tr("%1 without chunks folded").arg(size), tr("%1 folded").arg(size) }) {
            const int w = textWidth(text);
            if (left + w <= width - captionMargin) {
                captions.push_back({ QRect(left, top, w, lineHeight), text });
                break;
            }
        }
    }
    return captions;
}

std::optional<int> currentLineColumn(Transition transition, const PixelMapping &mapping)
{
    const double x = mapping.xToPixel(double(transition.value) + 0.5);
    if (x < 0 || x >= mapping.pixels().width())
        return std::nullopt;
    return int(std::floor(x));
}

std::vector<ThreadRun> threadRuns(
    const QList<ThreadSpan> &spans, const QList<qint64> &threads, const PixelMapping &mapping)
{
    std::vector<ThreadRun> runs;
    const int width = int(mapping.pixels().width());
    for (const ThreadSpan &span : spans) {
        const int thread = threadIndex(threads, span.threadId);
        if (thread < 0)
            continue;
        // A span's edges on a pixel's edge stay there whatever the rounding of the mapping.
        constexpr double slack = 1e-6;
        const int x0
            = int(std::clamp(std::floor(mapping.xToPixel(double(span.first.value)) + slack), 0.0, double(width)));
        int x1
            = int(std::clamp(std::ceil(mapping.xToPixel(double(span.last.value) + 1.0) - slack), 0.0, double(width)));
        if (x1 <= x0) {
            if (x0 >= width)
                continue;
            x1 = x0 + 1;
        }
        // The later span wins the columns it shares with earlier ones.
        while (!runs.empty() && runs.back().x1 > x0) {
            if (runs.back().x0 >= x0)
                runs.pop_back();
            else
                runs.back().x1 = x0;
        }
        if (!runs.empty() && runs.back().thread == thread && runs.back().x1 == x0)
            runs.back().x1 = x1;
        else
            runs.push_back({ x0, x1, thread });
    }
    return runs;
}

std::optional<qint64> threadOf(const QList<ThreadSpan> &spans, Transition t)
{
    const auto it = std::lower_bound(
        spans.begin(), spans.end(), t, [](const ThreadSpan &span, Transition value) { return span.last < value; });
    if (it == spans.end() || it->first > t)
        return std::nullopt;
    return it->threadId;
}

} // namespace memhist::plane
