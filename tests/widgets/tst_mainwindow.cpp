// SPDX-License-Identifier: MIT
// The viewer's main window, driven headless: opening a history as the command line does, importing
// a dropped trace in the background, a failed import, click-to-query forward and backward, and the
// window's CSV export against `memhist export`, and File > Record Program running the real
// `memhist record` (valgrind) in the background.
#include "clickquery.h"
#include "core/charts/chartdata.h"
#include "core/checker/historychecker.h"
#include "core/importers/importsession.h"
#include "core/importers/traceformats.h"
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"
#include "elidedlabel.h"
#include "filefilters.h"
#include "gotodialog.h"
#include "historyinfo.h"
#include "mainwindow.h"
#include "messagelog.h"
#include "mouseandkeys.h"
#include "navigator.h"
#include "recorddialog.h"
#include "recordjob.h"
#include "shortcutsdialog.h"
#include "shortcutsettings.h"
#include "statuspanel.h"
#include "testsupport.h"
#include "viewermessages.h"
#include "widgets/charts/chartspanel.h"
#include "widgets/detail/accessdetail.h"
#include "widgets/detail/detailpane.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"
#include "widgets/sql/sqlconsole.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QFontDatabase>
#include <QHeaderView>
#include <QKeySequenceEdit>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
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

// The counts in memhist record's summary line ("...; recorded N instructions, M accesses (..."),
// grouped or not ("309,033").
struct RecordedCounts
{
    qint64 instructions = -1;
    qint64 accesses = -1;
};

