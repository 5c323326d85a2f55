// SPDX-License-Identifier: MIT
// SqlConsole: statements on a read-only connection of its own in a worker thread, SQLite's messages
// inline, rows in batches fetched on scroll exactly once, a long GROUP BY that leaves the GUI thread
// free (and repaintable) and that Stop interrupts, stale answers dropped.
#include "testsupport.h"
#include "widgets/sql/sqlconsole.h"
#include "widgets/sql/sqlresultsmodel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace memhist;

namespace {

// Rows of the generated table: enough that a GROUP BY over it takes a noticeable time.
constexpr int bigRows = 2'000'000;
// A GROUP BY over the generated table joined with 2,000 of its rows: billions of rows to group,
// minutes of work unless interrupted.
const QString endlessGroupBy = QStringLiteral(
    "SELECT a.operation, count(*) FROM accesses AS a, accesses AS b WHERE b.rowid <= 2000 GROUP BY a.operation");

bool import(const QString &csv, const QString &output)
{
    QProcess process;
    process.start(QStringLiteral(MEMHIST_CLI_PATH), { QStringLiteral("import"), csv, QStringLiteral("-o"), output });
    return process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

// An accesses table of bigRows rows with the history's columns: operations 1, 2, 4 in turn.
QString createBigTable(const QString &path)
{
    const QString name = QStringLiteral("tst-sqlconsole-create");
    QString error;
    {
        QSqlDatabase database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        database.setDatabaseName(path);
        if (!database.open())
            return database.lastError().text();
        QSqlQuery query(database);
        const QStringList statements {
            QStringLiteral("CREATE TABLE accesses(transition INTEGER, operation INTEGER, phy_first INTEGER, "
                           "size INTEGER)"),
            QStringLiteral("INSERT INTO accesses WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                           "WHERE i < %1) SELECT i, 1 << (i %% 3), i * 8, 8 FROM n")
                .arg(bigRows)
                .replace(QStringLiteral("%%"), QStringLiteral("%")),
        };
        for (const QString &statement : statements) {
            if (!query.exec(statement)) {
                error = query.lastError().text();
                break;
            }
        }
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

QList<QStringList> rows(const QAbstractItemModel *model)
{
    QList<QStringList> result;
    for (int row = 0; row < model->rowCount(); ++row) {
        QStringList fields;
        for (int column = 0; column < model->columnCount(); ++column)
            fields << model->index(row, column).data().toString();
        result << fields;
    }
    return result;
}

// Runs the console's statement and waits for its outcome; returns statementFinished's arguments.
std::pair<bool, QString> runAndWait(SqlConsole &console, int timeout = 30000)
{
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    if (!console.runStatement())
        return { false, finishedSpy.isEmpty() ? QString() : finishedSpy.at(0).at(1).toString() };
    if (!finishedSpy.wait(timeout) || finishedSpy.size() != 1)
        return { false, QStringLiteral("no single statementFinished") };
    return { finishedSpy.at(0).at(0).toBool(), finishedSpy.at(0).at(1).toString() };
}

// Asks for the rest of the rows as a scrolling view would, one batch at a time.
bool fetchAll(SqlResultsModel *model)
{
    while (model->canFetchMore()) {
        model->fetchMore();
        if (!QTest::qWaitFor([model] { return !model->isFetching(); }, 10000))
            return false;
    }
    return true;
}

// Whether a connection of this process holds SQLite's shared lock on `path`, as /proc/locks lists
// it: a read transaction is open, i.e. a statement is being stepped. SQLite holds one POSIX lock per
// file and process, whatever the number of its connections; the tests open none of their own here.
bool isBeingRead(const QString &path)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return false;
    const QByteArray pid = QByteArray::number(QCoreApplication::applicationPid());
    const QByteArray inode = ':' + QByteArray::number(qulonglong(info.st_ino));
    for (const QByteArray &line : test::readFile(QStringLiteral("/proc/locks")).split('\n')) {
        // "1: POSIX  ADVISORY  READ 1234 fd:01:5678 1073741826 1073742335"
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() >= 6 && fields[1] == "POSIX" && fields[4] == pid && fields[5].endsWith(inode))
            return true;
    }
    return false;
}

// Waits until the console's worker is inside the statement it was given (SQLite has begun stepping
// it), where sqlite3_interrupt() reaches it; an interrupt sent before that point would be lost.
bool waitUntilStepping(const QString &path)
{
    return QTest::qWaitFor([&path] { return isBeingRead(path); }, 60000);
}

int exampleIndex(const QComboBox *combo, const QString &title)
{
    return combo->findText(title);
}

} // namespace

class TestSqlConsole : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void accessesPerOperationExample();
    void slicesExample();
    void writesAreImpossible_data();
    void writesAreImpossible();
    void syntaxErrorShowsSQLiteMessage();
    void scrollingFetchesEachRowOnce();
    void ctrlReturnRuns();
    void longGroupByLeavesTheEventLoopRunning();
    void stopInterruptsALongGroupBy();
    void repaintsDuringARunningStatement();
    void anotherHistoryDropsTheRunningStatement();
    void eachConsoleHasItsOwnConnection();
    void missingHistory();
    void addressColumns_data();
    void addressColumns();
    void hexAddressesToggle();
    void hexAddressesOfMinAndMax();
    void resultsGetTheRoom();

private:
    QTemporaryDir m_dir;
    QString m_small;
    QString m_example;
    QString m_big;
};

