// SPDX-License-Identifier: MIT
// The stream of one history's accesses that `memhist diff` walks (core/diff/accessstream.h), read
// ahead on a thread of its own: every access comes over once, in rowid order, with its value,
// whether handed over by transition or drained; and a walk that stops early ends the reading
// thread, however far ahead it got.
#include "core/diff/accessstream.h"
#include "core/diff/diffstatements.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

class tst_DiffAccessStream : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void handsOverEveryAccessOnce_data();
    void handsOverEveryAccessOnce();
    void stopsReadingWhenDestroyedEarly();
    void readsOnTheWalksThreadWithoutASecondConnection();
    void batchesAreOneRangeScan();

private:
    QTemporaryDir m_dir;
    QString m_history;
    QList<ValuedAccess> m_written;
};

namespace {

// 50,000 accesses: far more than AccessStream reads ahead (maxBatches of batchSize), so the
// reading thread waits for the walk several times.
constexpr int accessCount = 50000;

// An access as the stream hands it over, in a form QCOMPARE prints.
QString describe(std::int64_t rowId, std::uint64_t transition, std::uint64_t address, std::uint32_t size, int operation,
    const QByteArray &value)
{
    return QStringLiteral("#%1 t%2 %3 %4/%5 %6")
        .arg(rowId)
        .arg(transition)
        .arg(address, 0, 16)
        .arg(size)
        .arg(operation)
        .arg(QString::fromLatin1(value.toHex()));
}

QString describe(const StreamedAccess &access)
{
    return describe(
        access.rowId, access.transition, access.address, access.size, access.operation, access.value.toByteArray());
}

} // namespace

