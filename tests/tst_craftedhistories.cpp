// SPDX-License-Identifier: MIT
// Histories from a stranger: a genuine history with one change a broken writer or an attacker could
// make (storage classes, views and virtual tables under our names, triggers, partial indexes,
// extremes at 2^63 and 2^64 - 1, a FIFO), given to every command that reads a history (info,
// check, query, export, at, memory, search), each run under a time and memory limit. Every run
// ends by itself, with status 0 or 1 and never a signal; where the change makes answers wrong, the
// exact refusal is asserted. The byte-level fuzzers (fuzz/) cannot build these: each is valid SQLite.
#include "core/charts/chartdata.h"
#include "core/context/contextreader.h"
#include "core/context/contextschema.h"
#include "core/storage/historydatabase.h"
#include "core/storage/historysources.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace memhist;
using namespace memhist::test;

class tst_CraftedHistories : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyCommandEndsCleanly_data();
    void everyCommandEndsCleanly();
    void infoShowsWhatFilesSayFaithfully();
    void sideFilesAreReadWithBounds();
    void chartsCountOnlyTheirRange();
    void codeTextIsBoundedAndEscaped();
    void codeTraceRowsAreCheckedAndReadConsistently();
    void optionalTablesAreReadWithinBoundsAndCancellable();

private:
    QTemporaryDir m_dir;
    QString m_genuine;
};