void TestSqlConsole::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    m_example = m_dir.filePath(QStringLiteral("true.memhist"));
    m_big = m_dir.filePath(QStringLiteral("big.sqlite"));
    QVERIFY(import(QFINDTESTDATA("../data/csv/small.csv"), m_small));
    QVERIFY(import(QFINDTESTDATA("../../resources/examples/true.csv"), m_example));
    const QString error = createBigTable(m_big);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestSqlConsole::accessesPerOperationExample()
{
    SqlConsole console;
    QAbstractItemModelTester tester(console.resultsModel());
    console.setHistory(m_small);
    auto *examples = console.findChild<QComboBox *>(QStringLiteral("examplesCombo"));
    const int index = exampleIndex(examples, QStringLiteral("Accesses per operation"));
    QVERIFY(index > 0);
    examples->activated(index); // as when the user picks it
    QVERIFY(console.statement().startsWith(QStringLiteral("SELECT CASE operation")));
    QCOMPARE(examples->currentIndex(), 0); // back to "Examples…", ready for the next pick

    const auto [ok, message] = runAndWait(console);
    QVERIFY2(ok, qPrintable(message));
    QVERIFY(message.startsWith(QStringLiteral("Done in ")));
    // small.csv: 8 reads, 7 writes, 5 fetches.
    const QList<QStringList> expected {
        { QStringLiteral("R (read)"), QStringLiteral("8") },
        { QStringLiteral("W (write)"), QStringLiteral("7") },
        { QStringLiteral("X (execute)"), QStringLiteral("5") },
    };
    QCOMPARE(rows(console.resultsModel()), expected);
    QCOMPARE(console.resultsModel()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("accesses"));
    QCOMPARE(console.resultsModel()->index(0, 1).data(Qt::TextAlignmentRole).value<Qt::Alignment>(),
        Qt::AlignRight | Qt::AlignVCenter);
    QCOMPARE(console.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), QStringLiteral("3 rows"));
    QVERIFY(console.findChild<QLabel *>(QStringLiteral("messageLabel"))->isHidden());
}

