#include "planerenderer.h"

#include "plane/planereads.h"
#include "plane/planestatements.h"
#include "storage/historydatabase.h"

#include <QElapsedTimer>
#include <QPainter>
#include <algorithm>
#include <limits>

namespace memhist::plane {

std::shared_ptr<RenderResult> renderPlane(
    const RenderRequest &request, sqlite::Connection &db, const std::function<bool()> &cancelled)
{
    if (!request.overview || request.pixels.isEmpty())
        return nullptr;
    QElapsedTimer clock;
    clock.start();
    const HistoryOverview &overview = *request.overview;
    const PixelMapping mapping(request.view, QSizeF(request.pixels));

    // What to draw: the rows of the visible transitions price the sequential scan.
    const std::optional<RowWindow> rows = readRowWindow(db, visibleTransitions(request.view));
    if (!rows)
        return nullptr;
    const DetailPlan plan = planDetail(overview, request.view, request.pixels.height(), rows->count(), request.limits);

    // What to read.
    std::vector<ChunkRow> chunks;
    if (plan.chunks == ChunkSource::ChunkRows && !readChunks(db, overview, plan, cancelled, &chunks))
        return nullptr;
    AccessRows accesses;
    if (plan.accesses == AccessSource::RowScan && !readAccessesInRows(db, *rows, plan, cancelled, &accesses))
        return nullptr;
    if (plan.accesses == AccessSource::ChunkQueries && !readAccessesOfChunks(db, chunks, plan, cancelled, &accesses))
        return nullptr;

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
    if (plan.chunks == ChunkSource::Coverage
        && !paintCoverage(painter, overview, plan, mapping, request.colors, cancelled))
        return nullptr;
    if (plan.chunks == ChunkSource::ChunkRows)
        paintChunks(painter, overview, chunks, plan, mapping, request.colors);
    paintAccesses(painter, accesses.accesses, mapping, overview.fold, request.colors);
    painter.end();

    result->accessDetail = plan.accessDetail();
    result->chunksRead = qint64(chunks.size());
    result->accessesRead = accesses.rowsRead;
    result->estimatedAccesses = qint64(plan.estimatedAccesses);
    result->estimatedChunks = qint64(plan.estimatedChunks);
    result->accesses = std::move(accesses.accesses);
    // Hit tests search by transition: per-chunk reads come by operation, the scan in rowid order.
    if (plan.accesses == AccessSource::ChunkQueries)
        std::sort(result->accesses.begin(), result->accesses.end(),
            [](const Access &a, const Access &b) { return a.rowId < b.rowId; });
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
