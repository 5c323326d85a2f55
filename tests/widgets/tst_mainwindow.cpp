// The viewer's main window, driven headless: opening a history as the command line does, importing
// a dropped trace in the background, a failed import, click-to-query forward and backward, and the
// window's CSV export against `memhist export`, and File > Record Program running the real
// `memhist record` (valgrind) in the background.
#include "clickquery.h"
#include "core/checker/historychecker.h"
#include "core/importers/importsession.h"
#include "core/storage/historydatabase.h"
#include "historyinfo.h"
#include "mainwindow.h"
#include "recorddialog.h"
#include "recordjob.h"
#include "testsupport.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>

using namespace memhist;
using namespace memhist::test;
using namespace memhist::viewer;

namespace {

QString testData(const QString &name)
{
    return QFINDTESTDATA(QStringLiteral("../data/") + name);
}

// tests/data/csv/small.csv imported: its exact counts, as `memhist info` reports them.
const QString smallSummary = QStringLiteral("transitions 0..13 (14) · 20 accesses (8 reads, 7 writes, 5 executes) · "
                                            "1 slice · 9 chunks · source small.csv (csv) · threads not recorded");

// Copies a fixture into `directory` so that what the window writes beside it stays in the test's
// temporary directory.
QString copyFixture(const QTemporaryDir &directory, const QString &name)
{
    const QString target = directory.filePath(QFileInfo(name).fileName());
    if (!QFile::copy(testData(name), target))
        return {};
    return target;
}

bool importFixture(const QString &trace, const QString &output)
{
    QList<TraceInput> inputs;
    QString error;
    ImportSummary summary;
    return recogniseTraces({ trace }, std::nullopt, &inputs, &error)
        && importTraces(inputs, output, ImportOptions {}, {}, &summary, &error);
}

void drop(MainWindow &window, const QStringList &paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &path : paths)
        urls << QUrl::fromLocalFile(path);
    mime.setUrls(urls);
    const QPointF position(window.width() / 2.0, window.height() / 2.0);
    QDragEnterEvent enter(position.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent dropEvent(position, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropEvent);
    QVERIFY(dropEvent.isAccepted());
}

QList<qint64> rowIds(const QList<Access> &accesses)
{
    QList<qint64> ids;
    for (const Access &access : accesses)
        ids << access.rowId.value;
    return ids;
}

QStringList entries(const QTemporaryDir &directory)
{
    return QDir(directory.path()).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

// The counts in memhist record's summary line ("...; recorded N instructions, M accesses (...").
struct RecordedCounts
{
    qint64 instructions = -1;
    qint64 accesses = -1;
};

RecordedCounts recordedCounts(const QString &summary)
{
    static const QRegularExpression pattern(QStringLiteral("recorded (\\d+) instructions, (\\d+) accesses"));
    const QRegularExpressionMatch match = pattern.match(summary);
    if (!match.hasMatch())
        return {};
    return { match.captured(1).toLongLong(), match.captured(2).toLongLong() };
}

CheckReport checkHistory(const QString &path)
{
    QString error;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(path, &error);
    if (!database) {
        CheckReport failed;
        failed.violation = error;
        return failed;
    }
    return HistoryChecker(*database).run();
}

// Calls `fill` on the window's Record dialog once it is shown: recordInteractively() runs it
// modally, so the test can only reach it from the event loop.
void whenRecordDialogShown(MainWindow &window, std::function<void(RecordDialog *)> fill)
{
    auto *poll = new QTimer(&window);
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, fill = std::move(fill)] {
        auto *dialog = window.findChild<RecordDialog *>(QStringLiteral("recordDialog"));
        if (!dialog || !dialog->isVisible())
            return;
        poll->stop();
        poll->deleteLater();
        fill(dialog);
    });
    poll->start();
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Recent files and click-query settings go to a throwaway location, not the user's.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("memhist-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
        QVERIFY(m_directory.isValid());
        m_smallHistory = m_directory.filePath(QStringLiteral("small.memhist"));
        QVERIFY(importFixture(testData(QStringLiteral("csv/small.csv")), m_smallHistory));
    }

    void opensFromTheCommandLinePath()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        QSignalSpy planeLoaded(window.plane(), &PlaneWidget::historyLoaded);
        window.openPath(m_smallHistory);
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(opened.first().first().toString(), QFileInfo(m_smallHistory).absoluteFilePath());
        QCOMPARE(window.historyPath(), QFileInfo(m_smallHistory).absoluteFilePath());
        QCOMPARE(window.summaryText(), smallSummary);
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summaryLabel"))->text(), smallSummary);
        QTRY_COMPARE(planeLoaded.count(), 1);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("small.memhist")));
        QVERIFY(window.lastError().isEmpty());
    }

    void openingSomethingElseSaysWhy()
    {
        QTemporaryDir directory;
        const QString notATrace = directory.filePath(QStringLiteral("notes.txt"));
        QFile file(notATrace);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("hello\n");
        file.close();
        MainWindow window;
        window.setInteractive(false);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openPath(notATrace);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(window.lastError().contains(QStringLiteral("notes.txt: cannot recognise the trace format")),
            qPrintable(window.lastError()));
        QCOMPARE(entries(directory), QStringList { QStringLiteral("notes.txt") });
    }

    void droppedTraceImportsInTheBackgroundAndOpens()
    {
        QTemporaryDir directory;
        const QString trace = copyFixture(directory, QStringLiteral("csv/small.csv"));
        QVERIFY(!trace.isEmpty());
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy imported(&window, &MainWindow::importFinished);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        drop(window, { trace });
        // The drop only queues the import: the GUI thread goes on.
        QCOMPARE(imported.count(), 0);
        QTRY_COMPARE(imported.count(), 1);
        QVERIFY2(imported.first().at(0).toBool(), qPrintable(imported.first().at(1).toString()));
        QTRY_COMPARE(opened.count(), 1);
        const QString output = directory.filePath(QStringLiteral("small.memhist"));
        QCOMPARE(opened.first().first().toString(), output);
        QCOMPARE(window.summaryText(), smallSummary);
        QCOMPARE(entries(directory), (QStringList { QStringLiteral("small.csv"), QStringLiteral("small.memhist") }));
        QVERIFY(isSqliteDatabase(output));
    }

    void failedImportShowsTheImportersMessageAndLeavesNothing()
    {
        QTemporaryDir directory;
        const QString trace = copyFixture(directory, QStringLiteral("csv/bad-size.csv"));
        QVERIFY(!trace.isEmpty());
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy imported(&window, &MainWindow::importFinished);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        drop(window, { trace });
        QTRY_COMPARE(imported.count(), 1);
        QCOMPARE(imported.first().at(0).toBool(), false);
        const QString expected = trace + QStringLiteral(":5: field 6 (size): '0' is not a size (must be at least 1)");
        QVERIFY2(imported.first().at(1).toString().startsWith(expected), qPrintable(imported.first().at(1).toString()));
        QCOMPARE(errors.count(), 1);
        QVERIFY(window.lastError().contains(expected));
        QVERIFY(window.lastError().contains(QStringLiteral("Nothing was written to ")
            + QDir::toNativeSeparators(directory.filePath(QStringLiteral("bad-size.memhist")))));
        auto *box = window.findChild<QMessageBox *>(QStringLiteral("errorMessage"));
        QVERIFY(box);
        QVERIFY(box->text().contains(expected));
        QCOMPARE(opened.count(), 0);
        QCOMPARE(entries(directory), QStringList { QStringLiteral("bad-size.csv") });
    }

    void clickToQuery_data()
    {
        QTest::addColumn<quint64>("transition");
        QTest::addColumn<quint64>("address");
        QTest::addColumn<bool>("onAccess"); // whether the plane draws an access at the clicked point
        QTest::addColumn<bool>("backward");
        QTest::addColumn<int>("operations");
        QTest::addColumn<quint64>("window");
        QTest::addColumn<QList<qint64>>("expectedRows");

        const int rw = int((Operations(Operation::Read) | Operation::Write).toInt());
        const int w = int(Operations(Operation::Write).toInt());
        // At transition 2, rows 6 and 7 read and write the 8 bytes at 0x7ffc0000.
        QTest::newRow("on an access, forward: that access, then every later one on its bytes")
            << quint64(2) << quint64(0x7ffc0003) << true << false << rw << quint64(64) << QList<qint64> { 6, 7, 18 };
        QTest::newRow("on an access, Ctrl (backward): newest first, back to the first write")
            << quint64(2) << quint64(0x7ffc0003) << true << true << rw << quint64(64) << QList<qint64> { 7, 6, 2 };
        // Transition 4 has no access at all: the query covers the window around the point.
        QTest::newRow("no access under the cursor: the window around the point")
            << quint64(4) << quint64(0x601004) << false << false << rw << quint64(4) << QList<qint64> { 9, 13, 16, 19 };
        QTest::newRow("writes only, Ctrl (backward), a one-byte window")
            << quint64(11) << quint64(0x601004) << false << true << w << quint64(0) << QList<qint64> { 9 };
    }

    void clickToQuery()
    {
        QFETCH(quint64, transition);
        QFETCH(quint64, address);
        QFETCH(bool, onAccess);
        QFETCH(bool, backward);
        QFETCH(int, operations);
        QFETCH(quint64, window);
        QFETCH(QList<qint64>, expectedRows);

        MainWindow mainWindow;
        mainWindow.setInteractive(false);
        mainWindow.show();
        QVERIFY(QTest::qWaitForWindowExposed(&mainWindow));
        QSignalSpy opened(&mainWindow, &MainWindow::historyOpened);
        QSignalSpy loaded(mainWindow.plane(), &PlaneWidget::historyLoaded);
        mainWindow.openPath(m_smallHistory);
        QTRY_COMPARE(opened.count(), 1);
        QTRY_COMPARE(loaded.count(), 1);
        mainWindow.setClickQuerySettings({ Operations::fromInt(operations), window });

        // Zoomed in so far that one byte spans several pixels: the clicked pixel names the address.
        PlaneWidget *plane = mainWindow.plane();
        QSignalSpy rendered(plane, &PlaneWidget::renderFinished);
        plane->setVisibleRange(
            { Transition { 0 }, Transition { 13 }, Address { address - 24 }, Address { address + 24 } });
        QTRY_VERIFY(!rendered.isEmpty());
        const std::optional<QPointF> position = plane->positionOf(Transition { transition }, Address { address });
        QVERIFY(position);
        QCOMPARE(plane->accessAt(*position).has_value(), onAccess);

        QSignalSpy clicked(plane, &PlaneWidget::pointClicked);
        QSignalSpy results(mainWindow.queryPanel(), &QueryPanel::resultsChanged);
        QTest::mouseClick(plane, Qt::LeftButton,
            backward ? Qt::KeyboardModifiers(backwardModifier) : Qt::KeyboardModifiers(Qt::NoModifier),
            position->toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().at(0).value<Transition>(), Transition { transition });
        QTRY_VERIFY(!results.isEmpty() && !results.constLast().first().value<QList<Access>>().isEmpty());
        QCOMPARE(rowIds(results.constLast().first().value<QList<Access>>()), expectedRows);
        const HalfAxisQuery query = mainWindow.queryPanel()->currentQuery();
        QCOMPARE(query.direction, backward ? Direction::Backward : Direction::Forward);
        QCOMPARE(query.at, std::optional<Transition>(Transition { transition }));
    }

    void exportEqualsTheCommandLine_data()
    {
        QTest::addColumn<bool>("backward");
        QTest::newRow("forward") << false;
        QTest::newRow("backward") << true;
    }

    void exportEqualsTheCommandLine()
    {
        QFETCH(bool, backward);
        QTemporaryDir directory;
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        window.openPath(m_smallHistory);
        QTRY_COMPARE(opened.count(), 1);
        QTRY_VERIFY(window.plane()->isHistoryLoaded());
        window.setClickQuerySettings({ Operations(Operation::Read) | Operation::Write, 16 });
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        // The window's query, as a click at (9, 0x601004) with no access under the cursor asks it.
        window.runClickQuery(Transition { 9 }, Address { 0x601004 }, std::nullopt,
            backward ? Qt::KeyboardModifiers(backwardModifier) : Qt::KeyboardModifiers(Qt::NoModifier));
        QTRY_VERIFY(!results.isEmpty() && !results.constLast().first().value<QList<Access>>().isEmpty());

        const QString fromWindow = directory.filePath(QStringLiteral("window.csv"));
        QSignalSpy exported(window.queryPanel(), &QueryPanel::exportFinished);
        window.queryPanel()->exportTo(fromWindow);
        QTRY_COMPARE(exported.count(), 1);
        QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(1).toString()));

        const QString fromCli = directory.filePath(QStringLiteral("cli.csv"));
        // The window's query: ±16 bytes around 0x601004 from transition 9.
        QStringList arguments { QStringLiteral("export"), m_smallHistory, QStringLiteral("-o"), fromCli,
            QStringLiteral("--at"), QStringLiteral("9"), QStringLiteral("--from"), QStringLiteral("0x600ff4"),
            QStringLiteral("--to"), QStringLiteral("0x601014"), QStringLiteral("--ops"), QStringLiteral("rw") };
        if (backward)
            arguments << QStringLiteral("--backward");
        QProcess cli;
        cli.start(QStringLiteral(MEMHIST_CLI_PATH), arguments);
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);

        QFile a(fromWindow);
        QFile b(fromCli);
        QVERIFY(a.open(QIODevice::ReadOnly));
        QVERIFY(b.open(QIODevice::ReadOnly));
        const QByteArray windowBytes = a.readAll();
        QCOMPARE(windowBytes, b.readAll());
        QVERIFY(windowBytes.count('\n') > 2);
    }

    void recordArgumentsSplitAsInAShell_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<bool>("closed");
        const auto words = [](std::initializer_list<const char *> list) {
            QStringList result;
            for (const char *word : list)
                result << QString::fromUtf8(word);
            return result;
        };
        QTest::newRow("blanks") << QStringLiteral("  -l   /tmp ") << words({ "-l", "/tmp" }) << true;
        QTest::newRow("single quotes") << QStringLiteral("'a b' 'it'\\''s'") << words({ "a b", "it's" }) << true;
        QTest::newRow("double quotes") << QStringLiteral("\"a \\\"b\\\" \\n\"") << words({ "a \"b\" \\n" }) << true;
        QTest::newRow("backslash") << QStringLiteral("a\\ b c\\'d") << words({ "a b", "c'd" }) << true;
        QTest::newRow("empty word") << QStringLiteral("'' x") << words({ "", "x" }) << true;
        QTest::newRow("unclosed") << QStringLiteral("'abc") << words({ "abc" }) << false;
    }

    void recordArgumentsSplitAsInAShell()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, words);
        QFETCH(bool, closed);
        bool ok = !closed;
        QCOMPARE(splitShellWords(text, &ok), words);
        QCOMPARE(ok, closed);
    }

    void recordJobMatchesTheCommandLine()
    {
        QTemporaryDir directory;
        const QString fromCli = directory.filePath(QStringLiteral("cli.memhist"));
        const CliResult cli
            = runCli({ QStringLiteral("record"), QStringLiteral("-o"), fromCli, QStringLiteral("--max-instructions"),
                QStringLiteral("50000"), QStringLiteral("--"), QStringLiteral("/bin/echo"), QStringLiteral("hi") });
        const QString cliErr = QString::fromLocal8Bit(cli.err);
        QVERIFY2(cli.exitCode == 0, qPrintable(cliErr));
        const RecordedCounts expected = recordedCounts(cliErr);
        QCOMPARE(expected.instructions, 50000);
        QVERIFY(expected.accesses > 0);

        RecordRequest request;
        request.program = QStringLiteral("/bin/echo");
        request.arguments = { QStringLiteral("hi") };
        request.maxInstructions = 50000;
        request.outputPath = directory.filePath(QStringLiteral("job.memhist"));
        RecordJob job(QStringLiteral(MEMHIST_CLI_PATH), request);
        QSignalSpy finished(&job, &RecordJob::recordFinished);
        job.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const QString message = finished.first().at(1).toString();
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(message));
        // The CLI's own summary, without its "memhist record: " prefix.
        QVERIFY2(message.startsWith(QStringLiteral("stopped the program after 50000 instructions (--max-instructions); "
                                                   "recorded 50000 instructions, %1 accesses")
                                        .arg(expected.accesses)),
            qPrintable(message));
        // ... followed by the CLI's line on what context the history holds.
        QVERIFY2(message.contains(QStringLiteral("; context: ")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral(" into ") + request.outputPath + QStringLiteral(": ")),
            qPrintable(message));
        const CheckReport check = checkHistory(request.outputPath);
        QVERIFY2(check.ok, qPrintable(check.violation));
        QCOMPARE(check.accesses, expected.accesses);
        QCOMPARE(entries(directory), (QStringList { QStringLiteral("cli.memhist"), QStringLiteral("job.memhist") }));
    }

    void recordProgramDialogRecordsAndOpens()
    {
        QTemporaryDir directory;
        const QString output = directory.filePath(QStringLiteral("echo.memhist"));
        MainWindow window;
        window.setInteractive(false);
        window.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        window.show();
        QSignalSpy recorded(&window, &MainWindow::recordFinished);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        std::optional<RecordRequest> accepted;
        bool recordEnabled = false;
        whenRecordDialogShown(window, [&](RecordDialog *dialog) {
            // As a user would: a bare program name (looked up in PATH), shell-quoted arguments, a
            // length limit the program stays under, and where the history goes.
            dialog->findChild<QLineEdit *>(QStringLiteral("programEdit"))->setText(QStringLiteral("echo"));
            QTest::keyClicks(
                dialog->findChild<QLineEdit *>(QStringLiteral("argumentsEdit")), QStringLiteral("'hi there' \"it's\""));
            dialog->findChild<QCheckBox *>(QStringLiteral("limitCheck"))->setChecked(true);
            dialog->findChild<QSpinBox *>(QStringLiteral("maxMillionsSpin"))->setValue(5);
            auto *outputEdit = dialog->findChild<QLineEdit *>(QStringLiteral("outputEdit"));
            outputEdit->selectAll();
            QTest::keyClicks(outputEdit, output);
            accepted = dialog->request();
            QPushButton *recordButton = nullptr;
            for (QAbstractButton *button : dialog->findChild<QDialogButtonBox *>()->buttons()) {
                if (button->text() == RecordDialog::tr("&Record"))
                    recordButton = qobject_cast<QPushButton *>(button);
            }
            recordEnabled = recordButton && recordButton->isEnabled();
            // Always close the modal dialog, or a failing check would hang the test in exec().
            if (recordEnabled)
                QTest::mouseClick(recordButton, Qt::LeftButton);
            else
                dialog->reject();
        });
        QAction *recordAction = nullptr;
        for (QAction *action : window.findChildren<QAction *>()) {
            if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R))
                recordAction = action;
        }
        QVERIFY(recordAction);
        recordAction->trigger();
        QVERIFY(accepted);
        QVERIFY(recordEnabled);
        QCOMPARE(accepted->program, QStandardPaths::findExecutable(QStringLiteral("echo")));
        QCOMPARE(accepted->arguments, (QStringList { QStringLiteral("hi there"), QStringLiteral("it's") }));
        QCOMPARE(accepted->maxInstructions, std::optional<quint64>(5000000));
        QCOMPARE(accepted->outputPath, output);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 60000);
        const QString message = recorded.first().at(1).toString();
        QVERIFY2(recorded.first().at(0).toBool(), qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("program exited with status 0; recorded ")), qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QCOMPARE(window.historyPath(), output);
        QCOMPARE(window.hoverText(), message);
        QVERIFY2(window.summaryText().contains(QStringLiteral(" accesses (")), qPrintable(window.summaryText()));
        QVERIFY(window.findChild<QWidget *>(QStringLiteral("jobProgress"))->isHidden());
        const CheckReport check = checkHistory(output);
        QVERIFY2(check.ok, qPrintable(check.violation));
        QCOMPARE(check.accesses, recordedCounts(message).accesses);
        QVERIFY(window.lastError().isEmpty());
    }

    void cancelledRecordingKeepsWhatWasRecorded_data()
    {
        QTest::addColumn<bool>("waitForProgress");
        // At once: before memhist record can handle SIGINT, which would kill it (the job waits).
        QTest::newRow("at once") << false;
        QTest::newRow("after a progress tick") << true;
    }

    void cancelledRecordingKeepsWhatWasRecorded()
    {
        QFETCH(bool, waitForProgress);
        QTemporaryDir directory;
        RecordRequest request;
        request.program = QStringLiteral("/bin/sh");
        // Endless under valgrind: only Cancel ends it.
        request.arguments = { QStringLiteral("-c"), QStringLiteral("while :; do :; done") };
        request.outputPath = directory.filePath(QStringLiteral("loop.memhist"));
        MainWindow window;
        window.setInteractive(false);
        window.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        window.show();
        QSignalSpy recorded(&window, &MainWindow::recordFinished);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        window.record(request);
        auto *progress = window.findChild<QWidget *>(QStringLiteral("jobProgress"));
        QVERIFY(progress->isVisible());
        if (waitForProgress) {
            // The progress line ticks every second while the program runs.
            auto *label = progress->findChild<QLabel *>();
            static const QRegularExpression ticked(QStringLiteral("^Recording sh: \\d+ s"));
            QTRY_VERIFY_WITH_TIMEOUT(ticked.match(label->text()).hasMatch(), 10000);
        }
        QCOMPARE(recorded.count(), 0);

        // The program never ends by itself: the recording finishing, interrupted, is Cancel's doing.
        QTest::mouseClick(progress->findChild<QPushButton *>(QStringLiteral("cancelJobButton")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 60000);
        const QString message = recorded.first().at(1).toString();
        QVERIFY2(recorded.first().at(0).toBool(), qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("interrupted: stopped the program after ")), qPrintable(message));
        const RecordedCounts counts = recordedCounts(message);
        QVERIFY2(counts.instructions >= 0 && counts.accesses >= 0, qPrintable(message));
        if (waitForProgress)
            QVERIFY2(counts.instructions > 0 && counts.accesses > 0, qPrintable(message));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        QCOMPARE(window.historyPath(), request.outputPath);
        QVERIFY(progress->isHidden());
        QCOMPARE(window.hoverText(), QStringLiteral("Recording stopped; kept what was recorded: ") + message);
        const CheckReport check = checkHistory(request.outputPath);
        QVERIFY2(check.ok, qPrintable(check.violation));
        QCOMPARE(check.accesses, counts.accesses);
        QCOMPARE(entries(directory), QStringList { QStringLiteral("loop.memhist") });
    }

    void recordingAMissingProgramShowsWhyAndLeavesNothing()
    {
        QTemporaryDir directory;
        RecordRequest request;
        request.program = directory.filePath(QStringLiteral("no-such-program"));
        request.outputPath = directory.filePath(QStringLiteral("missing.memhist"));
        MainWindow window;
        window.setInteractive(false);
        window.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        window.show();
        QSignalSpy recorded(&window, &MainWindow::recordFinished);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        window.record(request);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 30000);
        const QString expected = QStringLiteral("memhist record: %1: No such file or directory").arg(request.program);
        QCOMPARE(recorded.first().at(0).toBool(), false);
        QCOMPARE(recorded.first().at(1).toString(), expected);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(window.lastError(), expected);
        auto *box = window.findChild<QMessageBox *>(QStringLiteral("errorMessage"));
        QVERIFY(box);
        QCOMPARE(box->text(), expected);
        QCOMPARE(opened.count(), 0);
        QVERIFY(entries(directory).isEmpty());
    }

    void findsTheCommandLineInPath()
    {
        const QByteArray savedPath = qgetenv("PATH");
        QTemporaryDir empty;
        // Neither beside this test nor in PATH: recording says so instead of failing later.
        qputenv("PATH", empty.path().toLocal8Bit());
        QCOMPARE(findMemhistCli(), QString());
        MainWindow window;
        window.setInteractive(false);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        RecordRequest request;
        request.program = QStringLiteral("/bin/true");
        request.outputPath = empty.filePath(QStringLiteral("true.memhist"));
        window.record(request);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(window.lastError().contains(QStringLiteral("neither beside memhist-viewer nor in PATH")),
            qPrintable(window.lastError()));

        const QFileInfo cli(QStringLiteral(MEMHIST_CLI_PATH));
        qputenv("PATH", (empty.path() + u':' + cli.absolutePath()).toLocal8Bit());
        const QString found = findMemhistCli();
        qputenv("PATH", savedPath);
        QCOMPARE(QFileInfo(found).canonicalFilePath(), cli.canonicalFilePath());
        QVERIFY(entries(empty).isEmpty());
    }

private:
    QTemporaryDir m_directory;
    QString m_smallHistory;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