void TestSqlConsole::slicesExample()
{
    SqlConsole console;
    console.setHistory(m_example);
    auto *examples = console.findChild<QComboBox *>(QStringLiteral("examplesCombo"));
    examples->activated(exampleIndex(examples, QStringLiteral("Slices")));
    QVERIFY(runAndWait(console).first);

    // The same rows straight from SQLite, on a connection of the test's own.
    {
        QSqlDatabase direct = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("test-direct"));
        direct.setDatabaseName(m_example);
        QVERIFY(direct.open());
        QSqlQuery expected(direct);
        QVERIFY(expected.exec(
            QStringLiteral("SELECT rowid, transition_first, transition_last FROM slices ORDER BY transition_first")));
        SqlResultsModel *model = console.resultsModel();
        QVERIFY(fetchAll(model));
        int row = 0;
        for (; expected.next(); ++row) {
            QVERIFY(row < model->rowCount());
            QCOMPARE(model->index(row, 0).data(), expected.value(0));
            QCOMPARE(model->index(row, 2).data(), expected.value(2));
            QCOMPARE(model->index(row, 3).data().toLongLong(),
                expected.value(2).toLongLong() - expected.value(1).toLongLong() + 1);
        }
        QVERIFY(row > 0);
        QCOMPARE(model->rowCount(), row);
    }
    QSqlDatabase::removeDatabase(QStringLiteral("test-direct"));
}

void TestSqlConsole::writesAreImpossible_data()
{
    QTest::addColumn<QString>("statement");
    QTest::addColumn<QString>("message");
    const QString refused = QStringLiteral(
        "Error: The console only reads the history (not authorized: writes, schema changes, ATTACH, transactions, "
        "extension functions and pragmas that set are refused)");
    const QString writes = QStringLiteral("Error: The console only reads the history: this statement would write");
    QTest::newRow("delete") << QStringLiteral("DELETE FROM accesses") << refused;
    QTest::newRow("update") << QStringLiteral("UPDATE slices SET transition_first = 0") << refused;
    QTest::newRow("create table") << QStringLiteral("CREATE TABLE bookmarks(x)") << refused;
    QTest::newRow("create temp table") << QStringLiteral("CREATE TEMP TABLE t(x)") << refused;
    QTest::newRow("drop index") << QStringLiteral("DROP INDEX idx_accesses_1") << refused;
    QTest::newRow("attach") << QStringLiteral("ATTACH '/tmp/x.db' AS x") << refused;
    QTest::newRow("begin") << QStringLiteral("BEGIN") << refused;
    QTest::newRow("pragma that sets") << QStringLiteral("PRAGMA journal_mode = WAL") << refused;
    QTest::newRow("two-argument fts3_tokenizer")
        << QStringLiteral("SELECT fts3_tokenizer('simple', x'4141414141414141')")
        << QStringLiteral("Error: not authorized to use function: fts3_tokenizer");
    QTest::newRow("vacuum into") << QStringLiteral("VACUUM INTO '/tmp/memhist-console-copy.db'") << writes;
    QTest::newRow("two statements")
        << QStringLiteral("SELECT 1; SELECT 2")
        << QStringLiteral("Error: Run one statement at a time: the text after the first statement's ';' would not run");
    QTest::newRow("a huge blob") << QStringLiteral("SELECT length(zeroblob(100000000))")
                                 << QStringLiteral("Error: string or blob too big");
}

void TestSqlConsole::writesAreImpossible()
{
    QFETCH(QString, statement);
    QFETCH(QString, message);
    SqlConsole console;
    console.setHistory(m_small);
    console.setStatement(statement);
    const auto [ok, shown] = runAndWait(console);
    QVERIFY(!ok);
    QCOMPARE(shown, message);
    QCOMPARE(console.lastError(), message);
    auto *label = console.findChild<QLabel *>(QStringLiteral("messageLabel"));
    QVERIFY(!label->isHidden());
    QCOMPARE(label->text(), message);
    QVERIFY(!QFile::exists(QStringLiteral("/tmp/memhist-console-copy.db")));

    // Nothing changed: 20 accesses; 14 schema objects (3 base tables, their 3 indexes, meta and its
    // key's index, _metadata, the display summary's summary_info and summary_tiles, the address
    // summary's two tables and its index).
    console.setStatement(QStringLiteral("SELECT count(*), (SELECT count(*) FROM sqlite_schema) FROM accesses"));
    QVERIFY(runAndWait(console).first);
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QStringLiteral("20"), QStringLiteral("14") } }));
    QVERIFY(label->isHidden());
    QVERIFY(console.lastError().isEmpty());
}