RecordedCounts recordedCounts(const QString &summary)
{
    static const QRegularExpression pattern(QStringLiteral("recorded ([\\d,]+) instructions, ([\\d,]+) accesses"));
    const QRegularExpressionMatch match = pattern.match(summary);
    if (!match.hasMatch())
        return {};
    const auto number = [&](int group) { return match.captured(group).remove(u',').toLongLong(); };
    return { number(1), number(2) };
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

// A history of 10,000 transitions whose plane, shown whole, puts several transitions in a pixel:
// one read of 8 bytes at 0x1000..0x11ff per transition, and on the 8 bytes at 0x9000 a read at
// transition 500, a write at 1000 and a read at 2000 (rows 502, 1003 and 2004: each after the
// transition's first read).
constexpr quint64 overviewTarget = 0x9000;

QString writeOverviewTrace(const QTemporaryDir &directory)
{
    const QString path = directory.filePath(QStringLiteral("overview.csv"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray text = "rowid,transition,operation,address,linear,size\n";
    qint64 row = 0;
    const auto add = [&](qint64 transition, char operation, quint64 address) {
        text += QByteArray::number(++row) + ',' + QByteArray::number(transition) + ',' + operation + ",0x"
            + QByteArray::number(address, 16) + ",0x" + QByteArray::number(address, 16) + ",8\n";
    };
    for (qint64 t = 0; t < 10000; ++t) {
        add(t, 'R', 0x1000 + quint64(t % 64) * 8);
        if (t == 500 || t == 2000)
            add(t, 'R', overviewTarget);
        if (t == 1000)
            add(t, 'W', overviewTarget);
    }
    file.write(text);
    return file.error() == QFile::NoError ? path : QString();
}

// Opens `path` in `window` (shown) and waits until the plane has drawn it.
bool openAndWait(MainWindow &window, const QString &path)
{
    QSignalSpy opened(&window, &MainWindow::historyOpened);
    window.openPath(path);
    if (!QTest::qWaitFor([&] { return opened.count() == 1 && window.plane()->isHistoryLoaded(); }, 30000))
        return false;
    return true;
}

QAction *actionWithShortcut(const QWidget &window, const QKeySequence &keys)
{
    for (QAction *action : window.findChildren<QAction *>()) {
        if (action->shortcuts().contains(keys))
            return action;
    }
    return nullptr;
}

// Takes the Shortcut events of the actions it filters, so that the key's arrival is seen and the
// action does not run (a file dialog, Quit).
class ShortcutCatcher : public QObject
{
public:
    QList<QAction *> caught;

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Shortcut)
            return false;
        caught << qobject_cast<QAction *>(watched);
        return true;
    }
};

QList<QAction *> menuActionsWithShortcuts(const QMenuBar *menus)
{
    QList<QAction *> actions;
    const std::function<void(const QMenu *)> collect = [&](const QMenu *menu) {
        for (QAction *action : menu->actions()) {
            if (action->menu())
                collect(action->menu());
            else if (!action->isSeparator() && !action->shortcuts().isEmpty())
                actions << action;
        }
    };
    for (QAction *action : menus->actions()) {
        if (action->menu())
            collect(action->menu());
    }
    return actions;
}

// A key as X11 delivers it: Ctrl+letter carries its control character (Ctrl+I a TAB, Ctrl+M a CR).
void pressAsX11(QWidget *widget, const QKeyCombination &keys)
{
    const Qt::Key key = keys.key();
    const Qt::KeyboardModifiers modifiers = keys.keyboardModifiers();
    QString text;
    if (modifiers == Qt::ControlModifier && key >= Qt::Key_A && key <= Qt::Key_Z)
        text = QChar(char16_t(key - Qt::Key_A + 1));
    else if (modifiers == Qt::NoModifier && key >= Qt::Key_Space && key <= Qt::Key_AsciiTilde)
        text = QChar(char16_t(key)).toLower();
    QTest::sendKeyEvent(QTest::Click, widget, key, text, modifiers);
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
        // Wide enough for the whole summary line whatever fonts the machine has (at the default
        // size, a machine with the Noto fonts installed elides it).
        window.resize(1600, 1000);
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
        // The plane picks the write (row 7, drawn over the read): forward it is the first row, and
        // the read its instruction made before it (row 6) is left out.
        QTest::newRow("on an access, forward: that access, then every later one on its bytes")
            << quint64(2) << quint64(0x7ffc0003) << true << false << rw << quint64(64) << QList<qint64> { 7, 18 };
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

    void recordSummaryGroupsItsCounts_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a finished recording")
            << QStringLiteral("program exited with status 0; recorded 309033 instructions, 104680 accesses (72157 "
                              "reads, 31707 writes, 0 executes; transitions 1..306084) into /tmp/run1234/echo.memhist: "
                              "2 slices, 3688 chunks, 1.7025 s")
            << QStringLiteral("/tmp/run1234/echo.memhist")
            << QStringLiteral("program exited with status 0; recorded 309,033 instructions, 104,680 accesses (72,157 "
                              "reads, 31,707 writes, 0 executes; accesses at transitions 1..306,084) into "
                              "/tmp/run1234/echo.memhist: "
                              "2 slices, 3,688 chunks, 1.7025 s");
        QTest::newRow("the output path is left as it is, however named")
            << QStringLiteral("stopped the program after 50000 instructions (--max-instructions); recorded 50000 "
                              "instructions, 1234 accesses into /tmp/ 5000 .memhist: 1 slices")
            << QStringLiteral("/tmp/ 5000 .memhist")
            << QStringLiteral("stopped the program after 50,000 instructions (--max-instructions); recorded 50,000 "
                              "instructions, 1,234 accesses into /tmp/ 5000 .memhist: 1 slices");
        QTest::newRow("digits in words, short counts and decimals stay")
            << QStringLiteral("x86_64 v2024 12345x 999 0.12345 s -12345") << QString()
            << QStringLiteral("x86_64 v2024 12345x 999 0.12345 s -12345");
    }

    void recordSummaryGroupsItsCounts()
    {
        QFETCH(QString, line);
        QFETCH(QString, output);
        QFETCH(QString, shown);
        QCOMPARE(viewerRecordSummary(line, output), shown);
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
        // The CLI's own summary, without its "memhist record: " prefix, its counts grouped.
        QVERIFY2(
            message.startsWith(QStringLiteral("stopped the program after 50,000 instructions (--max-instructions); "
                                              "recorded 50,000 instructions, %1 accesses")
                                   .arg(countText(quint64(expected.accesses)))),
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

    // 4a: zoomed out, the pick radius spans many transitions; the query starts at the picked
    // access's transition, not the cursor's.
    void clickAtOverviewQueriesFromThePickedAccess_data()
    {
        QTest::addColumn<bool>("backward");
        QTest::addColumn<QList<qint64>>("expectedRows");
        // The write at 1000 is the first row forward, and included backward, though the cursor is
        // after it (forward) or before it (backward).
        QTest::newRow("click right of the write: forward from it") << false << QList<qint64> { 1003, 2004 };
        QTest::newRow("Ctrl+click left of the write: backward from it") << true << QList<qint64> { 1003, 502 };
    }

    void clickAtOverviewQueriesFromThePickedAccess()
    {
        QFETCH(bool, backward);
        QFETCH(QList<qint64>, expectedRows);
        QTemporaryDir directory;
        const QString trace = writeOverviewTrace(directory);
        QVERIFY(!trace.isEmpty());
        const QString history = directory.filePath(QStringLiteral("overview.memhist"));
        QVERIFY(importFixture(trace, history));

        MainWindow window;
        window.setInteractive(false);
        window.resize(1280, 820);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, history));
        PlaneWidget *plane = window.plane();
        QTRY_VERIFY(plane->showsAccesses());
        window.setClickQuerySettings({ Operations(Operation::Read) | Operation::Write, 0 });

        const std::optional<QPointF> onTheWrite
            = plane->positionOf(Transition { 1000 }, Address { overviewTarget + 4 });
        QVERIFY(onTheWrite);
        // 1.5 pixels beside the write: within the pick radius, and more than one transition away.
        const QPointF cursor = *onTheWrite + QPointF(backward ? -1.5 : 1.5, 0);
        const std::optional<Access> picked = plane->accessAt(cursor);
        QVERIFY(picked);
        QCOMPARE(picked->rowId.value, 1003);
        QCOMPARE(picked->transition, Transition { 1000 });

        QSignalSpy clicked(plane, &PlaneWidget::pointClicked);
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        QTest::mouseClick(plane, Qt::LeftButton,
            backward ? Qt::KeyboardModifiers(backwardModifier) : Qt::KeyboardModifiers(Qt::NoModifier),
            cursor.toPoint());
        QCOMPARE(clicked.count(), 1);
        const Transition cursorTransition = clicked.first().at(0).value<Transition>();
        // The defect: the cursor's transition is many transitions from the picked access's.
        if (backward)
            QVERIFY2(cursorTransition.value + 2 < 1000, qPrintable(QString::number(cursorTransition.value)));
        else
            QVERIFY2(cursorTransition.value > 1000 + 2, qPrintable(QString::number(cursorTransition.value)));
        QTRY_VERIFY(!results.isEmpty() && !results.constLast().first().value<QList<Access>>().isEmpty());
        QCOMPARE(rowIds(results.constLast().first().value<QList<Access>>()), expectedRows);
        const HalfAxisQuery query = window.queryPanel()->currentQuery();
        QCOMPARE(query.at, std::optional<Transition>(Transition { 1000 }));
        QCOMPARE(query.first, Address { overviewTarget });
        QCOMPARE(query.last, Address { overviewTarget + 7 });
    }

    // 4b: the hover text is elided with the whole in its tooltip; the click hint stays beside it;
    // Help ▸ Mouse and Keys lists the gestures and the real shortcuts.
    void statusLineKeepsTheHintAndTheWholeHoverText()
    {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *hint = window.findChild<QLabel *>(QStringLiteral("clickHintLabel"));
        QVERIFY(hint);
        const QString hintText
            = QStringLiteral("Click: the accesses from then on · Ctrl+click: those before it · F1: mouse and keys");
        QCOMPARE(hint->text(), hintText);
        QVERIFY(hint->isVisible());
        QCOMPARE(hint->width() >= hint->sizeHint().width(), true); // not cut

        auto *hover = window.findChild<ElidedLabel *>(QStringLiteral("hoverLabel"));
        QVERIFY(hover);
        QVERIFY(openAndWait(window, m_smallHistory));
        const QString longText = QStringLiteral("transition 123,456 · address 0x7ffc0000 · ") + QString(400, u'x');
        QMetaObject::invokeMethod(window.plane(), "hoverTextChanged", Q_ARG(QString, longText));
        QCOMPARE(hover->text(), longText);
        QCOMPARE(window.hoverText(), longText);
        QVERIFY(hover->isElided());
        QVERIFY(hover->shownText().endsWith(u'…'));
        QVERIFY(hover->shownText().startsWith(QStringLiteral("transition 123,456 · address 0x7ffc0000 · ")));
        QCOMPARE(hover->toolTip(), longText);
        // The hint is still there, whole, beside it.
        QCOMPARE(hint->text(), hintText);
        QVERIFY(hint->isVisible());
        QVERIFY(hint->width() >= hint->sizeHint().width());
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summaryLabel"))->text(), smallSummary);

        const QString shortText = QStringLiteral("transition 2 · address 0x7ffc0003");
        QMetaObject::invokeMethod(window.plane(), "hoverTextChanged", Q_ARG(QString, shortText));
        QVERIFY(!hover->isElided());
        QCOMPARE(hover->shownText(), shortText);
        QCOMPARE(hover->toolTip(), QString());
    }

    void mouseAndKeysListsEveryShortcutOfTheWindow()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        auto *helpAction = window.findChild<QAction *>(QStringLiteral("mouseAndKeysAction"));
        QVERIFY(helpAction);
        QCOMPARE(helpAction->shortcut(), QKeySequence(QKeySequence::HelpContents));
        helpAction->trigger();
        auto *dialog = window.findChild<MouseAndKeysDialog *>(QStringLiteral("mouseAndKeysDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());

        // Every shortcut it lists is an action of the window with that shortcut and that name.
        QStringList listed;
        for (const HelpEntry &entry : dialog->shortcuts()) {
            QVERIFY(!entry.shortcuts.isEmpty());
            for (const QKeySequence &keys : entry.shortcuts) {
                QAction *action = actionWithShortcut(window, keys);
                QVERIFY2(action, qPrintable(entry.keys + QStringLiteral(" ") + entry.what));
                QVERIFY2(entry.what.endsWith(action->text().remove(u'&').remove(u'…')), qPrintable(entry.what));
            }
            listed << entry.what + QStringLiteral(": ") + entry.keys;
        }
        // ... and every action of the menus with a shortcut is listed.
        int withShortcuts = 0;
        const std::function<void(const QMenu *)> count = [&](const QMenu *menu) {
            for (QAction *action : menu->actions()) {
                if (action->menu())
                    count(action->menu());
                else if (!action->isSeparator() && !action->shortcuts().isEmpty())
                    ++withShortcuts;
            }
        };
        for (QAction *action : window.menuBar()->actions())
            count(action->menu());
        QCOMPARE(dialog->shortcuts().size(), withShortcuts);
        const auto native = [](const QKeySequence &keys) { return keys.toString(QKeySequence::NativeText); };
        const auto bindings = [&](QKeySequence::StandardKey key) {
            QStringList texts;
            for (const QKeySequence &keys : QKeySequence::keyBindings(key))
                texts << native(keys);
            return texts.join(QStringLiteral(", "));
        };
        QCOMPARE(bindings(QKeySequence::Back), QStringLiteral("Alt+Left, Backspace"));
        // Backspace is Back whatever the platform's Back says (without a desktop, only Alt+Left).
        QAction *back = actionWithShortcut(window, QKeySequence(Qt::Key_Backspace));
        QVERIFY(back);
        QCOMPARE(back->text(), QStringLiteral("&Back"));
        for (const QString &expected :
            { QStringLiteral("View ▸ Home: Home"), QStringLiteral("View ▸ Back: %1").arg(bindings(QKeySequence::Back)),
                QStringLiteral("View ▸ Forward: %1").arg(bindings(QKeySequence::Forward)),
                QStringLiteral("View ▸ Zoom In: +, =, %1").arg(native(QKeySequence(QKeySequence::ZoomIn))),
                QStringLiteral("View ▸ Zoom Out: -, %1").arg(native(QKeySequence(QKeySequence::ZoomOut))),
                QStringLiteral("View ▸ Results: Ctrl+1"), QStringLiteral("View ▸ Charts: Ctrl+2"),
                QStringLiteral("View ▸ SQL Console: Ctrl+3"), QStringLiteral("View ▸ Executions: Ctrl+4"),
                QStringLiteral("View ▸ Bookmarks: Ctrl+5"), QStringLiteral("View ▸ Log: Ctrl+6"),
                QStringLiteral("File ▸ Record Program: Ctrl+R") })
            QVERIFY2(listed.contains(expected), qPrintable(expected + QStringLiteral(" not in ") + listed.join(u'|')));

        QStringList gestures;
        for (const HelpEntry &entry : dialog->gestures())
            gestures << entry.keys;
        QCOMPARE(gestures,
            (QStringList { QStringLiteral("Click"), QStringLiteral("Ctrl+click"), QStringLiteral("Hover"),
                QStringLiteral("Wheel"), QStringLiteral("Ctrl+wheel"), QStringLiteral("Shift+wheel"),
                QStringLiteral("Drag"), QStringLiteral("Right drag, Shift+drag"),
                QStringLiteral("Mouse back and forward buttons") }));
        QCOMPARE(dialog->gestures().at(1).what, QStringLiteral("The accesses before it, newest first"));
        // The page shows them: each entry once, in a table.
        const QString page = dialog->findChild<QTextBrowser *>(QStringLiteral("mouseAndKeysText"))->toPlainText();
        QCOMPARE(page.count(QStringLiteral("The accesses before it, newest first")), 1);
        QCOMPARE(page.count(QStringLiteral("Zoom to the rectangle")), 1);
        QVERIFY2(page.contains(QStringLiteral("\nCtrl+R\nFile ▸ Record Program\n")), qPrintable(page));
    }

    // 4c: an import's warnings stay in the status line until another history opens, and in the log.
    void importWarningsStayUntilTheNextOpen()
    {
        QTemporaryDir directory;
        QFile whole(testData(QStringLiteral("lackey/true.tiny.lackey")));
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = whole.readAll().split('\n');
        // Cut the last access line after " L 04a", dropping what follows it.
        qsizetype last = lines.size() - 1;
        while (last >= 0 && !lines.at(last).startsWith(" L ") && !lines.at(last).startsWith(" S "))
            --last;
        QVERIFY(last > 0);
        const QByteArray cut = lines.mid(0, last).join('\n') + '\n' + lines.at(last).left(6);
        const QString trace = directory.filePath(QStringLiteral("cut.lackey"));
        QFile file(trace);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(cut);
        file.close();
        const QString warning
            = QStringLiteral("%1:%2: the last line is cut (\" L 04a\"): the trace ends early (was the "
                             "tracer killed?); imported the complete lines before it")
                  .arg(trace)
                  .arg(last + 1);

        MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QSignalSpy imported(&window, &MainWindow::importFinished);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        window.openPath(trace);
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 30000);
        QVERIFY2(imported.first().at(0).toBool(), qPrintable(imported.first().at(1).toString()));
        QTRY_COMPARE(opened.count(), 1);
        QCOMPARE(window.importWarnings(), QStringList { warning });
        auto *warnings = window.findChild<QWidget *>(QStringLiteral("importWarnings"));
        QVERIFY(warnings->isVisible());
        auto *warningsLabel = window.findChild<ElidedLabel *>(QStringLiteral("importWarningsLabel"));
        QCOMPARE(warningsLabel->text(), QStringLiteral("Import warning: ") + warning);
        // Too long for the line: elided, the whole in its tooltip; the summary beside it stays whole.
        QVERIFY(warningsLabel->isElided());
        QCOMPARE(warningsLabel->toolTip(), QStringLiteral("Import warning: ") + warning);
        auto *summary = window.findChild<QLabel *>(QStringLiteral("summaryLabel"));
        QVERIFY(summary->width() >= summary->sizeHint().width());
        QVERIFY(warnings->toolTip().startsWith(warning + QStringLiteral("\n")));
        QVERIFY(window.messageLog()->text().contains(
            QStringLiteral("Import into %1: warnings\n%2\n")
                .arg(QDir::toNativeSeparators(directory.filePath(QStringLiteral("cut.memhist"))), warning)));

        // Hovering replaces the hover text, not the warning.
        QMetaObject::invokeMethod(window.plane(), "hoverTextChanged", Q_ARG(QString, QStringLiteral("transition 1")));
        QVERIFY(warnings->isVisible());
        QCOMPARE(window.importWarnings(), QStringList { warning });

        // Another history: its own (no) warnings.
        QVERIFY(openAndWait(window, m_smallHistory) || window.historyPath() == m_smallHistory);
        QTRY_COMPARE(window.historyPath(), QFileInfo(m_smallHistory).absoluteFilePath());
        QVERIFY(window.importWarnings().isEmpty());
        QVERIFY(warnings->isHidden());
    }

    // 4d: the toolbar's Executes makes clicks query executes too.
    void clickQueriesIncludeExecutesWhenAsked()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(openAndWait(window, m_smallHistory));
        auto *executes = window.findChild<QAction *>(QStringLiteral("clickExecutes"));
        QVERIFY(executes);
        QCOMPARE(executes->text(), QStringLiteral("Executes"));
        QVERIFY(executes->isCheckable());
        QVERIFY(!executes->isChecked());
        window.setClickQuerySettings({ Operations(Operation::Read) | Operation::Write, 2 });
        executes->trigger();
        QCOMPARE(window.clickQuerySettings().operations, allOperations());

        // Around 0x401006 from transition 0: rows 3 and 5 execute there; nothing reads or writes it.
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        window.runClickQuery(Transition { 0 }, Address { 0x401006 }, std::nullopt, Qt::NoModifier);
        QTRY_VERIFY(!results.isEmpty() && !results.constLast().first().value<QList<Access>>().isEmpty());
        QCOMPARE(rowIds(results.constLast().first().value<QList<Access>>()), (QList<qint64> { 3, 5 }));
        QCOMPARE(window.queryPanel()->currentQuery().operations, allOperations());
    }

    // 4f: Home, Back, Forward and +/- act on the plane wherever the focus is in the window.
    void navigationKeysWorkFromTheResultsTable()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        PlaneWidget *plane = window.plane();
        // The focus first: a table that takes it may select a row, which the plane brings into view.
        auto *table = window.queryPanel()->findChild<QTableView *>(QStringLiteral("resultsView"));
        QVERIFY(table);
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        plane->home();
        const ViewRange whole = plane->visibleRange();
        QCOMPARE(whole, (ViewRange { Transition { 0 }, Transition { 13 }, Address { 0 }, Address { ~quint64(0) } }));
        plane->setVisibleRange({ Transition { 2 }, Transition { 5 }, Address { 0x601000 }, Address { 0x60100f } });
        const ViewRange zoomed = plane->visibleRange();
        QVERIFY(!(zoomed == whole));
        QTest::keyClick(table, Qt::Key_Home);
        QCOMPARE(plane->visibleRange(), whole);
        QVERIFY(table->hasFocus());
        QTest::keySequence(table, QKeySequence::Back);
        QCOMPARE(plane->visibleRange(), zoomed);
        QTest::keySequence(table, QKeySequence::Forward);
        QCOMPARE(plane->visibleRange(), whole);
        QTest::keyClick(table, Qt::Key_Plus);
        const ViewRange zoomedIn = plane->visibleRange();
        QVERIFY(zoomedIn.lastTransition.value - zoomedIn.firstTransition.value
            < whole.lastTransition.value - whole.firstTransition.value);
        QTest::keyClick(table, Qt::Key_Minus);
        QCOMPARE(plane->visibleRange(), whole);
        QTest::keyClick(table, Qt::Key_Backspace);
        QCOMPARE(plane->visibleRange(), zoomedIn);
        QVERIFY(table->hasFocus());

        // A text field keeps the keys it uses: + is typed into the SQL editor.
        window.showPanel(MainWindow::Panel::Sql);
        auto *editor = window.sqlConsole()->findChild<QWidget *>(QStringLiteral("statementEditor"));
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        window.sqlConsole()->setStatement(QString());
        QTest::keyClick(editor, Qt::Key_Plus);
        QCOMPARE(window.sqlConsole()->statement(), QStringLiteral("+"));
        QCOMPARE(plane->visibleRange(), zoomedIn);
    }

    // 4i: messages say what to do in the viewer, and tell a damaged history from no history.
    void openingErrorsSayWhatTheFileIs()
    {
        QTemporaryDir directory;
        const QString text = directory.filePath(QStringLiteral("notes.memhist"));
        QFile file(text);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("these are notes, not a history\n");
        file.close();
        const QString truncated = directory.filePath(QStringLiteral("cut.memhist"));
        QFile history(m_smallHistory);
        QVERIFY(history.open(QIODevice::ReadOnly));
        QFile cut(truncated);
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(history.read(60000));
        cut.close();
        const QString unknown = directory.filePath(QStringLiteral("notes.txt"));
        QFile other(unknown);
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("hello\n");
        other.close();

        MainWindow window;
        window.setInteractive(false);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openPath(text);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(window.lastError(),
            QStringLiteral("%1 is not a memhist history: it does not start with the SQLite header that every "
                           "history has.")
                .arg(text));
        // Dropped or chosen in File ▸ Open, the same.
        window.handleDroppedPaths({ text });
        QCOMPARE(errors.count(), 2);
        QCOMPARE(window.lastError(), notAHistoryMessage(text));

        window.openPath(truncated);
        QTRY_COMPARE(errors.count(), 3);
        QCOMPARE(window.lastError(),
            QStringLiteral("%1 is a damaged or truncated history (truncated: the header says 15 pages of 16384 bytes "
                           "(245760 bytes), the file has 60000 bytes). Run 'memhist check %1' to see what is wrong, "
                           "then record or import it again.")
                .arg(truncated));
        QCOMPARE(openHistoryMessage(truncated,
                     truncated + QStringLiteral(": not a SQLite database (database disk image is malformed)")),
            QStringLiteral("%1 is a damaged or truncated history (not a SQLite database (database disk image is "
                           "malformed)). Run 'memhist check %1' to see what is wrong, then record or import it again.")
                .arg(truncated));
        // Not a history at all: the core's message as it is.
        QCOMPARE(openHistoryMessage(text, text + QStringLiteral(": not a SQLite database (file is not a database)")),
            text + QStringLiteral(": not a SQLite database (file is not a database)"));

        window.openPath(unknown);
        QCOMPARE(errors.count(), 4);
        QCOMPARE(window.lastError(),
            QStringLiteral("%1: cannot recognise the trace format (known formats: csv, lackey, drmemtrace, tenet, "
                           "memhist-stream). "
                           "The viewer recognises a trace by its content, whatever its name: choose a whole trace "
                           "in one of these formats, or a history (.memhist).")
                .arg(unknown));
        QVERIFY(!window.lastError().contains(QStringLiteral("--format")));
        QCOMPARE(entries(directory),
            (QStringList {
                QStringLiteral("cut.memhist"), QStringLiteral("notes.memhist"), QStringLiteral("notes.txt") }));
    }

    // 4l: the file dialogs' filters, from the one list of trace patterns.
    void fileDialogFilters()
    {
        QCOMPARE(traceFilePatterns(),
            (QStringList { QStringLiteral("*.csv"), QStringLiteral("*.lackey"), QStringLiteral("*.log"),
                QStringLiteral("*.trace"), QStringLiteral("*.gz"), QStringLiteral("*.zip"), QStringLiteral("*.sz") }));
        QCOMPARE(openFileFilters(),
            QStringLiteral("Histories and traces (*.memhist *.csv *.lackey *.log *.trace *.gz *.zip *.sz);;"
                           "Histories (*.memhist);;Traces (*.csv *.lackey *.log *.trace *.gz *.zip *.sz);;"
                           "All files (*)"));
        QCOMPARE(importFileFilters(),
            QStringLiteral("Traces (*.csv *.lackey *.log *.trace *.gz *.zip *.sz);;All files (*)"));
    }

    // 4m: the Record dialog starts in Program, offers --with-exec, and the program's output is kept.
    void recordDialogStartsInProgramAndOffersExecutes()
    {
        QSettings().remove(QStringLiteral("record"));
        QWidget parent;
        RecordDialog dialog(&parent);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowActive(&dialog));
        QCOMPARE(QApplication::focusWidget(), dialog.findChild<QLineEdit *>(QStringLiteral("programEdit")));
        auto *withExecute = dialog.findChild<QCheckBox *>(QStringLiteral("withExecuteCheck"));
        QVERIFY(withExecute);
        QCOMPARE(withExecute->text(), QStringLiteral("Also store instruction fetches as executes (--with-exec)"));
        QVERIFY(!withExecute->isChecked());
        dialog.findChild<QLineEdit *>(QStringLiteral("programEdit"))->setText(QStringLiteral("/bin/echo"));
        dialog.findChild<QLineEdit *>(QStringLiteral("outputEdit"))->setText(QStringLiteral("/tmp/x.memhist"));
        QCOMPARE(dialog.request().withExecute, false);
        withExecute->setChecked(true);
        const RecordRequest request = dialog.request();
        QCOMPARE(request.withExecute, true);
        QCOMPARE(recordArguments(request),
            (QStringList { QStringLiteral("record"), QStringLiteral("-o"), QStringLiteral("/tmp/x.memhist"),
                QStringLiteral("--with-exec"), QStringLiteral("--"), QStringLiteral("/bin/echo") }));
    }

    // As for an import: the default output is a free name, and a recording replaces an existing
    // history (the open one named as such) only when the user says so.
    void recordDialogNeverReplacesAHistoryUnasked()
    {
        QTemporaryDir directory;
        QVERIFY(QDir::setCurrent(directory.path()));
        QFile taken(directory.filePath(QStringLiteral("echo.memhist")));
        QVERIFY(taken.open(QIODevice::WriteOnly));
        taken.close();
        QWidget parent;
        RecordDialog dialog(&parent);
        QStringList asked;
        bool answer = false;
        dialog.setReplaceConfirmer([&](QWidget *, const QString &question) {
            asked << question;
            return answer;
        });
        dialog.setOpenHistory(taken.fileName());
        auto *program = dialog.findChild<QLineEdit *>(QStringLiteral("programEdit"));
        auto *output = dialog.findChild<QLineEdit *>(QStringLiteral("outputEdit"));
        program->setText(QStringLiteral("/bin/echo"));
        QCOMPARE(QFileInfo(output->text()).fileName(), QStringLiteral("echo-2.memhist"));
        dialog.show();
        dialog.accept();
        QVERIFY(asked.isEmpty());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));

        output->setText(taken.fileName());
        dialog.show();
        dialog.accept();
        QCOMPARE(asked,
            QStringList { QStringLiteral("echo.memhist is the history open in this window — Replace it with "
                                         "this recording?") });
        QVERIFY(dialog.isVisible()); // "no": the dialog stays, to choose another name
        QVERIFY(!dialog.request().replaceConfirmed);
        answer = true;
        dialog.accept();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.request().outputPath, taken.fileName());
        // The window hands the confirmation to JobController::record(), which refuses without it.
        QVERIFY(dialog.request().replaceConfirmed);
        // It holds for the output that was asked about only.
        output->setText(directory.filePath(QStringLiteral("other.memhist")));
        QVERIFY(!dialog.request().replaceConfirmed);
        QVERIFY(QDir::setCurrent(QDir::tempPath()));
    }

    void recordingKeepsTheProgramsOutputInTheLog()
    {
        QTemporaryDir directory;
        RecordRequest request;
        request.program = QStringLiteral("/bin/echo");
        request.arguments = { QStringLiteral("hello from the recorded program") };
        request.withExecute = true;
        request.outputPath = directory.filePath(QStringLiteral("echo.memhist"));
        MainWindow window;
        window.setInteractive(false);
        window.setMemhistCli(QStringLiteral(MEMHIST_CLI_PATH));
        window.show();
        QSignalSpy recorded(&window, &MainWindow::recordFinished);
        QSignalSpy opened(&window, &MainWindow::historyOpened);
        window.record(request);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), 1, 60000);
        QVERIFY2(recorded.first().at(0).toBool(), qPrintable(recorded.first().at(1).toString()));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30000);
        const QString log = window.messageLog()->text();
        QVERIFY2(
            log.contains(QStringLiteral("] Recording of /bin/echo: what the program and memhist record printed\n")),
            qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("\nhello from the recorded program\n")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("memhist record: ")), qPrintable(log));
        // --with-exec: the history holds executes.
        QVERIFY(window.historyInfo());
        QVERIFY(window.historyInfo()->summary.executes > 0);
    }

    // At 1024x700 every toolbar control is in sight (none in the » overflow, the click radius
    // included), and the plane keeps the larger share of the height, the results table a few rows.
    void smallWindowKeepsTheToolbarAndThePlane()
    {
        QSettings().clear();
        MainWindow window;
        window.setInteractive(false);
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        auto *table = window.queryPanel()->findChild<QTableView *>(QStringLiteral("resultsView"));
        const int rowHeight = table->verticalHeader()->defaultSectionSize();
        // Laid out in two passes (fitFirstLayout()).
        QTRY_VERIFY(window.plane()->height() > window.height() * 45 / 100);
        QTRY_VERIFY2(
            table->viewport()->height() >= 4 * rowHeight, qPrintable(QString::number(table->viewport()->height())));
        // The size asked for before it was shown (a least size left from the docks' setup, side by
        // side, made it 1148 px wide).
        QCOMPARE(window.size(), QSize(1024, 700));
        auto *toolBar = window.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(toolBar->width() <= window.width());
        auto *overflow = toolBar->findChild<QToolButton *>(QStringLiteral("qt_toolbar_ext_button"));
        QVERIFY(overflow);
        QTRY_VERIFY2(!overflow->isVisible(),
            qPrintable(
                QStringLiteral("toolbar %1 wide, needs %2").arg(toolBar->width()).arg(toolBar->sizeHint().width())));
        QStringList hidden;
        for (QAction *action : toolBar->actions()) {
            if (action->isSeparator())
                continue;
            QWidget *widget = toolBar->widgetForAction(action);
            if (!widget || !widget->isVisible() || widget->geometry().right() > toolBar->contentsRect().right())
                hidden << action->text();
        }
        QCOMPARE(hidden, QStringList());
        auto *within = window.findChild<QSpinBox *>(QStringLiteral("queryWindow"));
        QVERIFY(within && within->isVisible());
        // Open, Back and Forward show their icon only, their names in the tooltip.
        for (const QString &name : { QStringLiteral("Open…"), QStringLiteral("Back"), QStringLiteral("Forward") }) {
            QToolButton *button = nullptr;
            for (QAction *action : toolBar->actions()) {
                if (action->toolTip() == name)
                    button = qobject_cast<QToolButton *>(toolBar->widgetForAction(action));
            }
            QVERIFY2(button, qPrintable(name));
            QCOMPARE(button->toolButtonStyle(), Qt::ToolButtonIconOnly);
        }
        // The Detail dock's title bar (and its close button) inside the window.
        auto *detailDock = window.findChild<QDockWidget *>(QStringLiteral("detailDock"));
        QVERIFY(detailDock->isVisible());
        QVERIFY(detailDock->geometry().right() < window.width());
        // Not wider than the screen: the window would run off its right edge, the Detail dock's
        // close button with it.
        QVERIFY2(window.minimumSizeHint().width() <= 1024,
            qPrintable(QStringLiteral("window %1: query panel %2, detail %3, toolbar %4")
                           .arg(window.minimumSizeHint().width())
                           .arg(window.queryPanel()->minimumSizeHint().width())
                           .arg(detailDock->minimumSizeHint().width())
                           .arg(toolBar->minimumSizeHint().width())));
    }

    // The first layout follows the window's size (a window manager sizes a new window after it is
    // shown), until the user sizes the docks.
    void firstLayoutFollowsTheWindowSize()
    {
        QSettings().clear();
        MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        QTRY_VERIFY(window.plane()->height() > window.height() / 2);
        auto *results = window.findChild<QDockWidget *>(QStringLiteral("resultsDock"));
        const int tall = results->height();
        window.resize(1024, 700);
        QTRY_VERIFY2(results->height() <= 700 * 40 / 100, qPrintable(QString::number(results->height())));
        QVERIFY(results->height() < tall);
        QTRY_VERIFY(window.plane()->height() > 700 * 45 / 100);

        // A press on the separator between the plane and the docks: the layout is the user's now,
        // a larger window only gives the plane more.
        const int separatorY = window.plane()->mapTo(&window, QPoint(0, window.plane()->height() - 1)).y() + 2;
        QCOMPARE(window.childAt(QPoint(window.width() / 2, separatorY)), nullptr);
        QTest::mousePress(&window, Qt::LeftButton, {}, QPoint(window.width() / 2, separatorY));
        QTest::mouseRelease(&window, Qt::LeftButton, {}, QPoint(window.width() / 2, separatorY));
        const int chosen = results->height();
        window.resize(1600, 1000);
        QTRY_VERIFY(window.plane()->height() > 1000 / 2);
        QTest::qWait(50);
        QCOMPARE(results->height(), chosen);
    }

    // 4n: the first layout gives the plane the larger share and the results table 8 rows; a
    // history opens with no query and no markers; the charts say what they plotted.
    void firstLayoutGivesThePlaneItsShare()
    {
        QSettings().clear();
        MainWindow window;
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        QTRY_VERIFY(window.plane()->height() > 0);
        auto *table = window.queryPanel()->findChild<QTableView *>(QStringLiteral("resultsView"));
        const int rowHeight = table->verticalHeader()->defaultSectionSize();
        const int visibleRows = table->viewport()->height() / rowHeight;
        const double planeShare = double(window.plane()->height()) / window.height();
        QCOMPARE(visibleRows, 8);
        // No query ran: an empty table that says how to start one, no markers on the plane.
        QVERIFY(!window.queryPanel()->hasQuery());
        QCOMPARE(window.queryPanel()->resultsModel()->rowCount(), 0);
        QCOMPARE(window.queryPanel()->findChild<QLabel *>(QStringLiteral("statusLabel"))->text(),
            QStringLiteral("No query yet: click the plane (Ctrl+click: the accesses before a point), or fill in the "
                           "fields above and Run"));
        QVERIFY(!window.queryPanel()->exportAction()->isEnabled());
        QTest::qWait(200); // a query would have delivered its first page by now
        QCOMPARE(results.size(), 1);
        QVERIFY(results.first().first().value<QList<Access>>().isEmpty());
        // The rest is the plane's: more than half of the window.
        QVERIFY2(planeShare >= 0.5, qPrintable(QString::number(planeShare)));
        // Beside the results, the Detail pane has room for a line of disassembly with its bytes
        // ("  0x400905f  mov rax, qword ptr [rbx + 0x320]  48 8b 83 20 03 00 00": 67 characters),
        // its margins and its scroll bar.
        auto *detail = window.findChild<QTextBrowser *>(QStringLiteral("detailText"));
        QVERIFY(detail);
        const QFontMetrics fixed(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        QVERIFY2(detail->viewport()->width() >= fixed.horizontalAdvance(QString(67, u'0')) + 2 * 4 + 16,
            qPrintable(QStringLiteral("%1 < %2")
                           .arg(detail->viewport()->width())
                           .arg(fixed.horizontalAdvance(QString(67, u'0')) + 2 * 4 + 16)));
    }

    void chartsFooterSaysWhatWasPlotted()
    {
        ChartData data;
        data.range = { Transition { 0 }, Transition { 13 }, Address { 0x601000 }, Address { 0x60100f } };
        data.reads = { 3, 1, 0 };
        data.writes = { 1, 0, 1 };
        data.accessesInRange = 20;
        data.rowsRead = 20;
        QCOMPARE(ChartsPanel::footerText(data, 7),
            QStringLiteral("Transitions 0–13 · addresses 0x601000–0x60100f · plotted 4 reads and 2 writes of the "
                           "visible addresses, counted exactly in the 20 accesses of these transitions · 7 ms"));
        data.estimated = true;
        data.accessesInRange = 5000000;
        data.rowsRead = 128000;
        data.reads = { 1500.4, 2000.3 };
        data.writes = { 10.2 };
        QCOMPARE(ChartsPanel::footerText(data, 12),
            QStringLiteral("Transitions 0–13 · addresses 0x601000–0x60100f · plotted about 3,501 reads and 10 writes "
                           "of the visible addresses, estimated from 128,000 of the 5,000,000 accesses of these "
                           "transitions · 12 ms"));
    }

    // Audit #4: the menus' keys with a modifier (and F1) reach their actions from the SQL editor and
    // the query fields, Ctrl+letter with the control character X11 gives it (Ctrl+I is a TAB); the
    // keys a field uses (Backspace, Home) stay with it.
    void menuKeysWorkFromTextFields()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        ShortcutCatcher catcher;
        const QList<QAction *> actions = menuActionsWithShortcuts(window.menuBar());
        QVERIFY(actions.size() >= 20);
        for (QAction *action : actions)
            action->installEventFilter(&catcher);

        window.showPanel(MainWindow::Panel::Sql);
        auto *editor = window.sqlConsole()->findChild<QPlainTextEdit *>(QStringLiteral("statementEditor"));
        QVERIFY(editor);
        QLineEdit *field = nullptr;
        for (QLineEdit *edit : window.queryPanel()->findChildren<QLineEdit *>()) {
            if (edit->isVisibleTo(window.queryPanel()) && !edit->isReadOnly()) {
                field = edit;
                break;
            }
        }
        QVERIFY(field);
        int tried = 0;
        for (QWidget *widget : { static_cast<QWidget *>(editor), static_cast<QWidget *>(field) }) {
            if (widget == field)
                window.showPanel(MainWindow::Panel::Results);
            widget->setFocus();
            QTRY_VERIFY(widget->hasFocus());
            for (QAction *action : actions) {
                for (const QKeySequence &keys : action->shortcuts()) {
                    const QKeyCombination combination = keys[0];
                    const bool modified = combination.keyboardModifiers() & (Qt::ControlModifier | Qt::AltModifier);
                    const bool function = combination.key() >= Qt::Key_F1 && combination.key() <= Qt::Key_F35;
                    if (!modified && !function)
                        continue;
                    action->setEnabled(true); // some need a selection; only the key's route matters here
                    catcher.caught.clear();
                    pressAsX11(widget, combination);
                    const QString what = widget->objectName() + QStringLiteral(": ")
                        + keys.toString(QKeySequence::NativeText) + QStringLiteral(" ") + action->text();
                    QVERIFY2(catcher.caught == QList<QAction *> { action }, qPrintable(what));
                    QVERIFY2(widget->hasFocus(), qPrintable(what));
                    ++tried;
                }
            }
        }
        QVERIFY(tried >= 40);

        // Backspace and Home are the field's: they edit, and Back and Home do not run.
        window.showPanel(MainWindow::Panel::Sql);
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        window.sqlConsole()->setStatement(QStringLiteral("SELECT 12"));
        editor->moveCursor(QTextCursor::End);
        catcher.caught.clear();
        pressAsX11(editor, QKeyCombination(Qt::Key_Backspace));
        pressAsX11(editor, QKeyCombination(Qt::Key_Home));
        pressAsX11(editor, QKeyCombination(Qt::Key_Plus));
        QCOMPARE(window.sqlConsole()->statement(), QStringLiteral("+SELECT 1"));
        QCOMPARE(catcher.caught, QList<QAction *>());
    }

    // Audit #4, as found under Xvfb: once a dialog of the window closes, the window is active again,
    // so that its window-wide keys work without a click.
    void windowIsActiveAgainWhenADialogCloses()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        auto *box = new QMessageBox(
            QMessageBox::Warning, QStringLiteral("Title"), QStringLiteral("Message"), QMessageBox::Ok, &window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        QVERIFY(QTest::qWaitForWindowExposed(box));
        box->activateWindow();
        QTRY_COMPARE(QApplication::activeWindow(), box);
        box->accept();
        QTRY_COMPARE(QApplication::activeWindow(), &window);
    }

    // Audit #14: Ctrl+1 … Ctrl+6 show the tabs in their order.
    void tabKeysFollowTheTabOrder()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        const QStringList titles { QStringLiteral("Results"), QStringLiteral("Charts"), QStringLiteral("SQL Console"),
            QStringLiteral("Executions"), QStringLiteral("Bookmarks"), QStringLiteral("Log") };
        QTabBar *tabs = nullptr;
        for (QTabBar *bar : window.findChildren<QTabBar *>()) {
            if (bar->count() == titles.size())
                tabs = bar;
        }
        QVERIFY(tabs);
        for (int index = 0; index < titles.size(); ++index)
            QCOMPARE(tabs->tabText(index), titles.at(index));
        QWidget *focus = window.plane();
        focus->setFocus();
        for (int key = 0; key < titles.size(); ++key) {
            QTest::keyClick(focus, Qt::Key(Qt::Key_1 + key), Qt::ControlModifier);
            QCOMPARE(tabs->currentIndex(), key);
            QCOMPARE(tabs->tabText(key), titles.at(key));
        }
    }

    // Audit #5: Go to Transition suggests a transition of the history and refuses one outside it.
    void goToTransitionStaysInTheHistory()
    {
        QCOMPARE(transitionOutOfRange(999999999, Transition { 1 }, Transition { 149092 }),
            QStringLiteral("999,999,999 is after the last transition (149,092)."));
        QCOMPARE(transitionOutOfRange(0, Transition { 1 }, Transition { 149092 }),
            QStringLiteral("0 is before the first transition (1)."));
        QCOMPARE(transitionOutOfRange(~std::uint64_t(0), Transition { 1 }, Transition { 149092 }),
            QStringLiteral("18,446,744,073,709,551,615 is after the last transition (149,092)."));
        QCOMPARE(transitionOutOfRange(1, Transition { 1 }, Transition { 149092 }), QString());
        QCOMPARE(transitionOutOfRange(149092, Transition { 1 }, Transition { 149092 }), QString());
        QCOMPARE(transitionPlaceholder(Transition { 1 }, Transition { 149092 }), QStringLiteral("74,546"));
        QCOMPARE(transitionPlaceholder(Transition { 0 }, Transition { 13 }), QStringLiteral("6"));

        MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, m_smallHistory));
        PlaneWidget *plane = window.plane();
        plane->setVisibleRange({ Transition { 2 }, Transition { 5 }, Address { 0x601000 }, Address { 0x60100f } });
        const ViewRange before = plane->visibleRange();
        const QString status = window.hoverText();
        QString error;
        QVERIFY(!window.navigator()->goToTransitionText(QStringLiteral("999999999"), &error));
        QCOMPARE(error, QStringLiteral("999,999,999 is after the last transition (13)."));
        QVERIFY(!window.navigator()->goToTransitionText(QStringLiteral("0x20"), &error));
        QCOMPARE(error, QStringLiteral("32 is after the last transition (13)."));
        QVERIFY(!window.navigator()->goToTransitionText(QStringLiteral("ten"), &error));
        QCOMPARE(error, QStringLiteral("“ten” is not a transition: type a number (150218, 150,218 or 0x24aca)."));
        QCOMPARE(plane->visibleRange(), before);
        QCOMPARE(window.hoverText(), status);
        QVERIFY(!plane->currentLineX());
        QVERIFY(window.navigator()->goToTransitionText(QStringLiteral("13"), &error));
        QCOMPARE(window.hoverText(), QStringLiteral("Transition 13"));
        // The position line marks where it went (as it does for an execution picked in its tab).
        QVERIFY(plane->currentLineX());

        // Go ▸ Go to Transition's dialog.
        QString placeholder;
        QString refusal;
        bool stayedOpen = false;
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = window.findChild<GoToDialog *>(QStringLiteral("goToDialog"));
            if (!dialog)
                return;
            placeholder = dialog->edit()->placeholderText();
            dialog->edit()->setText(QStringLiteral("150,218"));
            dialog->accept();
            refusal = dialog->errorText();
            stayedOpen = dialog->isVisible();
            dialog->reject();
        });
        const ViewRange atThirteen = plane->visibleRange();
        window.navigator()->action(Navigator::Action::GoToTransition)->trigger();
        QCOMPARE(placeholder, QStringLiteral("6"));
        QCOMPARE(refusal, QStringLiteral("150,218 is after the last transition (13)."));
        QVERIFY(stayedOpen);
        QCOMPARE(plane->visibleRange(), atThirteen);
    }

    // Audit #6: a refusal longer than the dialog is wide wraps, and the dialog grows to show it all.
    void goToDialogShowsAWholeLongMessage()
    {
        const QString message
            = QStringLiteral("“nosuchsym” is neither an address nor a function or data object of this history.");
        GoToDialog dialog(QStringLiteral("Go to Address or Symbol"),
            QStringLiteral("Address, function or data object (name or name+offset):"), QString(),
            [&](const QString &, QString *error) {
                *error = message;
                return false;
            });
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const int heightBefore = dialog.height();
        dialog.edit()->setText(QStringLiteral("nosuchsym"));
        dialog.accept();
        QCOMPARE(dialog.errorText(), message);
        auto *label = dialog.findChild<QLabel *>(QStringLiteral("goToError"));
        QVERIFY(label);
        QVERIFY(label->isVisible());
        // It does not fit on one line: wrapped, on two or more, and as tall as they are.
        QVERIFY(label->contentsRect().width() < label->fontMetrics().horizontalAdvance(message));
        QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()),
            qPrintable(QStringLiteral("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
        QVERIFY(label->heightForWidth(label->width()) >= 2 * label->fontMetrics().lineSpacing());
        QVERIFY(dialog.height() > heightBefore);
    }

    // A summary wider than the window ends in "…" (not cut inside a word), the whole of it in the
    // tooltip; with room again it is whole, and the tooltip is the one given.
    void summaryTooLongForTheLineIsElided()
    {
        StatusPanel panel;
        const QString text = QStringLiteral("transitions 1..10,000,000 (10,000,000) · 100,000,000 accesses · "
                                            "4,735 slices · source memhist-bench seed 1 (synthetic)");
        panel.setSummary(text, QStringLiteral("the file"));
        panel.resize(400, panel.sizeHint().height());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *summary = panel.findChild<QLabel *>(QStringLiteral("summaryLabel"));
        QVERIFY(summary);
        QTRY_VERIFY(summary->text().endsWith(QStringLiteral("…")));
        QVERIFY(text.startsWith(summary->text().chopped(1)));
        QVERIFY(summary->geometry().right() <= panel.width());
        QCOMPARE(summary->toolTip(), text + QStringLiteral("\n\nthe file"));
        panel.resize(1600, panel.height());
        QTRY_COMPARE(summary->text(), text);
        QCOMPARE(summary->toolTip(), QStringLiteral("the file"));
    }

    // Audit #10: a status tip shows in the hover line; both lines of the status area stay, and the
    // tip goes when the mouse leaves, or is found elsewhere when the leave was missed.
    void statusTipsKeepTheSummary()
    {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        auto *summary = window.findChild<QLabel *>(QStringLiteral("summaryLabel"));
        auto *panel = window.findChild<StatusPanel *>(QStringLiteral("statusPanel"));
        QVERIFY(summary && panel);
        const QString before = window.hoverText();
        auto *toolBar = window.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QToolButton *forward = nullptr;
        for (QAction *action : toolBar->actions()) {
            if (action->text() == QStringLiteral("&Forward"))
                forward = qobject_cast<QToolButton *>(toolBar->widgetForAction(action));
        }
        QVERIFY(forward);
        const QString tip = QStringLiteral("Go to the next view of the plane");
        QCOMPARE(forward->statusTip(), tip);

        QStatusTipEvent enter(tip);
        QCoreApplication::sendEvent(forward, &enter);
        QCOMPARE(window.hoverText(), tip);
        QCOMPARE(panel->statusTip(), tip);
        QVERIFY(panel->isVisible());
        QVERIFY(summary->isVisible());
        QCOMPARE(summary->text(), smallSummary);
        QCOMPARE(window.statusBar()->currentMessage(), QString());

        QStatusTipEvent leave { QString() };
        QCoreApplication::sendEvent(forward, &leave);
        QCOMPARE(window.hoverText(), before);
        QCOMPARE(panel->statusTip(), QString());

        // No leave: the mouse is elsewhere, the tip goes by itself.
        QCursor::setPos(window.mapToGlobal(QPoint(-200, -200)));
        QCoreApplication::sendEvent(forward, &enter);
        QCOMPARE(window.hoverText(), tip);
        QTRY_COMPARE(panel->statusTip(), QString());
        QVERIFY(window.hoverText() != tip);
        QVERIFY(summary->isVisible());
    }

    // Issue 29.6: in every menu, each &-mnemonic letter is one item's (Alt+letter picks one, not the
    // first of several), and the menu bar's titles too.
    void menuMnemonicsAreUnique()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(openAndWait(window, m_smallHistory));
        const auto mnemonic = [](const QString &text) -> QChar {
            for (qsizetype i = 0; i + 1 < text.size(); ++i) {
                if (text[i] == u'&') {
                    if (text[i + 1] != u'&')
                        return text[i + 1].toLower();
                    ++i;
                }
            }
            return {};
        };
        int menus = 0;
        int mnemonics = 0;
        const std::function<void(const QString &, const QList<QAction *> &)> check
            = [&](const QString &where, const QList<QAction *> &actions) {
                  ++menus;
                  QHash<QChar, QString> seen;
                  for (QAction *action : actions) {
                      if (action->isSeparator())
                          continue;
                      const QChar letter = mnemonic(action->text());
                      if (!letter.isNull()) {
                          ++mnemonics;
                          QVERIFY2(!seen.contains(letter),
                              qPrintable(QStringLiteral("%1: &%2 is both %3 and %4")
                                             .arg(where, letter, seen.value(letter), action->text())));
                          seen.insert(letter, action->text());
                      }
                      if (action->menu())
                          check(where + QStringLiteral(" ▸ ") + action->text(), action->menu()->actions());
                  }
              };
        check(QStringLiteral("menu bar"), window.menuBar()->actions());
        QVERIFY(menus >= 6);
        QVERIFY(mnemonics >= 40);
    }

    // Issue 29.6: the View menu names each pane once, and its key brings it to the front.
    void viewMenuListsEachPaneOnce()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QMenu *view = nullptr;
        for (QAction *action : window.menuBar()->actions()) {
            if (action->text() == QStringLiteral("&View"))
                view = action->menu();
        }
        QVERIFY(view);
        QStringList texts;
        for (QAction *action : view->actions()) {
            if (!action->isSeparator())
                texts << action->text() + QStringLiteral(" ") + action->shortcut().toString(QKeySequence::PortableText);
        }
        const QString back = QKeySequence::keyBindings(QKeySequence::Back).constFirst().toString();
        const QString forward = QKeySequence(QKeySequence::Forward).toString();
        QCOMPARE(texts,
            (QStringList { QStringLiteral("&Back ") + back, QStringLiteral("&Forward ") + forward,
                QStringLiteral("&Home Home"), QStringLiteral("Zoom &In +"), QStringLiteral("Zoom &Out -"),
                QStringLiteral("&Results Ctrl+1"), QStringLiteral("&Charts Ctrl+2"),
                QStringLiteral("&SQL Console Ctrl+3"), QStringLiteral("&Executions Ctrl+4"),
                QStringLiteral("Boo&kmarks Ctrl+5"), QStringLiteral("&Log Ctrl+6"), QStringLiteral("&Detail Ctrl+7"),
                QStringLiteral("&Memory Ctrl+M"), QStringLiteral("Differe&nces Ctrl+8"),
                QStringLiteral("Next &Pane Ctrl+Tab"), QStringLiteral("Pre&vious Pane Ctrl+Shift+Backtab"),
                QStringLiteral("&Toolbar ") }));
        // Checked while open. Its key: the Log to the front with the focus; again: hidden.
        auto *log = window.findChild<QAction *>(QStringLiteral("logPaneAction"));
        auto *logDock = window.findChild<QDockWidget *>(QStringLiteral("logDock"));
        QVERIFY(log && logDock);
        QVERIFY(log->isChecked());
        QVERIFY(logDock->visibleRegion().isEmpty()); // behind the Results tab
        window.plane()->setFocus();
        QTest::keyClick(window.plane(), Qt::Key_6, Qt::ControlModifier);
        QVERIFY(!logDock->visibleRegion().isEmpty());
        QTRY_VERIFY(logDock->isAncestorOf(QApplication::focusWidget()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_6, Qt::ControlModifier);
        QVERIFY(logDock->isHidden());
        QVERIFY(!log->isChecked());
        QTRY_COMPARE(QApplication::focusWidget(), window.plane());
        QTest::keyClick(window.plane(), Qt::Key_6, Qt::ControlModifier);
        QVERIFY(logDock->isVisible());
        QVERIFY(log->isChecked());
    }

    // Issue 29.5: Tab leaves the results table, the arrows move the current row and the Detail pane
    // shows that row, and Ctrl+Tab / Ctrl+Shift+Tab go from pane to pane.
    void tabLeavesTheTableAndCtrlTabGoesFromPaneToPane()
    {
        MainWindow window;
        window.setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        window.queryPanel()->runQuery(HalfAxisQuery {});
        // The reads and the writes: 15 rows.
        QTRY_VERIFY(!results.isEmpty() && results.constLast().first().value<QList<Access>>().size() == 15);
        const QList<Access> rows = results.constLast().first().value<QList<Access>>();
        QTableView *table = window.queryPanel()->resultsView();
        QSignalSpy detailShown(window.detailPane(), &DetailPane::detailShown);
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        table->setCurrentIndex(table->model()->index(0, 0));
        QTRY_VERIFY(window.detailPane()->detail() && window.detailPane()->detail()->access.rowId == rows[0].rowId);
        for (const int row : { 1, 2 }) {
            QTest::keyClick(table, Qt::Key_Down);
            QTRY_VERIFY(
                window.detailPane()->detail() && window.detailPane()->detail()->access.rowId == rows[row].rowId);
            QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
            QCOMPARE(table->selectionModel()->selectedRows().constFirst().row(), row);
        }
        // Tab: out of the table, which keeps its current row; the Detail pane keeps showing it.
        const int shownBefore = int(detailShown.count());
        QTest::keyClick(table, Qt::Key_Tab);
        QVERIFY(!table->hasFocus());
        QCOMPARE(table->currentIndex().row(), 2);
        QCOMPARE(detailShown.count(), shownBefore);
        QCOMPARE(window.detailPane()->detail()->access.rowId, rows[2].rowId);

        // Ctrl+Tab: the plane, the Results (its rows), the Detail pane, the plane again.
        const auto paneOf = [&window]() -> QString {
            QWidget *focus = QApplication::focusWidget();
            if (focus == window.plane())
                return QStringLiteral("plane");
            for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
                if (dock->isAncestorOf(focus))
                    return dock->objectName();
            }
            return QStringLiteral("elsewhere");
        };
        window.plane()->setFocus();
        QTRY_COMPARE(paneOf(), QStringLiteral("plane"));
        QStringList visited;
        for (int i = 0; i < 3; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ControlModifier);
            visited << paneOf();
        }
        QCOMPARE(visited,
            (QStringList { QStringLiteral("resultsDock"), QStringLiteral("detailDock"), QStringLiteral("plane") }));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(), table);
        QTest::keyClick(table, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(paneOf(), QStringLiteral("plane"));
        QTest::keyClick(window.plane(), Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(paneOf(), QStringLiteral("detailDock"));
        // From the SQL editor, whose Tab is its own, Ctrl+Tab still leaves.
        window.showPanel(MainWindow::Panel::Sql);
        auto *editor = window.sqlConsole()->findChild<QPlainTextEdit *>(QStringLiteral("statementEditor"));
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(paneOf(), QStringLiteral("detailDock"));
    }

    // Issue 29.5: Ctrl+E exports from a query field that would take Ctrl+E itself (X11's key
    // bindings make it the field's end of line), and from the plane.
    void ctrlEExportsFromAnywhere()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(openAndWait(window, m_smallHistory));
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        window.queryPanel()->runQuery(HalfAxisQuery {});
        QTRY_VERIFY(!results.isEmpty() && !results.constLast().first().value<QList<Access>>().isEmpty());
        QAction *exportAction = window.queryPanel()->exportAction();
        QTRY_VERIFY(exportAction->isEnabled());
        QCOMPARE(exportAction->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        ShortcutCatcher catcher;
        exportAction->installEventFilter(&catcher);

        QLineEdit *field = nullptr;
        for (QLineEdit *edit : window.queryPanel()->findChildren<QLineEdit *>()) {
            if (edit->isVisibleTo(window.queryPanel()) && !edit->isReadOnly()) {
                field = edit;
                break;
            }
        }
        QVERIFY(field);
        // The field as it is under X11 (emacs-style Ctrl+E), whatever this platform's bindings are.
        struct EndOfLineField : QObject
        {
            int offered = 0;
            bool eventFilter(QObject *, QEvent *event) override
            {
                if (event->type() == QEvent::ShortcutOverride
                    && static_cast<QKeyEvent *>(event)->keyCombination() == QKeyCombination(Qt::CTRL | Qt::Key_E)) {
                    ++offered;
                    event->accept();
                    return true;
                }
                return false;
            }
        } x11Field;
        field->installEventFilter(&x11Field);
        field->setFocus();
        QTRY_VERIFY(field->hasFocus());
        pressAsX11(field, QKeyCombination(Qt::CTRL | Qt::Key_E));
        QCOMPARE(catcher.caught, QList<QAction *> { exportAction });
        QCOMPARE(x11Field.offered, 0);
        QVERIFY(field->hasFocus());
        // Copy and Select All stay the field's.
        catcher.caught.clear();
        field->setText(QStringLiteral("0x601000"));
        QTest::keySequence(field, QKeySequence::SelectAll);
        QCOMPARE(field->selectedText(), QStringLiteral("0x601000"));
        // From the plane too.
        window.plane()->setFocus();
        QTRY_VERIFY(window.plane()->hasFocus());
        pressAsX11(window.plane(), QKeyCombination(Qt::CTRL | Qt::Key_E));
        QCOMPARE(catcher.caught, QList<QAction *> { exportAction });
    }

    // Issue 29.5: Help ▸ Keyboard Shortcuts changes a key, names a conflict, keeps the change in
    // the settings and the next window applies it; Default gives the key back.
    void keyboardShortcutsAreEditable()
    {
        QSettings().remove(QStringLiteral("shortcuts"));
        {
            MainWindow window;
            window.setInteractive(false);
            window.show();
            QVERIFY(QTest::qWaitForWindowActive(&window));
            QVERIFY(window.findChild<QAction *>(QStringLiteral("keyboardShortcutsAction")));
            QAction *previousWrite = window.navigator()->action(Navigator::Action::PreviousWrite);
            QCOMPARE(previousWrite->shortcut(), QKeySequence(Qt::Key_F7));
            QCOMPARE(previousWrite->toolTip(),
                QStringLiteral("The last write to the selected access's bytes before it (F7)"));

            ShortcutsDialog dialog(shortcutEntries(window.menuBar()), &window);
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            auto *keyEdit = dialog.findChild<QKeySequenceEdit *>(QStringLiteral("keyEdit"));
            auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
            QVERIFY(keyEdit && ok);
            QVERIFY(dialog.selectEntry(QStringLiteral("Go/Previous Write")));
            QCOMPARE(keyEdit->keySequence(), QKeySequence(Qt::Key_F7));
            // Ctrl+G is Go to Transition's: named, and OK waits.
            keyEdit->setFocus();
            QTest::keyClick(keyEdit, Qt::Key_G, Qt::ControlModifier);
            QTRY_COMPARE(dialog.conflictText(),
                QStringLiteral("Ctrl+G is the key of Go ▸ Previous Write and Go ▸ Go to Transition: choose one."));
            QVERIFY(!ok->isEnabled());
            QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("clearKeyButton")), Qt::LeftButton);
            QCOMPARE(dialog.conflictText(), QString());
            QVERIFY(ok->isEnabled());
            keyEdit->setFocus();
            QTest::keyClick(keyEdit, Qt::Key_P, Qt::ControlModifier);
            auto *list = dialog.findChild<QTreeWidget *>(QStringLiteral("shortcutsList"));
            QCOMPARE(list->currentItem()->text(0), QStringLiteral("Go ▸ Previous Write"));
            QTRY_COMPARE(list->currentItem()->text(1), QStringLiteral("Ctrl+P"));
            QCOMPARE(keyEdit->keySequence(), QKeySequence(Qt::CTRL | Qt::Key_P));
            QTest::mouseClick(ok, Qt::LeftButton);
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QCOMPARE(previousWrite->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
            QCOMPARE(previousWrite->toolTip(),
                QStringLiteral("The last write to the selected access's bytes before it (Ctrl+P)"));
            QCOMPARE(
                QSettings().value(QStringLiteral("shortcuts/Go/Previous Write")).toString(), QStringLiteral("Ctrl+P"));
            QCOMPARE(QSettings().allKeys().filter(QStringLiteral("shortcuts/")).size(), 1);
        }
        {
            // The next window has it; Ctrl+P reaches the action, F7 no longer does.
            MainWindow window;
            window.setInteractive(false);
            window.show();
            QVERIFY(QTest::qWaitForWindowActive(&window));
            QAction *previousWrite = window.navigator()->action(Navigator::Action::PreviousWrite);
            QCOMPARE(previousWrite->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
            previousWrite->setEnabled(true);
            ShortcutCatcher catcher;
            previousWrite->installEventFilter(&catcher);
            window.plane()->setFocus();
            QTest::keyClick(window.plane(), Qt::Key_P, Qt::ControlModifier);
            QTest::keyClick(window.plane(), Qt::Key_F7);
            QCOMPARE(catcher.caught, QList<QAction *> { previousWrite });
            // Help ▸ Mouse and Keys lists the key it has now.
            bool listed = false;
            for (const HelpEntry &entry : menuShortcuts(window.menuBar()))
                listed = listed
                    || entry.what == QStringLiteral("Go ▸ Previous Write") && entry.keys == QStringLiteral("Ctrl+P");
            QVERIFY(listed);

            ShortcutsDialog dialog(shortcutEntries(window.menuBar()), &window);
            QVERIFY(dialog.selectEntry(QStringLiteral("Go/Previous Write")));
            QTest::mouseClick(dialog.findChild<QPushButton *>(QStringLiteral("defaultKeyButton")), Qt::LeftButton);
            dialog.accept();
            QCOMPARE(previousWrite->shortcut(), QKeySequence(Qt::Key_F7));
            QVERIFY(!QSettings().contains(QStringLiteral("shortcuts/Go/Previous Write")));
            QCOMPARE(window.messageLog()->text(), QString());
        }
        {
            // A key stored for one item that another has (a newer default): the Log says so.
            QSettings().setValue(QStringLiteral("shortcuts/Go/Next Write"), QStringLiteral("Ctrl+G"));
            MainWindow window;
            window.setInteractive(false);
            QVERIFY2(window.messageLog()->text().contains(
                         QStringLiteral("Ctrl+G is the key of Go ▸ Next Write and Go ▸ Go to Transition: neither runs "
                                        "until one is changed in Help ▸ Keyboard Shortcuts.")),
                qPrintable(window.messageLog()->text()));
            QSettings().remove(QStringLiteral("shortcuts"));
        }
    }

    // Issue 29.7: the window's export writes the columns the table shows, the context with them
    // (as `memhist export --context`), or plain rows when chosen (as `memhist export`).
    void exportKeepsTheTablesContextColumns_data()
    {
        QTest::addColumn<bool>("plain");
        QTest::newRow("as the table") << false;
        QTest::newRow("plain rows") << true;
    }

    void exportKeepsTheTablesContextColumns()
    {
        QFETCH(bool, plain);
        QTemporaryDir directory;
        const QString history = directory.filePath(QStringLiteral("small-drmemtrace.memhist"));
        QVERIFY(importFixture(testData(QStringLiteral("drmemtrace/drmemtrace.small.x64.trace")), history));
        MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(openAndWait(window, history));
        QSignalSpy results(window.queryPanel(), &QueryPanel::resultsChanged);
        window.queryPanel()->runQuery(HalfAxisQuery {});
        QTRY_VERIFY(!results.isEmpty() && !results.constLast().first().value<QList<Access>>().isEmpty());
        QCOMPARE(QueryPanel::exportFileFilters().size(), 3);

        const QString fromWindow = directory.filePath(QStringLiteral("window.csv"));
        QSignalSpy exported(window.queryPanel(), &QueryPanel::exportFinished);
        window.queryPanel()->exportTo(fromWindow,
            plain ? QueryPanel::ExportColumnsChoice::PlainRows : QueryPanel::ExportColumnsChoice::AsTheTable);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 30000);
        QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(1).toString()));

        const QString fromCli = directory.filePath(QStringLiteral("cli.csv"));
        QStringList arguments { QStringLiteral("export"), history, QStringLiteral("-o"), fromCli,
            QStringLiteral("--ops"), QStringLiteral("rw"), QStringLiteral("--thread-column") };
        if (!plain)
            arguments << QStringLiteral("--context");
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
        const QByteArray header = windowBytes.left(windowBytes.indexOf('\n'));
        QCOMPARE(header,
            plain ? QByteArray("rowid,transition,operation,address,linear,size,thread")
                  : QByteArray(
                      "rowid,transition,operation,address,linear,size,thread,pc,function,source,instruction,region"));
        QVERIFY(windowBytes.count('\n') > 10);

        // Issue 29.6: what the export said belongs to this history: gone once another opens.
        auto *resultsStatus = window.queryPanel()->findChild<QLabel *>(QStringLiteral("statusLabel"));
        QVERIFY(resultsStatus);
        QVERIFY2(resultsStatus->text().contains(QStringLiteral("Exported ")), qPrintable(resultsStatus->text()));
        QVERIFY2(window.hoverText().startsWith(QStringLiteral("Exported ")), qPrintable(window.hoverText()));
        QVERIFY(openAndWait(window, m_smallHistory));
        QCOMPARE(window.hoverText(), QStringLiteral("Opened small.memhist"));
        QVERIFY2(!resultsStatus->text().contains(QStringLiteral("Export")), qPrintable(resultsStatus->text()));
    }

private:
    QTemporaryDir m_directory;
    QString m_smallHistory;
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
