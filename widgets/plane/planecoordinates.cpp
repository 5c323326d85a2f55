// SPDX-License-Identifier: MIT
#include "widgets/plane/planecoordinates.h"

#include <QStringBuilder>
#include <cmath>
#include <limits>

namespace memhist::plane {

namespace {

// Brings [start, start + span) inside [low, high) by shifting it (span <= high - low).
void shiftInside(double &start, double &end, double span, double low, double high)
{
    if (start < low)
        start = low;
    if (start + span > high)
        start = high - span;
    end = start + span;
}

} // namespace

PlaneExtent extentFor(std::optional<Transition> first, std::optional<Transition> last, const AddressFold &fold)
{
    PlaneExtent extent;
    extent.fold = fold;
    if (first && last && first->value <= last->value) {
        extent.bounds.left = double(first->value);
        extent.bounds.right = double(last->value) + 1.0;
    } else {
        extent.bounds.left = 0;
        extent.bounds.right = 1;
    }
    extent.bounds.bottom = 0;
    extent.bounds.top = fold.displayLength();
    return extent;
}

double PlaneExtent::minHeightAt(double display) const
{
    const FoldSegment &segment = fold.segments()[std::size_t(fold.segmentIndexAtDisplay(display))];
    // In a folded gap a byte is a sliver of a display unit: limit by display units there instead.
    return std::min(minBytes * std::max(segment.scale(), 1.0), bounds.height());
}

PlaneViewport clampViewport(PlaneViewport view, const PlaneExtent &extent)
{
    const PlaneViewport &b = extent.bounds;
    // A degenerate or non-finite viewport (a zero-sized widget, a NaN from a division) shows all.
    if (!(view.width() > 0) || !std::isfinite(view.width()) || !(view.height() > 0) || !std::isfinite(view.height()))
        return b;
    const double width = std::clamp(view.width(), extent.effectiveMinWidth(), b.width());
    const double centreY = (view.bottom + view.top) / 2;
    const double height = std::clamp(view.height(), extent.minHeightAt(centreY), b.height());
    double left = (view.left + view.right) / 2 - width / 2;
    double bottom = centreY - height / 2;
    shiftInside(left, view.right, width, b.left, b.right);
    shiftInside(bottom, view.top, height, b.bottom, b.top);
    view.left = left;
    view.bottom = bottom;
    return view;
}

PlaneViewport zoomViewport(
    const PlaneViewport &view, const PlaneExtent &extent, QPointF anchor, double factorX, double factorY)
{
    const PlaneViewport &b = extent.bounds;
    PlaneViewport result = view;
    if (factorX > 0 && factorX != 1) {
        const double anchorX = view.left + anchor.x() * view.width();
        const double width = std::clamp(view.width() / factorX, extent.effectiveMinWidth(), b.width());
        double left = anchorX - anchor.x() * width;
        shiftInside(left, result.right, width, b.left, b.right);
        result.left = left;
    }
    if (factorY > 0 && factorY != 1) {
        const double anchorY = view.bottom + anchor.y() * view.height();
        const double height = std::clamp(view.height() / factorY, extent.minHeightAt(anchorY), b.height());
        double bottom = anchorY - anchor.y() * height;
        shiftInside(bottom, result.top, height, b.bottom, b.top);
        result.bottom = bottom;
    }
    return result;
}

PlaneViewport panViewport(const PlaneViewport &view, const PlaneExtent &extent, double dxFraction, double dyFraction)
{
    PlaneViewport result = view;
    double left = view.left + dxFraction * view.width();
    double bottom = view.bottom + dyFraction * view.height();
    shiftInside(
        left, result.right, std::min(view.width(), extent.bounds.width()), extent.bounds.left, extent.bounds.right);
    shiftInside(
        bottom, result.top, std::min(view.height(), extent.bounds.height()), extent.bounds.bottom, extent.bounds.top);
    result.left = left;
    result.bottom = bottom;
    return result;
}

ViewRange toViewRange(const PlaneViewport &view, const AddressFold &fold)
{
    ViewRange range;
    const double left = std::max(view.left, 0.0);
    range.firstTransition = Transition { std::uint64_t(std::floor(left)) };
    // [left, right) is half-open: a right edge on a transition boundary excludes that transition.
    const double lastTransition = std::ceil(view.right) - 1;
    range.lastTransition
        = Transition { std::max(range.firstTransition.value, lastTransition > 0 ? std::uint64_t(lastTransition) : 0) };
    range.firstAddress = Address { fold.toAddress(view.bottom) };
    // The top edge is exclusive too: the last byte is the one just below it. At the axis' end that
    // is the last address itself (computed, not divided back: near 2^64 a double cannot tell the
    // last few thousand addresses apart).
    const std::uint64_t top
        = view.top >= fold.displayLength() ? fold.lastAddress() : fold.toAddress(std::nextafter(view.top, view.bottom));
    range.lastAddress = Address { std::max(range.firstAddress.value, top) };
    return range;
}

PlaneViewport toViewport(const ViewRange &range, const AddressFold &fold)
{
    PlaneViewport view;
    view.left = double(range.firstTransition.value);
    view.right = double(std::max(range.lastTransition.value, range.firstTransition.value)) + 1.0;
    view.bottom = fold.toDisplay(range.firstAddress.value);
    view.top = fold.toDisplayEnd(std::max(range.lastAddress.value, range.firstAddress.value));
    return view;
}

PlaneViewport PixelMapping::viewportOf(QPointF a, QPointF b) const
{
    PlaneViewport view;
    view.left = pixelToX(std::min(a.x(), b.x()));
    view.right = pixelToX(std::max(a.x(), b.x()));
    view.top = pixelToY(std::min(a.y(), b.y()));
    view.bottom = pixelToY(std::max(a.y(), b.y()));
    return view;
}

double transitionTickStep(double minStep)
{
    if (!(minStep > 1))
        return 1;
    const double power = std::pow(10.0, std::floor(std::log10(minStep)));
    for (const double multiple : { 1.0, 2.0, 5.0, 10.0 }) {
        if (multiple * power >= minStep)
            return multiple * power;
    }
    return 10 * power;
}

std::uint64_t addressTickStep(double minStep)
{
    if (!(minStep > 1))
        return 1;
    if (minStep >= 0x1p63)
        return std::uint64_t(1) << 63;
    std::uint64_t step = 1;
    while (double(step) < minStep)
        step <<= 1;
    return step;
}

QString formatByteCount(double bytes)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int unit = 0;
    while (bytes >= 1024 && unit < 6) {
        bytes /= 1024;
        ++unit;
    }
    const int decimals = (unit == 0 || bytes >= 10) ? 0 : 1;
    return QString::number(bytes, 'f', decimals) + u' ' + QLatin1String(units[unit]);
}