void TestSqlConsole::syntaxErrorShowsSQLiteMessage()
{
    SqlConsole console;
    console.setHistory(m_small);
    console.setStatement(QStringLiteral("SELEC 1"));
    QCOMPARE(runAndWait(console), std::make_pair(false, QStringLiteral("Error: near \"SELEC\": syntax error")));
    console.setStatement(QStringLiteral("SELECT * FROM nowhere"));
    QCOMPARE(runAndWait(console), std::make_pair(false, QStringLiteral("Error: no such table: nowhere")));
    QCOMPARE(console.resultsModel()->rowCount(), 0);
    QCOMPARE(console.resultsModel()->columnCount(), 0);
}

void TestSqlConsole::scrollingFetchesEachRowOnce()
{
    SqlConsole console;
    console.resize(600, 500);
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    // No QAbstractItemModelTester here: it calls fetchMore() on every change, as no view does.
    console.setHistory(m_example);
    console.setStatement(QStringLiteral("SELECT rowid, transition FROM accesses ORDER BY rowid"));
    SqlResultsModel *model = console.resultsModel();
    QSignalSpy earlyRequestSpy(model, &SqlResultsModel::fetchRequested);
    QVERIFY(runAndWait(console).first);
    auto *status = console.findChild<QLabel *>(QStringLiteral("statusLabel"));
    // The first batch only: the rest of the 41,797 rows wait for scrolling. The view has laid the
    // rows out (its scroll range covers them) without asking for more.
    auto *view = console.findChild<QTableView *>(QStringLiteral("sqlResultsView"));
    QScrollBar *scrollBar = view->verticalScrollBar();
    QTRY_VERIFY_WITH_TIMEOUT(scrollBar->maximum() > 0, 30000);
    QCOMPARE(earlyRequestSpy.size(), 0);
    QVERIFY(!model->isFetching());
    const int shown = model->rowCount();
    QCOMPARE(shown, SqlConsole::batchSize);
    QVERIFY(model->canFetchMore());
    QCOMPARE(status->text(), QStringLiteral("%1 rows shown, more on scroll").arg(QLocale().toString(shown)));

    // Scrolling to the end, again and again before the next batch arrives, asks for it once.
    QSignalSpy insertedSpy(model, &QAbstractItemModel::rowsInserted);
    QSignalSpy requestSpy(model, &SqlResultsModel::fetchRequested);
    for (int i = 0; i < 5; ++i) {
        scrollBar->setValue(scrollBar->maximum() - 1);
        scrollBar->setValue(scrollBar->maximum());
    }
    QCOMPARE(requestSpy.size(), 1);
    QVERIFY(insertedSpy.wait());
    // Nothing else may arrive: the worker answers each request once, and there was one. (The rows
    // below, each exactly once, would show a second answer.)
    QCOMPARE(requestSpy.size(), 1);
    QVERIFY(!model->isFetching());
    QCOMPARE(insertedSpy.size(), 1);
    QCOMPARE(insertedSpy.at(0).at(1).toInt(), shown);
    QCOMPARE(insertedSpy.at(0).at(2).toInt(), shown + SqlConsole::batchSize - 1);
    QCOMPARE(model->rowCount(), shown + SqlConsole::batchSize);
    QCOMPARE(status->text(),
        QStringLiteral("%1 rows shown, more on scroll").arg(QLocale().toString(shown + SqlConsole::batchSize)));

    // Scroll to the end until there is nothing more: every row exactly once, in order. Each time the
    // last batch is in and the view has taken it in (its scroll range grew past the position), moving
    // to the new end asks for the next batch.
    while (model->hasMore()) {
        QTRY_VERIFY_WITH_TIMEOUT(!model->isFetching() && scrollBar->value() < scrollBar->maximum(), 30000);
        if (model->hasMore())
            scrollBar->setValue(scrollBar->maximum());
    }
    QCOMPARE(model->rowCount(), 41797);
    // 41,797 rows: batches of 1,000 and a last one of 797, each inserted once.
    QCOMPARE(insertedSpy.size(), 41 - (shown / SqlConsole::batchSize - 1));
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data().toLongLong() != row + 1)
            QFAIL(qPrintable(
                QStringLiteral("row %1 holds rowid %2").arg(row).arg(model->index(row, 0).data().toLongLong())));
    }
    QVERIFY(!model->canFetchMore());
    QCOMPARE(status->text(), QStringLiteral("41,797 rows"));
}

