#include "plaininsert.h"

#include "accessstreamgenerator.h"
#include "storage/schema.h"
#include "storage/sqlite.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

namespace memhist::bench {

namespace {

// The accesses table of the base schema, without its index.
constexpr const char *createAccessesTable = R"sql(
CREATE TABLE accesses(chunk_id int8 not null, transition int8 not null, linear int8, phy_first int8 not null,
                      size int not null, operation int not null)
)sql";
constexpr const char *createAccessesIndex = "CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition)";
constexpr const char *insertAccess = "INSERT INTO accesses VALUES(?,?,?,?,?,?)";

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

        sqlite::Statement insert = db.prepare(insertAccess);
        if (!insert.isValid())
            return failure(QStringLiteral("prepare"), db);
        sqlite::Transaction transaction(db);
        if (!transaction.isActive())
            return failure(QStringLiteral("begin"), db);

        Access access;
        qint64 row = 0;
        while (stream.next(&access)) {
            std::int64_t chunk = 0;
            if (kind == PlainInsertKind::IndexedRandomChunks)
                chunk
                    = std::int64_t(std::uint64_t(row / rowsPerSlice) * chunksPerSlice + chunkIds.below(chunksPerSlice));
            insert.bind(1, chunk);
            insert.bind(2, toStored(access.transition.value));
            insert.bind(3, toStored(access.linear->value));
            insert.bind(4, toStored(access.physical.value));
            insert.bind(5, std::int64_t(access.size));
            insert.bind(6, std::int64_t(access.operation));
            if (insert.step() != SQLITE_DONE)
                return failure(QStringLiteral("insert"), db);
            insert.reset();
            ++row;
        }
        if (!transaction.commit())
            return failure(QStringLiteral("commit"), db);
        insert = sqlite::Statement();
        result.rows = row;
    }
    result.nanoseconds = timer.nsecsElapsed();
    result.fileBytes = QFileInfo(path).size();
    result.ok = true;
    return result;
}

} // namespace memhist::bench
