// SPDX-License-Identifier: MIT
#include "widgets/plane/planeblockpipeline.h"

#include <QMutex>
#include <QThreadPool>
#include <QWaitCondition>
#include <deque>

namespace memhist::plane {

namespace {

// Blocks travel in batches of about this many cells: a handful of hand-overs per view, each
// batch small enough to stay in cache and to be reused rather than reallocated.
constexpr std::size_t cellsPerBatch = 4096;
// Batches read ahead of the visits at most: the reader never holds more than this in memory.
constexpr std::size_t batchesAhead = 4;
// Windows of fewer tiles x bins than this are read and visited on the calling thread: their few
// cells cost less than handing them over.
constexpr double smallestWindowAlongside = 1 << 16;

struct BlockBatch
{
    std::vector<summary::TileKey> keys;
    std::vector<std::size_t> ends; // where each key's cells end in `cells`
    std::vector<summary::Cell> cells;

    void add(const summary::TileKey &key, std::span<const summary::Cell> blockCells)
    {
        keys.push_back(key);
        cells.insert(cells.end(), blockCells.begin(), blockCells.end());
        ends.push_back(cells.size());
    }
    void clear()
    {
        keys.clear();
        ends.clear();
        cells.clear();
    }
};

// From the reading thread to the visiting one, bounded, with the visited batches handed back for
// reuse.
class BatchQueue
{
public:
    // Blocks while `batchesAhead` batches wait.
    void push(BlockBatch &&batch)
    {
        QMutexLocker lock(&m_mutex);
        while (m_full.size() >= batchesAhead)
            m_notFull.wait(&m_mutex);
        m_full.push_back(std::move(batch));
        m_notEmpty.wakeOne();
    }
    // No more batches; with `dropWaiting`, those not yet taken are dropped.
    void finish(bool dropWaiting)
    {
        QMutexLocker lock(&m_mutex);
        m_finished = true;
        if (dropWaiting)
            m_full.clear();
        m_notEmpty.wakeOne();
    }
    // The next batch into `batch` (whose storage goes back to the reader); false after the last.
    bool pop(BlockBatch *batch)
    {
        QMutexLocker lock(&m_mutex);
        while (m_full.empty() && !m_finished)
            m_notEmpty.wait(&m_mutex);
        if (m_full.empty())
            return false;
        batch->clear();
        m_spare.push_back(std::move(*batch));
        *batch = std::move(m_full.front());
        m_full.pop_front();
        m_notFull.wakeOne();
        return true;
    }
    // An empty batch, reusing a visited one's storage when there is one.
    BlockBatch spare()
    {
        QMutexLocker lock(&m_mutex);
        if (m_spare.empty())
            return {};
        BlockBatch batch = std::move(m_spare.back());
        m_spare.pop_back();
        return batch;
    }

private:
    QMutex m_mutex;
    QWaitCondition m_notEmpty;
    QWaitCondition m_notFull;
    std::deque<BlockBatch> m_full;
    std::vector<BlockBatch> m_spare;
    bool m_finished = false;
};

// The visiting threads: their own pool, so that jobs holding the global pool's threads never
// delay a view.
QThreadPool &visitingPool()
{
    static QThreadPool pool;
    return pool;
}

} // namespace

bool readSummaryBlocksAlongside(sqlite::Connection &summaryDb, const HistoryOverview &overview,
    const summary::TileWindow &window, const std::function<bool()> &cancelled,
    const summary::TileReader::Visitor &visit, QString *error)
{
    const double windowCells
        = double(window.lastTile - window.firstTile + 1) * (double(window.lastBin) - double(window.firstBin) + 1);
    if (windowCells < smallestWindowAlongside)
        return readSummaryBlocks(summaryDb, overview, window, cancelled, visit, error);
    BatchQueue queue;
    QMutex doneMutex;
    QWaitCondition doneCondition;
    bool done = false;
    const bool started = visitingPool().tryStart([&] {
        BlockBatch batch;
        while (queue.pop(&batch)) {
            std::size_t begin = 0;
            for (std::size_t i = 0; i < batch.keys.size(); ++i) {
                visit(batch.keys[i], std::span<const summary::Cell>(batch.cells).subspan(begin, batch.ends[i] - begin));
                begin = batch.ends[i];
            }
        }
        QMutexLocker lock(&doneMutex);
        done = true;
        doneCondition.wakeAll();
    });
    if (!started)
        return readSummaryBlocks(summaryDb, overview, window, cancelled, visit, error);

    BlockBatch batch;
    const auto collect = [&](const summary::TileKey &key, std::span<const summary::Cell> cells) {
        batch.add(key, cells);
        if (batch.cells.size() >= cellsPerBatch) {
            queue.push(std::move(batch));
            batch = queue.spare();
        }
    };
    const bool read = readSummaryBlocks(summaryDb, overview, window, cancelled, collect, error);
    if (read && !batch.keys.empty())
        queue.push(std::move(batch));
    queue.finish(!read);
    QMutexLocker lock(&doneMutex);
    while (!done)
        doneCondition.wait(&doneMutex);
    return read;
}

} // namespace memhist::plane
