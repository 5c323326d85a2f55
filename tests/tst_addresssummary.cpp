// SPDX-License-Identifier: MIT
// The optional address summary: its codec (lists and bitmaps, malformed postings), the builder
// (exact rows with their header, chain and checksums; the same rows whatever the order of the
// chunks and whether it spills), and damaged summaries: `memhist check` names each damage and
// exits 1, the engine refuses every damage it can meet (query exits 1, never a wrong answer), and
// a history without a summary, or with one of another version, takes the plain path.

#include "core/checker/checkmessages.h"
#include "core/checker/historychecker.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/addresssummarybuilder.h"
#include "core/storage/addresssummaryformat.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <random>

using namespace memhist;
using namespace memhist::addresssummary;

namespace {

constexpr auto summaryProperty = "[the address summary lists exactly the slices with a chunk in each block]";

QList<std::int64_t> idsOf(const QByteArray &postings, std::int64_t rowBlock)
{
    QList<std::int64_t> ids;
    PostingsReader reader(postings, rowBlock, std::uint64_t(rowBlock) + 1);
    while (reader.next()) {
        std::vector<std::int64_t> entry;
        reader.slices(&entry);
        ids += QList<std::int64_t>(entry.begin(), entry.end());
    }
    return ids;
}

// Three slices of two accesses each (slice cap 2), chunks in blocks 0x8, 0x28 and 0x48 of 512 bytes:
//   slice 1: chunk 1 W 0x5000..0x5003, chunk 2 R 0x1000..0x1007
//   slice 2: chunk 3 R 0x1000..0x1007, chunk 4 R 0x9000..0x9007
//   slice 3: chunk 5 W 0x5000..0x5003, chunk 6 R 0x1004..0x1007
// so the finest level holds one row, block 0x8: R {1, 2, 3} in 0x8, W {1, 3} in 0x28, R {2} in 0x48.
QList<Access> smallStream()
{
    return {
        test::userAccess(0, Operation::Read, 0x1000, 8),
        test::userAccess(1, Operation::Write, 0x5000, 4),
        test::userAccess(2, Operation::Read, 0x1000, 8),
        test::userAccess(3, Operation::Read, 0x9000, 8),
        test::userAccess(4, Operation::Write, 0x5000, 4),
        test::userAccess(5, Operation::Read, 0x1004, 4),
    };
}

// The finest row of the small history with slice 2 left out of block 0x8's reads.
QByteArray postingsWithoutSlice2()
{
    QByteArray postings;
    const std::vector<std::int64_t> reads { 1, 3 };
    const std::vector<std::int64_t> writes { 1, 3 };
    const std::vector<std::int64_t> far { 2 };
    appendEntry(&postings, 8, 8, 2, reads);
    appendEntry(&postings, 8, 0x28, 1, writes);
    appendEntry(&postings, 0x28, 0x48, 2, far);
    return postings;
}

QString damaged(const QString &path)
{
    return QStringLiteral("; the database is damaged: run 'memhist check %1'").arg(path);
}

// A damage: SQL run on a copy of the small history (?1: a blob, ?2: a number, when used).
struct Damage
{
    Damage() = default;
    // ?1 in `sql` is `blob`, ?2 `number`.
    Damage(QString sql, QByteArray blob = {}, std::int64_t number = 0)
        : sql(std::move(sql))
        , blob(std::move(blob))
        , number(number)
    { }

    QString sql;
    QByteArray blob;
    std::int64_t number = 0;
};

} // namespace

Q_DECLARE_METATYPE(Damage)

class TestAddressSummary : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void codecRoundTrip_data();
    void codecRoundTrip();
    void readerRefusesMalformedPostings_data();
    void readerRefusesMalformedPostings();
    void writerStoresExactRows();
    void sameRowsWhateverTheOrderAndBudget();
    void damagedSummaryIsRefused_data();
    void damagedSummaryIsRefused();
    void forgedSummaryIsFoundByCheck();
    void historiesWithoutSummaryTakeThePlainPath_data();
    void historiesWithoutSummaryTakeThePlainPath();

private:
    QString copyOfSmall(const QString &name, const Damage &damage);

    QTemporaryDir m_dir;
    QString m_small;
};

void TestAddressSummary::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    WriterOptions options;
    options.sliceAccessCap = 2;
    QString error;
    QVERIFY2(test::writeHistory(m_small, smallStream(), options, &error), qPrintable(error));
}

