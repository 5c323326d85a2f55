#include "planerenderer.h"

#include "plane/planestatements.h"
#include "query/rowidsearch.h"
#include "storage/historydatabase.h"

#include <QElapsedTimer>
#include <QPainter>
#include <cmath>
#include <limits>

namespace memhist::plane {

namespace {

constexpr std::uint64_t signBoundary = std::uint64_t(1) << 63;
// Beyond this many chunks a view is drawn from the per-slice coverage rather than from chunk rows
// (when the coverage is fine enough for the view): about 50 ms of index reads.
constexpr qint64 chunkReadLimit = 60000;
// Individual accesses are drawn only when reading them costs at most about this many rows read in
// order (~60 ms): beyond it a view shows chunks, however few accesses it is estimated to hold.
constexpr double accessCostBudget = 400000;

// Pixel coordinates of far-off plane points can exceed int: clamp before converting.
int toPixel(double value)
{
    return int(std::clamp(value, -1.0e7, 1.0e7));
}

// The address window as ranges over stored (signed) values: the index orders phy_last as signed
// int8, so a window crossing 2^63 is read as [A, 2^63 - 1] and [2^63, B].
struct StoredWindow
{
    std::int64_t first;
    std::int64_t last;
};

int storedWindows(std::uint64_t first, std::uint64_t last, StoredWindow out[2])
{
    if ((first < signBoundary) == (last < signBoundary)) {
        out[0] = { toStored(first), toStored(last) };
        return 1;
    }
    out[0] = { toStored(first), std::numeric_limits<std::int64_t>::max() };
    out[1] = { std::numeric_limits<std::int64_t>::min(), toStored(last) };
    return 2;
}

struct ChunkRow
{
    qint64 rowId;
    std::uint32_t slice; // index into overview.slices
    std::uint8_t op; // operationIndex()
    std::uint64_t first;
    std::uint64_t last;
};

// The pixel columns [x0, x1) of a slice band, at least one pixel wide.
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

} // namespace

QRect accessBarRect(const Access &access, const PixelMapping &mapping, const AddressFold &fold)
{
    const double t = double(access.transition.value);
    const int x0 = toPixel(std::floor(mapping.xToPixel(t)));
    int x1 = toPixel(std::floor(mapping.xToPixel(t + 1.0)));
    if (x1 - x0 >= 4)
        --x1; // a one-pixel gap keeps neighbouring transitions apart once they are wide enough
    if (x1 <= x0)
        x1 = x0 + 1;
    const std::uint64_t size = std::max<std::uint32_t>(access.size, 1);
    const std::uint64_t last = access.physical.value > std::numeric_limits<std::uint64_t>::max() - (size - 1)
        ? std::numeric_limits<std::uint64_t>::max()
        : access.physical.value + size - 1;
    const int y0 = toPixel(std::floor(mapping.yToPixel(fold.toDisplayEnd(last))));
    int y1 = toPixel(std::ceil(mapping.yToPixel(fold.toDisplay(access.physical.value))));
    if (y1 <= y0)
        y1 = y0 + 1;
    return QRect(x0, y0, x1 - x0, y1 - y0);
}

std::shared_ptr<RenderResult> renderPlane(
    const RenderRequest &request, sqlite::Connection &db, const std::function<bool()> &cancelled)
{
    if (!request.overview || request.pixels.isEmpty())
        return nullptr;
    QElapsedTimer clock;
    clock.start();
    const HistoryOverview &overview = *request.overview;
    const AddressFold &fold = overview.fold;
    const PlaneViewport &view = request.view;
    const int width = request.pixels.width();
    const int height = request.pixels.height();
    const PixelMapping mapping(view, QSizeF(request.pixels));
    const PlaneColors &colors = request.colors;

    auto result = std::make_shared<RenderResult>();
    result->generation = request.generation;
    result->view = view;
    result->image = QImage(request.pixels, QImage::Format_RGB32);
    result->image.fill(colors.background);
    QPainter painter(&result->image);
    painter.setRenderHint(QPainter::Antialiasing, false);

    // Visible slices.
    const std::size_t firstSlice = firstSliceEndingAfter(overview.slices, view.left);
    std::size_t endSlice = firstSlice;
    while (endSlice < overview.slices.size() && double(overview.slices[endSlice].first) < view.right)
        ++endSlice;

    // Slice bands: every other slice (by index, so that the shading does not flicker while panning)
    // on the alternate background, when bands are wide enough to be told apart.
    for (std::size_t i = firstSlice; i < endSlice; ++i) {
        const auto [x0, x1] = sliceColumns(overview.slices[i], mapping, width);
        if (x1 - x0 < 3)
            continue;
        if (i % 2)
            painter.fillRect(QRect(x0, 0, x1 - x0, height), colors.alternateBackground);
        if (x1 - x0 >= 12)
            painter.fillRect(QRect(x0, 0, 1, height), colors.sliceEdge);
    }

    // The fraction of each slice's transitions that are visible: scales the access estimate.
    const auto visibleFraction = [&](const SliceSpan &s) {
        const double first = std::max(double(s.first), view.left);
        const double end = std::min(double(s.last) + 1.0, view.right);
        return std::clamp((end - first) / (double(s.last - s.first) + 1.0), 0.0, 1.0);
    };

    // Estimate the chunks in view from the coverage's per-bin chunk counts.
    const bool haveSummary = overview.summaryBins > 0 && overview.summaries.size() == overview.slices.size();
    const double binsPerDisplay = haveSummary ? overview.summaryBins / fold.displayLength() : 0.0;
    double estimatedChunks = 0;
    double estimatedAccesses = 0;
    int viewFirstBin = 0;
    int viewLastBin = -1;
    if (haveSummary) {
        viewFirstBin = std::clamp(int(std::floor(view.bottom * binsPerDisplay)), 0, overview.summaryBins - 1);
        viewLastBin = std::clamp(int(std::ceil(view.top * binsPerDisplay)) - 1, viewFirstBin, overview.summaryBins - 1);
        for (std::size_t i = firstSlice; i < endSlice; ++i) {
            double sliceChunks = 0;
            for (const auto &coverage : overview.summaries[i].ops)
                sliceChunks += coverage.estimateChunks(viewFirstBin, viewLastBin);
            estimatedChunks += sliceChunks;
            estimatedAccesses += sliceChunks * visibleFraction(overview.slices[i]) * overview.accessesPerChunk;
        }
    }
    const double pixelsPerBin = haveSummary ? height / (view.height() * binsPerDisplay) : 0.0;

    // The rows of the visible transitions: accesses are in time order, so they are one rowid range.
    const std::uint64_t firstTransition = std::uint64_t(std::max(0.0, std::floor(view.left)));
    const std::uint64_t lastTransition = std::uint64_t(std::max(0.0, std::ceil(view.right) - 1));
    RowIdSearch rows(db);
    if (!rows.load())
        return nullptr;
    const std::int64_t firstRow = rows.firstRowIdAtOrAfter(toStored(firstTransition));
    const std::int64_t lastRow = rows.lastRowIdAtOrBefore(toStored(lastTransition));
    const double rowsInRange = std::max<double>(0, double(lastRow - firstRow + 1));

    // The level of detail, from what each way of drawing would read (in row-equivalents: a chunk
    // scan or a per-chunk access query costs about as much as reading `perQuery` rows in order).
    constexpr double perQuery = 20;
    const double chunkCost = haveSummary ? estimatedChunks : std::numeric_limits<double>::infinity();
    const double accessByChunkCost = chunkCost * perQuery + estimatedAccesses;
    const double accessByScanCost = rowsInRange;
    const double accessCost = std::min(accessByChunkCost, accessByScanCost);
    const bool accessDetail = estimatedAccesses <= request.accessDetailLimit && accessCost <= accessCostBudget;
    const bool scanAccesses = accessDetail && accessByScanCost <= accessByChunkCost;
    // The coverage stands in for the chunk rows when there are too many of them, as long as a bin is
    // about a pixel (or, with far too many chunks, a few pixels: coarse beats slow).
    const bool coverageUsable
        = haveSummary && (pixelsPerBin <= 1.5 || (estimatedChunks > 4 * chunkReadLimit && pixelsPerBin <= 4));
    const bool fromSummary = coverageUsable && estimatedChunks > chunkReadLimit;
    result->estimatedAccesses = qint64(estimatedAccesses);
    result->estimatedChunks = qint64(estimatedChunks);

    const QColor opColors[3] = { colors.execute, colors.read, colors.write };
    // Chunks are drawn translucent so that where reads and writes overlap both show; behind
    // individual accesses they are only a faint hint of the chunk structure.
    const int chunkAlpha = accessDetail ? 30 : 190;
    RowMarks marks(height);
    const std::uint64_t firstAddress = fold.toAddress(view.bottom);
    const std::uint64_t lastAddress = std::max(firstAddress,
        view.top >= fold.displayLength() ? fold.lastAddress() : fold.toAddress(std::nextafter(view.top, view.bottom)));

    std::vector<ChunkRow> chunks;
    if (fromSummary) {
        // The bins under each pixel row, computed once for all slices.
        std::vector<std::pair<int, int>> rowBins;
        rowBins.resize(std::size_t(height));
        for (int y = 0; y < height; ++y) {
            const double top = mapping.pixelToY(y);
            const double bottom = mapping.pixelToY(y + 1);
            const int b0 = std::clamp(int(std::floor(bottom * binsPerDisplay)), 0, overview.summaryBins - 1);
            const int b1 = std::clamp(int(std::ceil(top * binsPerDisplay)) - 1, b0, overview.summaryBins - 1);
            rowBins[std::size_t(y)] = { b0, b1 };
        }
        for (int op = 0; op < 3; ++op) {
            const QColor color = withAlpha(opColors[op], chunkAlpha);
            for (std::size_t i = firstSlice; i < endSlice; ++i) {
                if (cancelled())
                    return nullptr;
                const OperationCoverage &coverage = overview.summaries[i].ops[op];
                if (coverage.bits.empty())
                    continue;
                const auto [x0, x1] = sliceColumns(overview.slices[i], mapping, width);
                for (int y = 0; y < height; ++y) {
                    const auto [b0, b1] = rowBins[std::size_t(y)];
                    if (coverage.any(b0, b1))
                        marks.mark(y, y + 1);
                }
                marks.flush(painter, x0, x1, color);
            }
        }
    } else if (endSlice > firstSlice) {
        // Read the visible chunks, one index scan per slice and operation (the spec's
        // find_chunks_between), stopping at the first chunk past the window.
        StoredWindow windows[2];
        const int windowCount = storedWindows(firstAddress, lastAddress, windows);
        sqlite::Statement scan = db.prepare(statements::chunksFrom);
        if (!scan.isValid())
            return nullptr;
        for (int op = 0; op < 3; ++op) {
            for (std::size_t i = firstSlice; i < endSlice; ++i) {
                if (haveSummary && overview.summaries[i].ops[op].bits.empty())
                    continue; // no chunk of this operation in this slice at all
                for (int w = 0; w < windowCount; ++w) {
                    scan.reset();
                    scan.bind(1, std::int64_t(drawnOperations[op]));
                    scan.bind(2, overview.slices[i].rowId);
                    scan.bind(3, windows[w].first);
                    while (scan.step() == SQLITE_ROW) {
                        const std::int64_t storedFirst = scan.int64(1);
                        if (storedFirst > windows[w].last)
                            break;
                        chunks.push_back({ scan.int64(0), std::uint32_t(i), std::uint8_t(op), fromStored(storedFirst),
                            fromStored(scan.int64(2)) });
                        if ((chunks.size() & 511) == 0 && cancelled())
                            return nullptr;
                    }
                }
            }
        }
        result->chunksRead = qint64(chunks.size());

        // Chunks: coalesced per pixel row within each (operation, slice) band. `chunks` is grouped
        // by operation, then slice, in that order.
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
            marks.flush(painter, x0, x1, withAlpha(opColors[op], chunkAlpha));
        }
    }

