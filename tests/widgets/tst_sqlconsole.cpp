// SqlConsole: statements on a read-only connection of its own, SQLite's messages inline, lazy
// fetching, examples, and a long statement that Stop interrupts while the GUI keeps running.
#include "sql/sqlconsole.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQueryModel>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace memhist;

namespace {

bool import(const QString &csv, const QString &output)
{
    QProcess process;
    process.start(QStringLiteral(MEMHIST_CLI_PATH), { QStringLiteral("import"), csv, QStringLiteral("-o"), output });
    return process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

QList<QStringList> rows(const QSqlQueryModel *model)
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
    void fetchesMoreOnDemand();
    void ctrlReturnRuns();
    void stopInterruptsALongStatement();
    void eachConsoleHasItsOwnConnection();
    void missingHistory();

private:
    QTemporaryDir m_dir;
    QString m_small;
    QString m_example;
};

void TestSqlConsole::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    m_example = m_dir.filePath(QStringLiteral("true.memhist"));
    QVERIFY(import(QStringLiteral(MEMHIST_TEST_DATA_DIR "/csv/small.csv"), m_small));
    QVERIFY(import(QStringLiteral(MEMHIST_TEST_DATA_DIR "/../../resources/examples/true.csv"), m_example));
}

void TestSqlConsole::accessesPerOperationExample()
{
    SqlConsole console;
    console.setHistory(m_small);
    auto *examples = console.findChild<QComboBox *>(QStringLiteral("examplesCombo"));
    const int index = exampleIndex(examples, QStringLiteral("Accesses per operation"));
    QVERIFY(index > 0);
    examples->activated(index); // as when the user picks it
    QVERIFY(console.statement().startsWith(QStringLiteral("SELECT CASE operation")));
    QCOMPARE(examples->currentIndex(), 0); // back to "Examples…", ready for the next pick

    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(console.runStatement());
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), true);
    // small.csv: 8 reads, 7 writes, 5 fetches.
    const QList<QStringList> expected {
        { QStringLiteral("R (read)"), QStringLiteral("8") },
        { QStringLiteral("W (write)"), QStringLiteral("7") },
        { QStringLiteral("X (execute)"), QStringLiteral("5") },
    };
    QCOMPARE(rows(console.resultsModel()), expected);
    QCOMPARE(console.resultsModel()->record().fieldName(1), QStringLiteral("accesses"));
    QCOMPARE(console.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), QStringLiteral("3 rows"));
    QVERIFY(console.findChild<QLabel *>(QStringLiteral("messageLabel"))->isHidden());
}

void TestSqlConsole::slicesExample()
{
    SqlConsole console;
    console.setHistory(m_example);
    auto *examples = console.findChild<QComboBox *>(QStringLiteral("examplesCombo"));
    examples->activated(exampleIndex(examples, QStringLiteral("Slices")));
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(console.runStatement());
    QCOMPARE(finishedSpy.size(), 1);

    // The same rows straight from SQLite, on a connection of the test's own.
    QSqlDatabase direct = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("test-direct"));
    direct.setDatabaseName(m_example);
    QVERIFY(direct.open());
    {
        QSqlQueryModel expected;
        expected.setQuery(
            QStringLiteral("SELECT rowid, transition_first, transition_last FROM slices ORDER BY transition_first"),
            direct);
        while (expected.canFetchMore())
            expected.fetchMore();
        QSqlQueryModel *model = console.resultsModel();
        while (model->canFetchMore())
            model->fetchMore();
        QCOMPARE(model->rowCount(), expected.rowCount());
        QVERIFY(model->rowCount() > 0);
        for (int row = 0; row < model->rowCount(); ++row) {
            QCOMPARE(model->index(row, 0).data(), expected.index(row, 0).data());
            QCOMPARE(model->index(row, 2).data(), expected.index(row, 2).data());
            QCOMPARE(model->index(row, 3).data().toLongLong(),
                expected.index(row, 2).data().toLongLong() - expected.index(row, 1).data().toLongLong() + 1);
        }
    }
    direct.close();
    direct = QSqlDatabase();
    QSqlDatabase::removeDatabase(QStringLiteral("test-direct"));
}

void TestSqlConsole::writesAreImpossible_data()
{
    QTest::addColumn<QString>("statement");
    QTest::newRow("delete") << QStringLiteral("DELETE FROM accesses");
    QTest::newRow("update") << QStringLiteral("UPDATE slices SET transition_first = 0");
    QTest::newRow("create table") << QStringLiteral("CREATE TABLE bookmarks(x)");
    QTest::newRow("drop index") << QStringLiteral("DROP INDEX idx_accesses_1");
}