QString TestAddressSummary::copyOfSmall(const QString &name, const Damage &damage)
{
    QString fileName = name;
    fileName.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    const QString path = m_dir.filePath(fileName + QStringLiteral(".memhist"));
    QFile::remove(path);
    if (!QFile::copy(m_small, path))
        return {};
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadWriteCreate))
        return {};
    if (damage.sql.isEmpty())
        return path;
    const QByteArray sql = damage.sql.toUtf8();
    if (!damage.sql.contains(u'?'))
        return db.execute(sql.constData()) ? path : QString();
    sqlite::Statement statement = db.prepare(sql.constData());
    if (!statement.isValid())
        return {};
    if (damage.sql.contains(QLatin1String("?1")))
        statement.bindBlob(1, damage.blob);
    if (damage.sql.contains(QLatin1String("?2")))
        statement.bind(2, damage.number);
    return statement.run() ? path : QString();
}

void TestAddressSummary::codecRoundTrip_data()
{
    QTest::addColumn<QList<qint64>>("ids");
    QTest::addColumn<int>("kind");
    QTest::newRow("one slice: a list") << QList<qint64> { 7 } << int(PostingKind::List);
    QTest::newRow("far apart: a list") << QList<qint64> { 1, 400, 90000 } << int(PostingKind::List);
    QTest::newRow("dense run: a bitmap") << QList<qint64> { 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 }
                                         << int(PostingKind::Bitmap);
    QTest::newRow("every other slice: a bitmap")
        << QList<qint64> { 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120 } << int(PostingKind::Bitmap);
    QTest::newRow("ids past 2^32") << QList<qint64> { qint64(1) << 40, (qint64(1) << 40) + 1 }
                                   << int(PostingKind::List);
}

void TestAddressSummary::codecRoundTrip()
{
    QFETCH(QList<qint64>, ids);
    QFETCH(int, kind);
    const std::vector<std::int64_t> input(ids.begin(), ids.end());
    QByteArray postings;
    appendEntry(&postings, 5, 5, 1, input);
    appendEntry(&postings, 5, 9, 2, input);

    PostingsReader reader(postings, 5, 10);
    QVERIFY(reader.next());
    QCOMPARE(reader.block(), 5);
    QCOMPARE(reader.operation(), 1);
    QCOMPARE(int(reader.kind()), kind);
    std::vector<std::int64_t> read;
    QVERIFY(reader.slices(&read));
    QCOMPARE(read, input);
    QVERIFY(reader.next());
    QCOMPARE(reader.block(), 9);
    QCOMPARE(reader.operation(), 2);
    read.clear();
    QVERIFY(reader.slices(&read));
    QCOMPARE(read, input);
    QVERIFY(!reader.next());
    QCOMPARE(reader.error(), QString());
}

void TestAddressSummary::readerRefusesMalformedPostings_data()
{
    QTest::addColumn<QByteArray>("postings");
    QTest::addColumn<QString>("error");
    // Header: varint(gap << 3 | operation << 1 | kind), then varint(length), then the payload.
    QTest::newRow("operation index 3") << QByteArray("\x06\x01\x01", 3)
                                       << QStringLiteral("operation index 3 is none of 0, 1, 2 (byte 0 of 3)");
    QTest::newRow("first entry of another block")
        << QByteArray("\x08\x01\x01", 3) << QStringLiteral("the first entry is not of the row's block (byte 0 of 3)");
    QTest::newRow("entries out of order") << QByteArray("\x04\x01\x01\x02\x01\x01",
        6) << QStringLiteral("an entry does not come after the one before it (byte 3 of 6)");
    QTest::newRow("past the row's end") << QByteArray("\x00\x01\x01\x50\x01\x01", 6)
                                        << QStringLiteral("an entry passes the row's end, block 10 (byte 3 of 6)");
    QTest::newRow("posting longer than the row")
        << QByteArray("\x00\x05\x01", 3) << QStringLiteral("a posting of 5 bytes does not fit (byte 1 of 3)");
    QTest::newRow("number cut short") << QByteArray("\x00\x02\x81\x81", 4)
                                      << QStringLiteral("a number is cut short (byte 2 of 4)");
    QTest::newRow("bitmap starting with a clear bit") << QByteArray(
        "\x01\x02\x01\x02", 4) << QStringLiteral("a bitmap must start and end with a set bit (byte 3 of 4)");
}

void TestAddressSummary::readerRefusesMalformedPostings()
{
    QFETCH(QByteArray, postings);
    QFETCH(QString, error);
    PostingsReader reader(postings, 5, 10);
    std::vector<std::int64_t> ids;
    while (reader.next() && reader.slices(&ids)) { }
    QCOMPARE(reader.error(), error);
}

