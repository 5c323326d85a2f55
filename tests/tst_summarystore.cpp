// SPDX-License-Identifier: MIT
// The display summary's tables as a reader finds them: a summary of another version, a damaged
// one or another tool's tables of the same names is refused with the reason (never read as a
// summary, so never drawn wrong); a history without them simply has none.
#include "core/storage/sqlite.h"
#include "core/summary/summarystore.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::summary;
using namespace memhist::test;

class TestSummaryStore : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_history; // a small history with its summary, copied by each test

    QString copyOfHistory(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        QFile::remove(path);
        return QFile::copy(m_history, path) ? path : QString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_history = m_dir.filePath(QStringLiteral("history.memhist"));
        HistoryWriter writer(m_history);
        QVERIFY(writer.open());
        for (int i = 0; i < 100; ++i)
            QVERIFY(writer.add(userAccess(
                std::uint64_t(i), i % 2 ? Operation::Read : Operation::Write, 0x1000 + 8 * std::uint64_t(i % 10), 8)));
        QVERIFY(writer.finish());
    }

    void readsTheWritersSummary()
    {
        sqlite::Connection db;
        QVERIFY(db.open(m_history, sqlite::Connection::Mode::ReadOnly));
        QString why = QStringLiteral("not cleared");
        const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
        QVERIFY(info);
        QVERIFY(why.isEmpty());
        QCOMPARE(info->accesses, 100);
        QCOMPARE(info->levels.slices, 1);
        QCOMPARE(info->regions, (std::vector<AddressInterval> { { 0x1000, 0x104f } }));
        // Every access in the region: one hotspot, its whole (which the fold leaves alone).
        QCOMPARE(info->hotspots, (std::vector<AccessHotspot> { { { 0x1000, 0x104f }, 1.0 } }));
        QCOMPARE(info->fold().segments().size(), std::size_t(1));
        QCOMPARE(info->shape, (HistoryShape { 1, info->chunks, 100 }));
        QCOMPARE(readHistoryShape(db), std::optional<HistoryShape>(info->shape));
    }

    void refusedWithTheReason_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no summary tables: none, no reason")
            << QStringLiteral("DROP TABLE summary_info; DROP TABLE summary_tiles;") << QString();
        QTest::newRow("only one of the two tables: none, no reason")
            << QStringLiteral("DROP TABLE summary_tiles;") << QString();
        QTest::newRow("a later version") << QStringLiteral("UPDATE summary_info SET value = '3' WHERE key = 'version';")
                                         << QStringLiteral("the summary is of version 3, this viewer reads version 2");
        QTest::newRow("no version") << QStringLiteral("DELETE FROM summary_info WHERE key = 'version';")
                                    << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("no fold regions") << QStringLiteral("DELETE FROM summary_info WHERE key = 'fold_regions';")
                                         << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("regions out of order")
            << QStringLiteral("UPDATE summary_info SET value = '2000-2fff 1000-1fff' WHERE key = 'fold_regions';")
            << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("a region that is not hex")
            << QStringLiteral("UPDATE summary_info SET value = '1000-zz' WHERE key = 'fold_regions';")
            << QStringLiteral("summary_info is incomplete or damaged");
        // No builder writes more than FoldOptions::maxRegions; AddressFold would merge a longer list
        // into another fold than its tiles are binned on. Refused before 2,000,000 are parsed.
        QTest::newRow("1025 fold regions") << QStringLiteral(
            "UPDATE summary_info SET value = (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 "
            "FROM n WHERE i < 1024) SELECT group_concat(printf('%x-%x', 65536 * (i + 1), 65536 * (i + "
            "1) + 15), ' ') FROM n) WHERE key = 'fold_regions';")
                                           << QStringLiteral("summary_info names more than 1024 fold regions");
        QTest::newRow("2,000,000 fold regions") << QStringLiteral(
            "UPDATE summary_info SET value = (WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 "
            "FROM n WHERE i < 1999999) SELECT group_concat(printf('%x-%x', 65536 * (i + 1), 65536 * (i "
            "+ 1) + 15), ' ') FROM n) WHERE key = 'fold_regions';")
                                                << QStringLiteral("summary_info names more than 1024 fold regions");
        QTest::newRow("a hotspot with more than all the accesses")
            << QStringLiteral("UPDATE summary_info SET value = '1000-100f:1.5' WHERE key = 'fold_hotspots';")
            << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("hotspots out of order") << QStringLiteral(
            "UPDATE summary_info SET value = '1020-102f:0.5 1000-100f:0.25' WHERE key = 'fold_hotspots';")
                                               << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("version 2 without its hotspots")
            << QStringLiteral("DELETE FROM summary_info WHERE key = 'fold_hotspots';")
            << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("address levels out of range")
            << QStringLiteral("UPDATE summary_info SET value = '40' WHERE key = 'max_address_level';")
            << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("a count that is not a number")
            << QStringLiteral("UPDATE summary_info SET value = 'many' WHERE key = 'accesses';")
            << QStringLiteral("summary_info is incomplete or damaged");
        QTest::newRow("another tool's tables of the same names")
            << QStringLiteral("DROP TABLE summary_info; CREATE TABLE summary_info(name text, payload blob);")
            << QStringLiteral("cannot read summary_info: no such column: key");
    }
    void refusedWithTheReason()
    {
        QFETCH(QString, change);
        QFETCH(QString, reason);
        const QString path = copyOfHistory(QStringLiteral("changed.memhist"));
        QVERIFY(!path.isEmpty());
        {
            sqlite::Connection db;
            QVERIFY(db.open(path, sqlite::Connection::Mode::ReadWriteCreate));
            QVERIFY2(db.execute(change.toUtf8().constData()), qPrintable(db.lastError()));
        }
        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadOnly));
        QString why = QStringLiteral("not cleared");
        QVERIFY(!readSummaryInfo(db, &why));
        QCOMPARE(why, reason);
    }

    void tileKeysRoundTrip_data()
    {
        QTest::addColumn<int>("timeLevel");
        QTest::addColumn<int>("addressLevel");
        QTest::addColumn<qint64>("block");
        QTest::addColumn<qint64>("tile");
        QTest::newRow("all zero") << 0 << 0 << qint64(0) << qint64(0);
        QTest::newRow("a slice at the finest level") << 0 << 16 << qint64(31) << qint64(4734);
        QTest::newRow("the largest of each field") << 31 << 22 << qint64(2047) << (qint64(1) << 40) - 1;
    }
    void tileKeysRoundTrip()
    {
        QFETCH(int, timeLevel);
        QFETCH(int, addressLevel);
        QFETCH(qint64, block);
        QFETCH(qint64, tile);
        const TileKey key { timeLevel, addressLevel, block, tile };
        QCOMPARE(tileKeyOf(storedTileKey(key)), key);
        QVERIFY(storedTileKey(key) >= 0);
    }

    void tileKeysOfALevelAreOneRange()
    {
        // Block, then tile: the tiles of one block of one level sort together, in tile order.
        const TileKey before { 3, 12, 1, (qint64(1) << 40) - 1 };
        const TileKey first { 3, 12, 2, 0 };
        const TileKey next { 3, 12, 2, 1 };
        const TileKey after { 3, 13, 0, 0 };
        QVERIFY(storedTileKey(before) < storedTileKey(first));
        QVERIFY(storedTileKey(first) < storedTileKey(next));
        QVERIFY(storedTileKey(next) < storedTileKey(after));
    }
};

QTEST_GUILESS_MAIN(TestSummaryStore)
#include "tst_summarystore.moc"