namespace {

struct Run
{
    int exitCode = -1;
    bool crashedOrKilled = true;
    QByteArray out;
    QByteArray err;
};

// `memhist ARGUMENTS` (or another program) under a time limit and 2 GiB of address space (ulimit
// -v), so that a hang or a runaway allocation fails the test instead of the machine. Not the
// address-space limit in an AddressSanitizer build: its shadow memory alone reserves terabytes of
// address space.
#if defined(__SANITIZE_ADDRESS__)
constexpr const char *limitedExec = "exec \"$0\" \"$@\"";
#else
constexpr const char *limitedExec = "ulimit -v 2097152; exec \"$0\" \"$@\"";
#endif

Run runLimited(
    const QStringList &arguments, const QString &program = QStringLiteral(MEMHIST_CLI_PATH), int seconds = 20)
{
    QProcess process;
    QStringList shellArguments { QStringLiteral("-c"), QString::fromLatin1(limitedExec), program };
    shellArguments += arguments;
    process.start(QStringLiteral("/bin/sh"), shellArguments);
    Run run;
    if (!process.waitForFinished(seconds * 1000)) {
        process.kill();
        process.waitForFinished();
        run.err = QByteArray("did not end within ") + QByteArray::number(seconds) + " s";
        return run;
    }
    run.exitCode = process.exitCode();
    run.crashedOrKilled = process.exitStatus() != QProcess::NormalExit;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace

void tst_CraftedHistories::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // Two slices' worth of accesses with values, so that values, the value index and every
    // optional table the writer makes are there to be replaced.
    QList<ValuedAccess> stream;
    for (int i = 0; i < 3000; ++i) {
        const Operation operation = i % 3 == 0 ? Operation::Write : Operation::Read;
        stream << ValuedAccess { userAccess(std::uint64_t(i), operation, 0x1000 + std::uint64_t(i % 97) * 8, 8),
            QByteArray(8, char(i % 7)) };
    }
    m_genuine = m_dir.filePath(QStringLiteral("genuine.memhist"));
    QVERIFY(writeHistoryWithValues(m_genuine, stream));
}

void tst_CraftedHistories::everyCommandEndsCleanly_data()
{
    QTest::addColumn<QString>("change"); // SQL run on a copy of the genuine history; "FIFO": a FIFO instead
    QTest::addColumn<QString>("refusal"); // what every command's stderr then says (empty: any answer will do)
    QTest::addColumn<QString>("checkSays"); // what `check` says (empty: the refusal, or any answer)

    QTest::newRow("genuine") << QString() << QString() << QString();
    QTest::newRow("recursive view under a context table's name")
        << QStringLiteral("CREATE VIEW source_files AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
                          "SELECT x AS id, 'p' AS path FROM r")
        << QStringLiteral("not a usable memhist database: 'source_files' is a view, not a table (memhist reads only "
                          "tables under its names)")
        << QString();
    QTest::newRow("huge printf view under the instructions' name")
        << QStringLiteral("CREATE VIEW instructions AS SELECT 4096 AS pc, x'90' AS bytes, printf('%.*c', 900000000, "
                          "'x') AS text")
        << QStringLiteral("not a usable memhist database: 'instructions' is a view, not a table (memhist reads only "
                          "tables under its names)")
        << QString();
    QTest::newRow("view with an upper-case name")
        << QStringLiteral("CREATE VIEW FUNCTIONS AS SELECT 1 AS id, 1 AS module_id, 'f' AS name, 0 AS addr_first, "
                          "-1 AS addr_last")
        << QStringLiteral("not a usable memhist database: 'FUNCTIONS' is a view, not a table (memhist reads only "
                          "tables under its names)")
        << QString();
    QTest::newRow("virtual table under a context table's name")
        << QStringLiteral("CREATE VIRTUAL TABLE data_objects USING rtree(id, addr_first, addr_last)")
        << QStringLiteral("not a usable memhist database: 'data_objects' is a virtual table, not a table (memhist "
                          "reads only tables under its names)")
        << QString();
    QTest::newRow("partial access index")
        << QStringLiteral("DROP INDEX idx_accesses_1; CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition) "
                          "WHERE size > 4")
        << QStringLiteral("not a usable memhist database: index idx_accesses_1 is partial (it has a WHERE clause), so "
                          "it does not hold every row")
        << QString();
    QTest::newRow("transition column declared TEXT")
        << QStringLiteral(
               "ALTER TABLE accesses RENAME TO old; CREATE TABLE accesses(chunk_id int8 not null, transition text not "
               "null, linear int8, phy_first int8 not null, size int not null, operation int not null); INSERT INTO "
               "accesses(rowid, chunk_id, transition, linear, phy_first, size, operation) SELECT rowid, chunk_id, "
               "transition, linear, phy_first, size, operation FROM old; DROP TABLE old; CREATE INDEX idx_accesses_1 "
               "ON accesses(chunk_id, transition)")
        << QStringLiteral("not a usable memhist database: column accesses.transition is declared TEXT, which does "
                          "not keep numbers as integers")
        << QString();
    QTest::newRow("a transition stored as a BLOB")
        << QStringLiteral("UPDATE accesses SET transition = CAST(transition AS BLOB) WHERE rowid = 1500") << QString()
        << QStringLiteral("access 1500 (transition 1499): transition is not stored as an integer [numbers are stored "
                          "as integers]");
    QTest::newRow("a transition stored as TEXT")
        << QStringLiteral("UPDATE accesses SET transition = 'x' || transition WHERE rowid = 10") << QString()
        << QStringLiteral("access 10 (transition 0): transition is not stored as an integer [numbers are stored as "
                          "integers]");
    QTest::newRow("a size past 32 bits") << QStringLiteral("UPDATE accesses SET size = 4294967304 WHERE rowid = 7")
                                         << QString()
                                         << QStringLiteral("access 7 (transition 6): size is 4294967304, past 32 bits "
                                                           "[an access covers at most 2^32-1 bytes]");
    QTest::newRow("last transition at 2^63 - 1")
        << QStringLiteral("UPDATE accesses SET transition = 9223372036854775807 WHERE rowid = 3000") << QString()
        << QString();
    QTest::newRow("address at 2^64 - 1") << QStringLiteral("UPDATE accesses SET phy_first = -1 WHERE rowid = 5")
                                         << QString() << QString();
    QTest::newRow("overlapping thread spans")
        << QStringLiteral("CREATE TABLE thread_spans(thread_id int8 not null, transition_first int8 not null, "
                          "transition_last int8 not null); CREATE INDEX idx_thread_spans_1 ON "
                          "thread_spans(transition_last); INSERT INTO thread_spans VALUES (7, 0, 1999), (8, 1500, "
                          "2999)")
        << QString()
        << QStringLiteral("thread span 2 (thread 8): starts at transition 1500, inside span 1, which ends at 1999 "
                          "[thread spans cover first..last with first <= last and never overlap]");
    QTest::newRow("reversed thread span")
        << QStringLiteral("CREATE TABLE thread_spans(thread_id int8 not null, transition_first int8 not null, "
                          "transition_last int8 not null); CREATE INDEX idx_thread_spans_1 ON "
                          "thread_spans(transition_last); INSERT INTO thread_spans VALUES (7, 2999, 0)")
        << QString()
        << QStringLiteral("thread span 1 (thread 7): covers transitions 2999..0 [thread spans cover first..last with "
                          "first <= last and never overlap]");
    QTest::newRow("trigger") << QStringLiteral("CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM accesses; END")
                             << QString() << QString();
    QTest::newRow("damaged value blocks")
        << QStringLiteral("UPDATE access_value_blocks SET layout = x'ff', bytes = randomblob(100000)") << QString()
        << QString();
    QTest::newRow("FIFO") << QStringLiteral("FIFO")
                          << QStringLiteral("not a regular file (a FIFO, device or socket), not a memhist database")
                          << QString();
}

void tst_CraftedHistories::everyCommandEndsCleanly()
{
    QFETCH(QString, change);
    QFETCH(QString, refusal);
    QFETCH(QString, checkSays);
    const QString history = m_dir.filePath(
        QStringLiteral("crafted-%1.memhist").arg(QString::fromUtf8(QTest::currentDataTag()).replace(u' ', u'-')));
    QFile::remove(history);
    if (change == QLatin1String("FIFO")) {
        QCOMPARE(mkfifo(QFile::encodeName(history).constData(), 0600), 0);
    } else {
        QVERIFY(QFile::copy(m_genuine, history));
        if (!change.isEmpty()) {
            sqlite::Connection connection;
            QVERIFY(connection.open(history, sqlite::Connection::Mode::ReadWriteCreate));
            QVERIFY2(connection.execute(change.toUtf8().constData()), qPrintable(connection.lastError()));
        }
    }
    const QString csv = m_dir.filePath(QStringLiteral("export.csv"));
    const QList<QStringList> commands {
        { QStringLiteral("info"), history },
        { QStringLiteral("check"), history },
        { QStringLiteral("query"), history, QStringLiteral("--from"), QStringLiteral("0x1000"), QStringLiteral("--to"),
            QStringLiteral("0x1100"), QStringLiteral("--context") },
        { QStringLiteral("query"), history, QStringLiteral("--backward"), QStringLiteral("--limit"),
            QStringLiteral("5000") },
        { QStringLiteral("export"), history, QStringLiteral("-o"), csv, QStringLiteral("--context") },
        { QStringLiteral("at"), history, QStringLiteral("1500") },
        { QStringLiteral("memory"), history, QStringLiteral("--at"), QStringLiteral("2000"), QStringLiteral("--from"),
            QStringLiteral("0x1000"), QStringLiteral("--to"), QStringLiteral("0x1400") },
        { QStringLiteral("search"), history, QStringLiteral("--int"), QStringLiteral("3"), QStringLiteral("--size"),
            QStringLiteral("1") },
    };
    for (const QStringList &arguments : commands) {
        const Run run = runLimited(arguments);
        const QString what = arguments.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(run.err);
        QVERIFY2(!run.crashedOrKilled, qPrintable(what));
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(what));
        if (!refusal.isEmpty()) {
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.startsWith((history + QStringLiteral(": ") + refusal).toUtf8()), qPrintable(what));
        } else if (arguments[0] == QLatin1String("check") && !checkSays.isEmpty()) {
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(QByteArray(run.out + run.err).contains(checkSays.toUtf8()),
                qPrintable(what + QString::fromUtf8(run.out)));
        } else if (change.isEmpty()) {
            QVERIFY2(run.exitCode == 0, qPrintable(what));
        }
        // An export that fails leaves nothing at its output path.
        if (arguments[0] == QLatin1String("export") && run.exitCode != 0)
            QVERIFY2(!QFile::exists(csv), qPrintable(what));
        QFile::remove(csv);
    }

    // The viewer, offscreen: it shows the history (plane, results, charts) and saves a picture, or
    // says why it cannot open it; it never crashes or spins. 60 s: it paints, and an
    // AddressSanitizer build is slow.
    const QString picture = m_dir.filePath(QStringLiteral("viewer.png"));
    QFile::remove(picture);
    const Run viewer
        = runLimited({ QStringLiteral("-platform"), QStringLiteral("offscreen"), QStringLiteral("--screenshot"),
                         picture, QStringLiteral("--size"), QStringLiteral("1024x700"), history },
            QStringLiteral(MEMHIST_VIEWER_PATH), 60);
    const QString what = QStringLiteral("memhist-viewer: ") + QString::fromUtf8(viewer.err);
    QVERIFY2(!viewer.crashedOrKilled, qPrintable(what));
    if (!refusal.isEmpty()) {
        QCOMPARE(viewer.exitCode, 1);
        // The viewer opens traces too, so it words a FIFO's refusal for both.
        const QString viewerRefusal = change == QLatin1String("FIFO") ? history
                + QStringLiteral(" is not a regular file (a FIFO, device or socket): histories and traces are "
                                 "read from regular files and directories.")
                                                                      : refusal;
        QVERIFY2(viewer.err.contains(viewerRefusal.toUtf8()), qPrintable(what));
        QVERIFY(!QFile::exists(picture));
    } else {
        QVERIFY2(viewer.exitCode == 0 || viewer.exitCode == 1, qPrintable(what));
        QVERIFY2(viewer.exitCode != 0 || QFile::exists(picture), qPrintable(what));
        if (change.isEmpty())
            QVERIFY2(viewer.exitCode == 0, qPrintable(what));
    }
}