void TestAddressSummary::writerStoresExactRows()
{
    sqlite::Connection db;
    QVERIFY(db.open(m_small, sqlite::Connection::Mode::ReadOnly));
    sqlite::Statement rows = db.prepare("SELECT shift, block, next, checksum, postings FROM address_summary "
                                        "WHERE shift IN (9, 15) ORDER BY shift, block");
    QVERIFY(rows.isValid());
    QByteArray finest;
    const std::vector<std::int64_t> reads { 1, 2, 3 };
    const std::vector<std::int64_t> writes { 1, 3 };
    const std::vector<std::int64_t> far { 2 };
    appendEntry(&finest, 8, 8, 2, reads);
    appendEntry(&finest, 8, 0x28, 1, writes);
    appendEntry(&finest, 0x28, 0x48, 2, far);
    // At 32 KiB blocks: block 0 up to 0x7fff, block 1 from 0x8000.
    QByteArray coarse;
    appendEntry(&coarse, 0, 0, 1, writes);
    appendEntry(&coarse, 0, 0, 2, reads);
    appendEntry(&coarse, 0, 1, 2, far);
    struct Expected
    {
        int shift;
        std::int64_t block;
        std::int64_t next;
        QByteArray postings;
    };
    const Expected expected[] = {
        { 9, headerBlock, 8, {} },
        { 9, 8, levelEnd(9), finest },
        { 15, headerBlock, 0, {} },
        { 15, 0, levelEnd(15), coarse },
    };
    for (const Expected &row : expected) {
        QCOMPARE(rows.step(), SQLITE_ROW);
        QCOMPARE(rows.int64(0), row.shift);
        QCOMPARE(rows.int64(1), row.block);
        QCOMPARE(rows.int64(2), row.next);
        QCOMPARE(rows.int64(3), rowChecksum(row.shift, row.block, row.next, row.postings));
        QCOMPARE(rows.blob(4), row.postings);
    }
    QCOMPARE(rows.step(), SQLITE_DONE);

    sqlite::Statement info = db.prepare("SELECT version, slices, last_chunk, length(wide_postings) FROM "
                                        "address_summary_info");
    QCOMPARE(info.step(), SQLITE_ROW);
    QCOMPARE(info.int64(0), 1);
    QCOMPARE(info.int64(1), 3);
    QCOMPARE(info.int64(2), 6);
    QCOMPARE(info.int64(3), 0);
    // Ten levels, one header each, and one row of blocks each.
    sqlite::Statement count = db.prepare("SELECT count(*) FROM address_summary");
    QCOMPARE(count.step(), SQLITE_ROW);
    QCOMPARE(count.int64(0), 20);
}

