// SPDX-License-Identifier: MIT
#include "widgets/plane/planehittest.h"

#include "core/model/numbertext.h"
#include "widgets/plane/planepainting.h"

#include <QCoreApplication>
#include <cmath>

namespace memhist::plane {

namespace {

// The texts are the plane widget's (one translation context for everything it shows).
QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::PlaneWidget", text);
}

QString operationName(Operation op)
{
    switch (op) {
    case Operation::Read:
        return QStringLiteral("read");
    case Operation::Write:
        return QStringLiteral("write");
    case Operation::Execute:
        return QStringLiteral("execute");
    }
    return {};
}

bool insidePlot(QPointF position, const PixelMapping &mapping)
{
    return position.x() >= 0 && position.y() >= 0 && position.x() < mapping.pixels().width()
        && position.y() < mapping.pixels().height();
}

} // namespace

PlanePoint pointAt(QPointF position, const PixelMapping &mapping, const AddressFold &fold)
{
    return { Transition { std::uint64_t(std::max(0.0, std::floor(mapping.pixelToX(position.x())))) },
        Address { fold.toAddress(mapping.pixelToY(position.y())) } };
}

std::optional<QPointF> positionOf(Transition t, Address a, const PixelMapping &mapping, const AddressFold &fold)
{
    const QPointF position(mapping.xToPixel(double(t.value) + 0.5),
        mapping.yToPixel((fold.toDisplay(a.value) + fold.toDisplayEnd(a.value)) / 2));
    if (!insidePlot(position, mapping))
        return std::nullopt;
    return position;
}

QPointF accessCentre(const Access &access, const PixelMapping &mapping, const AddressFold &fold)
{
    return { mapping.xToPixel(double(access.transition.value) + 0.5),
        mapping.yToPixel((fold.toDisplay(access.physical.value) + fold.toDisplayEnd(access.lastByte().value)) / 2) };
}

bool isInRange(const Access &access, const ViewRange &range)
{
    return access.transition >= range.firstTransition && access.transition <= range.lastTransition
        && access.physical <= range.lastAddress && access.lastByte() >= range.firstAddress;
}

std::optional<Access> accessAt(QPointF position, const PixelMapping &mapping, const AddressFold &fold,
    const std::vector<Access> &drawn, const QList<Access> &marked)
{
    if (!insidePlot(position, mapping))
        return std::nullopt;

    // The last one drawn at the point wins (the renderer draws by operation, writes last), then the
    // closest.
    const double tFirst = std::floor(mapping.pixelToX(position.x() - drawnAccessSearchPixels));
    const double tLast = std::floor(mapping.pixelToX(position.x() + drawnAccessSearchPixels));
    auto it = std::partition_point(
        drawn.begin(), drawn.end(), [tFirst](const Access &a) { return double(a.transition.value) < tFirst; });
    const Access *best = nullptr;
    double bestDistance = drawnAccessHitPixels;
    int bestRank = -1;
    for (; it != drawn.end() && double(it->transition.value) <= tLast; ++it) {
        const QRectF bar = accessBarRect(*it, mapping, fold);
        const double dx = std::max({ bar.left() - position.x(), position.x() - bar.right(), 0.0 });
        const double dy = std::max({ bar.top() - position.y(), position.y() - bar.bottom(), 0.0 });
        const double distance = std::max(dx, dy);
        const int rank = operationIndex(it->operation);
        if (distance < bestDistance || (distance == bestDistance && rank >= bestRank)) {
            best = &*it;
            bestDistance = distance;
            bestRank = rank;
        }
    }
    if (best)
        return *best;

    // Otherwise a marked access whose marker is under the point.
    double bestMarked = markedAccessHitPixels;
    for (const Access &access : marked) {
        const QPointF centre = accessCentre(access, mapping, fold);
        const double distance = std::max(std::abs(centre.x() - position.x()), std::abs(centre.y() - position.y()));
        if (distance < bestMarked) {
            best = &access;
            bestMarked = distance;
        }
    }
    return best ? std::optional<Access>(*best) : std::nullopt;
}

QString hoverText(
    QPointF position, const PixelMapping &mapping, const AddressFold &fold, const std::optional<Access> &access)
{
    const std::uint64_t t = std::uint64_t(std::max(0.0, std::floor(mapping.pixelToX(position.x()))));
    const double display = mapping.pixelToY(position.y());
    const std::uint64_t address = fold.toAddress(display);
    const int index = fold.segmentIndexAtDisplay(display);
    const FoldSegment &segment = fold.segments()[std::size_t(index)];

    QString text = tr("transition %1").arg(countText(t));
    if (segment.folded) {
        text += tr(" · folded gap %1–%2 (%3 without chunks)")
                    .arg(hexText(segment.addresses.first), hexText(segment.addresses.last),
                        formatByteCount(segment.addresses.bytes()));
    } else {
        text += tr(" · address %1 · region %2/%3 (%4–%5)")
                    .arg(hexText(address))
                    .arg(index / 2 + 1)
                    .arg(fold.regionCount())
                    .arg(hexText(segment.addresses.first), hexText(segment.addresses.last));
    }
    if (access) {
        text += tr(" · %1 of %2 at %3, transition %4 (row %5)")
                    .arg(operationName(access->operation), bytesText(access->size), hexText(access->physical.value),
                        countText(access->transition.value))
                    .arg(access->rowId.value);
    }
    return text;
}

} // namespace memhist::plane
