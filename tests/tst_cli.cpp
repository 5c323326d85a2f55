// SPDX-License-Identifier: MIT
// The `memhist` command line as scripts use it (DESIGN.md §3): the real binary driven through
// QProcess, checking its output, its exit status and its exact messages.
#include "core/csv/csvaccessformat.h"
#include "core/storage/sqlite.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

QString dataDir()
{
    return QFINDTESTDATA("data/csv");
}

// The CSV that `query --format csv` prints for these rows of tests/data/csv/small.csv, whose row
// ids are 1..20 in file order, exactly as the import assigns them.
QByteArray smallCsvRows(const QList<int> &rowIds)
{
    const QList<QByteArray> lines = readFile(dataDir() + QStringLiteral("/small.csv")).split('\n');
    QByteArray text = csv::header() + '\n';
    for (const int rowId : rowIds)
        text += lines.value(rowId) + '\n';
    return text;
}

// Row ids of small.csv's reads and writes (the default --ops rw), in trace order.
const QList<int> readsAndWrites = { 2, 4, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19 };

QList<int> reversed(QList<int> list)
{
    std::reverse(list.begin(), list.end());
    return list;
}

QString usage(const QString &command, const QString &message)
{
    return QStringLiteral("memhist %1: %2\nTry 'memhist %1 --help' for more information.\n").arg(command, message);
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void importSummary();
    void check();
    void info();
    void infoWithoutMeta();
    void query_data();
    void query();
    void queryRoundTripsTheImportedCsv();
    void queryTable();
    void resumeContinuesTheQuery_data();
    void resumeContinuesTheQuery();
    void exportMatchesQuery_data();
    void exportMatchesQuery();
    void batch();
    void threadFilter_data();
    void threadFilter();
    void threadFilterExportsEachThreadsAccesses_data();
    void threadFilterExportsEachThreadsAccesses();
    void importSeveralTraces();
    void importCrlf();
    void importReportsWriterRejectionWithLine();
    void importFailureKeepsPreviousOutput();
    void checkFailure();
    void bundledExample();
    void helpAndVersion_data();
    void helpAndVersion();
    void errors_data();
    void errors();

private:
    QString expand(QString text) const;
    QStringList expand(const QStringList &list) const;

    QTemporaryDir m_dir;
    QString m_database; // small.csv imported
    QString m_foreign; // written row by row without meta, as another writer would
    QString m_threads; // tests/data/drmemtrace/legacy-gz.x64.tracedir imported: 4 threads
};

// %DATA% is tests/data/csv, %TMP% this run's temporary directory, %DB% the imported small.csv,
// %THREADS% the imported four-thread drmemtrace directory.
QString TestCli::expand(QString text) const
{
    return text.replace(QStringLiteral("%DATA%"), dataDir())
        .replace(QStringLiteral("%TMP%"), m_dir.path())
        .replace(QStringLiteral("%DB%"), m_database)
        .replace(QStringLiteral("%THREADS%"), m_threads);
}

QStringList TestCli::expand(const QStringList &list) const
{
    QStringList result;
    for (const QString &item : list)
        result << expand(item);
    return result;
}

void TestCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::exists(QStringLiteral(MEMHIST_CLI_PATH)));

    m_database = m_dir.filePath(QStringLiteral("small.memhist"));
    const CliResult imported = runCli(
        { QStringLiteral("import"), dataDir() + QStringLiteral("/small.csv"), QStringLiteral("-o"), m_database });
    QVERIFY2(imported.exitCode == 0, imported.err.constData());

    // Thread spans: 10510 [0, 88], 10506 [89, 193], 10510 [194, 1290], 10506 [1291, 1366], ...
    m_threads = m_dir.filePath(QStringLiteral("threads.memhist"));
    const CliResult threads = runCli({ QStringLiteral("import"),
        QFINDTESTDATA("data/drmemtrace/legacy-gz.x64.tracedir"), QStringLiteral("-o"), m_threads });
    QVERIFY2(threads.exitCode == 0, threads.err.constData());
    QFile threadBatch(m_dir.filePath(QStringLiteral("threads.batch")));
    QVERIFY(threadBatch.open(QIODevice::WriteOnly));
    QVERIFY(threadBatch.write("# a thread the history does not know\n--thread 4 --limit 3\n--thread 10510\n") > 0);
    threadBatch.close();

    // A database from another writer: the three base tables only, no meta.
    m_foreign = m_dir.filePath(QStringLiteral("foreign.memhist"));
    QVERIFY(test::writeForeignDatabase(m_foreign, { { 0, 2 } },
        { { 1, 0x1000, 0x1007, Operation::Read }, { 1, 0x2000, 0x2003, Operation::Write } },
        { { 1, 0, 0x1000, 0x1000, 8, Operation::Read }, { 2, 1, std::nullopt, 0x2000, 4, Operation::Write },
            { 1, 2, 0x1000, 0x1000, 8, Operation::Read } }));

    // Bad databases for the error rows.
    sqlite::Connection other;
    QVERIFY(other.open(m_dir.filePath(QStringLiteral("other.db")), sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY(other.execute("CREATE TABLE things(name text)"));
    other.close();

    const QString noIndex = m_dir.filePath(QStringLiteral("noindex.memhist"));
    QVERIFY(test::writeForeignDatabase(noIndex, { { 0, 0 } }, { { 1, 0x1000, 0x1007, Operation::Read } },
        { { 1, 0, 0x1000, 0x1000, 8, Operation::Read } }));
    sqlite::Connection dropped;
    QVERIFY(dropped.open(noIndex, sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY(dropped.execute("DROP INDEX idx_accesses_1"));
}

void TestCli::importSummary()
{
    const QString output = m_dir.filePath(QStringLiteral("summary.memhist"));
    const CliResult result
        = runCli({ QStringLiteral("import"), dataDir() + QStringLiteral("/small.csv"), QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    const QRegularExpression summary(QStringLiteral("^imported 20 accesses \\(8 reads, 7 writes, 5 executes; "
                                                    "transitions 0\\.\\.13\\) into %1: \\d+ slices, \\d+ chunks, "
                                                    "\\d+\\.\\d{3} s, \\d+ accesses/s\\ncontext: none\\n$")
                                         .arg(QRegularExpression::escape(output)));
    QVERIFY2(summary.match(QString::fromUtf8(result.out)).hasMatch(), result.out.constData());
    QVERIFY(QFile::exists(output));
}

void TestCli::check()
{
    const CliResult result = runCli({ QStringLiteral("check"), m_database });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    const QRegularExpression ok(QStringLiteral("^OK: \\d+ slices, \\d+ chunks, 20 accesses; every property holds\\n"));
    QVERIFY2(ok.match(QString::fromUtf8(result.out)).hasMatch(), result.out.constData());
}

void TestCli::info()
{
    const CliResult result = runCli({ QStringLiteral("info"), m_database });
    QCOMPARE(result.exitCode, 0);
    const QString text = QString::fromUtf8(result.out);
    const QStringList expectedLines = {
        QStringLiteral("path:             ") + m_database,
        QStringLiteral("format version:   1"),
        QStringLiteral("sources:          ") + dataDir() + QStringLiteral("/small.csv (csv)"),
        QStringLiteral("transitions:      0..13"),
        QStringLiteral("accesses:         20 (reads 8, writes 7, executes 5)"),
        QStringLiteral("counts:           from the meta table"),
    };
    const QStringList lines = text.split(u'\n');
    for (const QString &line : expectedLines)
        QVERIFY2(lines.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + text));
    for (const char *label : { "file size:", "writer:", "created:", "slices:", "chunks:", "bytes per access:" })
        QVERIFY2(text.contains(QLatin1String(label)), label);
    QVERIFY(text.contains(QStringLiteral("writer:           memhist ")));
}

void TestCli::infoWithoutMeta()
{
    const CliResult result = runCli({ QStringLiteral("info"), m_foreign });
    QCOMPARE(result.exitCode, 0);
    const QStringList lines = QString::fromUtf8(result.out).split(u'\n');
    for (const QString &line : {
             QStringLiteral("format version:   unknown (no meta table)"),
             QStringLiteral("writer:           unknown (no meta table)"),
             QStringLiteral("transitions:      0..2"),
             QStringLiteral("accesses:         3 (reads 2, writes 1, executes 0)"),
             QStringLiteral("slices:           1"),
             QStringLiteral("chunks:           2"),
             QStringLiteral("counts:           computed (no meta table)"),
         })
        QVERIFY2(lines.contains(line), qPrintable(line + QStringLiteral(" not in:\n") + lines.join(u'\n')));

    // And it answers queries, linear NULL included.
    const CliResult query
        = runCli({ QStringLiteral("query"), m_foreign, QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(query.exitCode, 0);
    QCOMPARE(query.out,
        QByteArray("rowid,transition,operation,address,linear,size\n"
                   "1,0,R,0x1000,0x1000,8\n"
                   "2,1,W,0x2000,,4\n"
                   "3,2,R,0x1000,0x1000,8\n"));
}

void TestCli::query_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QList<int>>("rowIds");

    QTest::newRow("defaults: forward from 0, reads and writes") << QStringList() << readsAndWrites;
    QTest::newRow("forward at 5, limit 3")
        << QStringList { QStringLiteral("--at"), QStringLiteral("5"), QStringLiteral("--limit"), QStringLiteral("3") }
        << QList<int> { 9, 11, 12 };
    QTest::newRow("at in hex") << QStringList { QStringLiteral("--at"), QStringLiteral("0xc") }
                               << QList<int> { 18, 19 };
    QTest::newRow("at a transition without accesses")
        << QStringList { QStringLiteral("--at"), QStringLiteral("4") } << readsAndWrites.mid(5);
    QTest::newRow("at past the end") << QStringList { QStringLiteral("--at"), QStringLiteral("100") } << QList<int>();
    QTest::newRow("resume forward after row 12") << QStringList { QStringLiteral("--resume"), QStringLiteral("12"),
        QStringLiteral("--limit"), QStringLiteral("3") }
                                                 << QList<int> { 13, 14, 15 };
    QTest::newRow("backward from the end") << QStringList { QStringLiteral("--backward") } << reversed(readsAndWrites);
    QTest::newRow("backward at 7, limit 4, same transition by rowid") << QStringList { QStringLiteral("--backward"),
        QStringLiteral("--at"), QStringLiteral("7"), QStringLiteral("--limit"), QStringLiteral("4") }
                                                                      << QList<int> { 13, 12, 11, 9 };
    QTest::newRow("backward at 0") << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"),
        QStringLiteral("0") } << QList<int> { 2 };
    QTest::newRow("resume backward before row 9") << QStringList { QStringLiteral("--backward"),
        QStringLiteral("--resume"), QStringLiteral("9"), QStringLiteral("--limit"), QStringLiteral("3") }
                                                  << QList<int> { 8, 7, 6 };
    // --at and --resume together: a match satisfies both, whichever starts later in the direction.
    QTest::newRow("at 5, resume after row 12: the resume point is later") << QStringList { QStringLiteral("--at"),
        QStringLiteral("5"), QStringLiteral("--resume"), QStringLiteral("12"), QStringLiteral("--limit"),
        QStringLiteral("3") } << QList<int> { 13, 14, 15 };
    QTest::newRow("at 7, resume after row 4: transition 7 is later")
        << QStringList { QStringLiteral("--at"), QStringLiteral("7"), QStringLiteral("--resume"), QStringLiteral("4") }
        << QList<int> { 12, 13, 14, 15, 16, 17, 18, 19 };
    QTest::newRow("backward at 5, resume before row 12: transition 5 is earlier")
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("5"),
               QStringLiteral("--resume"), QStringLiteral("12") }
        << QList<int> { 9, 8, 7, 6, 4, 2 };
    QTest::newRow("backward at 7, resume before row 8: the resume point is earlier")
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("7"),
               QStringLiteral("--resume"), QStringLiteral("8") }
        << QList<int> { 7, 6, 4, 2 };
    QTest::newRow("range overlapping the start of accesses") << QStringList { QStringLiteral("--from"),
        QStringLiteral("0x601000"), QStringLiteral("--to"), QStringLiteral("0x601003") }
                                                             << QList<int> { 4, 9, 13, 16 };
    QTest::newRow("range starting one byte after an access ends") << QStringList { QStringLiteral("--from"),
        QStringLiteral("0x601004"), QStringLiteral("--to"), QStringLiteral("0x601007") }
                                                                  << QList<int> { 8, 9, 16 };
    QTest::newRow("decimal range") << QStringList { QStringLiteral("--from"), QStringLiteral("6295552"),
        QStringLiteral("--to"), QStringLiteral("6295555") }
                                   << QList<int> { 4, 9, 13, 16 };
    QTest::newRow("address zero") << QStringList { QStringLiteral("--to"), QStringLiteral("0") } << QList<int> { 11 };
    QTest::newRow("last byte of the address space") << QStringList { QStringLiteral("--from"),
        QStringLiteral("0xffffffffffffffff"), QStringLiteral("--to"), QStringLiteral("18446744073709551615") }
                                                    << QList<int> { 12 };
    QTest::newRow("ops x") << QStringList { QStringLiteral("--ops"), QStringLiteral("x") }
                           << QList<int> { 1, 3, 5, 10, 20 };
    QTest::newRow("ops w") << QStringList { QStringLiteral("--ops"), QStringLiteral("w") }
                           << QList<int> { 2, 7, 9, 12, 14, 17, 19 };
    QTest::newRow("ops r") << QStringList { QStringLiteral("--ops"), QStringLiteral("r") }
                           << QList<int> { 4, 6, 8, 11, 13, 15, 16, 18 };
    QTest::newRow("ops xr in any order, range") << QStringList { QStringLiteral("--ops"), QStringLiteral("xr"),
        QStringLiteral("--from"), QStringLiteral("0x401000"), QStringLiteral("--to"), QStringLiteral("0x601000") }
                                                << QList<int> { 1, 3, 4, 5, 10, 16, 20 };
    QTest::newRow("ops rwx backward, limit 2") << QStringList { QStringLiteral("--ops"), QStringLiteral("rwx"),
        QStringLiteral("--backward"), QStringLiteral("--limit"), QStringLiteral("2") }
                                               << QList<int> { 20, 19 };
    QTest::newRow("limit 0") << QStringList { QStringLiteral("--limit"), QStringLiteral("0") } << QList<int>();
    QTest::newRow("limit above every match")
        << QStringList { QStringLiteral("--limit"), QStringLiteral("0xffffffff") } << readsAndWrites;
}

void TestCli::query()
{
    QFETCH(QStringList, arguments);
    QFETCH(QList<int>, rowIds);

    const CliResult result
        = runCli(QStringList { QStringLiteral("query"), m_database, QStringLiteral("--format"), QStringLiteral("csv") }
            + arguments);
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, smallCsvRows(rowIds));
}

void TestCli::queryRoundTripsTheImportedCsv()
{
    const CliResult result
        = runCli({ QStringLiteral("query"), m_database, QStringLiteral("--ops"), QStringLiteral("rwx"),
            QStringLiteral("--limit"), QStringLiteral("1000"), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, readFile(dataDir() + QStringLiteral("/small.csv")));
}

void TestCli::queryTable()
{
    const CliResult page = runCli({ QStringLiteral("query"), m_database, QStringLiteral("--at"), QStringLiteral("5"),
        QStringLiteral("--limit"), QStringLiteral("2") });
    QCOMPARE(page.exitCode, 0);
    QCOMPARE(page.out,
        QByteArray("rowid  transition  op   address    linear  size\n"
                   "    9           5  W   0x601000  0x601000     8\n"
                   "   11           6  R        0x0       0x0     1\n"
                   "-- 2 rows; next page: --resume 11\n"));

    // The last page does not offer a next one; linear NULL shows as '-'.
    const CliResult last = runCli({ QStringLiteral("query"), m_database, QStringLiteral("--from"),
        QStringLiteral("0x602000"), QStringLiteral("--to"), QStringLiteral("0x602000") });
    QCOMPARE(last.exitCode, 0);
    QCOMPARE(last.out,
        QByteArray("rowid  transition  op   address  linear  size\n"
                   "   17          10  W   0x602000       -     1\n"
                   "-- 1 row\n"));

    const CliResult none
        = runCli({ QStringLiteral("query"), m_database, QStringLiteral("--limit"), QStringLiteral("0") });
    QCOMPARE(none.exitCode, 0);
    QCOMPARE(none.out, QByteArray("rowid  transition  op  address  linear  size\n-- 0 rows\n"));
}

void TestCli::resumeContinuesTheQuery_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QList<int>>("rowIds");

    QTest::newRow("forward") << QStringList() << readsAndWrites;
    QTest::newRow("backward") << QStringList { QStringLiteral("--backward") } << reversed(readsAndWrites);
    QTest::newRow("forward in a range") << QStringList { QStringLiteral("--from"), QStringLiteral("0x601000"),
        QStringLiteral("--to"), QStringLiteral("0x601fff") }
                                        << QList<int> { 4, 8, 9, 13, 16, 19 };
    QTest::newRow("backward from 9, all operations") << QStringList { QStringLiteral("--backward"),
        QStringLiteral("--at"), QStringLiteral("9"), QStringLiteral("--ops"),
        QStringLiteral("rwx") } << reversed({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 });
}

// Follows "next page: --resume R" from the table, 4 rows a page, until there is none: the pages
// put together are the whole answer, each row once.
void TestCli::resumeContinuesTheQuery()
{
    QFETCH(QStringList, arguments);
    QFETCH(QList<int>, rowIds);

    static const QRegularExpression nextPage(QStringLiteral("next page: --resume (\\d+)\\n$"));
    QList<int> collected;
    QStringList position = arguments;
    for (int pages = 0; pages < 20; ++pages) {
        const QStringList common
            = { QStringLiteral("query"), m_database, QStringLiteral("--limit"), QStringLiteral("4") };
        const CliResult table = runCli(common + position);
        const CliResult csvPage
            = runCli(common + position + QStringList { QStringLiteral("--format"), QStringLiteral("csv") });
        QCOMPARE(table.exitCode, 0);
        QCOMPARE(csvPage.exitCode, 0);
        const QList<QByteArray> rows = csvPage.out.trimmed().split('\n').mid(1);
        for (const QByteArray &row : rows)
            collected << row.left(row.indexOf(',')).toInt();
        const auto match = nextPage.match(QString::fromUtf8(table.out));
        if (!match.hasMatch())
            break;
        QCOMPARE(rows.size(), 4);
        // As the line says: the same command with --resume added (a start given with --at stays).
        position = arguments + QStringList { QStringLiteral("--resume"), match.captured(1) };
    }
    QCOMPARE(collected, rowIds);
}

void TestCli::exportMatchesQuery_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("rows");

    QTest::newRow("every match without --limit (more than the default 100 would also be all)") << QStringList() << 15;
    QTest::newRow("backward in a range") << QStringList { QStringLiteral("--backward"), QStringLiteral("--from"),
        QStringLiteral("0x601000"), QStringLiteral("--to"), QStringLiteral("0x601fff") }
                                         << 6;
    QTest::newRow("all operations from transition 5") << QStringList { QStringLiteral("--ops"), QStringLiteral("rwx"),
        QStringLiteral("--at"), QStringLiteral("5") } << 12;
    QTest::newRow("with --limit, only that many")
        << QStringList { QStringLiteral("--limit"), QStringLiteral("3") } << 3;
    QTest::newRow("resumed") << QStringList { QStringLiteral("--resume"), QStringLiteral("15") } << 4;
    QTest::newRow("limit 0: the header alone") << QStringList { QStringLiteral("--limit"), QStringLiteral("0") } << 0;
}