void tst_CraftedHistories::infoShowsWhatFilesSayFaithfully()
{
    // A trace path with a newline and a tab stays one source; a meta value's terminal escape is
    // shown, not sent to the terminal.
    const QString history = m_dir.filePath(QStringLiteral("sources.memhist"));
    HistoryWriter writer(history);
    QVERIFY(writer.open());
    writer.setSources({ { QStringLiteral("lackey"), QStringLiteral("/tmp/a\nlackey\t/tmp/b\\c") } });
    QVERIFY(writer.add(userAccess(1, Operation::Read, 0x10, 4)));
    QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(history, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(connection.execute("UPDATE meta SET value = 'memhist' || char(27) || '[2J' WHERE key = 'writer'"));
    }
    const CliResult info = runCli({ QStringLiteral("info"), history });
    QCOMPARE(info.exitCode, 0);
    QStringList lines;
    for (const QString &line : QString::fromUtf8(info.out).split(u'\n')) {
        if (line.startsWith(QLatin1String("sources:")) || line.startsWith(QLatin1String("writer:"))
            || line.startsWith(QLatin1String("transitions:")))
            lines << line;
    }
    QCOMPARE(lines,
        QStringList({ QStringLiteral("writer:           memhist\\x1b[2J 0.1.0"),
            QStringLiteral("sources:          /tmp/a\\nlackey\\t/tmp/b\\c (lackey)"),
            QStringLiteral("transitions:      1..1") }));
    QCOMPARE(parseSourcesMeta(sourcesMetaText({ { QStringLiteral("c\tsv"), QStringLiteral("x\\ny\n") } })),
        QList<SourceDescription>({ { QStringLiteral("c\tsv"), QStringLiteral("x\\ny\n") } }));
}

