// SPDX-License-Identifier: MIT
// Accesses by function (HalfAxisQuery::function, `memhist query --function NAME --accesses`) on a
// history recorded with `memhist record` (data/programs/calls.c): the exact writes of fill() with
// and without its callee mark(), recursion through countdown(), every function of the program
// against a brute-force oracle (each access whose PC lies in the function / whose transition lies
// between a call of it and the return to its caller, found transition by transition), pages
// resumed by rowid, a start inside an execution, with a thread filter too (a program of three
// threads), and the errors, a damaged page of the code trace among them.
#include "core/context/contextreader.h"
#include "core/query/functionruns.h"
#include "core/query/halfaxisquery.h"
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/storage/threadspans.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace memhist;
using namespace memhist::test;

namespace {

QStringList lines(const QByteArray &text)
{
    QStringList result = QString::fromUtf8(text).split(u'\n');
    if (!result.isEmpty() && result.last().isEmpty())
        result.removeLast();
    return result;
}

QString hex(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

// Every access of the history, in rowid order.
QList<Access> everyAccess(HistoryDatabase &database)
{
    HalfAxisQueryEngine engine(database);
    HalfAxisQuery query;
    query.operations = Operations(Operation::Read) | Operation::Write | Operation::Execute;
    query.limit = 1u << 30;
    QueryPage page;
    QString error;
    if (!engine.run(query, &page, &error))
        qWarning("%s", qPrintable(error));
    return page.accesses;
}

// Every page of `query` (pages of `pageSize`, each resumed after the last row of the one before).
QList<Access> everyPage(HistoryDatabase &database, HalfAxisQuery query, quint64 pageSize, QString *error)
{
    HalfAxisQueryEngine engine(database);
    QList<Access> all;
    query.limit = pageSize;
    for (;;) {
        QueryPage page;
        if (!engine.run(query, &page, error))
            return {};
        all << page.accesses;
        if (!page.resumePoint())
            return all;
        query.resumeAfter = page.resumePoint();
    }
}

} // namespace

class tst_FunctionAccesses : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writesOfFill_data();
    void writesOfFill();
    void recursionIsOneExecution();
    void agreesWithBruteForce_data();
    void agreesWithBruteForce();
    void resumesInsideAnExecution();
    void withAThreadFilter();
    void tablePagesSayWhereToResume();
    void exportWritesTheQuerysRows();
    void errors_data();
    void errors();
    void tooManyExecutionsAreRefused();
    void aDamagedCodeTraceIsAnError_data();
    void aDamagedCodeTraceIsAnError();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // The transitions inside an execution of `name` (from each call of its entry to the return to
    // the instruction after the call), found transition by transition with pcAt().
    QList<std::pair<quint64, quint64>> bruteForceExecutions(ContextReader &reader, const QString &name);

    QTemporaryDir m_dir;
    QString m_history;
    QString m_csvHistory; // no context
    std::uint64_t m_values = 0;
    std::uint64_t m_marks = 0;
    std::uint64_t m_depth = 0;
    quint64 m_lastTransition = 0;
};