    if (accessDetail) {
        // Individual accesses, drawn opaque as size bars.
        std::vector<Access> &drawn = result->accesses;
        qint64 read = 0;
        const auto draw = [&](const Access &access) {
            painter.fillRect(accessBarRect(access, mapping, fold), opColors[operationIndex(access.operation)]);
            drawn.push_back(access);
        };
        const auto readAccess = [](const sqlite::Statement &row, Access &access) {
            access.rowId = RowId { row.int64(0) };
            access.transition = Transition { fromStored(row.int64(1)) };
            access.physical = Address { fromStored(row.int64(2)) };
            access.linear = row.isNull(3) ? std::nullopt : std::optional<Address>(Address { fromStored(row.int64(3)) });
            access.size
                = std::uint32_t(std::clamp<std::int64_t>(row.int64(4), 1, std::numeric_limits<std::uint32_t>::max()));
        };
        if (scanAccesses) {
            // Every row of the visible transitions, in rowid order (a sequential read of the table),
            // keeping those in the address window.
            sqlite::Statement scan = db.prepare(statements::accessesByRowId);
            if (!scan.isValid())
                return nullptr;
            scan.bind(1, firstRow);
            scan.bind(2, lastRow);
            Access access;
            while (scan.step() == SQLITE_ROW) {
                if ((++read & 4095) == 0 && cancelled())
                    return nullptr;
                const std::int64_t code = scan.int64(5);
                if (!isValidOperationCode(code))
                    continue;
                readAccess(scan, access);
                access.operation = Operation(code);
                if (access.transition.value < firstTransition || access.transition.value > lastTransition
                    || access.physical.value > lastAddress || access.lastByte().value < firstAddress)
                    continue;
                draw(access);
            }
        } else {
            // The accesses of the visible chunks within the visible transitions, through
            // (chunk_id, transition); by operation, writes last (on top).
            sqlite::Statement accesses = db.prepare(statements::chunkAccesses);
            if (!accesses.isValid())
                return nullptr;
            Access access;
            for (const ChunkRow &chunk : chunks) {
                accesses.reset();
                accesses.bind(1, chunk.rowId);
                accesses.bind(2, toStored(firstTransition));
                accesses.bind(3, toStored(lastTransition));
                access.operation = drawnOperations[chunk.op];
                while (accesses.step() == SQLITE_ROW) {
                    readAccess(accesses, access);
                    draw(access);
                    if ((++read & 1023) == 0 && cancelled())
                        return nullptr;
                }
            }
        }
        result->accessesRead = read;
        if (!scanAccesses)
            std::sort(drawn.begin(), drawn.end(), [](const Access &a, const Access &b) { return a.rowId < b.rowId; });
    }
    painter.end();
    result->accessDetail = accessDetail;
    result->milliseconds = clock.elapsed();
    return result;
}

