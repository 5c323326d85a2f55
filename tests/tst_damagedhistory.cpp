// SPDX-License-Identifier: MIT
// Damaged histories: a good database copied and damaged with one SQL statement per class of
// violation (access outside its chunk, chunk of another slice, slice first > last, decreasing
// transitions, operation 3, transitions of 2^63 or more stored negative, ...). The engine fails
// naming the row and the property on every violation in the rows it reads, on both of its answer
// paths, and otherwise answers exactly what the accesses table holds; `query`, `export` and `check` exit 1;
// a database error keeps SQLite's reason, prefixed once.

#include "core/checker/checkmessages.h"
#include "core/checker/historychecker.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

constexpr std::uint64_t top = ~std::uint64_t(0);

// Two slices, chunks of every operation, and accesses that cover their chunks:
//   slice 1 [0..9]:   chunk 1 R 0x1000..0x100f, chunk 2 W 0x1000..0x1007, chunk 3 X 0x400000..0x400003
//   slice 2 [10..19]: chunk 4 R 0x1000..0x1007, chunk 5 W 0x2000..0x2007
// accesses (rowid: chunk, transition, address, size):
//   1: 3, 0, 0x400000, 4   2: 1, 1, 0x1000, 8   3: 2, 2, 0x1000, 8   4: 1, 3, 0x1008, 8
//   5: 1, 5, 0x1000, 4     6: 4, 10, 0x1000, 8  7: 5, 11, 0x2000, 8  8: 4, 12, 0x1000, 4
//   9: 5, 15, 0x2000, 4   10: 4, 19, 0x1004, 4
bool writeGoodHistory(const QString &path)
{
    return writeForeignDatabase(path, { { 0, 9 }, { 10, 19 } },
        {
            { 1, 0x1000, 0x100f, Operation::Read },
            { 1, 0x1000, 0x1007, Operation::Write },
            { 1, 0x400000, 0x400003, Operation::Execute },
            { 2, 0x1000, 0x1007, Operation::Read },
            { 2, 0x2000, 0x2007, Operation::Write },
        },
        {
            { 3, 0, 0x400000, 0x400000, 4, Operation::Execute },
            { 1, 1, 0x1000, 0x1000, 8, Operation::Read },
            { 2, 2, 0x1000, 0x1000, 8, Operation::Write },
            { 1, 3, 0x1008, 0x1008, 8, Operation::Read },
            { 1, 5, std::nullopt, 0x1000, 4, Operation::Read },
            { 4, 10, 0x1000, 0x1000, 8, Operation::Read },
            { 5, 11, 0x2000, 0x2000, 8, Operation::Write },
            { 4, 12, 0x1000, 0x1000, 4, Operation::Read },
            { 5, 15, 0x2000, 0x2000, 4, Operation::Write },
            { 4, 19, 0x1004, 0x1004, 4, Operation::Read },
        });
}

// Every access as the table holds it, in rowid order: what the oracle answers from.
QList<Access> tableStream(const QString &path)
{
    sqlite::Connection db;
    QList<Access> stream;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return stream;
    sqlite::Statement rows
        = db.prepare("SELECT rowid, transition, operation, phy_first, linear, size FROM accesses ORDER BY rowid");
    while (rows.step() == SQLITE_ROW) {
        Access access;
        access.rowId = RowId { rows.int64(0) };
        access.transition = Transition { fromStored(rows.int64(1)) };
        access.operation = Operation(rows.int64(2));
        access.physical = Address { fromStored(rows.int64(3)) };
        if (!rows.isNull(4))
            access.linear = Address { fromStored(rows.int64(4)) };
        access.size = std::uint32_t(rows.int64(5));
        stream << access;
    }
    return stream;
}

