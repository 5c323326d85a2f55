// SPDX-License-Identifier: MIT
#include "widgets/plane/planepainting.h"

#include "widgets/plane/planeoperationraster.h"

#include <QPainter>
#include <cmath>
#include <limits>

namespace memhist::plane {

namespace {

// Pixel coordinates of far-off plane points can exceed int: clamp before converting.
int toPixel(double value)
{
    return int(std::clamp(value, -1.0e7, 1.0e7));
}

// Marks rows [y0, y1) in `rows`, tracking the touched span so that clearing is cheap.
struct RowMarks
{
    std::vector<std::uint8_t> rows;
    int low = std::numeric_limits<int>::max();
    int high = -1;

    explicit RowMarks(int height)
        : rows(std::size_t(std::max(height, 0)), 0)
    { }
    void mark(int y0, int y1)
    {
        y0 = std::max(y0, 0);
        y1 = std::min(y1, int(rows.size()));
        if (y1 <= y0)
            return;
        std::fill(rows.begin() + y0, rows.begin() + y1, std::uint8_t(1));
        low = std::min(low, y0);
        high = std::max(high, y1 - 1);
    }
    // One fillRect per run of marked rows, then clears them.
    void flush(QPainter &painter, int x0, int x1, const QColor &color)
    {
        for (int y = low; y <= high;) {
            if (!rows[std::size_t(y)]) {
                ++y;
                continue;
            }
            const int start = y;
            while (y <= high && rows[std::size_t(y)])
                rows[std::size_t(y++)] = 0;
            painter.fillRect(QRect(x0, start, x1 - x0, y - start), color);
        }
        low = std::numeric_limits<int>::max();
        high = -1;
    }
};

QColor withAlpha(QColor color, int alpha)
{
    color.setAlpha(alpha);
    return color;
}

int imageWidth(const PixelMapping &mapping)
{
    return int(mapping.pixels().width());
}

int imageHeight(const PixelMapping &mapping)
{
    return int(mapping.pixels().height());
}

} // namespace

double accessFade(double estimatedAccesses, double limit)
{
    if (!(limit > 0))
        return 0;
    const double t = std::clamp((estimatedAccesses / limit - fadeStartShare) / (1 - fadeStartShare), 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

int chunkAlpha(const DetailPlan &plan, double limit)
{
    if (!plan.accessDetail())
        return chunkAlphaAlone;
    const double fade = accessFade(plan.estimatedAccesses, limit);
    return int(std::lround(chunkAlphaBehindAccesses + fade * (chunkAlphaAlone - chunkAlphaBehindAccesses)));
}

int accessAlpha(const DetailPlan &plan, double limit)
{
    const double fade = accessFade(plan.estimatedAccesses, limit);
    return int(std::lround(255 - fade * (255 - chunkAlphaAlone)));
}

bool accessesStandOut(const DetailPlan &plan, double limit)
{
    return plan.accessDetail() && accessFade(plan.estimatedAccesses, limit) < 0.5;
}

std::pair<int, int> sliceColumns(const SliceSpan &slice, const PixelMapping &mapping, int width)
{
    int x0 = toPixel(std::floor(mapping.xToPixel(double(slice.first))));
    int x1 = toPixel(std::ceil(mapping.xToPixel(double(slice.last) + 1.0)));
    x0 = std::clamp(x0, 0, width);
    x1 = std::clamp(x1, 0, width);
    if (x1 <= x0)
        x1 = std::min(x0 + 1, width);
    return { x0, x1 };
}

QRect accessBarRect(const Access &access, const PixelMapping &mapping, const AddressFold &fold)
{
    const double t = double(access.transition.value);
    const int x0 = toPixel(std::floor(mapping.xToPixel(t)));
    int x1 = toPixel(std::floor(mapping.xToPixel(t + 1.0)));
    if (x1 - x0 >= minGappedTransitionPixels)
        --x1;
    if (x1 <= x0)
        x1 = x0 + 1;
    const int y0 = toPixel(std::floor(mapping.yToPixel(fold.toDisplayEnd(access.lastByte().value))));
    int y1 = toPixel(std::ceil(mapping.yToPixel(fold.toDisplay(access.physical.value))));
    if (y1 <= y0)
        y1 = y0 + 1;
    return QRect(x0, y0, x1 - x0, y1 - y0);
}

void paintSliceBands(QPainter &painter, const HistoryOverview &overview, const DetailPlan &plan,
    const PixelMapping &mapping, const PlaneColors &colors)
{
    const int width = imageWidth(mapping);
    const int height = imageHeight(mapping);
    for (std::size_t i = plan.firstSlice; i < plan.endSlice; ++i) {
        const auto [x0, x1] = sliceColumns(overview.slices[i], mapping, width);
        if (x1 - x0 < minShadedBandPixels)
            continue;
        if (i % 2)
            painter.fillRect(QRect(x0, 0, x1 - x0, height), colors.alternateBackground);
        if (x1 - x0 >= minEdgedBandPixels)
            painter.fillRect(QRect(x0, 0, 1, height), colors.sliceEdge);
    }
}

qint64 accessesOf(const HistoryOverview &overview, int op)
{
    return op == 0 ? overview.summary.executes : op == 1 ? overview.summary.reads : overview.summary.writes;
}

bool addCoverage(OperationRaster &raster, const HistoryOverview &overview, const DetailPlan &plan,
    const PixelMapping &mapping, const std::function<bool()> &cancelled)
{
    const int width = imageWidth(mapping);
    const int height = imageHeight(mapping);
    const double binsPerDisplay = coverageBinsPerDisplay(overview);
    // The bins under each pixel row, computed once for all slices.
    std::vector<std::pair<int, int>> rowBins(std::size_t(std::max(height, 0)));
    for (int y = 0; y < height; ++y)
        rowBins[std::size_t(y)]
            = coverageBins(mapping.pixelToY(y + 1), mapping.pixelToY(y), overview.summaryBins, binsPerDisplay);
    RowWeights counts(height);
    for (int op = 0; op < 3; ++op) {
        qint64 chunks = 0;
        for (const SliceSummary &slice : overview.summaries)
            chunks += slice.ops[op].chunks;
        const qint64 accesses = accessesOf(overview, op);
        const double perChunk = chunks > 0 && accesses > 0 ? double(accesses) / double(chunks) : 1.0;
        for (std::size_t i = plan.firstSlice; i < plan.endSlice; ++i) {
            if (cancelled())
                return false;
            const OperationCoverage &coverage = overview.summaries[i].ops[op];
            if (coverage.bits.empty())
                continue;
            const auto [x0, x1] = sliceColumns(overview.slices[i], mapping, width);
            for (int y = 0; y < height; ++y) {
                const auto [b0, b1] = rowBins[std::size_t(y)];
                if (coverage.any(b0, b1))
                    counts.add(y, y + 1, op, float(std::max(coverage.estimateChunks(b0, b1), 0.5) * perChunk));
            }
            raster.add(x0, x1, counts);
        }
    }
    return true;
}

void addChunks(OperationRaster &raster, const HistoryOverview &overview, const std::vector<ChunkRow> &chunks,
    const PixelMapping &mapping)
{
    const AddressFold &fold = overview.fold;
    const int width = imageWidth(mapping);
    qint64 chunksOf[3] = {};
    for (const ChunkRow &chunk : chunks)
        ++chunksOf[chunk.op];
    float weights[3];
    for (int op = 0; op < 3; ++op) {
        const qint64 accesses = accessesOf(overview, op);
        weights[op] = accesses > 0 && chunksOf[op] > 0 ? float(double(accesses) / double(chunksOf[op])) : 1.0f;
    }
    RowWeights counts(imageHeight(mapping));
    for (std::size_t c = 0; c < chunks.size();) {
        const std::uint8_t op = chunks[c].op;
        const std::uint32_t slice = chunks[c].slice;
        const auto [x0, x1] = sliceColumns(overview.slices[slice], mapping, width);
        for (; c < chunks.size() && chunks[c].op == op && chunks[c].slice == slice; ++c) {
            const int y0 = toPixel(std::floor(mapping.yToPixel(fold.toDisplayEnd(chunks[c].last))));
            int y1 = toPixel(std::ceil(mapping.yToPixel(fold.toDisplay(chunks[c].first))));
            if (y1 <= y0)
                y1 = y0 + 1;
            // Spread over its rows: a chunk as wide as many pixels is no more accesses than a
            // narrow one.
            counts.add(y0, y1, op, weights[op] / float(y1 - y0));
        }
        raster.add(x0, x1, counts);
    }
}

void paintFaintChunks(QPainter &painter, const HistoryOverview &overview, const std::vector<ChunkRow> &chunks,
    const PixelMapping &mapping, const PlaneColors &colors, int alpha)
{
    const AddressFold &fold = overview.fold;
    const int width = imageWidth(mapping);
    RowMarks marks(imageHeight(mapping));
    for (std::size_t c = 0; c < chunks.size();) {
        const std::uint8_t op = chunks[c].op;
        const std::uint32_t slice = chunks[c].slice;
        const auto [x0, x1] = sliceColumns(overview.slices[slice], mapping, width);
        for (; c < chunks.size() && chunks[c].op == op && chunks[c].slice == slice; ++c) {
            const int y0 = toPixel(std::floor(mapping.yToPixel(fold.toDisplayEnd(chunks[c].last))));
            int y1 = toPixel(std::ceil(mapping.yToPixel(fold.toDisplay(chunks[c].first))));
            if (y1 <= y0)
                y1 = y0 + 1;
            marks.mark(y0, y1);
        }
        marks.flush(painter, x0, x1, withAlpha(colors.ofOperation(op), alpha));
    }
}

void paintAccesses(QPainter &painter, const std::vector<Access> &accesses, const PixelMapping &mapping,
    const AddressFold &fold, const PlaneColors &colors, int alpha)
{
    for (const Access &access : accesses)
        painter.fillRect(accessBarRect(access, mapping, fold),
            withAlpha(colors.ofOperation(operationIndex(access.operation)), alpha));
}

} // namespace memhist::plane