PlaneViewport framedViewport(
    const PlaneViewport &view, const PlaneExtent &extent, std::uint64_t first, std::uint64_t last)
{
    const double low = extent.fold.toDisplay(first);
    const double high = extent.fold.toDisplayEnd(last);
    const double centre = (low + high) / 2;
    const double height = std::max(3 * (high - low), 4 * extent.minHeightAt(centre));
    PlaneViewport framed = view;
    framed.bottom = centre - height / 2;
    framed.top = centre + height / 2;
    return clampViewport(framed, extent);
}

std::optional<QRect> targetRect(
    const ViewRange &target, const PixelMapping &mapping, const AddressFold &fold, QSize plot)
{
    double left = mapping.xToPixel(double(target.firstTransition.value));
    double right = mapping.xToPixel(double(target.lastTransition.value) + 1.0);
    double top = mapping.yToPixel(fold.toDisplayEnd(target.lastAddress.value));
    double bottom = mapping.yToPixel(fold.toDisplay(target.firstAddress.value));
    const auto widen = [](double *low, double *high) {
        if (*high - *low < minTargetPixels) {
            const double centre = (*low + *high) / 2;
            *low = centre - minTargetPixels / 2.0;
            *high = centre + minTargetPixels / 2.0;
        }
    };
    widen(&left, &right);
    widen(&top, &bottom);
    // Far outside the plot the doubles would overflow an int: clip before rounding.
    const QRectF clipped = QRectF(QPointF(left, top), QPointF(right, bottom)).intersected(QRectF(QPoint(0, 0), plot));
    if (clipped.isEmpty())
        return std::nullopt;
    return clipped.toAlignedRect();
}

} // namespace memhist::plane