// The checker's words for a slice or an access whose transitions are stored negative (how it
// prints such a value is its own choice): "{slice 2 [10..-1]}" and "{access 8 (transition -1)}" in
// an expected message stand for check::describe() and check::describeAccess() of those values.
QString describedRows(QString text)
{
    static const QRegularExpression slice(QStringLiteral("\\{slice (\\d+) \\[(-?\\d+)\\.\\.(-?\\d+)\\]\\}"));
    static const QRegularExpression access(QStringLiteral("\\{access (\\d+) \\(transition (-?\\d+)\\)\\}"));
    for (QRegularExpressionMatch m = slice.match(text); m.hasMatch(); m = slice.match(text)) {
        check::SliceRecord record;
        record.id = m.captured(1).toLongLong();
        record.first = decltype(record.first)(m.captured(2).toLongLong());
        record.last = decltype(record.last)(m.captured(3).toLongLong());
        text.replace(m.capturedStart(), m.capturedLength(), check::describe(record));
    }
    for (QRegularExpressionMatch m = access.match(text); m.hasMatch(); m = access.match(text)) {
        text.replace(m.capturedStart(), m.capturedLength(),
            check::describeAccess(m.captured(1).toLongLong(), m.captured(2).toLongLong()));
    }
    return text;
}

QString damagedSuffix(const QString &path)
{
    return QStringLiteral("; the database is damaged: run 'memhist check %1'").arg(path);
}

// The engine's plans, as tst_halfaxisquery drives them: chunk cursors only, or the rowid scan.
const QueryTuning cursorsOnly { 1000000, 1 };
const QueryTuning scanOnly { 1, 1000 };

// The damage classes, one SQL statement each, and the violation the default query meets first.
struct Damage
{
    const char *name;
    const char *sql;
    const char *violation; // as the engine words it, before the "damaged" suffix
};

const Damage damages[] = {
    { "access outside its chunk", "UPDATE accesses SET phy_first = 0x1010 WHERE rowid = 4",
        "access 4 (transition 3): bytes 0x1010..0x1017 reach outside its chunk 1 (slice 1, R, 0x1000..0x100f) "
        "[an access lies inside its chunk's address range]" },
    { "access in a chunk of another slice", "UPDATE accesses SET chunk_id = 4 WHERE rowid = 5",
        "access 5 (transition 5): transition 5 is outside its slice 2 [10..19] [an access lies in its chunk's slice]" },
    { "slice first after last", "UPDATE slices SET transition_first = 25 WHERE rowid = 2",
        "slice 2 [25..19]: transition_first 25 is after transition_last 19 [a slice's first transition is not after "
        "its last]" },
    { "transitions decrease with rowid", "UPDATE accesses SET transition = 1 WHERE rowid = 5",
        "access 5 (transition 1): transition 1 is before transition 3 of the earlier access 4 [accesses are stored "
        "in trace order: transitions never decrease with rowid]" },
    { "access of operation 3", "UPDATE accesses SET operation = 3 WHERE rowid = 4",
        "access 4 (transition 3): is operation 3 but its chunk 1 is R [an access has its chunk's operation]" },
    { "chunk of operation 3", "UPDATE chunks SET operation = 3 WHERE rowid = 2",
        "chunk 2 (slice 1, operation 3, 0x1000..0x1007): operation 3 is none of 1, 2, 4 [a chunk holds one "
        "operation: 1 (X), 2 (W) or 4 (R)]" },
    { "transitions of 2^63 and more stored negative",
        "UPDATE slices SET transition_last = -1 WHERE rowid = 2; UPDATE accesses SET transition = -2 WHERE rowid = 9; "
        "UPDATE accesses SET transition = -1 WHERE rowid = 10",
        "{slice 2 [10..-1]}: transition_last -1 is negative: 18446744073709551615 (2^63 or more) stored as its two's "
        "complement [transitions are in [0, 2^63-1]]" },
    { "last access stored negative", "UPDATE accesses SET transition = -1 WHERE rowid = 10",
        "{access 10 (transition -1)}: transition -1 is negative: 18446744073709551615 (2^63 or more) stored as its "
        "two's complement [transitions are in [0, 2^63-1]]" },
    { "access of size 0", "UPDATE accesses SET size = 0 WHERE rowid = 8",
        "access 8 (transition 12): size is 0 [an access covers at least one byte]" },
    { "chunk first after last", "UPDATE chunks SET phy_last = 0xfff WHERE rowid = 4",
        "chunk 4 (slice 2, R, 0x1000..0xfff): phy_first 0x1000 is after phy_last 0xfff [a chunk's first address is "
        "not after its last]" },
};

} // namespace

Q_DECLARE_METATYPE(memhist::QueryTuning)