void TestSqlConsole::writesAreImpossible()
{
    QFETCH(QString, statement);
    SqlConsole console;
    console.setHistory(m_small);
    console.setStatement(statement);
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(!console.runStatement());
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), false);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Error: attempt to write a readonly database"));
    QCOMPARE(console.lastError(), QStringLiteral("Error: attempt to write a readonly database"));
    auto *message = console.findChild<QLabel *>(QStringLiteral("messageLabel"));
    QVERIFY(!message->isHidden());
    QCOMPARE(message->text(), QStringLiteral("Error: attempt to write a readonly database"));

    // Nothing changed.
    console.setStatement(QStringLiteral("SELECT count(*), (SELECT count(*) FROM sqlite_schema) FROM accesses"));
    QVERIFY(console.runStatement());
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QStringLiteral("20"), QStringLiteral("8") } }));
    QVERIFY(message->isHidden());
    QCOMPARE(finishedSpy.size(), 2);
}

void TestSqlConsole::syntaxErrorShowsSQLiteMessage()
{
    SqlConsole console;
    console.setHistory(m_small);
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    console.setStatement(QStringLiteral("SELEC 1"));
    QVERIFY(!console.runStatement());
    console.setStatement(QStringLiteral("SELECT * FROM nowhere"));
    QVERIFY(!console.runStatement());
    QCOMPARE(finishedSpy.size(), 2);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Error: near \"SELEC\": syntax error"));
    QCOMPARE(finishedSpy.at(1).at(1).toString(), QStringLiteral("Error: no such table: nowhere"));
    QCOMPARE(console.resultsModel()->rowCount(), 0);
}

void TestSqlConsole::fetchesMoreOnDemand()
{
    SqlConsole console;
    console.setHistory(m_example);
    console.setStatement(QStringLiteral("SELECT rowid, transition FROM accesses ORDER BY rowid"));
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QVERIFY(console.runStatement());
    QCOMPARE(finishedSpy.size(), 1);
    QSqlQueryModel *model = console.resultsModel();
    // QSqlQueryModel's first batch: the rest of the 41,797 rows wait for scrolling.
    QCOMPARE(model->rowCount(), 256);
    QVERIFY(model->canFetchMore());
    QCOMPARE(console.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(),
        QStringLiteral("256 rows shown, more on scroll"));
    model->fetchMore();
    const int fetched = model->rowCount();
    QVERIFY(fetched > 256);
    QCOMPARE(model->index(fetched - 1, 0).data().toLongLong(), fetched);
    QCOMPARE(console.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(),
        QStringLiteral("%1 rows shown, more on scroll").arg(fetched));
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
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), true);
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QStringLiteral("13") } }));
    QCOMPARE(editor->toPlainText(), QStringLiteral("SELECT max(transition) FROM accesses")); // no newline typed
}

void TestSqlConsole::stopInterruptsALongStatement()
{
    SqlConsole console;
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    console.setHistory(m_small);
    // Billions of steps: minutes of work unless interrupted.
    console.setStatement(QStringLiteral(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000000000) SELECT count(*) FROM n"));
    auto *stop = console.findChild<QPushButton *>(QStringLiteral("stopButton"));
    auto *run = console.findChild<QPushButton *>(QStringLiteral("runButton"));
    QVERIFY(!stop->isEnabled());
    bool stopWasEnabled = false;
    bool runWasDisabled = false;
    // Fires while the statement runs: proof that the event loop keeps going. Clicks Stop as a user.
    QTimer::singleShot(300, &console, [&] {
        stopWasEnabled = stop->isEnabled();
        runWasDisabled = !run->isEnabled();
        QTest::mouseClick(stop, Qt::LeftButton);
    });
    QSignalSpy finishedSpy(&console, &SqlConsole::statementFinished);
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!console.runStatement());
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(stopWasEnabled);
    QVERIFY(runWasDisabled);
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Error: interrupted"));
    QVERIFY(!console.isRunning());
    QVERIFY(!stop->isEnabled());
    QVERIFY(run->isEnabled());

    // The connection is usable again.
    console.setStatement(QStringLiteral("SELECT count(*) FROM accesses"));
    QVERIFY(console.runStatement());
    QCOMPARE(rows(console.resultsModel()), (QList<QStringList> { { QStringLiteral("20") } }));
}

void TestSqlConsole::eachConsoleHasItsOwnConnection()
{
    auto first = std::make_unique<SqlConsole>();
    auto second = std::make_unique<SqlConsole>();
    first->setHistory(m_small);
    second->setHistory(m_example);
    QVERIFY(first->connectionName() != second->connectionName());
    QVERIFY(QSqlDatabase::connectionNames().contains(first->connectionName()));
    QVERIFY(QSqlDatabase::connectionNames().contains(second->connectionName()));
    const QString name = first->connectionName();
    first.reset();
    QVERIFY(!QSqlDatabase::connectionNames().contains(name));
    second->setStatement(QStringLiteral("SELECT count(*) FROM accesses"));
    QVERIFY(second->runStatement());
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
    console.setHistory(missing);
    QVERIFY(!console.findChild<QPushButton *>(QStringLiteral("runButton"))->isEnabled());
    QVERIFY(console.lastError().startsWith(QStringLiteral("Cannot open ") + missing));
}

QTEST_MAIN(TestSqlConsole)
#include "tst_sqlconsole.moc"