void TestCli::exportMatchesQuery()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, rows);

    static int exports = 0;
    const QString output = m_dir.filePath(QStringLiteral("export-%1.csv").arg(++exports));
    const CliResult exported
        = runCli(QStringList { QStringLiteral("export"), m_database, QStringLiteral("-o"), output } + arguments);
    QCOMPARE(exported.err, QByteArray());
    QCOMPARE(exported.exitCode, 0);
    QCOMPARE(exported.out, QStringLiteral("wrote %1 rows to %2\n").arg(rows).arg(output).toUtf8());

    // The same query printed with a limit large enough for every row.
    QStringList queryArguments = arguments;
    if (!queryArguments.contains(QStringLiteral("--limit")))
        queryArguments << QStringLiteral("--limit") << QStringLiteral("1000000");
    const CliResult queried
        = runCli(QStringList { QStringLiteral("query"), m_database, QStringLiteral("--format"), QStringLiteral("csv") }
            + queryArguments);
    QCOMPARE(queried.exitCode, 0);
    QCOMPARE(readFile(output), queried.out);
    QCOMPARE(queried.out.count('\n'), rows + 1);
}

void TestCli::batch()
{
    for (const QString &format : { QStringLiteral("csv"), QStringLiteral("table") }) {
        const CliResult result = runCli({ QStringLiteral("query"), m_database, QStringLiteral("--batch"),
            dataDir() + QStringLiteral("/queries.batch"), QStringLiteral("--format"), format });
        QCOMPARE(result.err, QByteArray());
        QCOMPARE(result.exitCode, 0);

        static const QRegularExpression timing(QStringLiteral("^# query (\\d+): (\\d+) rows? in \\d+\\.\\d{3} ms$"));
        QList<int> numbers;
        QList<int> counts;
        for (const QByteArray &line : result.out.split('\n')) {
            if (!line.startsWith("# query"))
                continue;
            const auto match = timing.match(QString::fromUtf8(line));
            QVERIFY2(match.hasMatch(), line.constData());
            numbers << match.captured(1).toInt();
            counts << match.captured(2).toInt();
        }
        QCOMPARE(numbers, (QList<int> { 1, 2, 3, 4 }));
        QCOMPARE(counts, (QList<int> { 3, 4, 4, 5 }));
    }

    // In CSV each answer is exactly what the single query prints, then its timing line.
    const CliResult csvBatch = runCli({ QStringLiteral("query"), m_database, QStringLiteral("--batch"),
        dataDir() + QStringLiteral("/queries.batch"), QStringLiteral("--format"), QStringLiteral("csv") });
    QByteArray withoutTimings;
    for (const QByteArray &line : csvBatch.out.split('\n')) {
        if (!line.startsWith("# query") && !line.isEmpty())
            withoutTimings += line + '\n';
    }
    QCOMPARE(withoutTimings,
        smallCsvRows({ 9, 11, 12 }) + smallCsvRows({ 13, 12, 11, 9 }) + smallCsvRows({ 4, 9, 13, 16 })
            + smallCsvRows({ 1, 3, 5, 10, 20 }));
}

