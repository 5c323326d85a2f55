// SPDX-License-Identifier: MIT
// Accesses by Function… (Ctrl+Shift+F) driven by keys on a recorded program (data/programs/
// calls.c): a misspelt name is refused under the field with the name that contains it, the name
// typed with its callees checked fills the Results tab with exactly the engine's rows (marked on the
// plane), the filter shows beside the operations until its ✕ lifts it; and picking an execution in
// the Executions list moves the plane to the bytes that execution accessed.
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/storage/historydatabase.h"
#include "executionspanel.h"
#include "functionaccessesdialog.h"
#include "mainwindow.h"
#include "navigator.h"
#include "testsupport.h"
#include "toolchain.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCompleter>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace memhist;
using namespace memhist::test;

class TestFunctionAccessesDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void keysFillTheResults();
    void anExecutionPickedShowsItsBytes();

private:
    QList<Access> engineRows(const HalfAxisQuery &query);
    std::unique_ptr<viewer::MainWindow> openWindow();

    QTemporaryDir m_dir;
    QString m_history;
    std::uint64_t m_values = 0;
};

void TestFunctionAccessesDialog::initTestCase()
{
    if (ValgrindProcess::findValgrind().isEmpty())
        QSKIP("valgrind is not installed");
    QString why;
    QVERIFY2(!ToolRecorder::toolDirectory(&why).isEmpty(), qPrintable(why));
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::copy(QFINDTESTDATA("../data/programs/calls.c"), m_dir.filePath(QStringLiteral("calls.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "calls", "calls.c" }, m_dir.path()));
    m_history = m_dir.filePath(QStringLiteral("calls.memhist"));
    const CliResult record = runCli({ QStringLiteral("record"), QStringLiteral("-o"), m_history, QStringLiteral("--"),
        m_dir.filePath(QStringLiteral("calls")) });
    QVERIFY2(record.exitCode == 0, record.err.constData());
    const QRegularExpressionMatch match
        = QRegularExpression(QStringLiteral("values=(0x[0-9a-f]+)")).match(QString::fromLatin1(record.out));
    QVERIFY(match.hasMatch());
    m_values = match.captured(1).toULongLong(nullptr, 16);
}

QList<Access> TestFunctionAccessesDialog::engineRows(const HalfAxisQuery &query)
{
    QString error;
    const std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(m_history, &error);
    if (!database)
        return {};
    HalfAxisQueryEngine engine(*database);
    HalfAxisQuery all = query;
    all.limit = 1u << 20;
    QueryPage page;
    if (!engine.run(all, &page, &error))
        qWarning("%s", qPrintable(error));
    return page.accesses;
}

std::unique_ptr<viewer::MainWindow> TestFunctionAccessesDialog::openWindow()
{
    auto window = std::make_unique<viewer::MainWindow>();
    window->setInteractive(false);
    window->resize(1200, 800);
    window->show();
    QSignalSpy planeLoaded(window->plane(), &PlaneWidget::historyLoaded);
    window->openHistory(m_history);
    if (!QTest::qWaitFor([&] { return planeLoaded.count() == 1; }, 20000)
        || !QTest::qWaitFor([&] { return window->navigator()->symbolsRead(); }, 20000))
        return nullptr;
    window->activateWindow();
    if (!QTest::qWaitForWindowActive(window.get()))
        return nullptr;
    return window;
}

// Closes the name's completion list and gives the dialog and its name field the focus back, as they
// have for a user who goes on typing. On the offscreen platform the closing popup can hand the
// activation back to the main window before the dialog has it (a third of the runs on a loaded
// machine); the keys then reached whatever the dialog had focused before, not the name field.
static void closeCompletion(viewer::FunctionAccessesDialog *dialog)
{
    dialog->nameEdit()->completer()->popup()->hide();
    dialog->activateWindow();
    QTest::qWaitForWindowActive(dialog);
    dialog->nameEdit()->setFocus();
}

void TestFunctionAccessesDialog::keysFillTheResults()
{
    const auto window = openWindow();
    QVERIFY(window);
    auto *action = window->findChild<QAction *>(QStringLiteral("functionAccessesAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    QueryPanel *panel = window->queryPanel();
    QSignalSpy results(panel, &QueryPanel::resultsChanged);

    // The dialog, driven by keys while it runs modal (checked after it closed: a failed check inside
    // would leave it open).
    QStringList errors;
    bool stayedOpen = false;
    QString afterName; // the objectName of the widget with the dialog's focus
    QString afterCallees;
    bool accepted = false;
    QTimer driver;
    driver.setInterval(20);
    connect(&driver, &QTimer::timeout, this, [&] {
        auto *dialog = qobject_cast<viewer::FunctionAccessesDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        driver.stop();
        dialog->activateWindow();
        QTest::qWaitForWindowActive(dialog);
        QTest::keyClicks(dialog->nameEdit(), QStringLiteral("countdow"));
        closeCompletion(dialog);
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Return);
        errors << dialog->errorText();
        stayedOpen = dialog->isVisible();
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), QStringLiteral("fill"));
        closeCompletion(dialog);
        if (!qEnvironmentVariableIsEmpty("MEMHIST_SHOTS"))
            dialog->grab().save(
                qEnvironmentVariable("MEMHIST_SHOTS") + QStringLiteral("/function-accesses-dialog.png"));
        // Tab to the callees box, Space checks it; Tab, Space: reads off, writes only; Return.
        QTest::keyClick(dialog->nameEdit(), Qt::Key_Tab);
        afterName = dialog->focusWidget()->objectName();
        QTest::keyClick(dialog->focusWidget(), Qt::Key_Space);
        QTest::keyClick(dialog->focusWidget(), Qt::Key_Tab);
        afterCallees = dialog->focusWidget()->objectName();
        QTest::keyClick(dialog->focusWidget(), Qt::Key_Space);
        QTest::keyClick(dialog->focusWidget(), Qt::Key_Return);
        accepted = !dialog->isVisible();
        if (dialog->isVisible())
            dialog->reject();
    });
    driver.start();
    QTest::keyClick(window.get(), Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
    driver.stop();
    QCOMPARE(errors,
        QStringList { QStringLiteral("No function named 'countdow' ran in this history; did you mean "
                                     "countdown?") });
    QVERIFY(stayedOpen);
    QCOMPARE(afterName, QStringLiteral("calleesCheck"));
    QCOMPARE(afterCallees, QStringLiteral("readsCheck"));
    QVERIFY(accepted);

    HalfAxisQuery expectedQuery;
    expectedQuery.function = FunctionFilter { QStringLiteral("fill"), true };
    expectedQuery.operations = Operation::Write;
    QCOMPARE(panel->currentQuery().function, expectedQuery.function);
    QCOMPARE(panel->currentQuery().operations, expectedQuery.operations);
    const QList<Access> expected = engineRows(expectedQuery);
    QVERIFY(expected.size() > 18); // the 18 writes to values and marks, and the stack's
    ResultsModel *model = panel->resultsModel();
    while (!model->isExhausted()) {
        QTRY_VERIFY(!model->isLoading());
        if (model->canFetchMore({}))
            model->fetchMore({});
        QTRY_VERIFY(!model->isLoading());
    }
    QCOMPARE(model->loadedAccesses(), expected);
    // Marked on the plane: what the plane is given is every row loaded.
    QVERIFY(!results.isEmpty());
    QCOMPARE(results.constLast().at(0).value<QList<Access>>(), expected);
    auto *label = panel->findChild<QLabel *>(QStringLiteral("functionLabel"));
    auto *clear = panel->findChild<QToolButton *>(QStringLiteral("clearFunctionButton"));
    QVERIFY(label && clear);
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), QStringLiteral("while fill ran"));

    if (!qEnvironmentVariableIsEmpty("MEMHIST_SHOTS"))
        window->grab().save(qEnvironmentVariable("MEMHIST_SHOTS") + QStringLiteral("/function-accesses.png"));

    // Export CSV… writes the function's rows (every one, not the whole history's).
    QSignalSpy exported(panel, &QueryPanel::exportFinished);
    const QString csv = m_dir.filePath(QStringLiteral("fill.csv"));
    panel->exportTo(csv);
    QVERIFY(exported.wait(20000));
    QVERIFY2(exported.constFirst().at(0).toBool(), qPrintable(exported.constFirst().at(1).toString()));
    QCOMPARE(readFile(csv).count('\n'), expected.size() + 1);

    // Run keeps the filter (it is part of the inputs); ✕ lifts it and runs every write.
    QTest::mouseClick(panel->findChild<QWidget *>(QStringLiteral("runButton")), Qt::LeftButton);
    QCOMPARE(panel->currentQuery().function, expectedQuery.function);
    QTest::mouseClick(clear, Qt::LeftButton);
    QVERIFY(!label->isVisible());
    QVERIFY(!panel->currentQuery().function.isSet());
    QCOMPARE(panel->currentQuery().operations, Operations(Operation::Write));
}

void TestFunctionAccessesDialog::anExecutionPickedShowsItsBytes()
{
    const auto window = openWindow();
    QVERIFY(window);
    // fill's store to values[i]: twelve executions, each writing 4 bytes of values.
    HalfAxisQuery stores;
    stores.function = FunctionFilter { QStringLiteral("fill"), false };
    stores.operations = Operation::Write;
    stores.first = Address { m_values };
    stores.last = Address { m_values + 31 };
    const QList<Access> writes = engineRows(stores);
    QCOMPARE(writes.size(), 12);

    viewer::Navigator *navigator = window->navigator();
    navigator->selectAccess(writes[0]);
    QTRY_VERIFY(navigator->selectedAccess() && navigator->selectedAccess()->rowId == writes[0].rowId);
    viewer::ExecutionsPanel *panel = navigator->executionsPanel();
    viewer::ExecutionsModel *model = panel->model();
    navigator->action(viewer::Navigator::Action::Executions)->trigger();
    QTRY_VERIFY(model->pc().has_value() && !model->isLoading());
    QCOMPARE(model->rowCount(), 12);

    QSignalSpy found(panel, &viewer::ExecutionsPanel::accessesFound);
    // The plane somewhere else entirely: the first transitions, every address.
    window->plane()->setVisibleRange({ Transition { 0 }, Transition { 99 }, Address { 0 }, Address { 0xffff } });
    panel->activate(5); // values[5] = 6
    QVERIFY(found.wait(10000));
    QCOMPARE(found.constFirst().at(0).value<Transition>(), writes[5].transition);
    QCOMPARE(found.constFirst().at(1).value<Address>(), Address { m_values + 20 });
    QCOMPARE(found.constFirst().at(2).value<Address>(), Address { m_values + 23 });
    if (!qEnvironmentVariableIsEmpty("MEMHIST_SHOTS")) {
        QTest::qWait(500); // the plane's image of the new view
        window->grab().save(qEnvironmentVariable("MEMHIST_SHOTS") + QStringLiteral("/execution-picked.png"));
    }
    const ViewRange shown = window->plane()->visibleRange();
    QVERIFY(shown.firstTransition <= writes[5].transition && writes[5].transition <= shown.lastTransition);
    QVERIFY2(shown.firstAddress.value <= m_values + 20 && m_values + 23 <= shown.lastAddress.value,
        qPrintable(QStringLiteral("%1..%2").arg(shown.firstAddress.value, 0, 16).arg(shown.lastAddress.value, 0, 16)));
}

QTEST_MAIN(TestFunctionAccessesDialog)
#include "tst_functionaccessesdialog.moc"
