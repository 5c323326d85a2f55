#include "planerenderer.h"

#include "plane/planereads.h"
#include "plane/planestatements.h"
#include "storage/historydatabase.h"

#include <QElapsedTimer>
#include <QPainter>
#include <algorithm>

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

// Lives on the render thread and owns that thread's connection.
class RenderWorker : public ConnectionWorker
{
public:
    sqlite::Connection &connection() { return m_database->connection(); }

protected:
    bool openConnection(const QString &path, QString *error) override
    {
        m_database = HistoryDatabase::open(path, error);
        if (!m_database)
            return false;
        m_database->connection().execute(statements::connectionPragmas);
        return true;
    }
    void closeConnection() override { m_database.reset(); }

private:
    std::unique_ptr<HistoryDatabase> m_database;
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
            if (worker.ensureOpen(request.overview ? request.overview->path : QString(), &error))
                result = renderPlane(request, worker.connection(), ticket.cancelPredicate());
            return result;
        },
        [this](const std::shared_ptr<const RenderResult> &result) {
            if (result)
                emit rendered(result);
        });
}

} // namespace memhist::plane
