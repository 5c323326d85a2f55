// SPDX-License-Identifier: MIT
#include "plaininsert.h"

#include "accessstreamgenerator.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"
#include "processmemory.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <vector>

namespace memhist::bench {

namespace {

// The accesses table of the base schema, without its index.
constexpr const char *createAccessesTable = R"sql(
CREATE TABLE accesses(chunk_id int8 not null, transition int8 not null, linear int8, phy_first int8 not null,
                      size int not null, operation int not null)
)sql";
constexpr const char *createAccessesIndex = "CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition)";
constexpr const char *insertAccess = "INSERT INTO accesses VALUES(?,?,?,?,?,?)";
constexpr int columns = 6;
constexpr int multiRows = 64;

QByteArray insertSql(int rows)
{
    QByteArray sql = "INSERT INTO accesses VALUES";
    for (int row = 0; row < rows; ++row)
        sql += row ? ",(?,?,?,?,?,?)" : "(?,?,?,?,?,?)";
    return sql;
}

constexpr qint64 rowsPerSlice = 20000;
constexpr std::uint64_t chunksPerSlice = 3000;

PlainInsertResult failure(const QString &what, sqlite::Connection &db)
{
    PlainInsertResult result;
    result.error = what + QStringLiteral(": ") + db.lastError();
    return result;
}

} // namespace

PlainInsertResult runPlainInsert(const QString &path, PlainInsertKind kind, std::uint64_t seed, qint64 accesses)
{
    QFile::remove(path);
    AccessStreamGenerator stream(seed, accesses);
    // Its own stream for the chunk ids, so the accesses are exactly those the writer stored.
    SplitMix64 chunkIds(seed ^ 0x6368'756e'6b69'6473ull); // "chunkids"

    const qint64 cpuBefore = processCpuNanoseconds();
    QElapsedTimer timer;
    timer.start();
    PlainInsertResult result;
    {
        sqlite::Connection db;
        if (!db.open(path, sqlite::Connection::Mode::ReadWriteCreate))
            return failure(QStringLiteral("open ") + path, db);
        if (!db.execute(schema::writerPragmas) || !db.execute(createAccessesTable))
            return failure(QStringLiteral("create ") + path, db);
        if (kind == PlainInsertKind::IndexedRandomChunks && !db.execute(createAccessesIndex))
            return failure(QStringLiteral("create index"), db);

        // The multi-row kind fills a 64-row statement, and the last partial batch row by row.
        const bool multiRow = kind == PlainInsertKind::UnindexedMultiRow;
        sqlite::Statement insert = db.prepare(insertAccess);
        sqlite::Statement insertMany = db.prepare(insertSql(multiRows).constData());
        if (!insert.isValid() || !insertMany.isValid())
            return failure(QStringLiteral("prepare"), db);
        sqlite::Transaction transaction(db);
        if (!transaction.isActive())
            return failure(QStringLiteral("begin"), db);

        Access access;
        qint64 row = 0;
        int batched = 0;
        std::vector<Access> pending; // the multi-row kind's incomplete last batch
        while (stream.next(&access)) {
            std::int64_t chunk = 0;
            if (kind == PlainInsertKind::IndexedRandomChunks)
                chunk
                    = std::int64_t(std::uint64_t(row / rowsPerSlice) * chunksPerSlice + chunkIds.below(chunksPerSlice));
            sqlite::Statement &statement = multiRow ? insertMany : insert;
            const int first = multiRow ? batched * columns + 1 : 1;
            statement.bind(first, chunk);
            statement.bind(first + 1, toStored(access.transition.value));
            statement.bind(first + 2, toStored(access.linear->value));
            statement.bind(first + 3, toStored(access.physical.value));
            statement.bind(first + 4, std::int64_t(access.size));
            statement.bind(first + 5, std::int64_t(access.operation));
            ++row;
            if (multiRow) {
                pending.push_back(access);
                if (++batched < multiRows)
                    continue;
                batched = 0;
                pending.clear();
            }
            if (statement.step() != SQLITE_DONE)
                return failure(QStringLiteral("insert"), db);
            statement.reset();
        }
        for (const Access &rest : pending) {
            insert.bind(1, std::int64_t(0));
            insert.bind(2, toStored(rest.transition.value));
            insert.bind(3, toStored(rest.linear->value));
            insert.bind(4, toStored(rest.physical.value));
            insert.bind(5, std::int64_t(rest.size));
            insert.bind(6, std::int64_t(rest.operation));
            if (insert.step() != SQLITE_DONE)
                return failure(QStringLiteral("insert"), db);
            insert.reset();
        }
        if (!transaction.commit())
            return failure(QStringLiteral("commit"), db);
        insert = sqlite::Statement();
        insertMany = sqlite::Statement();
        result.rows = row;
    }
    result.nanoseconds = timer.nsecsElapsed();
    result.cpuNanoseconds = processCpuNanoseconds() - cpuBefore;
    result.fileBytes = QFileInfo(path).size();
    result.ok = true;
    return result;
}

} // namespace memhist::bench