void tst_CraftedHistories::sideFilesAreReadWithBounds()
{
    // A batch line longer than any query, a maps file larger than any process's (sparse: no disk
    // used), a FIFO: each refused at once, with what was wrong and where.
    const QString longLine = m_dir.filePath(QStringLiteral("long.batch"));
    QFile batch(longLine);
    QVERIFY(batch.open(QIODevice::WriteOnly));
    batch.write("--at 1\n");
    batch.write(QByteArray(5000, ' ') + "--at 2\n");
    batch.close();
    CliResult result = runCli({ QStringLiteral("query"), m_genuine, QStringLiteral("--batch"), longLine });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.err, (longLine + QStringLiteral(":2: line longer than 4096 bytes\n")).toUtf8());
    result = runCli({ QStringLiteral("memory"), m_genuine, QStringLiteral("--batch"), longLine });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.err,
        (QStringLiteral("memhist memory: ") + longLine + QStringLiteral(":2: line longer than 4096 bytes\n")).toUtf8());

    const QString hugeMaps = m_dir.filePath(QStringLiteral("huge.maps"));
    QFile maps(hugeMaps);
    QVERIFY(maps.open(QIODevice::WriteOnly));
    QVERIFY(maps.resize(65 << 20));
    maps.close();
    result = runCli({ QStringLiteral("import"), QFINDTESTDATA("data/lackey/true.tiny.lackey"), QStringLiteral("-o"),
        m_dir.filePath(QStringLiteral("out.memhist")), QStringLiteral("--maps"), hugeMaps });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.err,
        (hugeMaps + QStringLiteral(": 68157440 bytes, more than the 67108864 bytes read at most\n")).toUtf8());
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("out.memhist"))));

    const QString fifo = m_dir.filePath(QStringLiteral("queries.fifo"));
    QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    result = runCli({ QStringLiteral("query"), m_genuine, QStringLiteral("--batch"), fifo });
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(result.err, (fifo + QStringLiteral(": not a regular file\n")).toUtf8());
}

