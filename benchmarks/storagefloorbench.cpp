// SPDX-License-Identifier: MIT
// memhist-storage-floor: the fastest the spec's rows of a history can be stored with SQLite on one
// connection, whatever the writer does before them. It copies a history's slices, chunks, accesses
// and accesses' index keys into a new file with the writer's pragmas and statements (64 rows per
// INSERT, the keys appended in index order and adopted as idx_accesses_1, the slices' and chunks'
// indexes built at the end) and times only the storing: each slice is read from the history
// first, untimed. No parsing, planning, values, code trace, context or address summary: what the
// writer adds to these rows can only make it slower, so the rate printed bounds any recording
// into this storage model from above (issue 26: how far above Lackey it can ever go).
//
// Usage: memhist-storage-floor HISTORY [OUTPUT]   (OUTPUT default: a temporary file, removed)

#include "core/storage/batchinsert.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace memhist;

namespace {

struct ChunkRow
{
    std::int64_t slice, phyFirst, phyLast, operation;
};
struct AccessRow
{
    std::int64_t chunk, transition, linear, phyFirst, size, operation;
    bool linearIsNull;
};
struct KeyRow
{
    std::int64_t chunk, transition, access;
};

std::int64_t threadCpuNanoseconds()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

[[noreturn]] void fail(const QString &what, const sqlite::Connection &db)
{
    std::fprintf(stderr, "memhist-storage-floor: %s: %s\n", qUtf8Printable(what), qUtf8Printable(db.lastError()));
    std::exit(1);
}

// The time spent inside the storing sections only, wall and CPU of this (the only) thread.
class StoringClock
{
public:
    void start()
    {
        m_wall.start();
        m_cpuAtStart = threadCpuNanoseconds();
    }
    void stop()
    {
        wallNanoseconds += m_wall.nsecsElapsed();
        cpuNanoseconds += threadCpuNanoseconds() - m_cpuAtStart;
    }
    std::int64_t wallNanoseconds = 0;
    std::int64_t cpuNanoseconds = 0;

private:
    QElapsedTimer m_wall;
    std::int64_t m_cpuAtStart = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList arguments = app.arguments();
    if (arguments.size() < 2 || arguments.size() > 3) {
        std::fprintf(stderr, "usage: memhist-storage-floor HISTORY [OUTPUT]\n");
        return 2;
    }
    const QString historyPath = arguments.at(1);
    QTemporaryDir temporary;
    const QString outputPath
        = arguments.size() == 3 ? arguments.at(2) : temporary.filePath(QStringLiteral("floor.memhist"));
    QFile::remove(outputPath);

    sqlite::Connection source;
    if (!source.open(historyPath, sqlite::Connection::Mode::ReadOnly))
        fail(QStringLiteral("open ") + historyPath, source);
    sqlite::Statement slices
        = source.prepare("SELECT rowid, transition_first, transition_last FROM slices ORDER BY rowid");
    sqlite::Statement chunks
        = source.prepare("SELECT rowid, slice_id, phy_first, phy_last, operation FROM chunks ORDER BY rowid");
    sqlite::Statement accesses = source.prepare(
        "SELECT chunk_id, transition, linear, phy_first, size, operation FROM accesses ORDER BY rowid");
    sqlite::Statement keys = source.prepare(
        "SELECT chunk_id, transition, rowid FROM accesses INDEXED BY idx_accesses_1 ORDER BY chunk_id, transition");
    if (!slices.isValid() || !chunks.isValid() || !accesses.isValid() || !keys.isValid())
        fail(historyPath + QStringLiteral(": not a memhist history with slices, chunks and idx_accesses_1"), source);

    sqlite::Connection db;
    if (!db.open(outputPath, sqlite::Connection::Mode::ReadWriteCreate))
        fail(QStringLiteral("open ") + outputPath, db);
    if (!db.execute(schema::writerPragmas) || !db.execute(schema::createBaseTablesWithoutIndexes)
        || !db.execute(schema::createAccessKeys))
        fail(QStringLiteral("create ") + outputPath, db);
    sqlite::Statement insertSlice = db.prepare(schema::insertSlice);
    sqlite::BatchInsert insertChunks(db, schema::insertChunks);
    sqlite::BatchInsert insertAccesses(db, schema::insertAccesses);
    sqlite::BatchInsert insertKeys(db, schema::insertAccessKeys);
    if (!insertSlice.isValid() || !insertChunks.isValid() || !insertAccesses.isValid() || !insertKeys.isValid())
        fail(QStringLiteral("prepare"), db);

    StoringClock storing;
    QElapsedTimer whole;
    whole.start();
    std::vector<ChunkRow> sliceChunks;
    std::vector<AccessRow> sliceAccesses;
    std::vector<KeyRow> sliceKeys;
    std::int64_t sliceCount = 0, chunkCount = 0, accessCount = 0;
    bool chunkPending = chunks.step() == SQLITE_ROW;
    bool accessPending = accesses.step() == SQLITE_ROW;
    bool keyPending = keys.step() == SQLITE_ROW;