void tst_FunctionAccesses::initTestCase()
{
    if (ValgrindProcess::findValgrind().isEmpty())
        QSKIP("valgrind is not installed");
    QString why;
    QVERIFY2(!ToolRecorder::toolDirectory(&why).isEmpty(), qPrintable(why));
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::copy(QFINDTESTDATA("data/programs/calls.c"), path(QStringLiteral("calls.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "calls", "calls.c" }, m_dir.path()));
    m_history = path(QStringLiteral("calls.memhist"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), m_history, QStringLiteral("--"),
        path(QStringLiteral("calls")) });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    static const QRegularExpression line(QStringLiteral("^(\\w+)=(0x[0-9a-f]+)$"));
    for (const QString &text : lines(record.out)) {
        const QRegularExpressionMatch match = line.match(text);
        if (!match.hasMatch())
            continue;
        const std::uint64_t address = match.captured(2).toULongLong(nullptr, 16);
        (match.captured(1) == QLatin1String("values")         ? m_values
                : match.captured(1) == QLatin1String("marks") ? m_marks
                                                              : m_depth)
            = address;
    }
    QVERIFY(m_values && m_marks && m_depth);
    QVERIFY(record.out.contains("sum=432"));
    {
        QString error;
        const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(m_history, &error);
        QVERIFY2(database, qPrintable(error));
        const QList<Access> every = everyAccess(*database);
        QVERIFY(!every.isEmpty());
        m_lastTransition = every.constLast().transition.value;
    }

    m_csvHistory = path(QStringLiteral("small.memhist"));
    QVERIFY(!cliOutput(
        { QStringLiteral("import"), QFINDTESTDATA("data/csv/small.csv"), QStringLiteral("-o"), m_csvHistory })
                 .isEmpty());
}

void tst_FunctionAccesses::writesOfFill_data()
{
    QTest::addColumn<QString>("function");
    QTest::addColumn<QStringList>("options");
    // (operation, offset from values[]) of each row, in order.
    QTest::addColumn<QStringList>("expected");
    const auto v = [](int index) { return QStringLiteral("W+%1").arg(4 * index); };
    const QString mark = QStringLiteral("W+32"); // marks lies after values[8]
    QStringList own;
    for (int i = 0; i < 8; ++i)
        own << v(i);
    for (int i = 0; i < 4; ++i)
        own << v(i);
    QStringList withCallees;
    for (const int count : { 8, 4 }) {
        for (int i = 0; i < count; ++i) {
            withCallees << v(i);
            if ((i & 1) == 0)
                withCallees << mark;
        }
    }
    QStringList backward = withCallees;
    std::reverse(backward.begin(), backward.end());
    QTest::newRow("fill's own writes") << QStringLiteral("fill") << QStringList {} << own;
    QTest::newRow("fill and mark") << QStringLiteral("fill") << QStringList { QStringLiteral("--callees") }
                                   << withCallees;
    QTest::newRow("backward") << QStringLiteral("fill")
                              << QStringList { QStringLiteral("--callees"), QStringLiteral("--backward") } << backward;
    // fill reads no global; mark reads marks before adding to it.
    QTest::newRow("reads of fill and mark")
        << QStringLiteral("fill")
        << QStringList { QStringLiteral("--callees"), QStringLiteral("--ops"), QStringLiteral("r") }
        << QStringList { QStringLiteral("R+32"), QStringLiteral("R+32"), QStringLiteral("R+32"), QStringLiteral("R+32"),
               QStringLiteral("R+32"), QStringLiteral("R+32") };
    // mark's own writes: those to marks, one per call.
    QTest::newRow("mark alone") << QStringLiteral("mark") << QStringList {} << QStringList(6, mark);
}

void tst_FunctionAccesses::writesOfFill()
{
    QFETCH(QString, function);
    QFETCH(QStringList, options);
    QFETCH(QStringList, expected);
    QStringList arguments { QStringLiteral("query"), m_history, QStringLiteral("--function"), function,
        QStringLiteral("--accesses"), QStringLiteral("--from"), hex(m_values), QStringLiteral("--to"), hex(m_marks + 3),
        QStringLiteral("--ops"), QStringLiteral("w"), QStringLiteral("--format"), QStringLiteral("csv"),
        QStringLiteral("--limit"), QStringLiteral("1000") };
    arguments << options;
    const CliResult result = runCli(arguments);
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.exitCode, 0);
    const QStringList rows = lines(result.out);
    QCOMPARE(rows.value(0), QStringLiteral("rowid,transition,operation,address,linear,size"));
    QStringList found;
    for (const QString &row : rows.mid(1)) {
        const QStringList cells = row.split(u',');
        QCOMPARE(cells.size(), 6);
        QCOMPARE(cells[5], QStringLiteral("4"));
        found << QStringLiteral("%1+%2").arg(cells[2]).arg(cells[3].toULongLong(nullptr, 16) - m_values);
    }
    QCOMPARE(found, expected);
}

void tst_FunctionAccesses::recursionIsOneExecution()
{
    // countdown(3) calls itself three times: four writes to depth, all inside the first call's
    // execution; the inner returns do not end it.
    const CliResult result = runCli({ QStringLiteral("query"), m_history, QStringLiteral("--function"),
        QStringLiteral("countdown"), QStringLiteral("--accesses"), QStringLiteral("--callees"), QStringLiteral("--ops"),
        QStringLiteral("w"), QStringLiteral("--from"), hex(m_depth), QStringLiteral("--to"), hex(m_depth + 3),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(lines(result.out).size(), 5);

    QString openError;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(m_history, &openError);
    QVERIFY2(database, qPrintable(openError));
    ContextReader reader(*database);
    const QList<std::pair<quint64, quint64>> executions = bruteForceExecutions(reader, QStringLiteral("countdown"));
    QCOMPARE(executions.size(), 4); // one per call, the inner three nested in the first
    for (const auto &inner : executions.mid(1))
        QVERIFY(executions[0].first < inner.first && inner.second <= executions[0].second);
}

QList<std::pair<quint64, quint64>> tst_FunctionAccesses::bruteForceExecutions(
    ContextReader &reader, const QString &name)
{
    const QList<FunctionInfo> functions = reader.functionsNamed(name);
    QList<std::pair<quint64, quint64>> executions;
    for (quint64 entry = 1; entry <= m_lastTransition; ++entry) {
        const std::optional<Address> pc = reader.pcAt(Transition { entry });
        const bool isEntry = pc && std::any_of(functions.begin(), functions.end(), [&](const FunctionInfo &f) {
            return f.range.first == *pc;
        });
        if (!isEntry)
            continue;
        const std::optional<Address> call = reader.pcAt(Transition { entry - 1 });
        if (!call) {
            qWarning("the instruction before the call at %llu is unknown", entry);
            return {};
        }
        const qsizetype callSize = reader.describeCode(*call).bytes.size();
        const std::uint64_t returnTo = call->value + std::uint64_t(callSize);
        quint64 end = m_lastTransition;
        int depth = 1;
        for (quint64 t = entry + 1; t <= m_lastTransition; ++t) {
            const Address at = reader.pcAt(Transition { t }).value_or(Address {});
            const bool again = std::any_of(
                functions.begin(), functions.end(), [&](const FunctionInfo &f) { return f.range.first == at; });
            if (again && reader.pcAt(Transition { t - 1 }) == call)
                ++depth;
            else if (at.value == returnTo && --depth == 0) {
                end = t - 1;
                break;
            }
        }
        executions.append({ entry, end });
    }
    return executions;
}

void tst_FunctionAccesses::agreesWithBruteForce_data()
{
    QTest::addColumn<QString>("function");
    QTest::addColumn<bool>("callees");
    QTest::addColumn<bool>("backward");
    for (const char *name : { "fill", "mark", "total", "countdown", "main", "printf" }) {
        for (const bool callees : { false, true }) {
            for (const bool backward : { false, true }) {
                QTest::addRow("%s%s%s", name, callees ? " with callees" : "", backward ? " backward" : "")
                    << QString::fromLatin1(name) << callees << backward;
            }
        }
    }
}

void tst_FunctionAccesses::agreesWithBruteForce()
{
    QFETCH(QString, function);
    QFETCH(bool, callees);
    QFETCH(bool, backward);
    QString openError;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(m_history, &openError);
    QVERIFY2(database, qPrintable(openError));
    ContextReader reader(*database);
    const QList<Access> every = everyAccess(*database);
    QVERIFY(!every.isEmpty());

    const QList<FunctionInfo> functions = reader.functionsNamed(function);
    QVERIFY(!functions.isEmpty());
    const QList<std::pair<quint64, quint64>> executions
        = callees ? bruteForceExecutions(reader, function) : QList<std::pair<quint64, quint64>> {};
    QList<Access> expected;
    for (const Access &access : every) {
        if (!(access.operation == Operation::Read || access.operation == Operation::Write))
            continue;
        bool keep = false;
        if (callees) {
            keep = std::any_of(executions.begin(), executions.end(), [&](const auto &e) {
                return e.first <= access.transition.value && access.transition.value <= e.second;
            });
        } else {
            const std::optional<Address> pc = reader.pcAt(access.transition);
            keep = pc && std::any_of(functions.begin(), functions.end(), [&](const FunctionInfo &f) {
                return f.range.contains(*pc);
            });
        }
        if (keep)
            expected << access;
    }
    if (backward)
        std::reverse(expected.begin(), expected.end());
    QVERIFY(!expected.isEmpty());

    HalfAxisQuery query;
    query.direction = backward ? Direction::Backward : Direction::Forward;
    query.function = FunctionFilter { function, callees };
    QString error;
    const QList<Access> paged = everyPage(*database, query, 7, &error);
    QCOMPARE(error, QString());
    QCOMPARE(paged.size(), expected.size());
    QCOMPARE(paged, expected);
    const QList<Access> whole = everyPage(*database, query, 1u << 30, &error);
    QCOMPARE(whole, expected);

    // With a thread filter too, the transitions both keep: the program's one thread keeps them
    // all, a thread it does not have none.
    const ThreadSpans spans(*database);
    QVERIFY(spans.available());
    QList<qint64> threads;
    for (const ThreadSummary &thread : spans.threads())
        threads << thread.threadId;
    QCOMPARE(threads.size(), 1);
    query.threads = threads;
    QCOMPARE(everyPage(*database, query, 7, &error), expected);
    query.threads = { threads[0] + 1 };
    QCOMPARE(everyPage(*database, query, 7, &error), QList<Access> {});
    QCOMPARE(error, QString());
}

void tst_FunctionAccesses::resumesInsideAnExecution()
{
    // Started in the middle of main's one execution (with callees: everything from main's call on),
    // the answer is the oracle's rows from there, forward and backward.
    QString openError;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(m_history, &openError);
    QVERIFY2(database, qPrintable(openError));
    HalfAxisQuery everything;
    everything.function = FunctionFilter { QStringLiteral("fill"), true };
    everything.limit = 1u << 30;
    HalfAxisQueryEngine engine(*database);
    QueryPage all;
    QString error;
    QVERIFY2(engine.run(everything, &all, &error), qPrintable(error));
    QVERIFY(all.accesses.size() > 40);
    const Access middle = all.accesses.at(all.accesses.size() / 2);
    for (const Direction direction : { Direction::Forward, Direction::Backward }) {
        HalfAxisQuery query = everything;
        query.direction = direction;
        query.at = middle.transition;
        QList<Access> expected;
        for (const Access &access : std::as_const(all.accesses)) {
            if (direction == Direction::Forward ? access.transition >= middle.transition
                                                : access.transition <= middle.transition)
                expected << access;
        }
        if (direction == Direction::Backward)
            std::reverse(expected.begin(), expected.end());
        QCOMPARE(everyPage(*database, query, 3, &error), expected);
    }
}

void tst_FunctionAccesses::withAThreadFilter()
{
    // A program of three threads (data/origin/chains.c starts two, one after the other, while main
    // runs): the threads' runs cross main's execution, so the two filters' runs alternate.
    QVERIFY(QFile::copy(QFINDTESTDATA("data/origin/chains.c"), path(QStringLiteral("chains.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-pthread", "-o", "chains", "chains.c" }, m_dir.path()));
    QFile data(path(QStringLiteral("data.txt")));
    QVERIFY(data.open(QIODevice::WriteOnly));
    data.write("0123456789abcdef");
    data.close();
    const QString history = path(QStringLiteral("chains.memhist"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), history, QStringLiteral("--"),
        path(QStringLiteral("chains")), data.fileName() });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    QString error;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    const ThreadSpans spans(*database);
    QList<qint64> threads;
    for (const ThreadSummary &thread : spans.threads())
        threads << thread.threadId;
    QCOMPARE(threads.size(), 3);
    for (const FunctionFilter &function : { FunctionFilter { QStringLiteral("main"), true },
             FunctionFilter { QStringLiteral("main"), false }, FunctionFilter { QStringLiteral("free"), false },
             FunctionFilter { QStringLiteral("storeFromThread"), true } }) {
        for (const Direction direction : { Direction::Forward, Direction::Backward }) {
            HalfAxisQuery query;
            query.direction = direction;
            query.function = function;
            const QList<Access> all = everyPage(*database, query, 1u << 30, &error);
            QVERIFY2(!all.isEmpty(), qPrintable(function.name));
            int kept = 0;
            for (const qint64 thread : std::as_const(threads)) {
                QList<Access> expected;
                for (const Access &access : all) {
                    if (spans.threadAt(access.transition) == thread)
                        expected << access;
                }
                kept += int(expected.size());
                query.threads = { thread };
                QCOMPARE(everyPage(*database, query, 5, &error), expected);
                QCOMPARE(error, QString());
            }
            // Together the threads keep every row: every transition is one thread's.
            QCOMPARE(kept, int(all.size()));
        }
    }
}

void tst_FunctionAccesses::tablePagesSayWhereToResume()
{
    const QStringList base { QStringLiteral("query"), m_history, QStringLiteral("--function"), QStringLiteral("fill"),
        QStringLiteral("--accesses"), QStringLiteral("--callees"), QStringLiteral("--limit"), QStringLiteral("5") };
    const QStringList first = lines(cliOutput(base));
    QCOMPARE(first.size(), 7); // titles, 5 rows, footer
    static const QRegularExpression footer(QStringLiteral("^-- 5 rows; next page: --resume (\\d+)$"));
    const QRegularExpressionMatch match = footer.match(first.last());
    QVERIFY2(match.hasMatch(), qPrintable(first.last()));
    QCOMPARE(match.captured(1), first[5].trimmed().section(u' ', 0, 0));
    const QStringList second = lines(cliOutput(base + QStringList { QStringLiteral("--resume"), match.captured(1) }));
    const QStringList both = lines(
        cliOutput(QStringList(base.mid(0, 6)) + QStringList { QStringLiteral("--limit"), QStringLiteral("10") }));
    QCOMPARE(both.mid(1, 10), first.mid(1, 5) + second.mid(1, 5));
}

void tst_FunctionAccesses::exportWritesTheQuerysRows()
{
    // Every match, with the context, as the query prints them (the export's whole-history count
    // does not apply to a function's rows).
    const QString csv = path(QStringLiteral("fill.csv"));
    const QStringList filter { QStringLiteral("--function"), QStringLiteral("fill"), QStringLiteral("--accesses"),
        QStringLiteral("--callees"), QStringLiteral("--context") };
    const CliResult exported
        = runCli(QStringList { QStringLiteral("export"), m_history, QStringLiteral("-o"), csv } + filter);
    QCOMPARE(exported.err, QByteArray());
    QCOMPARE(exported.exitCode, 0);
    const QByteArray queried = cliOutput(QStringList { QStringLiteral("query"), m_history } + filter
        + QStringList {
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000000") });
    QVERIFY(queried.count('\n') > 100);
    QCOMPARE(readFile(csv), queried);
    QCOMPARE(exported.out, QStringLiteral("wrote %1 rows to %2\n").arg(queried.count('\n') - 1).arg(csv).toUtf8());

    const CliResult calls = runCli({ QStringLiteral("export"), m_history, QStringLiteral("-o"), csv,
        QStringLiteral("--function"), QStringLiteral("fill") });
    QCOMPARE(calls.exitCode, 2);
    QVERIFY2(calls.err.startsWith("memhist export: --function takes --accesses (the accesses of the function)\n"),
        calls.err.constData());
}

void tst_FunctionAccesses::errors_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<bool>("withoutContext");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("an unknown name, with the names that contain it")
        << QStringList { QStringLiteral("--function"), QStringLiteral("countdow"), QStringLiteral("--accesses") }
        << false << 1
        << QStringLiteral("DB: no function named 'countdow' ran (the history names only the functions that ran; "
                          "did you mean countdown?)");
    QTest::newRow("an unknown name like no other")
        << QStringList { QStringLiteral("--function"), QStringLiteral("zzqx"), QStringLiteral("--accesses"),
               QStringLiteral("--callees") }
        << false << 1
        << QStringLiteral("DB: no function named 'zzqx' ran (the history names only the functions that ran)");
    QTest::newRow("a history without context")
        << QStringList { QStringLiteral("--function"), QStringLiteral("main"), QStringLiteral("--accesses") } << true
        << 1
        << QStringLiteral("DB: the history has no PCs, so no accesses by function (import a trace with instructions: "
                          "a Lackey log, a drmemtrace or Tenet trace, or memhist record)");
    QTest::newRow("--accesses without --function")
        << QStringList { QStringLiteral("--accesses") } << false << 2
        << QStringLiteral("memhist query: --accesses takes --function NAME (the function whose accesses to print)");
    QTest::newRow("--callees without --accesses")
        << QStringList { QStringLiteral("--function"), QStringLiteral("fill"), QStringLiteral("--callees") } << false
        << 2 << QStringLiteral("memhist query: --callees takes --function NAME --accesses");
    QTest::newRow("--accesses with --pc")
        << QStringList { QStringLiteral("--function"), QStringLiteral("fill"), QStringLiteral("--pc"),
               QStringLiteral("0x1000"), QStringLiteral("--accesses") }
        << false << 2 << QStringLiteral("memhist query: --accesses takes --function, not --pc");
}

void tst_FunctionAccesses::errors()
{
    QFETCH(QStringList, options);
    QFETCH(bool, withoutContext);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString history = withoutContext ? m_csvHistory : m_history;
    const CliResult result = runCli(QStringList { QStringLiteral("query"), history } + options);
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(result.out, QByteArray());
    const QString err = QString::fromUtf8(result.err);
    QVERIFY2(err.startsWith(QString(message).replace(QStringLiteral("DB"), history)), qPrintable(err));
}

void tst_FunctionAccesses::tooManyExecutionsAreRefused()
{
    // mark() ran 6 times. With callees every execution is kept in memory, so a cap (4,194,304 in
    // use) refuses a function that ran more often; at the cap exactly it is accepted.
    QString error;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(m_history, &error);
    QVERIFY2(database, qPrintable(error));
    FunctionRuns atCap(*database, FunctionFilter { QStringLiteral("mark"), true });
    atCap.setMaxExecutions(6);
    QVERIFY2(atCap.load(&error), qPrintable(error));
    QCOMPARE(atCap.executions().size(), std::size_t(6));
    FunctionRuns overCap(*database, FunctionFilter { QStringLiteral("mark"), true });
    overCap.setMaxExecutions(5);
    QVERIFY(!overCap.load(&error));
    QCOMPARE(error,
        QStringLiteral("mark ran more than 5 times: too many executions to follow its callees (query its own accesses, "
                       "without --callees)"));
    QVERIFY(overCap.executions().empty());
    // Without callees nothing is kept: no cap.
    FunctionRuns ownAccesses(*database, FunctionFilter { QStringLiteral("mark"), false });
    ownAccesses.setMaxExecutions(5);
    QVERIFY2(ownAccesses.load(&error), qPrintable(error));
}

void tst_FunctionAccesses::aDamagedCodeTraceIsAnError_data()
{
    QTest::addColumn<QStringList>("arguments"); // DB stands for the damaged history, MIDDLE for its middle rowid
    QTest::addColumn<QString>("message"); // the last line of stderr
    // Each reads the code trace past its damaged middle page; before, each stopped there silently
    // with exit code 0 (a short list, no accesses, an origin tree cut short) as if the trace ended.
    const QString failed
        = QStringLiteral("DB: query failed: cannot read the code trace: database disk image is malformed");
    const QString cannotRead = QStringLiteral("DB: cannot read the code trace: database disk image is malformed");
    QTest::newRow("accesses of a function") << QStringList { QStringLiteral("query"), QStringLiteral("DB"),
        QStringLiteral("--function"), QStringLiteral("main"), QStringLiteral("--accesses"), QStringLiteral("--limit"),
        QStringLiteral("1000000") } << failed;
    QTest::newRow("accesses of a function and its callees") << QStringList { QStringLiteral("query"),
        QStringLiteral("DB"), QStringLiteral("--function"), QStringLiteral("main"), QStringLiteral("--accesses"),
        QStringLiteral("--callees") } << failed;
    QTest::newRow("executions of a function") << QStringList { QStringLiteral("query"), QStringLiteral("DB"),
        QStringLiteral("--function"), QStringLiteral("fill"), QStringLiteral("--limit"), QStringLiteral("1000") }
                                              << cannotRead;
    QTest::newRow("origin of an access in the damaged part") << QStringList { QStringLiteral("origin"),
        QStringLiteral("DB"), QStringLiteral("--row"), QStringLiteral("MIDDLE") }
                                                             << QStringLiteral("memhist origin: ") + cannotRead;
}

void tst_FunctionAccesses::aDamagedCodeTraceIsAnError()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const QString damaged = path(
        QStringLiteral("damaged-%1.memhist").arg(QString::fromUtf8(QTest::currentDataTag())).replace(u' ', u'-'));
    QFile::remove(damaged);
    QVERIFY(QFile::copy(m_history, damaged));
    QFile::setPermissions(damaged, QFile::ReadOwner | QFile::WriteOwner);
    qint64 page = 0;
    qint64 accesses = 0;
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(damaged, sqlite::Connection::Mode::ReadOnly));
        sqlite::Statement leaves = connection.prepare(
            "SELECT pageno FROM dbstat WHERE name = 'code_trace' AND pagetype = 'leaf' ORDER BY pageno");
        QList<qint64> pages;
        while (leaves.step() == SQLITE_ROW)
            pages << leaves.int64(0);
        QVERIFY2(pages.size() >= 3, qPrintable(QString::number(pages.size())));
        page = pages[pages.size() / 2];
        sqlite::Statement count = connection.prepare("SELECT count(*) FROM accesses");
        QCOMPARE(count.step(), SQLITE_ROW);
        accesses = count.int64(0);
    }
    QVERIFY(zeroSqlitePage(damaged, page));

    arguments.replaceInStrings(QStringLiteral("DB"), damaged);
    // The access in the middle of the history runs in the middle of the code trace, on the damaged
    // page: its origin starts with the PC at its transition.
    arguments.replaceInStrings(QStringLiteral("MIDDLE"), QString::number(accesses / 2));
    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, 1);
    QCOMPARE(
        QString::fromUtf8(result.err).trimmed().section(u'\n', -1), message.replace(QStringLiteral("DB"), damaged));
}

QTEST_GUILESS_MAIN(tst_FunctionAccesses)
#include "tst_functionaccesses.moc"
