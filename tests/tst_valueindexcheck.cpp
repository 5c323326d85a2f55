// SPDX-License-Identifier: MIT
// `memhist check` on the value index (core/checker/valueindexcheck.h): a history as the writer
// leaves it passes; a filter or a group row that no longer holds what the values give (so that a
// search would skip a value that is there), a missing row, a missing group size and rows for keys no
// value holds are each a violation, named exactly.
#include "core/checker/historychecker.h"
#include "core/checker/valueindexcheck.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/values/valuegroups.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

// 600 accesses, each with a value: three value blocks (256 rowids each) in one group.
QList<ValuedAccess> stream()
{
    QList<ValuedAccess> accesses;
    for (int i = 0; i < 600; ++i) {
        const Operation operation = i % 3 == 0 ? Operation::Write : Operation::Read;
        accesses << ValuedAccess { userAccess(std::uint64_t(10 + i), operation, 0x1000 + std::uint64_t(i % 16) * 8, 8),
            byteArrayOf({ i & 0xff, 0x42, 0, 0, 0, 0, 0, 0 }) };
    }
    return accesses;
}

bool execute(const QString &path, const char *sql)
{
    sqlite::Connection connection;
    return connection.open(path, sqlite::Connection::Mode::ReadWriteCreate) && connection.execute(sql);
}

} // namespace

class tst_ValueIndexCheck : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void damage_data();
    void damage();

private:
    QTemporaryDir m_dir;
    QString m_good;
};

void tst_ValueIndexCheck::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_good = m_dir.filePath(QStringLiteral("good.memhist"));
    QVERIFY(writeHistoryWithValues(m_good, stream()));
}

void tst_ValueIndexCheck::damage_data()
{
    QTest::addColumn<QString>("sql"); // run on a copy of the good history
    QTest::addColumn<QString>("violation"); // the first violation, empty: none
    QTest::addColumn<qint64>("count");
    const QString property = QLatin1String(check::ValueIndexCheck::valueIndex);
    // The key of byte pair 42 00 (a pair every value holds) in span 0.
    const qint64 pairKey = valuegroups::keyOf(0x4200, 0);
    QTest::newRow("as written") << QString() << QString() << qint64(0);
    QTest::newRow("a filter that rules out every value")
        << QStringLiteral("UPDATE access_value_filters SET filter = zeroblob(length(filter)) WHERE access_first = 257")
        << QStringLiteral("access_value_filters 257: is not the filter of the values of rowids 257..512 [%1]")
               .arg(property)
        << qint64(1);
    QTest::newRow("a block without its filter")
        << QStringLiteral("DELETE FROM access_value_filters WHERE access_first = 513")
        << QStringLiteral("access_value_filters 513: is missing: the block of rowids 513..600 has no filter [%1]")
               .arg(property)
        << qint64(1);
    QTest::newRow("a group row without its group")
        << QStringLiteral("UPDATE access_value_groups SET bits = zeroblob(length(bits)) WHERE key = %1").arg(pairKey)
        << QStringLiteral("access_value_groups key %1: its groups are not those whose values hold its bytes [%2]")
               .arg(pairKey)
               .arg(property)
        << qint64(1);
    QTest::newRow("a group row missing")
        << QStringLiteral("DELETE FROM access_value_groups WHERE key = %1").arg(pairKey)
        << QStringLiteral("access_value_groups key %1: is missing, though values hold its bytes [%2]")
               .arg(pairKey)
               .arg(property)
        << qint64(1);
    QTest::newRow("no group size")
        << QStringLiteral("DELETE FROM access_value_groups WHERE key = -1")
        << QStringLiteral("access_value_groups: has no row giving the size of its groups (key -1, one byte of 1 to "
                          "30) [%1]")
               .arg(property)
        << qint64(1);
    QTest::newRow("a row for a key no value holds")
        << QStringLiteral("INSERT INTO access_value_groups VALUES (%1, zeroblob(64))")
               .arg(valuegroups::keyOf(0x7777, 0))
        << QStringLiteral("access_value_groups: holds %1 rows for %2 keys that values hold [%3]") << qint64(1);
}

void tst_ValueIndexCheck::damage()
{
    QFETCH(QString, sql);
    QFETCH(QString, violation);
    QFETCH(qint64, count);
    const QString path = m_dir.filePath(QStringLiteral("%1.memhist").arg(QString::fromUtf8(QTest::currentDataTag())));
    QFile::remove(path);
    QVERIFY(QFile::copy(m_good, path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    qint64 groupRows = 0;
    if (!sql.isEmpty()) {
        QVERIFY(execute(path, sql.toUtf8().constData()));
        sqlite::Connection connection;
        QVERIFY(connection.open(path, sqlite::Connection::Mode::ReadOnly));
        sqlite::Statement rows = connection.prepare("SELECT count(*) FROM access_value_groups");
        QCOMPARE(rows.step(), SQLITE_ROW);
        groupRows = rows.int64(0);
    }
    if (violation.contains(QStringLiteral("%1 rows for %2 keys")))
        violation
            = violation.arg(groupRows - 1).arg(groupRows - 2).arg(QLatin1String(check::ValueIndexCheck::valueIndex));

    QString error;
    const auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    const CheckReport report = HistoryChecker(*database).run();
    if (violation.isEmpty()) {
        QVERIFY2(report.ok, qPrintable(report.violation));
        return;
    }
    QVERIFY(!report.ok);
    QCOMPARE(report.violation, violation);
    QCOMPARE(report.violations.size(), 1);
    QCOMPARE(report.violations.first().count, count);
}

QTEST_GUILESS_MAIN(tst_ValueIndexCheck)
#include "tst_valueindexcheck.moc"