class TestDamagedHistory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void goodHistoryAnswersExactly();
    void engineRefusesWhatItReads_data();
    void engineRefusesWhatItReads();
    void commandsRefuse_data();
    void commandsRefuse();
    void databaseErrorsKeepTheirReason_data();
    void databaseErrorsKeepTheirReason();

private:
    // A copy of the good history with `sql` applied, named after the test row.
    QString damagedCopy(const QString &name, const QString &sql);

    QTemporaryDir m_dir;
    QString m_good;
};

QString TestDamagedHistory::damagedCopy(const QString &name, const QString &sql)
{
    QString fileName = name;
    fileName.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    const QString path = m_dir.filePath(fileName + QStringLiteral(".memhist"));
    QFile::remove(path);
    if (!QFile::copy(m_good, path))
        return {};
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadWriteCreate) || !db.execute(sql.toUtf8().constData()))
        return {};
    return path;
}

void TestDamagedHistory::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_good = m_dir.filePath(QStringLiteral("good.memhist"));
    QVERIFY(writeGoodHistory(m_good));
    QString error;
    const auto db = HistoryDatabase::open(m_good, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
}

// The undamaged history, on both paths and in both directions, is the oracle's answer.
void TestDamagedHistory::goodHistoryAnswersExactly()
{
    QString error;
    const auto db = HistoryDatabase::open(m_good, &error);
    QVERIFY2(db, qPrintable(error));
    const QList<Access> stream = tableStream(m_good);
    QCOMPARE(stream.size(), 10);
    for (const QueryTuning tuning : { QueryTuning {}, cursorsOnly, scanOnly }) {
        HalfAxisQueryEngine engine(*db, tuning);
        for (const Direction direction : { Direction::Forward, Direction::Backward }) {
            for (const int operations : { 6, 7, 4 }) {
                HalfAxisQuery query;
                query.direction = direction;
                query.operations = Operations::fromInt(operations);
                QueryPage page;
                QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
                QVERIFY(page.accesses == oracle(stream, query).accesses);
                QVERIFY(!page.accesses.isEmpty());
            }
        }
    }
}

