// SPDX-License-Identifier: MIT
#include "widgets/plane/planerenderer.h"

#include "core/storage/historydatabase.h"
#include "widgets/plane/planeblockpipeline.h"
#include "widgets/plane/planeoperationraster.h"
#include "widgets/plane/planereads.h"
#include "widgets/plane/planestatements.h"
#include "widgets/plane/planesummaryraster.h"

#include <QElapsedTimer>
#include <QPainter>
#include <algorithm>
#include <optional>

namespace memhist::plane {

std::shared_ptr<RenderResult> renderPlane(const RenderRequest &request, sqlite::Connection &db,
    const std::function<bool()> &cancelled, sqlite::Connection *summaryDb)
{
    if (!request.overview || request.pixels.isEmpty())
        return nullptr;
    QElapsedTimer clock;
    clock.start();
    const HistoryOverview &overview = *request.overview;
    const PixelMapping mapping(request.view, QSizeF(request.pixels));

    // What to draw: the rows of the visible transitions price the sequential scan; with a display
    // summary, its tiles of the view price the rest (and are the picture if the plan says so).
    const std::optional<RowWindow> rows = readRowWindow(db, visibleTransitions(request.view));
    if (!rows)
        return nullptr;
    std::optional<KeptTransitions> kept = request.threads.isEmpty()
        ? KeptTransitions {}
        : readKeptTransitions(db, request.threads, visibleTransitions(request.view), cancelled);
    if (!kept)
        return nullptr;
    std::optional<SummaryRaster> raster;
    DetailPlan plan;
    if (overview.summaryInfo) {
        sqlite::Connection &tiles = overview.summaryPath == overview.path ? db : *summaryDb;
        if (!summaryDb && overview.summaryPath != overview.path)
            return nullptr;
        const DetailPlan visible = visiblePart(overview, request.view);
        const SummaryView summary
            = summaryView(overview, visible, request.view, request.pixels, request.limits.coverageMaxPixelsPerBin);
        raster.emplace(overview, mapping);
        const auto addBlock
            = [&raster](const summary::TileKey &key, std::span<const summary::Cell> cells) { raster->add(key, cells); };
        QString error;
        if (!readSummaryBlocksAlongside(tiles, overview, summary.window, cancelled, addBlock, &error)) {
            if (cancelled() || error.isEmpty())
                return nullptr;
            // A damaged summary: no picture rather than a wrong one, and the reason.
            auto failed = std::make_shared<RenderResult>();
            failed->generation = request.generation;
            failed->view = request.view;
            failed->error = error;
            return failed;
        }
        plan = planDetail(
            overview, request.view, rows->count(), raster->estimate(), summary.pixelsPerBin, request.limits);
    } else {
        plan = planDetail(overview, request.view, request.pixels.height(), rows->count(), request.limits);
    }

    // What to read.
    std::vector<ChunkRow> chunks;
    if (plan.chunks == ChunkSource::ChunkRows && !readChunks(db, overview, plan, cancelled, &chunks))
        return nullptr;
    AccessRows accesses;
    if (plan.accesses == AccessSource::RowScan && !readAccessesInRows(db, *rows, plan, cancelled, &accesses))
        return nullptr;
    if (plan.accesses == AccessSource::ChunkQueries && !readAccessesOfChunks(db, chunks, plan, cancelled, &accesses))
        return nullptr;
    keepThreadAccesses(&accesses.accesses, *kept);

    // The picture: bands, chunks (or their coverage), then the accesses on top.
    auto result = std::make_shared<RenderResult>();
    result->generation = request.generation;
    result->view = request.view;
    result->plan = plan;
    result->image = QImage(request.pixels, QImage::Format_RGB32);
    result->image.fill(request.colors.background);
    QPainter painter(&result->image);
    painter.setRenderHint(QPainter::Antialiasing, false);
    paintSliceBands(painter, overview, plan, mapping, request.colors);
    const int chunksAlpha = chunkAlpha(plan, request.limits.accessDetailLimit);
    if (plan.chunks == ChunkSource::Coverage && raster) {
        painter.end();
        raster->paint(result->image, request.colors, chunksAlpha);
        painter.begin(&result->image);
        painter.setRenderHint(QPainter::Antialiasing, false);
    } else if (plan.chunks == ChunkSource::ChunkRows && plan.accessDetail()
        && accessFade(plan.estimatedAccesses, request.limits.accessDetailLimit) == 0) {
        paintFaintChunks(painter, overview, chunks, mapping, request.colors, chunksAlpha);
    } else if (plan.chunks != ChunkSource::None) {
        OperationRaster weights(request.pixels.width(), request.pixels.height());
        if (plan.chunks == ChunkSource::Coverage && !addCoverage(weights, overview, plan, mapping, cancelled))
            return nullptr;
        if (plan.chunks == ChunkSource::ChunkRows)
            addChunks(weights, overview, chunks, mapping);
        painter.end();
        weights.paint(result->image, request.colors, chunksAlpha);
        painter.begin(&result->image);
        painter.setRenderHint(QPainter::Antialiasing, false);
    }
    // Chunks and density record no threads: other threads' transitions are dimmed under the accesses.
    dimOtherThreads(painter, *kept, mapping, request.colors.background);
    paintAccesses(painter, accesses.accesses, mapping, overview.fold, request.colors,
        accessAlpha(plan, request.limits.accessDetailLimit));
    painter.end();

    result->accessDetail = plan.accessDetail();
    result->accessesStandOut = accessesStandOut(plan, request.limits.accessDetailLimit);
    result->chunksRead = qint64(chunks.size());
    result->accessesRead = accesses.rowsRead;
    result->estimatedAccesses = qint64(plan.estimatedAccesses);
    result->estimatedChunks = qint64(plan.estimatedChunks);
    result->summaryCellsRead = raster ? raster->cellsAdded() : 0;
    result->accesses = std::move(accesses.accesses);
    result->kept = std::move(*kept);
    // Hit tests search by transition: per-chunk reads come by operation, the scan in rowid order.
    if (plan.accesses == AccessSource::ChunkQueries)
        std::sort(result->accesses.begin(), result->accesses.end(),
            [](const Access &a, const Access &b) { return a.rowId < b.rowId; });
    result->milliseconds = clock.elapsed();
    return result;
}

// Lives on the render thread and owns that thread's connections: the history's, and the summary
// file's when the history's summary is kept in the viewer's cache.
class RenderWorker : public ConnectionWorker
{
public:
    sqlite::Connection &connection() { return m_database->connection(); }