void TestCli::threadFilter_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("out");

    const QByteArray header = "rowid,transition,operation,address,linear,size\n";
    const auto query = [](QStringList options) {
        return QStringList { QStringLiteral("query"), QStringLiteral("%THREADS%"), QStringLiteral("--format"),
            QStringLiteral("csv") }
        + options;
    };
    // Unfiltered, transition 1290 on holds 10506's accesses (1291, ...); 10510 runs again at 1367.
    QTest::newRow("forward skips the other thread's span")
        << query({ QStringLiteral("--thread"), QStringLiteral("10510"), QStringLiteral("--at"), QStringLiteral("1290"),
               QStringLiteral("--limit"), QStringLiteral("4") })
        << header
            + "2419,1370,R,0x7fa8ba43e130,0x7fa8ba43e130,4\n2420,1379,W,0x7fa8ba43e128,0x7fa8ba43e128,4\n"
              "2421,1381,R,0x7fa8ba43e12c,0x7fa8ba43e12c,4\n2422,1381,W,0x7fa8ba43e12c,0x7fa8ba43e12c,4\n";
    QTest::newRow("unfiltered from the same transition")
        << query({ QStringLiteral("--at"), QStringLiteral("1290"), QStringLiteral("--limit"), QStringLiteral("2") })
        << header + "2395,1291,R,0x7ffe37e11f80,0x7ffe37e11f80,8\n2396,1294,R,0x7ffe37e11f68,0x7ffe37e11f68,1\n";
    // Transition 200 is 10510's; 10506 ran [89, 193] before it.
    QTest::newRow("backward starts in another thread's span")
        << query({ QStringLiteral("--thread"), QStringLiteral("10506"), QStringLiteral("--backward"),
               QStringLiteral("--at"), QStringLiteral("200"), QStringLiteral("--limit"), QStringLiteral("3") })
        << header
            + "112,191,R,0x7ffe37e11838,0x7ffe37e11838,8\n111,190,R,0x7ffe37e11830,0x7ffe37e11830,8\n"
              "110,188,W,0x7fa8ba43e154,0x7fa8ba43e154,4\n";
    QTest::newRow("backward resumes after the page's last row")
        << query({ QStringLiteral("--thread"), QStringLiteral("10506"), QStringLiteral("--backward"),
               QStringLiteral("--resume"), QStringLiteral("110"), QStringLiteral("--limit"), QStringLiteral("2") })
        << header + "109,186,R,0x7fa8ba43e154,0x7fa8ba43e154,4\n108,184,R,0x7ffe37e1182c,0x7ffe37e1182c,4\n";
    // 10510's last span is [1772, 1784]: it made no access after 1780.
    QTest::newRow("nothing left in the thread") << query(
        { QStringLiteral("--thread"), QStringLiteral("10510"), QStringLiteral("--at"), QStringLiteral("1780") })
                                                << header;
    QTest::newRow("two threads, repeated option, a duplicate ignored")
        << query({ QStringLiteral("--thread"), QStringLiteral("10510"), QStringLiteral("--thread"),
               QStringLiteral("0x290a"), QStringLiteral("--thread"), QStringLiteral("10510"), QStringLiteral("--at"),
               QStringLiteral("1290"), QStringLiteral("--limit"), QStringLiteral("2") })
        << header + "2395,1291,R,0x7ffe37e11f80,0x7ffe37e11f80,8\n2396,1294,R,0x7ffe37e11f68,0x7ffe37e11f68,1\n";
    QTest::newRow("table with the next page")
        << QStringList { QStringLiteral("query"), QStringLiteral("%THREADS%"), QStringLiteral("--thread"),
               QStringLiteral("10506"), QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("200"),
               QStringLiteral("--limit"), QStringLiteral("3") }
        << QByteArray("rowid  transition  op         address          linear  size\n"
                      "  112         191  R   0x7ffe37e11838  0x7ffe37e11838     8\n"
                      "  111         190  R   0x7ffe37e11830  0x7ffe37e11830     8\n"
                      "  110         188  W   0x7fa8ba43e154  0x7fa8ba43e154     4\n"
                      "-- 3 rows; next page: --resume 110\n");
}