void TestDamagedHistory::engineRefusesWhatItReads_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QueryTuning>("tuning");
    QTest::addColumn<bool>("forward");
    QTest::addColumn<QString>("violation"); // empty: the answer is the table's, exactly

    for (const Damage &damage : damages) {
        QTest::addRow("%s, cursors, forward", damage.name)
            << QString::fromLatin1(damage.sql) << cursorsOnly << true << QString::fromUtf8(damage.violation);
    }
    // Backward the cursors read the same rows from the other end.
    QTest::newRow("access in a chunk of another slice, cursors, backward")
        << QString::fromLatin1(damages[1].sql) << cursorsOnly << false << QString::fromUtf8(damages[1].violation);
    QTest::newRow("decreasing transitions, cursors, backward")
        << QString::fromLatin1(damages[3].sql) << cursorsOnly << false
        << QStringLiteral("access 5 (transition 1): transition 1 is before transition 3 of the earlier access 4 "
                          "[accesses are stored in trace order: transitions never decrease with rowid]");
    // A negative transition in the middle of the table: forward cursors start at transition 0 and
    // never read it, backward cursors do.
    QTest::newRow("one access stored negative, cursors, backward")
        << QStringLiteral("UPDATE accesses SET transition = -1 WHERE rowid = 8") << cursorsOnly << false
        << QStringLiteral("{access 8 (transition -1)}: transition -1 is negative: 18446744073709551615 (2^63 or more) "
                          "stored as its two's complement [transitions are in [0, 2^63-1]]");

    // The rowid scan reads every row of its range, whatever its chunk: it answers from the table
    // alone, so chunk damage does not change its answer, and it refuses what it sees.
    QTest::newRow("access outside its chunk, scan: the table's answer")
        << QString::fromLatin1(damages[0].sql) << scanOnly << true << QString();
    QTest::newRow("access in a chunk of another slice, scan: the table's answer")
        << QString::fromLatin1(damages[1].sql) << scanOnly << true << QString();
    QTest::newRow("slice first after last, scan")
        << QString::fromLatin1(damages[2].sql) << scanOnly << true << QString::fromUtf8(damages[2].violation);
    // The binary search over rowids for the end of slice 1 probes rows 6, 3 and 5.
    // The rowid search's probes (they start where the ends' transitions put them) read access 4
    // before access 5: the pair they name is that one.
    QTest::newRow("decreasing transitions, scan")
        << QString::fromLatin1(damages[3].sql) << scanOnly << true
        << QStringLiteral("access 5 (transition 1): transition 1 is before transition 3 of the earlier access 4 "
                          "[accesses are stored in trace order: transitions never decrease with rowid]");
    QTest::newRow("access of operation 3, scan")
        << QString::fromLatin1(damages[4].sql) << scanOnly << true
        << QStringLiteral("access 4 (transition 3): operation 3 is none of 1, 2, 4, so it is not its chunk's "
                          "[an access has its chunk's operation]");
    QTest::newRow("chunk of operation 3, scan")
        << QString::fromLatin1(damages[5].sql) << scanOnly << true << QString::fromUtf8(damages[5].violation);
    QTest::newRow("transitions of 2^63 and more stored negative, scan")
        << QString::fromLatin1(damages[6].sql) << scanOnly << true << QString::fromUtf8(damages[6].violation);
    QTest::newRow("last access stored negative, scan")
        << QString::fromLatin1(damages[7].sql) << scanOnly << true << QString::fromUtf8(damages[7].violation);
    QTest::newRow("access of size 0, scan")
        << QString::fromLatin1(damages[8].sql) << scanOnly << true << QString::fromUtf8(damages[8].violation);
    QTest::newRow("one access stored negative, scan")
        << QStringLiteral("UPDATE accesses SET transition = -1 WHERE rowid = 8") << scanOnly << true
        << QStringLiteral("{access 8 (transition -1)}: transition -1 is negative: 18446744073709551615 (2^63 or more) "
                          "stored as its two's complement [transitions are in [0, 2^63-1]]");
    // A damaged row that matches nothing is not on the page and not in the right answer either:
    // the engine, which never reads it, answers what the table holds.
    QTest::newRow("operation 8 matching no mask, scan: the table's answer")
        << QStringLiteral("UPDATE accesses SET operation = 8 WHERE rowid = 1") << scanOnly << true << QString();
    QTest::newRow("access of size 0 outside the window, cursors: the table's answer")
        << QStringLiteral("UPDATE accesses SET size = 0, phy_first = 0x1fff WHERE rowid = 9") << cursorsOnly << true
        << QString();
}

void TestDamagedHistory::engineRefusesWhatItReads()
{
    QFETCH(QString, sql);
    QFETCH(QueryTuning, tuning);
    QFETCH(bool, forward);
    QFETCH(QString, violation);

    const QString path = damagedCopy(QString::fromUtf8(QTest::currentDataTag()), sql);
    QVERIFY(!path.isEmpty());
    QString error;
    const auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    HalfAxisQueryEngine engine(*db, tuning);
    HalfAxisQuery query; // the whole address space, reads and writes, the first 100
    query.direction = forward ? Direction::Forward : Direction::Backward;
    if (QByteArray(QTest::currentDataTag()).contains("outside the window")) {
        query.first = Address { 0x2000 };
        query.last = Address { 0x2007 };
    }
    QueryPage page;
    const bool ok = engine.run(query, &page, &error);
    if (violation.isEmpty()) {
        QVERIFY2(ok, qPrintable(error));
        QVERIFY(page.accesses == oracle(tableStream(path), query).accesses);
        return;
    }
    QVERIFY2(!ok, "a damaged history answered");
    QCOMPARE(error, describedRows(violation) + damagedSuffix(path));
    QVERIFY(page.accesses.isEmpty());
    // The same engine fails the same way again: nothing of the failed query stays behind.
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error, describedRows(violation) + damagedSuffix(path));
}