void TestSqlConsole::ctrlReturnRuns()
{
    SqlConsole console;
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    console.setHistory(m_small);
    auto *editor = console.findChild<QPlainTextEdit *>(QStringLiteral("statementEditor"));
    editor->setFocus();
    QTest::keyClicks(editor, QStringLiteral("SELECT max(transition) FROM accesses"));
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(finishedSpy.wait());
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), true);
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QStringLiteral("13") } }));
    QCOMPARE(editor->toPlainText(), QStringLiteral("SELECT max(transition) FROM accesses")); // no newline typed
}

void TestSqlConsole::longGroupByLeavesTheEventLoopRunning()
{
    SqlConsole console;
    console.setHistory(m_big);
    // The statement of the crash report, over two million rows: grouping them takes a while.
    console.setStatement(QStringLiteral(
        "SELECT operation, count(*), count(DISTINCT phy_first) FROM accesses GROUP BY operation ORDER BY operation"));
    // Events posted before the statement starts are handled while it runs (its answer can only be
    // posted after them): a GUI thread blocked in SQLite would handle them after the statement.
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    constexpr int events = 5;
    int eventsWhileRunning = 0;
    for (int i = 0; i < events; ++i) {
        QMetaObject::invokeMethod(
            &console,
            [&] {
                if (console.isRunning() && finishedSpy.isEmpty())
                    ++eventsWhileRunning;
            },
            Qt::QueuedConnection);
    }
    QVERIFY(console.runStatement());
    QVERIFY(console.isRunning());
    QVERIFY(finishedSpy.wait(60000));
    QCOMPARE(finishedSpy.size(), 1);
    QVERIFY2(finishedSpy.at(0).at(0).toBool(), qPrintable(finishedSpy.at(0).at(1).toString()));
    QCOMPARE(eventsWhileRunning, events);
    QCOMPARE(rows(console.resultsModel()),
        (QList<QStringList> {
            { QStringLiteral("1"), QStringLiteral("666666"), QStringLiteral("666666") },
            { QStringLiteral("2"), QStringLiteral("666667"), QStringLiteral("666667") },
            { QStringLiteral("4"), QStringLiteral("666667"), QStringLiteral("666667") },
        }));
}