void TestCli::threadFilter()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, out);

    const CliResult result = runCli(expand(arguments));
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, out);
}

void TestCli::threadFilterExportsEachThreadsAccesses_data()
{
    QTest::addColumn<QStringList>("threads");
    QTest::addColumn<QString>("ops");
    QTest::addColumn<int>("rows");

    // The reads and writes of each thread as tst_drmemtraceimporter counts them from the spans.
    QTest::newRow("10506 reads") << QStringList { QStringLiteral("10506") } << QStringLiteral("r") << 1130;
    QTest::newRow("10506 writes") << QStringList { QStringLiteral("10506") } << QStringLiteral("w") << 1073;
    QTest::newRow("10510 reads") << QStringList { QStringLiteral("10510") } << QStringLiteral("r") << 1156;
    QTest::newRow("10510 writes") << QStringList { QStringLiteral("10510") } << QStringLiteral("w") << 1280;
    QTest::newRow("10511 reads") << QStringList { QStringLiteral("10511") } << QStringLiteral("r") << 19108;
    QTest::newRow("10512 writes") << QStringList { QStringLiteral("10512") } << QStringLiteral("w") << 13318;
    QTest::newRow("10511 and 10512 reads")
        << QStringList { QStringLiteral("10511"), QStringLiteral("10512") } << QStringLiteral("r") << 19108 + 11635;
    QTest::newRow("every thread") << QStringList { QStringLiteral("10506"), QStringLiteral("10510"),
        QStringLiteral("10511"), QStringLiteral("10512") }
                                  << QStringLiteral("rw") << 70515;
}

// Each thread's export holds exactly its accesses; all four together give the unfiltered export,
// byte for byte.
void TestCli::threadFilterExportsEachThreadsAccesses()
{
    QFETCH(QStringList, threads);
    QFETCH(QString, ops);
    QFETCH(int, rows);

    const QString output = m_dir.filePath(QStringLiteral("thread-export.csv"));
    QStringList arguments { QStringLiteral("export"), m_threads, QStringLiteral("-o"), output, QStringLiteral("--ops"),
        ops };
    for (const QString &thread : threads)
        arguments << QStringLiteral("--thread") << thread;
    const CliResult result = runCli(arguments);
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.out, QStringLiteral("wrote %1 rows to %2\n").arg(rows).arg(output).toUtf8());
    if (threads.size() < 4)
        return;
    const QByteArray filtered = readFile(output);
    const QString whole = m_dir.filePath(QStringLiteral("thread-export-all.csv"));
    const CliResult all
        = runCli({ QStringLiteral("export"), m_threads, QStringLiteral("-o"), whole, QStringLiteral("--ops"), ops });
    QCOMPARE(all.exitCode, 0);
    QCOMPARE(filtered.count('\n'), rows + 1);
    QCOMPARE(filtered, readFile(whole));
}