    storing.start();
    sqlite::Transaction transaction(db);
    if (!transaction.isActive())
        fail(QStringLiteral("begin"), db);
    storing.stop();

    while (slices.step() == SQLITE_ROW) {
        // Read one slice's rows (untimed). Chunk rowids grow slice by slice, accesses' rowids
        // chunk range by chunk range: the writer stores a slice at a time.
        const std::int64_t slice = slices.int64(0);
        sliceChunks.clear();
        sliceAccesses.clear();
        sliceKeys.clear();
        std::int64_t lastChunk = -1;
        while (chunkPending && chunks.int64(1) == slice) {
            lastChunk = chunks.int64(0);
            sliceChunks.push_back({ slice, chunks.int64(2), chunks.int64(3), chunks.int64(4) });
            chunkPending = chunks.step() == SQLITE_ROW;
        }
        while (accessPending && accesses.int64(0) <= lastChunk) {
            sliceAccesses.push_back({ accesses.int64(0), accesses.int64(1), accesses.int64(2), accesses.int64(3),
                accesses.int64(4), accesses.int64(5), accesses.isNull(2) });
            accessPending = accesses.step() == SQLITE_ROW;
        }
        while (keyPending && keys.int64(0) <= lastChunk) {
            sliceKeys.push_back({ keys.int64(0), keys.int64(1), keys.int64(2) });
            keyPending = keys.step() == SQLITE_ROW;
        }

        storing.start();
        insertSlice.bind(1, slice);
        insertSlice.bind(2, slices.int64(1));
        insertSlice.bind(3, slices.int64(2));
        if (!insertSlice.run())
            fail(QStringLiteral("insert slice"), db);
        const bool stored = insertChunks.insert(sliceChunks.size(),
                                [&](sqlite::Statement &statement, int first, std::size_t index) {
                                    const ChunkRow &row = sliceChunks[index];
                                    statement.bind(first, row.slice);
                                    statement.bind(first + 1, row.phyFirst);
                                    statement.bind(first + 2, row.phyLast);
                                    statement.bind(first + 3, row.operation);
                                })
            && insertAccesses.insert(sliceAccesses.size(),
                [&](sqlite::Statement &statement, int first, std::size_t index) {
                    const AccessRow &row = sliceAccesses[index];
                    statement.bind(first, row.chunk);
                    statement.bind(first + 1, row.transition);
                    if (row.linearIsNull)
                        statement.bindNull(first + 2);
                    else
                        statement.bind(first + 2, row.linear);
                    statement.bind(first + 3, row.phyFirst);
                    statement.bind(first + 4, row.size);
                    statement.bind(first + 5, row.operation);
                })
            && insertKeys.insert(sliceKeys.size(), [&](sqlite::Statement &statement, int first, std::size_t index) {
                   const KeyRow &row = sliceKeys[index];
                   statement.bind(first, row.chunk);
                   statement.bind(first + 1, row.transition);
                   statement.bind(first + 2, row.access);
               });
        storing.stop();
        if (!stored)
            fail(QStringLiteral("insert rows of slice %1").arg(slice), db);
        ++sliceCount;
        chunkCount += std::int64_t(sliceChunks.size());
        accessCount += std::int64_t(sliceAccesses.size());
    }
    if (chunkPending || accessPending || keyPending) {
        std::fprintf(stderr, "memhist-storage-floor: %s: rows outside every slice (not a writer's history)\n",
            qUtf8Printable(historyPath));
        return 1;
    }

    // What the writer's finish() does with these tables.
    storing.start();
    insertSlice = {};
    insertChunks = {};
    insertAccesses = {};
    insertKeys = {};
    if (!db.execute(schema::createSliceAndChunkIndexes) || !db.execute(schema::adoptAccessKeysAsIndex))
        fail(QStringLiteral("finish"), db);
    if (!transaction.commit())
        fail(QStringLiteral("commit"), db);
    db.close();
    storing.stop();
    const double wholeSeconds = whole.nsecsElapsed() / 1e9;

    const double wallSeconds = storing.wallNanoseconds / 1e9;
    const double cpuSeconds = storing.cpuNanoseconds / 1e9;
    const qint64 fileBytes = QFileInfo(outputPath).size();
    std::printf("history: %s\n", qUtf8Printable(historyPath));
    std::printf("rows: %lld slices, %lld chunks, %lld accesses, %lld index keys\n", qlonglong(sliceCount),
        qlonglong(chunkCount), qlonglong(accessCount), qlonglong(accessCount));
    std::printf("storing only: %.2f s wall, %.2f s CPU (reading the history between: %.2f s more)\n", wallSeconds,
        cpuSeconds, wholeSeconds - wallSeconds);
    std::printf("storage floor: %.0f accesses/s wall, %.0f accesses/s CPU; file %lld bytes (%.2f per access)\n",
        accessCount / wallSeconds, accessCount / cpuSeconds, qlonglong(fileBytes),
        accessCount ? double(fileBytes) / accessCount : 0.0);
    return 0;
}