// Chunks in slice order, shuffled, and with a budget so small that every chunk spills: the same
// rows and totals; a chunk over more than max_span + 1 blocks goes to the wide postings.
void TestAddressSummary::sameRowsWhateverTheOrderAndBudget()
{
    struct Chunk
    {
        std::int64_t slice;
        std::int64_t operation;
        std::uint64_t first;
        std::uint64_t last;
    };
    std::mt19937_64 random(11);
    std::vector<Chunk> chunks;
    for (std::int64_t slice = 1; slice <= 300; ++slice) {
        for (int i = 0; i < 20; ++i) {
            const std::uint64_t base = (random() % 64) * 0x10000 + (random() % 0x10000);
            const std::int64_t operations[] = { 1, 2, 4, 3 }; // 3: left out
            chunks.push_back({ slice, operations[random() % 4], base, base + random() % 700 });
        }
    }
    chunks.push_back({ 17, 4, 0x100000, 0x100000 + 64 * 512 }); // 65 blocks: wide
    chunks.push_back({ 18, 2, ~std::uint64_t(0), ~std::uint64_t(0) }); // the last byte of the address space
    const auto build = [&](const std::vector<Chunk> &order, qint64 budget, int *spills) {
        sqlite::Connection db;
        std::vector<Row> rows;
        Totals totals;
        if (!db.open(m_small, sqlite::Connection::Mode::ReadOnly))
            return std::make_pair(rows, totals);
        Builder builder(db, Parameters {}, budget);
        for (const Chunk &chunk : order)
            builder.addChunk(chunk.slice, chunk.operation, chunk.first, chunk.last);
        builder.finish(
            [&](const Row &row) {
                rows.push_back(row);
                return true;
            },
            &totals);
        *spills = builder.spilledRuns();
        return std::make_pair(rows, totals);
    };
    int spills = 0;
    const auto [rows, totals] = build(chunks, defaultMemoryBudget, &spills);
    QCOMPARE(spills, 0);
    QVERIFY(rows.size() > 20);
    QCOMPARE(idsOf(totals.widePostings, 0), (QList<std::int64_t> { 17 }));
    QCOMPARE(totals.slices, 3); // what the database it runs on holds
    QCOMPARE(totals.lastChunk, 6);

    const auto [spilledRows, spilledTotals] = build(chunks, 0, &spills);
    QVERIFY(spills > 100);
    QVERIFY(spilledRows == rows);
    QCOMPARE(spilledTotals.widePostings, totals.widePostings);

    // Spilled through a scratch connection of its own (the writer's summary thread): the same rows,
    // with the scratch tables in that connection's temporary database and none in the history's.
    {
        sqlite::Connection db;
        sqlite::Connection scratch;
        QVERIFY(db.open(m_small, sqlite::Connection::Mode::ReadOnly));
        QVERIFY(scratch.open(QString(), sqlite::Connection::Mode::ReadWriteCreate));
        Builder builder(db, Parameters {}, 0);
        builder.setScratch(scratch);
        for (const Chunk &chunk : chunks)
            QVERIFY(builder.addChunk(chunk.slice, chunk.operation, chunk.first, chunk.last));
        const auto scratchTables = [](sqlite::Connection &connection) {
            sqlite::Statement count
                = connection.prepare("SELECT count(*) FROM temp.sqlite_schema WHERE name LIKE 'memhist_summary_%'");
            return count.step() == SQLITE_ROW ? count.int64(0) : -1;
        };
        QCOMPARE(scratchTables(scratch), 2);
        QCOMPARE(scratchTables(db), 0);
        std::vector<Row> scratchRows;
        Totals scratchTotals;
        QVERIFY(builder.finish(
            [&](const Row &row) {
                scratchRows.push_back(row);
                return true;
            },
            &scratchTotals));
        QVERIFY(builder.spilledRuns() > 100);
        QVERIFY(scratchRows == rows);
        QCOMPARE(scratchTotals.widePostings, totals.widePostings);
        QCOMPARE(scratchTotals.slices, 3); // counted in the history, not in the scratch database
        QCOMPARE(scratchTotals.lastChunk, 6);
    }

    std::vector<Chunk> shuffled = chunks;
    std::shuffle(shuffled.begin(), shuffled.end(), random);
    const auto [shuffledRows, shuffledTotals] = build(shuffled, 4096, &spills);
    QVERIFY(spills > 0);
    QVERIFY(shuffledRows == rows);
    QCOMPARE(shuffledTotals.widePostings, totals.widePostings);
}