void TestCli::importSeveralTraces()
{
    const QString output = m_dir.filePath(QStringLiteral("several.memhist"));
    const CliResult imported = runCli({ QStringLiteral("import"), dataDir() + QStringLiteral("/small.csv"),
        dataDir() + QStringLiteral("/continued.csv"), QStringLiteral("-o"), output });
    QCOMPARE(imported.exitCode, 0);
    QVERIFY(imported.out.startsWith("imported 22 accesses (9 reads, 8 writes, 5 executes; transitions 0..15)"));
    const CliResult tail = runCli({ QStringLiteral("query"), output, QStringLiteral("--at"), QStringLiteral("13"),
        QStringLiteral("--ops"), QStringLiteral("rwx"), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(tail.out,
        QByteArray("rowid,transition,operation,address,linear,size\n"
                   "20,13,X,0x401010,0x401010,6\n"
                   "21,14,R,0x601000,0x601000,8\n"
                   "22,15,W,0x601000,0x601000,8\n"));
    const CliResult info = runCli({ QStringLiteral("info"), output });
    QVERIFY(info.out.contains(
        QStringLiteral("sources:          %1/small.csv (csv)\n                  %1/continued.csv (csv)\n")
            .arg(dataDir())
            .toUtf8()));

    // In the other order the second file goes back in time: refused, and nothing is written.
    const QString refused = m_dir.filePath(QStringLiteral("refused.memhist"));
    const CliResult backwards = runCli({ QStringLiteral("import"), dataDir() + QStringLiteral("/continued.csv"),
        dataDir() + QStringLiteral("/small.csv"), QStringLiteral("-o"), refused });
    QCOMPARE(backwards.exitCode, 1);
    QVERIFY2(
        backwards.err.startsWith((dataDir() + QStringLiteral("/small.csv:2: ")).toUtf8()), backwards.err.constData());
    QVERIFY(!QFile::exists(refused));
}

void TestCli::importCrlf()
{
    const QString output = m_dir.filePath(QStringLiteral("crlf.memhist"));
    const CliResult imported
        = runCli({ QStringLiteral("import"), dataDir() + QStringLiteral("/crlf.csv"), QStringLiteral("-o"), output });
    QCOMPARE(imported.exitCode, 0);
    const CliResult rows
        = runCli({ QStringLiteral("query"), output, QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(rows.out,
        QByteArray("rowid,transition,operation,address,linear,size\n"
                   "1,0,R,0x1000,0x1000,8\n"
                   "2,1,W,0x1008,,8\n"));
}

// The writer's own words, after the file and the line that caused the rejection.
void TestCli::importReportsWriterRejectionWithLine()
{
    const QString output = m_dir.filePath(QStringLiteral("decreasing.memhist"));
    const CliResult result = runCli(
        { QStringLiteral("import"), dataDir() + QStringLiteral("/decreasing.csv"), QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(
        result.err.startsWith((dataDir() + QStringLiteral("/decreasing.csv:3: ")).toUtf8()), result.err.constData());
    QVERIFY(result.err.endsWith('\n') && result.err.count('\n') == 1);
    QCOMPARE(result.out, QByteArray());
    QVERIFY(!QFile::exists(output));
}

void TestCli::importFailureKeepsPreviousOutput()
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("kept.memhist"));
    {
        QFile previous(output);
        QVERIFY(previous.open(QIODevice::WriteOnly));
        previous.write("previous content");
    }
    const CliResult result = runCli(
        { QStringLiteral("import"), dataDir() + QStringLiteral("/bad-size.csv"), QStringLiteral("-o"), output });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(readFile(output), QByteArray("previous content"));
    // No temporary file left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("kept.memhist") });

    // On success the file is replaced.
    const CliResult replaced
        = runCli({ QStringLiteral("import"), dataDir() + QStringLiteral("/small.csv"), QStringLiteral("-o"), output });
    QCOMPARE(replaced.exitCode, 0);
    QVERIFY(readFile(output).startsWith("SQLite format 3"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("kept.memhist") });
}

void TestCli::checkFailure()
{
    // An access at transition 5 in a slice that ends at transition 1.
    const QString broken = m_dir.filePath(QStringLiteral("broken.memhist"));
    QVERIFY(test::writeForeignDatabase(broken, { { 0, 1 } }, { { 1, 0x1000, 0x1007, Operation::Read } },
        { { 1, 5, 0x1000, 0x1000, 8, Operation::Read } }));
    const CliResult result = runCli({ QStringLiteral("check"), broken });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.out, QByteArray());
    QVERIFY2(result.err.startsWith("FAILED: "), result.err.constData());

    const CliResult foreign = runCli({ QStringLiteral("check"), m_foreign });
    QCOMPARE(foreign.exitCode, 0);
    QVERIFY(foreign.out.startsWith("OK: 1 slices, 2 chunks, 3 accesses; every property holds\n"));
}

// resources/examples/true.csv (Lackey's log of /bin/true, converted) imports, holds the counts the
// traces README gives for that log, and exports back byte for byte.
void TestCli::bundledExample()
{
    const QString example = QFINDTESTDATA("../resources/examples/true.csv");
    QVERIFY(QFile::exists(example));
    const QString output = m_dir.filePath(QStringLiteral("true.memhist"));
    const CliResult imported = runCli({ QStringLiteral("import"), example, QStringLiteral("-o"), output });
    QCOMPARE(imported.exitCode, 0);
    QVERIFY2(imported.out.startsWith(
                 "imported 41797 accesses (30027 reads, 11770 writes, 0 executes; transitions 1..131062)"),
        imported.out.constData());

    const CliResult info = runCli({ QStringLiteral("info"), output });
    QVERIFY(info.out.contains("accesses:         41797 (reads 30027, writes 11770, executes 0)\n"));
    QCOMPARE(runCli({ QStringLiteral("check"), output }).exitCode, 0);

    const QString exported = m_dir.filePath(QStringLiteral("true.csv"));
    const CliResult all = runCli({ QStringLiteral("export"), output, QStringLiteral("-o"), exported,
        QStringLiteral("--ops"), QStringLiteral("rwx") });
    QCOMPARE(all.exitCode, 0);
    QVERIFY(readFile(exported) == readFile(example));
}

void TestCli::helpAndVersion_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("start");

    QTest::newRow("--version") << QStringList { QStringLiteral("--version") }
                               << QStringLiteral("memhist " MEMHIST_VERSION "\n");
    QTest::newRow("--help") << QStringList { QStringLiteral("--help") }
                            << QStringLiteral("Usage:\n  memhist import TRACE...");
    for (const char *command : { "import", "query", "export", "check", "info" }) {
        QTest::addRow("%s --help", command) << QStringList { QLatin1String(command), QStringLiteral("--help") }
                                            << QStringLiteral("Usage: memhist %1 ").arg(QLatin1String(command));
    }
    QTest::newRow("--help wins over a mistake")
        << QStringList { QStringLiteral("query"), QStringLiteral("--frobnicate"), QStringLiteral("--help") }
        << QStringLiteral("Usage: memhist query DB");
}

void TestCli::helpAndVersion()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, start);

    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    QVERIFY2(result.out.startsWith(start.toUtf8()), result.out.constData());
}