void TestSqlConsole::stopInterruptsALongGroupBy()
{
    SqlConsole console;
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    QSignalSpy openedSpy(&console, &SqlConsole::historyOpened);
    console.setHistory(m_big);
    QVERIFY(openedSpy.wait());
    console.setStatement(endlessGroupBy);
    auto *stop = console.findChild<QPushButton *>(QStringLiteral("stopButton"));
    auto *run = console.findChild<QPushButton *>(QStringLiteral("runButton"));
    QVERIFY(!stop->isEnabled());
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(console.runStatement());
    QVERIFY(console.isRunning());
    QVERIFY(stop->isEnabled());
    QVERIFY(!run->isEnabled());
    QVERIFY(!console.runStatement()); // one statement at a time
    QCOMPARE(finishedSpy.size(), 0);

    QVERIFY(waitUntilStepping(m_big)); // the worker is in the GROUP BY now
    QVERIFY(console.isRunning());
    QCOMPARE(finishedSpy.size(), 0);
    // The statement never ends by itself: its end, "interrupted", is Stop's doing.
    QTest::mouseClick(stop, Qt::LeftButton); // as a user
    QVERIFY(finishedSpy.wait(60000));
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), false);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Error: interrupted"));
    QVERIFY(!console.isRunning());
    QVERIFY(!stop->isEnabled());
    QVERIFY(run->isEnabled());
    // The user's Stop is a neutral note, not a red error (issue 13 item 4j).
    auto *note = console.findChild<QLabel *>(QStringLiteral("messageLabel"));
    QVERIFY(note->isVisible());
    QCOMPARE(note->text(), QStringLiteral("Stopped: the statement was interrupted, as asked"));
    QVERIFY(!console.messageIsError());
    QCOMPARE(note->palette().color(QPalette::WindowText), QPalette().color(QPalette::WindowText));
    QVERIFY(console.findChild<QLabel *>(QStringLiteral("statusLabel"))
                ->text()
                .startsWith(QStringLiteral("Stopped after ")));

    // The connection is usable again, and the interrupt does not linger.
    console.setStatement(QStringLiteral("SELECT count(*) FROM accesses"));
    const auto [ok, message] = runAndWait(console);
    QVERIFY2(ok, qPrintable(message));
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QString::number(bigRows) } }));
}

void TestSqlConsole::repaintsDuringARunningStatement()
{
    SqlConsole console;
    console.resize(700, 500);
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    console.setHistory(m_big);
    // A full table first, so the repaints below have rows to read while the next statement runs.
    console.setStatement(QStringLiteral("SELECT * FROM accesses"));
    QVERIFY(runAndWait(console).first);
    QCOMPARE(console.resultsModel()->rowCount(), SqlConsole::batchSize);

    console.setStatement(endlessGroupBy);
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(console.runStatement());
    auto *view = console.findChild<QTableView *>(QStringLiteral("sqlResultsView"));
    for (int i = 0; i < 20; ++i) {
        console.repaint();
        view->viewport()->repaint();
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum()); // and a scroll
        QTest::qWait(20);
    }
    QVERIFY(console.isRunning());
    QCOMPARE(finishedSpy.size(), 0);
    console.stop();
    QVERIFY(finishedSpy.wait());
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Error: interrupted"));
    console.repaint();
}

void TestSqlConsole::anotherHistoryDropsTheRunningStatement()
{
    SqlConsole console;
    QAbstractItemModelTester tester(console.resultsModel());
    console.setHistory(m_big);
    console.setStatement(endlessGroupBy);
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(console.runStatement());
    QVERIFY(waitUntilStepping(m_big));
    console.setHistory(m_small);
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), false);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Stopped: another history was opened"));
    QVERIFY(!console.isRunning());

    // The interrupted statement's answer arrives later and is dropped; the next one is of small.csv.
    // The worker answers in order, so the dropped answer came before this one.
    console.setStatement(QStringLiteral("SELECT count(*) FROM accesses"));
    const auto [ok, message] = runAndWait(console);
    QVERIFY2(ok, qPrintable(message));
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QStringLiteral("20") } }));
    QCOMPARE(finishedSpy.size(), 2);
}

void TestSqlConsole::eachConsoleHasItsOwnConnection()
{
    auto first = std::make_unique<SqlConsole>();
    auto second = std::make_unique<SqlConsole>();
    QSignalSpy firstOpened(first.get(), &SqlConsole::historyOpened);
    QSignalSpy secondOpened(second.get(), &SqlConsole::historyOpened);
    first->setHistory(m_small);
    second->setHistory(m_example);
    QVERIFY(firstOpened.wait());
    QVERIFY(secondOpened.size() == 1 || secondOpened.wait());
    QVERIFY(firstOpened.at(0).at(0).toBool());
    QVERIFY(first->connectionName() != second->connectionName());
    QVERIFY(QSqlDatabase::connectionNames().contains(first->connectionName()));
    QVERIFY(QSqlDatabase::connectionNames().contains(second->connectionName()));
    const QString name = first->connectionName();
    first.reset();
    QVERIFY(!QSqlDatabase::connectionNames().contains(name));
    second->setStatement(QStringLiteral("SELECT count(*) FROM accesses"));
    QVERIFY(runAndWait(*second).first);
    QCOMPARE(rows(second->resultsModel()), (QList<QStringList> { { QStringLiteral("41797") } }));
}