void tst_CraftedHistories::chartsCountOnlyTheirRange()
{
    // One access moved back in time (a single UPDATE) crashed the viewer on open: the charts'
    // exact pass indexed its buckets with the row's transition unchecked. Now the row is counted
    // nowhere and the others as before.
    const QString history = m_dir.filePath(QStringLiteral("backwards.memhist"));
    QFile::remove(history);
    QVERIFY(QFile::copy(m_genuine, history));
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(history, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(connection.execute("UPDATE accesses SET transition = 0 WHERE rowid = 2000"));
    }
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    ChartData data;
    ViewRange range;
    range.firstTransition = Transition { 1000 };
    range.lastTransition = Transition { 2999 };
    QVERIFY2(computeChartData(*database, range, false, {}, &data, &error), qPrintable(error));
    double counted = 0;
    for (qsizetype i = 0; i < data.reads.size(); ++i)
        counted += data.reads[i] + data.writes[i];
    QCOMPARE(counted, 1999.0); // 2000 rows from transition 1000 on, less the one moved to 0
}

void tst_CraftedHistories::codeTextIsBoundedAndEscaped()
{
    // A 300 MB instruction text crashed Qt's text layout when its row was selected: what a history
    // says about code reaches every view bounded (here a million characters), its escapes shown.
    const QString history = m_dir.filePath(QStringLiteral("longtext.memhist"));
    QFile::remove(history);
    QVERIFY(QFile::copy(m_genuine, history));
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(history, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(connection.execute(contextschema::createInstructionsTable));
        QVERIFY2(connection.execute("INSERT INTO instructions VALUES (4096, x'90', char(27) || '[31m' || "
                                    "replace(hex(zeroblob(500000)), '0', 'x'))"),
            qPrintable(connection.lastError()));
    }
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    const CodeDescription code = reader.describeCode(Address { 0x1000 });
    // The escape shown as \x1b, then the rest of the first 512 characters, then what was left out.
    QCOMPARE(code.instruction,
        QStringLiteral("\\x1b[31m") + QString(507, u'x') + QStringLiteral("… (999493 more characters)"));
}