namespace {

// Lives on the render thread and owns that thread's connection.
class RenderWorker : public QObject
{
public:
    std::unique_ptr<HistoryDatabase> database;
    QString databasePath;

    sqlite::Connection *connectionFor(const QString &path)
    {
        if (!database || databasePath != path) {
            database.reset();
            databasePath = path;
            QString error;
            database = HistoryDatabase::open(path, &error);
            if (database)
                database->connection().execute(statements::connectionPragmas);
        }
        return database ? &database->connection() : nullptr;
    }
};

} // namespace

PlaneRenderer::PlaneRenderer(QObject *parent)
    : QObject(parent)
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
    m_thread.setObjectName(QStringLiteral("memhist plane renderer"));
    m_worker = new RenderWorker;
    m_worker->moveToThread(&m_thread);
    m_thread.start();
}

PlaneRenderer::~PlaneRenderer()
{
    cancel();
    m_thread.quit();
    m_thread.wait();
    delete m_worker; // its thread has finished: no event can reach it any more
}

void PlaneRenderer::cancel()
{
    // No request has this generation: whatever runs sees itself stale and stops.
    m_latest->store(std::numeric_limits<quint64>::max());
}

void PlaneRenderer::render(RenderRequest request)
{
    const quint64 generation = request.generation;
    m_latest->store(generation);
    auto *worker = static_cast<RenderWorker *>(m_worker);
    const std::shared_ptr<std::atomic<quint64>> latest = m_latest;
    QMetaObject::invokeMethod(
        worker,
        [this, worker, latest, request = std::move(request)] {
            const auto stale = [&latest, generation = request.generation] { return latest->load() != generation; };
            if (stale())
                return; // a newer request is already queued behind this one
            sqlite::Connection *db = worker->connectionFor(request.overview ? request.overview->path : QString());
            if (!db)
                return;
            std::shared_ptr<const RenderResult> result = renderPlane(request, *db, stale);
            if (!result || stale())
                return;
            // Back to the renderer's thread; dropped by Qt if the renderer is gone by then.
            QMetaObject::invokeMethod(
                this, [this, result] { emit rendered(result); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace memhist::plane