void TestAddressSummary::damagedSummaryIsRefused_data()
{
    QTest::addColumn<Damage>("damage");
    QTest::addColumn<QStringList>("window"); // memhist query options
    QTest::addColumn<QString>("violation"); // what the engine reports
    QTest::addColumn<QString>("checkViolation"); // what check reports first, when it words it otherwise

    const QStringList onReads { QStringLiteral("--from"), QStringLiteral("0x1000"), QStringLiteral("--to"),
        QStringLiteral("0x1000") };
    const QByteArray changed = postingsWithoutSlice2();
    const std::int64_t storedChecksum = rowChecksum(9, 8, levelEnd(9), [] {
        QByteArray finest;
        const std::vector<std::int64_t> reads { 1, 2, 3 };
        const std::vector<std::int64_t> writes { 1, 3 };
        const std::vector<std::int64_t> far { 2 };
        appendEntry(&finest, 8, 8, 2, reads);
        appendEntry(&finest, 8, 0x28, 1, writes);
        appendEntry(&finest, 0x28, 0x48, 2, far);
        return finest;
    }());
    QTest::newRow("a slice dropped from a row, checksum kept")
        << Damage { QStringLiteral("UPDATE address_summary SET postings = ?1 WHERE shift = 9 AND block = 8"), changed }
        << onReads
        << QStringLiteral(
               "address_summary row (shift 9, block 0x8): its checksum %1 is not that of its contents, %2 %3")
               .arg(storedChecksum)
               .arg(rowChecksum(9, 8, levelEnd(9), changed))
               .arg(QLatin1String(summaryProperty))
        << QString();
    QTest::newRow("a row deleted")
        << Damage { QStringLiteral("DELETE FROM address_summary WHERE shift = 9 AND block = 8") } << onReads
        << QStringLiteral("address_summary header row (shift 9): says the next row starts at block 8, but no row of "
                          "the level starts in blocks 0..8: a row is missing %1")
               .arg(QLatin1String(summaryProperty))
        << QStringLiteral("address_summary header row (shift 9): says the next row starts at block 8, but it is the "
                          "last row of the level: a row is missing %1")
               .arg(QLatin1String(summaryProperty));
    QTest::newRow("a header row deleted")
        << Damage { QStringLiteral("DELETE FROM address_summary WHERE shift = 9 AND block = -1") }
        << QStringList { QStringLiteral("--from"), QStringLiteral("0"), QStringLiteral("--to"), QStringLiteral("0") }
        << QStringLiteral("address_summary (shift 9): has no header row (block -1): rows are missing %1")
               .arg(QLatin1String(summaryProperty))
        << QString();
    const QByteArray added = [] {
        QByteArray postings;
        const std::vector<std::int64_t> ids { 2 };
        appendEntry(&postings, 0x100, 0x100, 2, ids);
        return postings;
    }();
    QTest::newRow("a row added")
        << Damage { QStringLiteral("INSERT INTO address_summary VALUES(9, 256, %1, 0, ?1)").arg(levelEnd(9)), added }
        << QStringList { QStringLiteral("--from"), QStringLiteral("0x20000"), QStringLiteral("--to"),
               QStringLiteral("0x20000") }
        << QStringLiteral("address_summary row (shift 9, block 0x100): its checksum 0 is not that of its contents, "
                          "%1 %2")
               .arg(rowChecksum(9, 0x100, levelEnd(9), added))
               .arg(QLatin1String(summaryProperty))
        << QStringLiteral("address_summary row (shift 9, block 0x8): says the next row starts at block %1, but the "
                          "next row is at block 256: a row is missing or was added %2")
               .arg(levelEnd(9))
               .arg(QLatin1String(summaryProperty));
    QTest::newRow("postings not a blob")
        << Damage { QStringLiteral("UPDATE address_summary SET postings = 'x' WHERE shift = 9 AND block = 8") }
        << onReads
        << QStringLiteral("address_summary row (shift 9, block 0x8): is not a row of the summary: %1 %2")
               .arg(QStringLiteral("block, next and checksum must be integers, postings a blob"),
                   QLatin1String(summaryProperty))
        << QString();
    QTest::newRow("info row changed") << Damage { QStringLiteral("UPDATE address_summary_info SET slices = 2") }
                                      << onReads
                                      << QStringLiteral("address_summary_info: its checksum %1 is not that of its "
                                                        "contents, %2 %3")
                                             .arg(infoChecksum(1, Parameters {}, 3, 6, {}))
                                             .arg(infoChecksum(1, Parameters {}, 2, 6, {}))
                                             .arg(QLatin1String(summaryProperty))
                                      << QString();
    QTest::newRow("info row deleted")
        << Damage { QStringLiteral("DELETE FROM address_summary_info") } << onReads
        << QStringLiteral("address_summary_info: holds no row %1").arg(QLatin1String(summaryProperty)) << QString();
    // An access and its chunk added to the last slice after the summary was written: the summary
    // does not know the chunk, so a query there would skip it.
    QTest::newRow("a chunk added after the summary")
        << Damage { QStringLiteral("INSERT INTO chunks VALUES(3, 131072, 131079, 4); "
                                   "INSERT INTO accesses VALUES(7, 5, 131072, 131072, 8, 4)") }
        << QStringList { QStringLiteral("--from"), QStringLiteral("0x20000"), QStringLiteral("--to"),
               QStringLiteral("0x20000") }
        << QStringLiteral("address_summary_info: was built from 3 slices and chunks up to rowid 6, but the history "
                          "holds 3 slices and chunks up to rowid 7 %1")
               .arg(QLatin1String(summaryProperty))
        << QStringLiteral("meta accesses: records 6 but the database holds 7 accesses [meta counts match the "
                          "database]");
    QTest::newRow("summary table dropped")
        << Damage { QStringLiteral("DROP TABLE address_summary") } << onReads
        << QStringLiteral("address_summary_info: is there without address_summary %1")
               .arg(QLatin1String(summaryProperty))
        << QString();
}