void tst_CraftedHistories::codeTraceRowsAreCheckedAndReadConsistently()
{
    // A copy of the first code_trace row stored again at transition 100 (overlapping its
    // neighbours), and once more just below 2^63 (running past it): `query --pc` lists each
    // execution with the PC that pcAt() gives (never 0) and never a transition of 2^63 or more;
    // `check` names each broken row.
    const QString genuine = m_dir.filePath(QStringLiteral("withcode.memhist"));
    QFile::remove(genuine);
    const CliResult imported = runCli(
        { QStringLiteral("import"), QFINDTESTDATA("data/lackey/true.tiny.lackey"), QStringLiteral("-o"), genuine });
    QVERIFY2(imported.exitCode == 0, imported.err.constData());
    const CliResult before = runCli({ QStringLiteral("query"), genuine, QStringLiteral("--pc"),
        QStringLiteral("0x401b858"), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(before.out, QByteArray("transition,thread,pc,function,source\n59,,0x401b858,,\n"));
    QCOMPARE(runCli({ QStringLiteral("check"), genuine }).exitCode, 0);

    const QString crafted = m_dir.filePath(QStringLiteral("overlappingcode.memhist"));
    QFile::remove(crafted);
    QVERIFY(QFile::copy(genuine, crafted));
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(crafted, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(
            connection.execute("INSERT INTO code_trace SELECT 100, runs FROM code_trace WHERE transition_first = 0; "
                               "INSERT INTO code_trace SELECT 9223372036854775000, runs FROM code_trace "
                               "WHERE transition_first = 0"));
    }
    const CliResult forward = runCli({ QStringLiteral("query"), crafted, QStringLiteral("--pc"),
        QStringLiteral("0x401b858"), QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(forward.exitCode, 0);
    QCOMPARE(forward.out,
        QByteArray("transition,thread,pc,function,source\n59,,0x401b858,,\n159,,0x401b858,,\n"
                   "9223372036854775059,,0x401b858,,\n"));
    const CliResult backward = runCli({ QStringLiteral("query"), crafted, QStringLiteral("--pc"),
        QStringLiteral("0x401b858"), QStringLiteral("--backward"), QStringLiteral("--limit"), QStringLiteral("1"),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(backward.out, QByteArray("transition,thread,pc,function,source\n9223372036854775059,,0x401b858,,\n"));

    const CliResult check = runCli({ QStringLiteral("check"), crafted });
    QCOMPARE(check.exitCode, 1);
    const QByteArray property = "[code trace rows decode into pairs of stored runs, each no longer than its run, and "
                                "the rows neither overlap nor reach transition 2^63]";
    const QByteArray firstViolation = QByteArray("FAILED: code trace row at transition 100: starts inside the row at "
                                                 "transition 0, which ends at 8772 ")
        + property;
    const QByteArray said = check.out + check.err;
    QVERIFY2(said.contains(firstViolation), said.constData());
    const QByteArray count = QByteArray("  ") + property + ": 3 violations";
    QVERIFY2(said.contains(count), said.constData());
}

void tst_CraftedHistories::optionalTablesAreReadWithinBoundsAndCancellable()
{
    // 1.1 million functions and 70,000 modules: the reader keeps at most its bounds (the rest
    // answer "unknown"), and a read whose job was cancelled stops at once with what it had.
    const QString history = m_dir.filePath(QStringLiteral("manynames.memhist"));
    QFile::remove(history);
    QVERIFY(QFile::copy(m_genuine, history));
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(history, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(connection.execute(contextschema::createFunctionsTable));
        QVERIFY(connection.execute(contextschema::createModulesTable));
        QVERIFY2(connection.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1100000) "
                                    "INSERT INTO functions SELECT i, 1, 'f' || i, i * 16, i * 16 + 15 FROM n; "
                                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 70000) "
                                    "INSERT INTO modules SELECT i, '/m' || i, 0, '', 0, 1 FROM n"),
            qPrintable(connection.lastError()));
    }
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    {
        ContextReader reader(*database);
        QCOMPARE(reader.modules().size(), ContextReader::maxModules);
        const QList<NamedRange> names = reader.namedRanges();
        QCOMPARE(names.size(), ContextReader::maxNamedRanges);
        QCOMPARE(names.first().name, QStringLiteral("f1"));
    }
    int asked = 0;
    ContextReader cancelled(*database);
    cancelled.setCancelCheck([&asked] { return ++asked > 3; });
    QCOMPARE(cancelled.namedRanges().size(), 0);
    QVERIFY(asked > 3);
}

QTEST_GUILESS_MAIN(tst_CraftedHistories)
#include "tst_craftedhistories.moc"