void TestSqlConsole::missingHistory()
{
    SqlConsole console;
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    console.setStatement(QStringLiteral("SELECT 1"));
    QVERIFY(!console.runStatement());
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("No history open"));

    const QString missing = m_dir.filePath(QStringLiteral("missing.memhist"));
    QSignalSpy openedSpy(&console, &SqlConsole::historyOpened);
    console.setHistory(missing);
    QVERIFY(openedSpy.wait());
    QCOMPARE(openedSpy.at(0).at(0).toBool(), false);
    QVERIFY(!console.findChild<QPushButton *>(QStringLiteral("runButton"))->isEnabled());
    QVERIFY(console.lastError().startsWith(QStringLiteral("Cannot open ") + missing));
    QVERIFY(!console.runStatement());
    QCOMPARE(finishedSpy.size(), 2);
}

void TestSqlConsole::addressColumns_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("address");
    QTest::newRow("phy_first") << QStringLiteral("phy_first") << true;
    QTest::newRow("phy_last") << QStringLiteral("phy_last") << true;
    QTest::newRow("linear") << QStringLiteral("linear") << true;
    QTest::newRow("table prefix") << QStringLiteral("a.phy_first") << true;
    QTest::newRow("pc") << QStringLiteral("PC") << true;
    QTest::newRow("alias with addr") << QStringLiteral("first_address") << true;
    QTest::newRow("transition") << QStringLiteral("transition") << false;
    QTest::newRow("size") << QStringLiteral("size") << false;
    QTest::newRow("rowid") << QStringLiteral("rowid") << false;
    QTest::newRow("count of addresses") << QStringLiteral("count(DISTINCT phy_first)") << false;
    QTest::newRow("operation") << QStringLiteral("operation") << false;
    // Unaliased aggregates, named by SQLite as typed: the min or max of addresses is an address.
    QTest::newRow("min of an address") << QStringLiteral("min(phy_first)") << true;
    QTest::newRow("max of an address, spaced") << QStringLiteral("MAX( a.linear )") << true;
    QTest::newRow("max of pc") << QStringLiteral("max(pc)") << true;
    QTest::newRow("min of a size") << QStringLiteral("min(size)") << false;
    QTest::newRow("sum of addresses") << QStringLiteral("sum(phy_first)") << false;
    QTest::newRow("avg of addresses") << QStringLiteral("avg(phy_first)") << false;
    QTest::newRow("span is a size") << QStringLiteral("phy_last - phy_first + 1") << false;
    QTest::newRow("min of an expression") << QStringLiteral("min(phy_first + 1)") << false;
    QTest::newRow("alias not named as an address") << QStringLiteral("hi") << false;
}

void TestSqlConsole::addressColumns()
{
    QFETCH(QString, name);
    QTEST(SqlResultsModel::isAddressColumn(name), "address");
}