void tst_DiffAccessStream::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_history = m_dir.filePath(QStringLiteral("stream.memhist"));
    QRandomGenerator random(31);
    for (int i = 0; i < accessCount; ++i) {
        // Three accesses per transition; a value for nine in ten, some of them 32 bytes.
        const std::uint32_t size = random.bounded(50) == 0 ? 32 : 1u << random.bounded(4);
        const Operation operation = random.bounded(3) == 0 ? Operation::Write : Operation::Read;
        ValuedAccess access { userAccess(std::uint64_t(i / 3), operation, 0x10000 + 8 * random.bounded(4096), size),
            {} };
        if (random.bounded(10) != 0) {
            access.value.resize(size);
            for (char &byte : access.value)
                byte = char(random.bounded(256));
        }
        m_written << access;
    }
    QVERIFY(writeHistoryWithValues(m_history, m_written));
    // The same with rows 10,001 to 30,000 deleted: rowids without rows, more than a batch's.
    const QString gap = m_dir.filePath(QStringLiteral("gap.memhist"));
    QVERIFY(QFile::copy(m_history, gap));
    sqlite::Connection connection;
    QVERIFY(connection.open(gap, sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY(connection.execute("DELETE FROM accesses WHERE rowid BETWEEN 10001 AND 30000"));
}

void tst_DiffAccessStream::handsOverEveryAccessOnce_data()
{
    QTest::addColumn<QString>("history");
    QTest::addColumn<int>("every"); // at() asks for every n-th transition; 0: drained only
    QTest::addColumn<qsizetype>("byAt"); // how many at() hands over
    const QString whole = QStringLiteral("stream.memhist");
    const QString gap = QStringLiteral("gap.memhist");
    QTest::newRow("drained") << whole << 0 << qsizetype(0);
    QTest::newRow("every transition by at()") << whole << 1 << qsizetype(accessCount);
    // 2,381 transitions of 3 accesses.
    QTest::newRow("every seventh by at(), the rest skipped") << whole << 7 << qsizetype(7143);
    QTest::newRow("rowids without rows: drained") << gap << 0 << qsizetype(0);
    QTest::newRow("rowids without rows: every transition by at()") << gap << 1 << qsizetype(accessCount - 20000);
}

void tst_DiffAccessStream::handsOverEveryAccessOnce()
{
    QFETCH(QString, history);
    QFETCH(int, every);
    QFETCH(qsizetype, byAt);
    QString error;
    const auto database = HistoryDatabase::open(m_dir.filePath(history), &error);
    QVERIFY2(database, qPrintable(error));
    AccessStream stream(*database);
    QVERIFY(stream.isValid());
    QVERIFY(stream.readsAhead());

    QStringList handedOver;
    qsizetype handedOverByAt = 0;
    const auto keep = [&handedOver](const StreamedAccess &access) { handedOver << describe(access); };
    if (every > 0) {
        for (std::uint64_t t = 0; t <= std::uint64_t(accessCount / 3); t += std::uint64_t(every)) {
            for (const StreamedAccess &access : stream.at(t, keep)) {
                QCOMPARE(access.transition, t);
                keep(access);
                ++handedOverByAt;
            }
        }
    }
    stream.drainThrough(~std::uint64_t(0), keep);
    std::uint64_t next = 0;
    QVERIFY(!stream.nextTransition(&next));

    QStringList expected;
    const bool gap = history.startsWith(QLatin1String("gap"));
    for (qsizetype i = 0; i < m_written.size(); ++i) {
        if (gap && i + 1 >= 10001 && i + 1 <= 30000)
            continue;
        const Access &access = m_written[i].access;
        expected << describe(i + 1, access.transition.value, access.physical.value, access.size, int(access.operation),
            m_written[i].value);
    }
    QCOMPARE(handedOver.size(), gap ? accessCount - 20000 : accessCount);
    QCOMPARE(handedOver, expected);
    QCOMPARE(handedOverByAt, byAt);
    QCOMPARE(stream.count(), std::uint64_t(handedOver.size()));
    QCOMPARE(stream.error(), QString());
}

void tst_DiffAccessStream::stopsReadingWhenDestroyedEarly()
{
    // The walk stopped (cancelled) after one access while the reading thread waits with its
    // batches full: destroying the stream ends the thread (a hang here fails by ctest's timeout).
    QString error;
    const auto database = HistoryDatabase::open(m_history, &error);
    QVERIFY2(database, qPrintable(error));
    auto stream = std::make_unique<AccessStream>(*database);
    std::uint64_t first = ~std::uint64_t(0);
    QVERIFY(stream->nextTransition(&first));
    QCOMPARE(first, std::uint64_t(0));
    QTest::qWait(200);
    QElapsedTimer timer;
    timer.start();
    stream.reset();
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
}

void tst_DiffAccessStream::readsOnTheWalksThreadWithoutASecondConnection()
{
    // The file is gone once the history is open (its connection still reads it): the stream
    // cannot open a connection of its own and reads through the history's, on this thread.
    const QString copy = m_dir.filePath(QStringLiteral("gone.memhist"));
    QVERIFY(QFile::copy(m_history, copy));
    QString error;
    const auto database = HistoryDatabase::open(copy, &error);
    QVERIFY2(database, qPrintable(error));
    QVERIFY(QFile::remove(copy));
    AccessStream stream(*database);
    QVERIFY(stream.isValid());
    QVERIFY(!stream.readsAhead());
    qsizetype count = 0, valued = 0;
    std::int64_t lastRowId = 0;
    bool inOrder = true;
    stream.drainThrough(~std::uint64_t(0), [&](const StreamedAccess &access) {
        inOrder = inOrder && access.rowId == lastRowId + 1
            && access.value.toByteArray() == m_written[qsizetype(access.rowId - 1)].value;
        lastRowId = access.rowId;
        ++count;
        valued += !access.value.isEmpty();
    });
    QVERIFY(inOrder);
    QCOMPARE(count, accessCount);
    QCOMPARE(valued, qsizetype(44945)); // nine in ten
    QCOMPARE(stream.count(), std::uint64_t(accessCount));
    QCOMPARE(stream.error(), QString());
}

void tst_DiffAccessStream::batchesAreOneRangeScan()
{
    // diffstatements::accessBatch needs AccessReader's function, so tst_statements cannot
    // check it: each batch is one search of its rowid range, no temporary b-tree, no sort.
    QString error;
    const auto database = HistoryDatabase::open(m_history, &error);
    QVERIFY2(database, qPrintable(error));
    auto reader = std::make_unique<AccessReader>(database->connection());
    QVERIFY(reader->isValid());
    const QByteArray explain = QByteArray("EXPLAIN QUERY PLAN ") + diffstatements::accessBatch;
    sqlite::Statement plan = database->connection().prepare(explain.constData());
    QVERIFY2(plan.isValid(), qPrintable(database->connection().lastError()));
    QStringList details;
    while (plan.step() == SQLITE_ROW)
        details << plan.text(3);
    QCOMPARE(
        details, QStringList({ QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") }));
    plan = {};
    // The function points to its reader: it goes with it.
    reader.reset();
    QVERIFY(!database->connection().prepare(diffstatements::accessBatch).isValid());
    QCOMPARE(database->connection().lastError(), QStringLiteral("no such function: memhist_collect_access"));
}

QTEST_GUILESS_MAIN(tst_DiffAccessStream)
#include "tst_diffaccessstream.moc"