void TestCli::errors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // the whole of stderr
    QTest::addColumn<QString>("absent"); // a path that must not exist afterwards, if any

    const QString header = QStringLiteral("rowid,transition,operation,address,linear,size");

    // Bad databases: HistoryDatabase::open's message, status 1, whatever the command.
    QTest::newRow("query: no such database")
        << QStringList { QStringLiteral("query"), QStringLiteral("%TMP%/missing.memhist") } << 1
        << QStringLiteral("%TMP%/missing.memhist: no such file\n") << QString();
    QTest::newRow("query: not a SQLite file")
        << QStringList { QStringLiteral("query"), QStringLiteral("%DATA%/small.csv") } << 1
        << QStringLiteral("%DATA%/small.csv: not a SQLite database (file is not a database)\n") << QString();
    QTest::newRow("query: an empty file")
        << QStringList { QStringLiteral("query"), QStringLiteral("%DATA%/empty.csv") } << 1
        << QStringLiteral("%DATA%/empty.csv: empty file (0 bytes), not a memhist database\n") << QString();
    QTest::newRow("query: SQLite with other tables")
        << QStringList { QStringLiteral("query"), QStringLiteral("%TMP%/other.db") } << 1
        << QStringLiteral("%TMP%/other.db: not a memhist database: table 'slices' is missing\n") << QString();
    const QString noIndex = QStringLiteral("%TMP%/noindex.memhist: not a usable memhist database: index idx_accesses_1 "
                                           "on accesses(chunk_id, transition) is "
                                           "missing\n");
    QTest::newRow("query: idx_accesses_1 dropped")
        << QStringList { QStringLiteral("query"), QStringLiteral("%TMP%/noindex.memhist") } << 1 << noIndex
        << QString();
    QTest::newRow("check: idx_accesses_1 dropped")
        << QStringList { QStringLiteral("check"), QStringLiteral("%TMP%/noindex.memhist") } << 1 << noIndex
        << QString();
    QTest::newRow("info: not a SQLite file")
        << QStringList { QStringLiteral("info"), QStringLiteral("%DATA%/small.csv") } << 1
        << QStringLiteral("%DATA%/small.csv: not a SQLite database (file is not a database)\n") << QString();
    QTest::newRow("export: no such database, no output")
        << QStringList { QStringLiteral("export"), QStringLiteral("%TMP%/missing.memhist"), QStringLiteral("-o"),
               QStringLiteral("%TMP%/never.csv") }
        << 1 << QStringLiteral("%TMP%/missing.memhist: no such file\n") << QStringLiteral("%TMP%/never.csv");

    // Bad traces: file, line, field and reason, status 1, nothing at the output path.
    const auto import = [](const char *trace) {
        return QStringList { QStringLiteral("import"), QStringLiteral("%DATA%/") + QLatin1String(trace),
            QStringLiteral("-o"), QStringLiteral("%TMP%/never.memhist") };
    };
    QTest::newRow("import: size 0 on line 5")
        << import("bad-size.csv") << 1
        << QStringLiteral("%DATA%/bad-size.csv:5: field 6 (size): '0' is not a size (must be at least 1)\n")
        << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import: bad hex digit on line 3")
        << import("bad-address.csv") << 1
        << QStringLiteral("%DATA%/bad-address.csv:3: field 4 (address): '0x10g8' is not a number\n")
        << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import --format csv: no header")
        << import("no-header.csv") + QStringList { QStringLiteral("--format"), QStringLiteral("csv") } << 1
        << QStringLiteral("%DATA%/no-header.csv:1: expected the header '%1'\n").arg(header)
        << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import --format auto: unrecognised")
        << import("no-header.csv") << 1
        << QStringLiteral("%DATA%/no-header.csv: cannot recognise the trace format (known formats: csv, lackey, "
                          "drmemtrace, tenet, memhist-stream; name one with --format)\n")
        << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import: empty file") << import("empty.csv") << 1 << QStringLiteral("%DATA%/empty.csv: empty file\n")
                                        << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import --format csv: empty file")
        << import("empty.csv") + QStringList { QStringLiteral("--format"), QStringLiteral("csv") } << 1
        << QStringLiteral("%DATA%/empty.csv: empty file\n") << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import: no such trace")
        << import("missing.csv") << 1 << QStringLiteral("%DATA%/missing.csv: cannot open: No such file or directory\n")
        << QStringLiteral("%TMP%/never.memhist");
    QTest::newRow("import: second trace missing, nothing imported")
        << QStringList { QStringLiteral("import"), QStringLiteral("%DATA%/small.csv"),
               QStringLiteral("%DATA%/missing.csv"), QStringLiteral("-o"), QStringLiteral("%TMP%/never.memhist") }
        << 1 << QStringLiteral("%DATA%/missing.csv: cannot open: No such file or directory\n")
        << QStringLiteral("%TMP%/never.memhist");

    // Usage errors: status 2, checked before any file is opened.
    const auto query = [](QStringList options) {
        return QStringList { QStringLiteral("query"), QStringLiteral("%DB%") } + options;
    };
    QTest::newRow("query: --from greater than --to")
        << query(
               { QStringLiteral("--from"), QStringLiteral("0x2000"), QStringLiteral("--to"), QStringLiteral("0x1000") })
        << 2 << usage(QStringLiteral("query"), QStringLiteral("--from 0x2000 is greater than --to 0x1000"))
        << QString();
    QTest::newRow("query: usage error before the missing database")
        << QStringList { QStringLiteral("query"), QStringLiteral("%TMP%/missing.memhist"), QStringLiteral("--from"),
               QStringLiteral("2"), QStringLiteral("--to"), QStringLiteral("1") }
        << 2 << usage(QStringLiteral("query"), QStringLiteral("--from 2 is greater than --to 1")) << QString();
    QTest::newRow("query: unknown option")
        << query({ QStringLiteral("--frobnicate") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("unknown option '--frobnicate'")) << QString();
    QTest::newRow("query: trailing junk in a number")
        << query({ QStringLiteral("--at"), QStringLiteral("12abc") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("--at: '12abc' is not a number (decimal or 0x hex)"))
        << QString();
    QTest::newRow("query: a transition grouped as the viewer shows it")
        << query({ QStringLiteral("--at"), QStringLiteral("34,563") }) << 2
        << usage(QStringLiteral("query"),
               QStringLiteral("--at: '34,563' is not a number (decimal or 0x hex): write it without separators, 34563"))
        << QString();
    QTest::newRow("query: an address grouped as the viewer once showed it")
        << query({ QStringLiteral("--from"), QStringLiteral("0x4a1'b140") }) << 2
        << usage(QStringLiteral("query"),
               QStringLiteral(
                   "--from: '0x4a1'b140' is not a number (decimal or 0x hex): write it without separators, 0x4a1b140"))
        << QString();
    QTest::newRow("query: a list is not a grouped number")
        << query({ QStringLiteral("--thread"), QStringLiteral("10506,10510") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("--thread: '10506,10510' is not a number (decimal or 0x hex)"))
        << QString();
    QTest::newRow("query: negative number")
        << query({ QStringLiteral("--limit"), QStringLiteral("-1") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("--limit: '-1' is not a number (decimal or 0x hex)"))
        << QString();
    QTest::newRow("query: address above 64 bits")
        << query({ QStringLiteral("--to"), QStringLiteral("0x10000000000000000") }) << 2
        << usage(QStringLiteral("query"),
               QStringLiteral("--to: '0x10000000000000000' is out of range (more than 64 bits)"))
        << QString();
    QTest::newRow("query: bad --ops") << query({ QStringLiteral("--ops"), QStringLiteral("rq") }) << 2
                                      << usage(QStringLiteral("query"),
                                             QStringLiteral(
                                                 "--ops: 'rq' is not a set of operations (letters r, w, x, e.g. rw)"))
                                      << QString();
    QTest::newRow("query: bad --format") << query({ QStringLiteral("--format"), QStringLiteral("json") }) << 2
                                         << usage(QStringLiteral("query"),
                                                QStringLiteral(
                                                    "--format: 'json' is not an output format (csv or table)"))
                                         << QString();
    QTest::newRow("query: option without its value")
        << query({ QStringLiteral("--limit") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("missing value after '--limit'")) << QString();
    QTest::newRow("query: missing database")
        << QStringList { QStringLiteral("query") } << 2
        << usage(QStringLiteral("query"), QStringLiteral("missing the database argument (DB)")) << QString();
    QTest::newRow("query: two databases")
        << query({ QStringLiteral("%DB%") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("unexpected argument '%DB%'")) << QString();
    QTest::newRow("query: batch line with --from greater than --to")
        << query({ QStringLiteral("--batch"), QStringLiteral("%DATA%/bad-range.batch") }) << 2
        << QStringLiteral("%DATA%/bad-range.batch:2: --from 0x2000 is greater than --to 0x1000\n") << QString();
    QTest::newRow("query: batch line with an unknown option")
        << query({ QStringLiteral("--batch"), QStringLiteral("%DATA%/bad-option.batch") }) << 2
        << QStringLiteral("%DATA%/bad-option.batch:4: unknown option 'backwards'\n") << QString();
    QTest::newRow("query: --batch with a query option")
        << query({ QStringLiteral("--batch"), QStringLiteral("%DATA%/queries.batch"), QStringLiteral("--at"),
               QStringLiteral("3") })
        << 2
        << usage(QStringLiteral("query"),
               QStringLiteral("--batch takes every query from its file: give no other query option"))
        << QString();
    QTest::newRow("query: no such batch file")
        << query({ QStringLiteral("--batch"), QStringLiteral("%TMP%/missing.batch") }) << 1
        << QStringLiteral("%TMP%/missing.batch: cannot open: No such file or directory\n") << QString();
    QTest::newRow("import: missing -o") << QStringList { QStringLiteral("import"), QStringLiteral("%DATA%/small.csv") }
                                        << 2
                                        << usage(QStringLiteral("import"),
                                               QStringLiteral("missing the output database (-o OUT.memhist)"))
                                        << QString();
    QTest::newRow("export: missing -o") << QStringList { QStringLiteral("export"), QStringLiteral("%DB%") } << 2
                                        << usage(QStringLiteral("export"),
                                               QStringLiteral("missing the output file (-o OUT.csv)"))
                                        << QString();
    QTest::newRow("export: --from greater than --to, no output") << QStringList { QStringLiteral("export"),
        QStringLiteral("%DB%"), QStringLiteral("-o"), QStringLiteral("%TMP%/never.csv"), QStringLiteral("--from"),
        QStringLiteral("9"), QStringLiteral("--to"),
        QStringLiteral("8") } << 2 << usage(QStringLiteral("export"), QStringLiteral("--from 9 is greater than --to 8"))
                                                                 << QStringLiteral("%TMP%/never.csv");
    QTest::newRow("query: --thread not a number")
        << query({ QStringLiteral("--thread"), QStringLiteral("main") }) << 2
        << usage(QStringLiteral("query"), QStringLiteral("--thread: 'main' is not a number (decimal or 0x hex)"))
        << QString();
    QTest::newRow("query: --thread above 2^63-1")
        << query({ QStringLiteral("--thread"), QStringLiteral("0x8000000000000000") }) << 2
        << usage(QStringLiteral("query"),
               QStringLiteral("--thread: '0x8000000000000000' is out of range (thread ids end at 2^63-1)"))
        << QString();
    QTest::newRow("query: --thread with --pc")
        << query({ QStringLiteral("--pc"), QStringLiteral("0x10"), QStringLiteral("--thread"), QStringLiteral("1") })
        << 2
        << usage(QStringLiteral("query"),
               QStringLiteral("--thread does not apply to --pc or --function (they list transitions, not accesses)"))
        << QString();
    QTest::newRow("export: --thread not a number, no output")
        << QStringList { QStringLiteral("export"), QStringLiteral("%DB%"), QStringLiteral("-o"),
               QStringLiteral("%TMP%/never.csv"), QStringLiteral("--thread"), QStringLiteral("1.5") }
        << 2 << usage(QStringLiteral("export"), QStringLiteral("--thread: '1.5' is not a number (decimal or 0x hex)"))
        << QStringLiteral("%TMP%/never.csv");
    // Bad inputs: status 1, no query runs.
    QTest::newRow("query: --thread on a history without threads")
        << query({ QStringLiteral("--thread"), QStringLiteral("1") }) << 1
        << QStringLiteral("%DB%: this history records no threads\n") << QString();
    QTest::newRow("query: --thread the history does not know")
        << QStringList { QStringLiteral("query"), QStringLiteral("%THREADS%"), QStringLiteral("--thread"),
               QStringLiteral("10510"), QStringLiteral("--thread"), QStringLiteral("4") }
        << 1 << QStringLiteral("%THREADS%: no thread 4 in this history (its threads: 10506, 10510, 10511, 10512)\n")
        << QString();
    QTest::newRow("query: batch line with a thread the history does not know, named by its line")
        << QStringList { QStringLiteral("query"), QStringLiteral("%THREADS%"), QStringLiteral("--batch"),
               QStringLiteral("%TMP%/threads.batch") }
        << 1
        << QStringLiteral(
               "%TMP%/threads.batch:2: no thread 4 in this history (its threads: 10506, 10510, 10511, 10512)\n")
        << QString();
    QTest::newRow("export: --thread on a history without threads, no output")
        << QStringList { QStringLiteral("export"), QStringLiteral("%DB%"), QStringLiteral("-o"),
               QStringLiteral("%TMP%/never.csv"), QStringLiteral("--thread"), QStringLiteral("1") }
        << 1 << QStringLiteral("%DB%: this history records no threads\n") << QStringLiteral("%TMP%/never.csv");
    QTest::newRow("unknown command") << QStringList { QStringLiteral("frobnicate") } << 2
                                     << QStringLiteral(
                                            "memhist: unknown command 'frobnicate'\nTry 'memhist --help' for the "
                                            "list of commands.\n")
                                     << QString();
}

void TestCli::errors()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QFETCH(QString, absent);

    const CliResult result = runCli(expand(arguments));
    QCOMPARE(QString::fromUtf8(result.err), expand(message));
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(result.out, QByteArray());
    if (!absent.isEmpty())
        QVERIFY2(!QFile::exists(expand(absent)), qPrintable(expand(absent)));
    // No temporary file of a failed import or export is left behind.
    for (const QString &name : QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden))
        QVERIFY2(!name.startsWith(QLatin1String("never")), qPrintable(name));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