    // The connection to `path` (opened on first use, kept until another is needed); null when it
    // cannot be opened.
    sqlite::Connection *summaryConnection(const QString &path)
    {
        if (path != m_summaryPath) {
            m_summary.close();
            m_summaryPath.clear();
            if (!m_summary.open(path, sqlite::Connection::Mode::ReadOnly))
                return nullptr;
            m_summary.execute(statements::connectionPragmas);
            m_summaryPath = path;
        }
        return &m_summary;
    }

protected:
    bool openConnection(const QString &path, QString *error) override
    {
        m_database = HistoryDatabase::open(path, error);
        if (!m_database)
            return false;
        m_database->connection().execute(statements::connectionPragmas);
        return true;
    }
    void closeConnection() override
    {
        m_database.reset();
        m_summary.close();
        m_summaryPath.clear();
    }

private:
    std::unique_ptr<HistoryDatabase> m_database;
    sqlite::Connection m_summary;
    QString m_summaryPath;
};

PlaneRenderer::PlaneRenderer(QObject *parent)
    : QObject(parent)
    , m_thread(std::make_unique<ConnectionThread<RenderWorker>>(this, QStringLiteral("memhist plane renderer")))
{ }

PlaneRenderer::~PlaneRenderer() = default;

void PlaneRenderer::cancel()
{
    m_thread->cancel();
}

void PlaneRenderer::render(RenderRequest request)
{
    m_thread->post(
        m_thread->supersede(),
        [request = std::move(request)](RenderWorker &worker, const JobTicket &ticket) {
            QString error;
            std::shared_ptr<const RenderResult> result;
            if (worker.ensureOpen(request.overview ? request.overview->path : QString(), &error)) {
                const HistoryOverview &overview = *request.overview;
                sqlite::Connection *summary = overview.summaryInfo && overview.summaryPath != overview.path
                    ? worker.summaryConnection(overview.summaryPath)
                    : nullptr;
                result = renderPlane(request, worker.connection(), ticket.cancelPredicate(), summary);
            }
            return result;
        },
        [this](const std::shared_ptr<const RenderResult> &result) {
            if (result)
                emit rendered(result);
        });
}

} // namespace memhist::plane