// The engine stops at the first damage it meets, `query` exits 1 with it, and `check` names it first.
void TestAddressSummary::damagedSummaryIsRefused()
{
    QFETCH(Damage, damage);
    QFETCH(QStringList, window);
    QFETCH(QString, violation);
    QFETCH(QString, checkViolation);
    const QString path = copyOfSmall(QString::fromUtf8(QTest::currentDataTag()), damage);
    QVERIFY(!path.isEmpty());

    const test::CliResult query = test::runCli(
        QStringList { QStringLiteral("query"), path, QStringLiteral("--format"), QStringLiteral("csv") } + window);
    QCOMPARE(
        QString::fromUtf8(query.err), path + QStringLiteral(": query failed: ") + violation + damaged(path) + u'\n');
    QCOMPARE(query.exitCode, 1);
    QCOMPARE(query.out, QByteArray());

    const test::CliResult check = test::runCli({ QStringLiteral("check"), path });
    QCOMPARE(check.exitCode, 1);
    QCOMPARE(QString::fromUtf8(check.err).section(u'\n', 0, 0),
        QStringLiteral("FAILED: ") + (checkViolation.isEmpty() ? violation : checkViolation));
    // The summary's property is among those check counts, whatever came first.
    QVERIFY2(QString::fromUtf8(check.err).contains(QStringLiteral("  %1: ").arg(QLatin1String(summaryProperty))),
        check.err.constData());
}

// A summary rewritten consistently (checksum recomputed) but missing a slice passes every test a
// query can afford; `memhist check` rebuilds it from the chunks and names the slice.
void TestAddressSummary::forgedSummaryIsFoundByCheck()
{
    const QByteArray changed = postingsWithoutSlice2();
    const QString path = copyOfSmall(QStringLiteral("forged"),
        { QStringLiteral("UPDATE address_summary SET postings = ?1, checksum = ?2 WHERE shift = 9 AND block = 8"),
            changed, rowChecksum(9, 8, levelEnd(9), changed) });
    QVERIFY(!path.isEmpty());
    const test::CliResult check = test::runCli({ QStringLiteral("check"), path });
    QCOMPARE(check.exitCode, 1);
    QCOMPARE(QString::fromUtf8(check.err).section(u'\n', 0, 0),
        QStringLiteral("FAILED: address_summary row (shift 9, block 0x8): lacks slice 2 for R in block 0x8 "
                       "(0x1000..0x11ff), where the chunks put it: a query there would skip it %1")
            .arg(QLatin1String(summaryProperty)));
}

void TestAddressSummary::historiesWithoutSummaryTakeThePlainPath_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<bool>("usesSummary");
    QTest::addColumn<QString>("note"); // check's, or empty
    QTest::newRow("with its summary") << QString() << true << QString();
    QTest::newRow("summary dropped (an older memhist file)")
        << QStringLiteral("DROP TABLE address_summary; DROP TABLE address_summary_info") << false << QString();
    QTest::newRow("summary of another version")
        << QStringLiteral("UPDATE address_summary_info SET version = 7") << false
        << QStringLiteral("the address summary is of version 7, which this memhist does not read (it reads version "
                          "1): queries visit every slice");
}

void TestAddressSummary::historiesWithoutSummaryTakeThePlainPath()
{
    QFETCH(QString, sql);
    QFETCH(bool, usesSummary);
    QFETCH(QString, note);
    const QString path = copyOfSmall(QString::fromUtf8(QTest::currentDataTag()), { sql });
    QVERIFY(!path.isEmpty());
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    QCOMPARE(report.notes.contains(note), !note.isEmpty());

    // Byte 0x1000: read in slices 1 and 2; slice 2 is the only one in 0x9000's block, so
    // the summary path visits it alone.
    HalfAxisQueryEngine engine(*db);
    HalfAxisQuery query;
    query.first = Address { 0x1000 };
    query.last = Address { 0x1000 };
    QueryPage page;
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QList<Access> stream = smallStream();
    for (qsizetype i = 0; i < stream.size(); ++i)
        stream[i].rowId = RowId { i + 1 };
    QCOMPARE(page.accesses, test::oracle(stream, query).accesses);
    QCOMPARE(page.accesses.size(), 2);
    QCOMPARE(engine.lastStats().usedAddressSummary, usesSummary);
    query.first = Address { 0x9000 };
    query.last = Address { 0x9007 };
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QCOMPARE(page.accesses.size(), 1);
    QCOMPARE(page.accesses.constFirst().rowId.value, 4);
    QCOMPARE(engine.lastStats().slicesVisited, usesSummary ? 1 : 3);
}

QTEST_GUILESS_MAIN(TestAddressSummary)
#include "tst_addresssummary.moc"