void TestDamagedHistory::commandsRefuse_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("violation");
    for (const Damage &damage : damages) {
        QTest::addRow("%s", damage.name) << QString::fromLatin1(damage.sql) << QStringList()
                                         << QString::fromUtf8(damage.violation);
    }
    // Before, `query --at` answered nothing on such a file, and `export` a fraction of its rows.
    QTest::newRow("transitions of 2^63 and more stored negative, --at 12")
        << QString::fromLatin1(damages[6].sql) << QStringList { QStringLiteral("--at"), QStringLiteral("12") }
        << QString::fromUtf8(damages[6].violation);
    QTest::newRow("last access stored negative, --at 12, every operation")
        << QString::fromLatin1(damages[7].sql)
        << QStringList { QStringLiteral("--at"), QStringLiteral("12"), QStringLiteral("--ops"), QStringLiteral("rwx") }
        << QString::fromUtf8(damages[7].violation);
}

// `query` and `export` exit 1 with the engine's message, once prefixed, and write no file;
// `check` exits 1 too (it refuses every class, negative transitions included).
void TestDamagedHistory::commandsRefuse()
{
    QFETCH(QString, sql);
    QFETCH(QStringList, options);
    QFETCH(QString, violation);

    const QString path = damagedCopy(QString::fromUtf8(QTest::currentDataTag()), sql);
    QVERIFY(!path.isEmpty());
    const QString expected
        = path + QStringLiteral(": query failed: ") + describedRows(violation) + damagedSuffix(path) + u'\n';

    const CliResult query = runCli(
        QStringList { QStringLiteral("query"), path, QStringLiteral("--format"), QStringLiteral("csv") } + options);
    QCOMPARE(QString::fromUtf8(query.err), expected);
    QCOMPARE(query.exitCode, 1);
    QCOMPARE(query.out, QByteArray());

    const QString csv = path + QStringLiteral(".csv");
    const CliResult exported
        = runCli(QStringList { QStringLiteral("export"), path, QStringLiteral("-o"), csv } + options);
    QCOMPARE(QString::fromUtf8(exported.err), expected);
    QCOMPARE(exported.exitCode, 1);
    QVERIFY(!QFile::exists(csv));

    const CliResult check = runCli({ QStringLiteral("check"), path });
    QCOMPARE(check.exitCode, 1);
    QVERIFY2(check.err.startsWith("FAILED: "), check.err.constData());
}

void TestDamagedHistory::databaseErrorsKeepTheirReason_data()
{
    QTest::addColumn<QString>("object"); // the table or index whose root page is zeroed
    QTest::addColumn<QString>("reason");
    // Each read where it fails: the cursors (idx_accesses_1), the chunk lookups (chunks), the ends
    // of the rowid range (accesses).
    QTest::newRow("idx_accesses_1 page zeroed")
        << QStringLiteral("idx_accesses_1") << QStringLiteral("cannot read accesses: database disk image is malformed");
    QTest::newRow("chunks page zeroed") << QStringLiteral("chunks")
                                        << QStringLiteral("cannot read chunks: database disk image is malformed");
    QTest::newRow("accesses page zeroed")
        << QStringLiteral("accesses") << QStringLiteral("cannot read accesses: database disk image is malformed");
    QTest::newRow("slices page zeroed") << QStringLiteral("slices")
                                        << QStringLiteral("cannot read slices: database disk image is malformed");
}

// "query failed: query failed: not an error" was the reason read after a reset, prefixed twice.
void TestDamagedHistory::databaseErrorsKeepTheirReason()
{
    QFETCH(QString, object);
    QFETCH(QString, reason);

    const QString path = damagedCopy(QString::fromUtf8(QTest::currentDataTag()), QStringLiteral("SELECT 1"));
    qint64 page = 0;
    {
        sqlite::Connection db;
        QVERIFY(db.open(path, sqlite::Connection::Mode::ReadOnly));
        sqlite::Statement root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?1");
        root.bind(1, object);
        QCOMPARE(root.step(), SQLITE_ROW);
        page = root.int64(0);
    }
    QVERIFY(zeroSqlitePage(path, page));

    const CliResult query = runCli({ QStringLiteral("query"), path });
    QCOMPARE(QString::fromUtf8(query.err), path + QStringLiteral(": query failed: ") + reason + u'\n');
    QCOMPARE(query.exitCode, 1);
    QCOMPARE(query.out, QByteArray());
}

QTEST_GUILESS_MAIN(TestDamagedHistory)
#include "tst_damagedhistory.moc"