void TestSqlConsole::hexAddressesToggle()
{
    SqlConsole console;
    console.setHistory(m_small);
    auto *hex = console.findChild<QCheckBox *>(QStringLiteral("hexCheck"));
    QVERIFY(hex);
    QCOMPARE(hex->text(), QStringLiteral("Addresses in hex"));
    QVERIFY(hex->isChecked()); // as the rest of the viewer shows addresses
    console.setStatement(QStringLiteral("SELECT rowid, transition, phy_first, linear, size FROM accesses "
                                        "WHERE rowid IN (2, 8, 12) ORDER BY rowid"));
    const auto [ok, message] = runAndWait(console);
    QVERIFY2(ok, qPrintable(message));
    QCOMPARE(rows(console.resultsModel()),
        (QList<QStringList> { { QStringLiteral("2"), QStringLiteral("0"), QStringLiteral("0x7ffc0000"),
                                  QStringLiteral("0x7ffc0000"), QStringLiteral("8") },
            { QStringLiteral("8"), QStringLiteral("3"), QStringLiteral("0x601004"), QString(), QStringLiteral("4") },
            { QStringLiteral("12"), QStringLiteral("7"), QStringLiteral("0xfffffffffffffff8"),
                QStringLiteral("0xfffffffffffffff8"), QStringLiteral("8") } }));
    QSignalSpy changed(console.resultsModel(), &QAbstractItemModel::dataChanged);
    hex->setChecked(false);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(rows(console.resultsModel()),
        (QList<QStringList> { { QStringLiteral("2"), QStringLiteral("0"), QStringLiteral("2147221504"),
                                  QStringLiteral("2147221504"), QStringLiteral("8") },
            { QStringLiteral("8"), QStringLiteral("3"), QStringLiteral("6295556"), QString(), QStringLiteral("4") },
            { QStringLiteral("12"), QStringLiteral("7"), QStringLiteral("-8"), QStringLiteral("-8"),
                QStringLiteral("8") } }));
}

void TestSqlConsole::hexAddressesOfMinAndMax()
{
    SqlConsole console;
    console.setHistory(m_small);
    console.setStatement(QStringLiteral("SELECT count(*), min(phy_first), MAX( linear ), sum(size), "
                                        "max(phy_first) AS hi, max(phy_first) AS hi_addr FROM accesses "
                                        "WHERE phy_first BETWEEN 1 AND 0x7ffbffff"));
    const auto [ok, message] = runAndWait(console);
    QVERIFY2(ok, qPrintable(message));
    QCOMPARE(console.resultsModel()->columnNames(),
        (QStringList { QStringLiteral("count(*)"), QStringLiteral("min(phy_first)"), QStringLiteral("MAX( linear )"),
            QStringLiteral("sum(size)"), QStringLiteral("hi"), QStringLiteral("hi_addr") }));
    QCOMPARE(rows(console.resultsModel()),
        (QList<QStringList> { { QStringLiteral("14"), QStringLiteral("0x401000"), QStringLiteral("0x7ffbfff8"),
            QStringLiteral("75"), QStringLiteral("2147221496"), QStringLiteral("0x7ffbfff8") } }));
}

void TestSqlConsole::resultsGetTheRoom()
{
    // The dock's height in the first layout of a 1600x1000 window: the editor keeps its few lines,
    // the results table the rest. (Not a number of rows: that depends on the fixed font's height,
    // 11 rows with DejaVu Sans Mono, 9 with Noto Sans Mono.)
    SqlConsole console;
    console.resize(1600, 380);
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    console.setHistory(m_big);
    console.setStatement(QStringLiteral("SELECT * FROM accesses"));
    QVERIFY(runAndWait(console).first);
    auto *view = console.findChild<QTableView *>(QStringLiteral("sqlResultsView"));
    auto *editor = console.findChild<QPlainTextEdit *>(QStringLiteral("statementEditor"));
    auto *splitter = qobject_cast<QSplitter *>(view->parentWidget());
    QVERIFY(splitter);
    QCOMPARE(splitter->indexOf(view), 1);
    QCOMPARE(editor->height(), editor->minimumHeight());
    // Above the results: the editor, the buttons and the message line at their least, nothing more.
    QCOMPARE(splitter->sizes().at(0), splitter->widget(0)->minimumSizeHint().height());
    QVERIFY2(view->height() > 3 * editor->height(), qPrintable(QString::number(view->height())));
}

QTEST_MAIN(TestSqlConsole)
#include "tst_sqlconsole.moc"
