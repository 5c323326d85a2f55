// SPDX-License-Identifier: MIT
// QueryPanel: typed queries give the command line's rows, bad input gives a message and no query,
// and Export writes the complete result set byte for byte as `memhist export`.
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace memhist;
using namespace memhist::test;

Q_DECLARE_METATYPE(memhist::HalfAxisQuery)

namespace {

// The table as the command line's CSV, read through the cells' copy form (CsvRole: the display
// groups the digits of row ids and transitions).
QByteArray tableAsCsv(const ResultsModel &model)
{
    QByteArray text = "rowid,transition,operation,address,linear,size\n";
    for (int row = 0; row < model.rowCount(); ++row) {
        QByteArrayList fields;
        for (int column = ResultsModel::RowIdColumn; column <= ResultsModel::SizeColumn; ++column)
            fields << model.index(row, column).data(ResultsModel::CsvRole).toByteArray();
        text += fields.join(',') + '\n';
    }
    return text;
}

// Waits for the model's last page (small histories fit in one page of 500).
bool waitUntilExhausted(ResultsModel *model)
{
    QSignalSpy spy(model, &ResultsModel::pageLoaded);
    return model->isExhausted() || spy.wait(10000);
}

constexpr std::uint64_t pieBias = 0x555555554000;

// 3000 accesses, a third of a transition each, transitions 0..499 run by thread 101 and 500..999
// by thread 202 (as tst_resultsmodel's history with threads).
bool writeThreadHistory(const QString &path)
{
    HistoryWriter writer(path);
    if (!writer.open())
        return false;
    for (int i = 0; i < 3000; ++i) {
        Access access;
        access.transition = Transition { std::uint64_t(i / 3) };
        access.operation = i % 3 == 1 ? Operation::Write : Operation::Read;
        access.physical = Address { 0x601000 + std::uint64_t((i * 13) % 512) };
        access.linear = access.physical;
        access.size = 1u << (i % 4);
        if (!writer.add(access))
            return false;
    }
    writer.addThreadSpan(101, Transition { 0 }, Transition { 499 });
    writer.addThreadSpan(202, Transition { 500 }, Transition { 999 });
    return writer.finish();
}

QList<int> allColumnsBut(std::initializer_list<int> left)
{
    QList<int> columns;
    for (int column = 0; column < ResultsModel::ColumnCount; ++column) {
        if (!std::count(left.begin(), left.end(), column))
            columns << column;
    }
    return columns;
}

} // namespace

class TestQueryPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void setHistoryRunsTheDefaultQuery();
    void runNeedsAHistory();
    void noRowsSaysWhy_data();
    void noRowsSaysWhy();
    void typedQueryMatchesCommandLine_data();
    void typedQueryMatchesCommandLine();
    void badInputShowsMessageAndRunsNothing_data();
    void badInputShowsMessageAndRunsNothing();
    void runQueryFillsTheInputs();
    void currentRowSelectsAccess();
    void rowsMadeCurrentAreSelected();
    void anyRowIsReachable();
    void scrollingToTheEndLoadsEveryRowOnce();
    void exportMatchesCommandLine_data();
    void exportMatchesCommandLine();
    void exportToUnwritablePathFails();
    void cancelledExportLeavesNoFile();
    void exportSaysSoAtOnceAndEscCancels();
    void exportEndingUnderAnotherHistoryNamesItsOwn();
    void noExportOfAQueryThatMatchedNothing();
    void tabFollowsTheLayout();
    void contextColumnsShowTheProgram();
    void contextColumnsHiddenWithoutContext();
    void contextColumnsShownOnlyWithTheirTables_data();
    void contextColumnsShownOnlyWithTheirTables();
    void columnChoiceIsRemembered();
    void exportWithThreadsMatchesCommandLineThreads();
    void commandLineThreadsOfAHistoryWithoutThreads();
    void anotherHistoryStartsAtTheTop();
    void copyingSelectedRowsGivesCsv();

private:
    QTemporaryDir m_dir;
    QString m_small;
    QString m_example;
    QString m_threads;
    QString m_counterSource;
    QString m_counterProgram;
    QString m_counter;
    CounterHistory m_counterHistory;
};

void TestQueryPanel::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("memhist-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_querypanel"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    m_threads = m_dir.filePath(QStringLiteral("threads.memhist"));
    QVERIFY(writeThreadHistory(m_threads));
    // counter.c compiled here, its run written by hand (programhistory.h): at the store to
    // `counter` in bump, four writes with values (counter, table+0x3, the stack, the heap).
    m_counterSource = m_dir.filePath(QStringLiteral("counter.c"));
    QVERIFY(QFile::copy(QFINDTESTDATA("../data/programs/counter.c"), m_counterSource));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
    m_counterProgram = m_dir.filePath(QStringLiteral("counter"));
    m_counter = m_dir.filePath(QStringLiteral("counter.memhist"));
    QVERIFY(writeCounterHistory(m_counterProgram, pieBias, m_counter, &m_counterHistory));
    m_small = m_dir.filePath(QStringLiteral("small.memhist"));
    m_example = m_dir.filePath(QStringLiteral("true.memhist"));
    QVERIFY(
        !cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../data/csv/small.csv"), QStringLiteral("-o"), m_small })
             .isEmpty());
    // The bundled example: 41,797 accesses, far more than one page, for the export.
    QVERIFY(!cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../../resources/examples/true.csv"),
                           QStringLiteral("-o"), m_example })
                 .isEmpty());
}

void TestQueryPanel::setHistoryRunsTheDefaultQuery()
{
    QueryPanel panel;
    QSignalSpy resultsSpy(&panel, &QueryPanel::resultsChanged);
    panel.setHistory(m_small);
    QCOMPARE(resultsSpy.size(), 1); // the new query starts empty
    QVERIFY(resultsSpy.at(0).at(0).value<QList<Access>>().isEmpty());
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    QCOMPARE(resultsSpy.size(), 2);
    QCOMPARE(resultsSpy.at(1).at(0).value<QList<Access>>().size(), 15);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), QStringLiteral("15 rows loaded (all)"));
    QVERIFY(panel.exportAction()->isEnabled());
}

void TestQueryPanel::runNeedsAHistory()
{
    QueryPanel panel;
    auto *run = panel.findChild<QPushButton *>(QStringLiteral("runButton"));
    QVERIFY(!run->isEnabled());
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), QStringLiteral("No history open"));
    // Return in a field does nothing either.
    QSignalSpy resultsSpy(&panel, &QueryPanel::resultsChanged);
    QTest::keyClick(panel.findChild<QLineEdit *>(QStringLiteral("transitionEdit")), Qt::Key_Return);
    QCOMPARE(resultsSpy.size(), 0);
    QVERIFY(!panel.hasQuery());

    panel.setHistory(m_small);
    QVERIFY(run->isEnabled());
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    panel.setHistory(QString());
    QVERIFY(!run->isEnabled());
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), QStringLiteral("No history open"));
}

void TestQueryPanel::noRowsSaysWhy_data()
{
    QTest::addColumn<bool>("threads"); // the history with threads, else small.csv's
    QTest::addColumn<HalfAxisQuery>("query");
    QTest::addColumn<QString>("hint");
    QTest::addColumn<QString>("status");
    HalfAxisQuery window;
    window.at = Transition { 3 };
    window.first = Address { 0x700000 - 64 };
    window.last = Address { 0x700000 + 64 };
    QTest::newRow("a click's window, forward")
        << false << window << QStringLiteral("zoom in, or widen “within” on the toolbar")
        << QStringLiteral("No read or write within ± 64 B of 0x700000 from transition 3 on — zoom in, or widen "
                          "“within” on the toolbar");
    HalfAxisQuery backward = window;
    backward.direction = Direction::Backward;
    backward.operations = Operation::Write;
    QTest::newRow("backward writes, no hint")
        << false << backward << QString() << QStringLiteral("No write within ± 64 B of 0x700000 up to transition 3");
    HalfAxisQuery resumed;
    resumed.direction = Direction::Backward;
    resumed.at = Transition { 2 };
    resumed.resumeAfter = RowId { 7 };
    resumed.first = resumed.last = Address { 0x900000 };
    resumed.operations = Operations(Operation::Read) | Operation::Execute;
    QTest::newRow("one byte, backward from a row")
        << false << resumed << QString() << QStringLiteral("No read or execute at 0x900000 up to transition 2 (row 6)");
    HalfAxisQuery range;
    range.first = Address { 0x700000 };
    range.last = Address { 0x700fff };
    QTest::newRow("a range from the start")
        << false << range << QString() << QStringLiteral("No read or write in 0x700000 to 0x700fff");
    HalfAxisQuery thread;
    thread.at = Transition { 600 };
    thread.threads = { 101 };
    QTest::newRow("a thread that ran before")
        << true << thread << QString() << QStringLiteral("No read or write from transition 600 on in thread 101");
}

void TestQueryPanel::noRowsSaysWhy()
{
    QFETCH(bool, threads);
    QFETCH(HalfAxisQuery, query);
    QFETCH(QString, hint);
    QFETCH(QString, status);
    QueryPanel panel;
    panel.setHistory(threads ? m_threads : m_small);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    panel.runQuery(query, hint);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    QCOMPARE(panel.resultsModel()->rowCount(), 0);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), status);
    // Rows found: the count, whatever the hint.
    HalfAxisQuery everything;
    everything.threads = query.threads;
    panel.runQuery(everything, hint);
    QSignalSpy pages(panel.resultsModel(), &ResultsModel::pageLoaded);
    QVERIFY(pages.wait());
    QVERIFY(panel.resultsModel()->rowCount() > 0);
    const QString text = panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text();
    QVERIFY2(text.contains(QStringLiteral(" rows loaded")) || text.startsWith(QStringLiteral("Rows 1 to ")),
        qPrintable(text));
}

void TestQueryPanel::typedQueryMatchesCommandLine_data()
{
    QTest::addColumn<QString>("transition");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("last");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<QString>("ops");
    QTest::addColumn<QStringList>("cliOptions");
    QTest::addColumn<int>("rows");

    QTest::newRow("forward from 3 over 0x601000..0x601fff")
        << QStringLiteral("3") << QStringLiteral("0x601000") << QStringLiteral("0x601fff") << false
        << QStringLiteral("rw")
        << QStringList { QStringLiteral("--at"), QStringLiteral("3"), QStringLiteral("--from"),
               QStringLiteral("0x601000"), QStringLiteral("--to"), QStringLiteral("0x601fff") }
        << 5;
    QTest::newRow("backward from 12, every address, reads and writes")
        << QStringLiteral("12") << QString() << QString() << true << QStringLiteral("rw")
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("12") } << 15;
    QTest::newRow("backward from the end (T empty), decimal range, rwx")
        << QString() << QStringLiteral("4198400") << QStringLiteral("6295559") << true << QStringLiteral("rwx")
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--from"), QStringLiteral("4198400"),
               QStringLiteral("--to"), QStringLiteral("6295559"), QStringLiteral("--ops"), QStringLiteral("rwx") }
        << 10;
    QTest::newRow("numbers as the viewer shows them: backward from 1,2 over 0x0..0xffff'ffff'ffff'ffff")
        << QStringLiteral("1,2") << QStringLiteral("0x0") << QStringLiteral("0xffff'ffff'ffff'ffff") << true
        << QStringLiteral("rw")
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("12"),
               QStringLiteral("--from"), QStringLiteral("0x0"), QStringLiteral("--to"),
               QStringLiteral("0xffffffffffffffff") }
        << 15;
    QTest::newRow("forward from 0x5, executes only")
        << QStringLiteral("0x5") << QString() << QString() << false << QStringLiteral("x")
        << QStringList { QStringLiteral("--at"), QStringLiteral("0x5"), QStringLiteral("--ops"), QStringLiteral("x") }
        << 2;
}

void TestQueryPanel::typedQueryMatchesCommandLine()
{
    QFETCH(QString, transition);
    QFETCH(QString, first);
    QFETCH(QString, last);
    QFETCH(bool, backward);
    QFETCH(QString, ops);
    QFETCH(QStringList, cliOptions);
    QFETCH(int, rows);

    QueryPanel panel;
    panel.resize(800, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setHistory(m_small);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));

    const auto type = [&](const QString &name, const QString &text) {
        auto *edit = panel.findChild<QLineEdit *>(name);
        QVERIFY(edit);
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
        QCOMPARE(edit->text(), text);
    };
    type(QStringLiteral("transitionEdit"), transition);
    type(QStringLiteral("firstAddressEdit"), first);
    type(QStringLiteral("lastAddressEdit"), last);
    auto *direction = panel.findChild<QComboBox *>(QStringLiteral("directionCombo"));
    direction->setFocus();
    QTest::keyClick(direction, backward ? Qt::Key_Down : Qt::Key_Up);
    QCOMPARE(direction->currentIndex(), backward ? 1 : 0);
    const auto setOperation = [&](const QString &name, bool on) {
        auto *box = panel.findChild<QCheckBox *>(name);
        if (box->isChecked() != on)
            QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(6, box->height() / 2));
        QCOMPARE(box->isChecked(), on);
    };
    setOperation(QStringLiteral("readsCheck"), ops.contains(u'r'));
    setOperation(QStringLiteral("writesCheck"), ops.contains(u'w'));
    setOperation(QStringLiteral("executesCheck"), ops.contains(u'x'));

    QSignalSpy resultsSpy(&panel, &QueryPanel::resultsChanged);
    QTest::mouseClick(panel.findChild<QPushButton *>(QStringLiteral("runButton")), Qt::LeftButton);
    QCOMPARE(resultsSpy.size(), 1);
    QVERIFY(resultsSpy.wait());
    QCOMPARE(resultsSpy.size(), 2);
    QCOMPARE(resultsSpy.at(1).at(0).value<QList<Access>>().size(), rows);
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("inputErrorLabel"))->isHidden());

    ResultsModel *model = panel.resultsModel();
    QVERIFY(model->isExhausted());
    QCOMPARE(model->rowCount(), rows);
    const QByteArray cli = cliOutput(QStringList { QStringLiteral("query"), m_small, QStringLiteral("--format"),
                                         QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("1000") }
        + cliOptions);
    QCOMPARE(tableAsCsv(*model), cli);
    QCOMPARE(panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(),
        QStringLiteral("%1 rows loaded (all)").arg(rows));
}

void TestQueryPanel::badInputShowsMessageAndRunsNothing_data()
{
    QTest::addColumn<QString>("transition");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("last");
    QTest::addColumn<bool>("noOperations");
    QTest::addColumn<QString>("message");

    QTest::newRow("A greater than B") << QString() << QStringLiteral("0x2000") << QStringLiteral("4096") << false
                                      << QStringLiteral(
                                             "The first address 0x2000 is greater than the last address 0x1000");
    QTest::newRow("T not a number") << QStringLiteral("12a") << QString() << QString() << false
                                    << QStringLiteral(
                                           "Transition: '12a' is not a number (decimal or 0x hex, up to 64 bits)");
    QTest::newRow("B beyond 64 bits") << QString() << QString() << QStringLiteral("0x10000000000000000") << false
                                      << QStringLiteral(
                                             "Last address: '0x10000000000000000' is not a number (decimal or "
                                             "0x hex, up to 64 bits)");
    QTest::newRow("negative A") << QString() << QStringLiteral("-1") << QString() << false
                                << QStringLiteral(
                                       "First address: '-1' is not a number (decimal or 0x hex, up to 64 bits)");
    QTest::newRow("no operation") << QString() << QString() << QString() << true
                                  << QStringLiteral("Select at least one operation (reads, writes or executes)");
}

void TestQueryPanel::badInputShowsMessageAndRunsNothing()
{
    QFETCH(QString, transition);
    QFETCH(QString, first);
    QFETCH(QString, last);
    QFETCH(bool, noOperations);
    QFETCH(QString, message);

    QueryPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setHistory(m_small);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    const HalfAxisQuery before = panel.currentQuery();

    panel.findChild<QLineEdit *>(QStringLiteral("transitionEdit"))->setText(transition);
    panel.findChild<QLineEdit *>(QStringLiteral("firstAddressEdit"))->setText(first);
    auto *lastEdit = panel.findChild<QLineEdit *>(QStringLiteral("lastAddressEdit"));
    lastEdit->setText(last);
    if (noOperations) {
        panel.findChild<QCheckBox *>(QStringLiteral("readsCheck"))->setChecked(false);
        panel.findChild<QCheckBox *>(QStringLiteral("writesCheck"))->setChecked(false);
        panel.findChild<QCheckBox *>(QStringLiteral("executesCheck"))->setChecked(false);
    }
    QSignalSpy resultsSpy(&panel, &QueryPanel::resultsChanged);
    QTest::keyClick(lastEdit, Qt::Key_Return); // Return runs like the button
    auto *error = panel.findChild<QLabel *>(QStringLiteral("inputErrorLabel"));
    QVERIFY(error->isVisible());
    QCOMPARE(error->text(), message);
    QCOMPARE(resultsSpy.size(), 0);
    QCOMPARE(panel.resultsModel()->rowCount(), 15); // the previous results stay
    QCOMPARE(panel.currentQuery().first, before.first);
    QCOMPARE(panel.currentQuery().operations, before.operations);
}

void TestQueryPanel::runQueryFillsTheInputs()
{
    QueryPanel panel;
    panel.setHistory(m_small);
    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.at = Transition { 9 };
    query.first = Address { 0x601000 };
    query.last = Address { 0x601007 };
    query.operations = Operations(Operation::Read) | Operation::Execute;
    QSignalSpy resultsSpy(&panel, &QueryPanel::resultsChanged);
    panel.runQuery(query);
    QCOMPARE(panel.findChild<QLineEdit *>(QStringLiteral("transitionEdit"))->text(), QStringLiteral("9"));
    QCOMPARE(panel.findChild<QLineEdit *>(QStringLiteral("firstAddressEdit"))->text(), QStringLiteral("0x601000"));
    QCOMPARE(panel.findChild<QLineEdit *>(QStringLiteral("lastAddressEdit"))->text(), QStringLiteral("0x601007"));
    QCOMPARE(panel.findChild<QComboBox *>(QStringLiteral("directionCombo"))->currentIndex(), 1);
    QVERIFY(panel.findChild<QCheckBox *>(QStringLiteral("readsCheck"))->isChecked());
    QVERIFY(!panel.findChild<QCheckBox *>(QStringLiteral("writesCheck"))->isChecked());
    QVERIFY(panel.findChild<QCheckBox *>(QStringLiteral("executesCheck"))->isChecked());
    QCOMPARE(panel.currentQuery().at, query.at);
    QCOMPARE(panel.currentQuery().direction, Direction::Backward);
    QVERIFY(resultsSpy.wait());
    // small.csv, backward from 9: the reads 16, 13, 8 and 4 touch 0x601000..0x601007; no fetch does.
    QList<qint64> rowIds;
    for (const Access &access : panel.resultsModel()->loadedAccesses())
        rowIds << access.rowId.value;
    QCOMPARE(rowIds, (QList<qint64> { 16, 13, 8, 4 }));
    QCOMPARE(resultsSpy.size(), 2);
}

void TestQueryPanel::currentRowSelectsAccess()
{
    QueryPanel panel;
    QSignalSpy selectedSpy(&panel, &QueryPanel::accessSelected);
    panel.setHistory(m_small);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    auto *view = panel.findChild<QTableView *>(QStringLiteral("resultsView"));
    view->setCurrentIndex(panel.resultsModel()->index(2, 0));
    QCOMPARE(selectedSpy.size(), 1);
    const auto selected = selectedSpy.at(0).at(0).value<std::optional<Access>>();
    QVERIFY(selected);
    QCOMPARE(selected->rowId, RowId { 6 });
    // A new query resets the table: no row is current any more.
    panel.runQuery(HalfAxisQuery {});
    QCOMPARE(selectedSpy.size(), 2);
    QVERIFY(!selectedSpy.at(1).at(0).value<std::optional<Access>>());
}

void TestQueryPanel::rowsMadeCurrentAreSelected()
{
    QueryPanel panel;
    panel.resize(700, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setHistory(m_example);
    ResultsModel *model = panel.resultsModel();
    QSignalSpy pages(model, &ResultsModel::pageLoaded);
    QVERIFY(pages.wait());
    QTableView *view = panel.resultsView();
    QItemSelectionModel *selection = view->selectionModel();
    const auto selectedRows = [&] {
        QList<int> rows;
        for (const QModelIndex &index : selection->selectedRows())
            rows << index.row();
        return rows;
    };
    const auto inView
        = [&](int row) { return view->viewport()->rect().contains(view->visualRect(model->index(row, 0)).center()); };

    // A click selects its row.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(model->index(2, 0)).center());
    QCOMPARE(view->currentIndex().row(), 2);
    QCOMPARE(selectedRows(), QList<int> { 2 });

    // Ctrl+End and Ctrl+Home select the row they move to, alone, as the click did: the result's
    // last and first rows, loaded when they arrive.
    QSignalSpy jumps(model, &ResultsModel::jumped);
    QTRY_VERIFY(model->canJump()); // the size follows the first page
    view->setFocus();
    QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
    QVERIFY(jumps.wait());
    const int last = view->currentIndex().row();
    QCOMPARE(last, model->rowCount() - 1);
    QVERIFY(model->isExhausted());
    QCOMPARE(selectedRows(), QList<int> { last });
    QVERIFY(inView(last));
    QTest::keyClick(view, Qt::Key_Up, Qt::ControlModifier);
    QCOMPARE(selectedRows(), QList<int> { last - 1 });
    QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier);
    QVERIFY(jumps.wait());
    QCOMPARE(jumps.size(), 2);
    QVERIFY(model->isAtStart());
    QCOMPARE(view->currentIndex().row(), 0);
    QCOMPARE(selectedRows(), QList<int> { 0 });
    // Shift still extends the selection.
    QTest::keyClick(view, Qt::Key_Down, Qt::ShiftModifier);
    QCOMPARE(selectedRows(), (QList<int> { 0, 1 }));

    // A row made current by code (the Go menu's steps): selected alone, whole, and scrolled to.
    QSignalSpy selectedSpy(&panel, &QueryPanel::accessSelected);
    QVERIFY(panel.selectAccessRow(model->accessAt(300).rowId));
    QCOMPARE(view->currentIndex().row(), 300);
    QCOMPARE(selectedRows(), QList<int> { 300 });
    QVERIFY(selection->isRowSelected(300, {}));
    QVERIFY(inView(300));
    QCOMPARE(selectedSpy.size(), 1);
    QCOMPARE(selectedSpy.at(0).at(0).value<std::optional<Access>>()->rowId, model->accessAt(300).rowId);
    QVERIFY(!panel.selectAccessRow(RowId { 999999 }));
    QCOMPARE(selectedRows(), QList<int> { 300 });
}

void TestQueryPanel::scrollingToTheEndLoadsEveryRowOnce()
{
    QueryPanel panel;
    panel.resize(700, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ResultsModel *model = panel.resultsModel();
    QSignalSpy pageSpy(model, &ResultsModel::pageLoaded);
    HalfAxisQuery backward;
    backward.direction = Direction::Backward;
    panel.setHistory(m_example);
    panel.runQuery(backward);
    auto *view = panel.findChild<QTableView *>(QStringLiteral("resultsView"));
    // The user drags the scroll bar to the end again and again: the view asks for more each time.
    while (!model->isExhausted()) {
        QVERIFY(pageSpy.wait(10000));
        view->scrollToBottom();
    }
    // 41,797 rows in pages of 500: 83 full pages and a short one.
    QCOMPARE(model->rowCount(), 41797);
    QCOMPARE(pageSpy.size(), 84);
    const QString cli = m_dir.filePath(QStringLiteral("backward.csv"));
    QVERIFY(!cliOutput({ QStringLiteral("export"), m_example, QStringLiteral("-o"), cli, QStringLiteral("--backward") })
                 .isEmpty());
    QCOMPARE(tableAsCsv(*model), readFile(cli));
    QCOMPARE(
        panel.findChild<QLabel *>(QStringLiteral("statusLabel"))->text(), QStringLiteral("41,797 rows loaded (all)"));
}

void TestQueryPanel::exportMatchesCommandLine_data()
{
    QTest::addColumn<HalfAxisQuery>("query");
    QTest::addColumn<QStringList>("cliOptions");
    QTest::addColumn<int>("rows");

    // true.csv: 30,027 reads and 11,770 writes (resources/examples/README.md).
    QTest::newRow("every read and write, forward") << HalfAxisQuery {} << QStringList {} << 41797;
    HalfAxisQuery backward;
    backward.direction = Direction::Backward;
    backward.at = Transition { 100000 };
    backward.operations = Operations(Operation::Write);
    QTest::newRow("writes backward from 100000")
        << backward
        << QStringList { QStringLiteral("--backward"), QStringLiteral("--at"), QStringLiteral("100000"),
               QStringLiteral("--ops"), QStringLiteral("w") }
        << -1;
    HalfAxisQuery window;
    window.first = Address { 0x1fff000000 };
    window.last = Address { 0x1fff000fff };
    window.at = Transition { 50000 };
    QTest::newRow("stack page from 50000")
        << window
        << QStringList { QStringLiteral("--at"), QStringLiteral("50000"), QStringLiteral("--from"),
               QStringLiteral("0x1fff000000"), QStringLiteral("--to"), QStringLiteral("0x1fff000fff") }
        << -1;
}

void TestQueryPanel::exportMatchesCommandLine()
{
    QFETCH(HalfAxisQuery, query);
    QFETCH(QStringList, cliOptions);
    QFETCH(int, rows);

    QueryPanel panel;
    panel.setHistory(m_example);
    panel.runQuery(query);
    QVERIFY(waitUntilExhausted(panel.resultsModel()) || panel.resultsModel()->rowCount() > 0);

    const QString ours = m_dir.filePath(QStringLiteral("panel.csv"));
    const QString theirs = m_dir.filePath(QStringLiteral("cli.csv"));
    QFile::remove(ours);
    QSignalSpy finishedSpy(&panel, &QueryPanel::exportFinished);
    panel.exportTo(ours);
    QVERIFY(panel.isExporting());
    QVERIFY(!panel.exportAction()->isEnabled());
    QVERIFY(finishedSpy.wait(30000));
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), true);
    QVERIFY(!panel.isExporting());
    QVERIFY(panel.exportAction()->isEnabled());

    QVERIFY(!cliOutput(QStringList { QStringLiteral("export"), m_example, QStringLiteral("-o"), theirs } + cliOptions)
                 .isEmpty());
    const QByteArray exported = readFile(ours);
    QCOMPARE(exported, readFile(theirs));
    const int lines = int(exported.count('\n')) - 1;
    if (rows >= 0)
        QCOMPARE(lines, rows);
    QVERIFY(lines > 0);
    QCOMPARE(finishedSpy.at(0).at(1).toString(),
        QStringLiteral("Exported %1 rows to %2").arg(countText(quint64(lines)), ours));
    // The complete result set, not the loaded page.
    if (lines > panel.resultsModel()->pageSize())
        QCOMPARE(panel.resultsModel()->rowCount(), panel.resultsModel()->pageSize());
}

void TestQueryPanel::exportToUnwritablePathFails()
{
    QueryPanel panel;
    panel.setHistory(m_small);
    QSignalSpy finishedSpy(&panel, &QueryPanel::exportFinished);
    QSignalSpy failedSpy(&panel, &QueryPanel::exportFailed);
    const QString path = m_dir.filePath(QStringLiteral("no-such-dir/out.csv"));
    panel.exportTo(path);
    QVERIFY(finishedSpy.wait());
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), false);
    QVERIFY(finishedSpy.at(0).at(1).toString().startsWith(path + QStringLiteral(": cannot create: ")));
    QCOMPARE(failedSpy.size(), 1);
    QCOMPARE(failedSpy.at(0).at(0).toString(), finishedSpy.at(0).at(1).toString());
    QVERIFY(!QFile::exists(path));
}

void TestQueryPanel::cancelledExportLeavesNoFile()
{
    QueryPanel panel;
    panel.setHistory(m_example);
    QSignalSpy finishedSpy(&panel, &QueryPanel::exportFinished);
    const QString path = m_dir.filePath(QStringLiteral("cancelled.csv"));
    panel.exportTo(path);
    // 41,797 rows are three pages of the exporter: it sees the request after the first.
    panel.cancelExport();
    QVERIFY(finishedSpy.wait());
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), false);
    QCOMPARE(finishedSpy.at(0).at(1).toString(), QStringLiteral("Export cancelled; %1 was not written").arg(path));
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("cancelled*") }, QDir::Files | QDir::Hidden), QStringList());
    QVERIFY(panel.exportAction()->isEnabled());
}

// An export still running when another history is opened goes on (its rows are the first
// history's); its message, which comes later, says which history they are of.
void TestQueryPanel::exportEndingUnderAnotherHistoryNamesItsOwn()
{
    QueryPanel panel;
    panel.setHistory(m_example);
    QSignalSpy finishedSpy(&panel, &QueryPanel::exportFinished);
    const QString path = m_dir.filePath(QStringLiteral("other-history-export.csv"));
    panel.exportTo(path);
    // The outcome is handed to the GUI thread by the event loop: after this, whatever the timing.
    panel.setHistory(m_small);
    QVERIFY(finishedSpy.wait());
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), true);
    QCOMPARE(finishedSpy.at(0).at(1).toString(),
        QStringLiteral("Exported 41,797 rows of %1 to %2").arg(QFileInfo(m_example).fileName(), path));
    QCOMPARE(readFile(path).count('\n'), 41798);
}

// An export replaces the previous export's message in the status line at once, shows its Cancel
// button, and Esc (anywhere in the window) stops it.
void TestQueryPanel::exportSaysSoAtOnceAndEscCancels()
{
    QueryPanel panel;
    panel.setHistory(m_example);
    panel.show();
    QApplication::setActiveWindow(&panel);
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    auto *status = panel.findChild<QLabel *>(QStringLiteral("statusLabel"));
    auto *cancel = panel.findChild<QToolButton *>(QStringLiteral("cancelExportButton"));
    QVERIFY(status && cancel);
    QVERIFY(cancel->isHidden());
    QSignalSpy finishedSpy(&panel, &QueryPanel::exportFinished);
    const QString first = m_dir.filePath(QStringLiteral("first-export.csv"));
    panel.exportTo(first);
    QVERIFY(finishedSpy.wait());
    QVERIFY2(finishedSpy.at(0).at(0).toBool(), qPrintable(finishedSpy.at(0).at(1).toString()));
    const QString exported = QStringLiteral("Exported 41,797 rows to %1").arg(first);
    QVERIFY2(status->text().endsWith(QStringLiteral(" · ") + exported), qPrintable(status->text()));
    QVERIFY(cancel->isHidden());

    const QString second = m_dir.filePath(QStringLiteral("second-export.csv"));
    QSignalSpy statusSpy(&panel, &QueryPanel::exportStatusChanged);
    QSignalSpy failedSpy(&panel, &QueryPanel::exportFailed);
    panel.exportTo(second);
    QCOMPARE(statusSpy.size(), 1); // for the window's status line, at once
    QCOMPARE(statusSpy.at(0).at(0).toString(), QStringLiteral("Exporting to %1…").arg(second));
    QVERIFY2(status->text().endsWith(QStringLiteral(" · Exporting to %1…").arg(second)), qPrintable(status->text()));
    QVERIFY(!status->text().contains(exported));
    QVERIFY(cancel->isVisible());
    QVERIFY(!panel.exportAction()->isEnabled());
    QTest::keyClick(panel.resultsView(), Qt::Key_Escape);
    QVERIFY(finishedSpy.wait());
    QCOMPARE(finishedSpy.size(), 2);
    const QString cancelled = QStringLiteral("Export cancelled; %1 was not written").arg(second);
    QCOMPARE(finishedSpy.at(1).at(0).toBool(), false);
    QCOMPARE(finishedSpy.at(1).at(1).toString(), cancelled);
    QVERIFY2(status->text().endsWith(QStringLiteral(" · ") + cancelled), qPrintable(status->text()));
    QCOMPARE(statusSpy.last().at(0).toString(), cancelled);
    QCOMPARE(failedSpy.size(), 0); // a cancel is no failure
    QVERIFY(cancel->isHidden());
    QVERIFY(!QFile::exists(second));
    QVERIFY(panel.exportAction()->isEnabled());
}

void TestQueryPanel::noExportOfAQueryThatMatchedNothing()
{
    QueryPanel panel;
    panel.setHistory(m_small);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    QVERIFY(panel.exportAction()->isEnabled());
    HalfAxisQuery nowhere;
    nowhere.first = Address { 0x10 };
    nowhere.last = Address { 0x20 };
    panel.runQuery(nowhere);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    QCOMPARE(panel.resultsModel()->rowCount(), 0);
    QVERIFY(!panel.exportAction()->isEnabled());
    panel.runQuery(HalfAxisQuery {});
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    QVERIFY(panel.exportAction()->isEnabled());
}

// Tab goes through the inputs row by row (the direction beside the transition), then Run and the
// table; Run is no default button, whose permanent frame would hide its focus frame.
void TestQueryPanel::tabFollowsTheLayout()
{
    QueryPanel panel;
    panel.setHistory(m_threads); // the thread box is enabled: a Tab stop
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    panel.show();
    QApplication::setActiveWindow(&panel);
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    auto *transition = panel.findChild<QLineEdit *>(QStringLiteral("transitionEdit"));
    transition->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), transition);
    QStringList stops { transition->objectName() };
    for (int i = 0; i < 9; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        stops << QApplication::focusWidget()->objectName();
    }
    QCOMPARE(stops,
        (QStringList { QStringLiteral("transitionEdit"), QStringLiteral("directionCombo"),
            QStringLiteral("firstAddressEdit"), QStringLiteral("lastAddressEdit"), QStringLiteral("readsCheck"),
            QStringLiteral("writesCheck"), QStringLiteral("executesCheck"), QStringLiteral("threadFilter"),
            QStringLiteral("runButton"), QStringLiteral("resultsView") }));
    auto *run = panel.findChild<QPushButton *>(QStringLiteral("runButton"));
    QCOMPARE(run->focusPolicy(), Qt::StrongFocus);
    QVERIFY(!run->isDefault());
}

void TestQueryPanel::contextColumnsShowTheProgram()
{
    QueryPanel panel;
    panel.setHistory(m_counter);
    ResultsModel *model = panel.resultsModel();
    QVERIFY(waitUntilExhausted(model));
    QCOMPARE(model->rowCount(), 4);
    QVERIFY(model->hasContext());
    QVERIFY(model->hasValues());
    QVERIFY(!model->hasThreads());

    // The first write: `counter` written by bump at counter.c's marked line.
    const std::uint64_t elfPc = m_counterHistory.storePc - pieBias;
    const auto bump = nmSymbol(m_counterProgram, QStringLiteral("bump"));
    QVERIFY(bump);
    const auto cell = [&](int row, int column) { return model->index(row, column).data().toString(); };
    QCOMPARE(cell(0, ResultsModel::PcColumn), QStringLiteral("0x%1").arg(m_counterHistory.storePc, 0, 16));
    QCOMPARE(cell(0, ResultsModel::FunctionColumn),
        QStringLiteral("bump+0x%1").arg(QString::number(elfPc - bump->address, 16)));
    const int line = markedLine(m_counterSource, QStringLiteral("counter"));
    QCOMPARE(cell(0, ResultsModel::SourceColumn), m_counterSource + u':' + QString::number(line));
    QCOMPARE(cell(0, ResultsModel::SourceColumn), addr2line(m_counterProgram, elfPc));
    QVERIFY(cell(0, ResultsModel::InstructionColumn).startsWith(QStringLiteral("mov dword ptr [rip + ")));
    QCOMPARE(cell(0, ResultsModel::RegionColumn), QStringLiteral("counter"));
    QCOMPARE(cell(1, ResultsModel::RegionColumn), QStringLiteral("table+0x3"));
    QCOMPARE(cell(2, ResultsModel::RegionColumn), QStringLiteral("[stack]"));
    QCOMPARE(cell(3, ResultsModel::RegionColumn), QStringLiteral("[heap]"));
    // A value's bytes spaced as in the Detail pane; copied and exported unspaced, as the CLI writes them.
    QCOMPARE(cell(0, ResultsModel::ValueColumn), QStringLiteral("11 11 11 11"));
    QCOMPARE(cell(3, ResultsModel::ValueColumn), QStringLiteral("44 44 44 44 44 44 44 44"));
    QCOMPARE(model->index(3, ResultsModel::ValueColumn).data(ResultsModel::CsvRole).toByteArray(), "4444444444444444");

    // Every cell exactly as `memhist query --context` prints it.
    const QByteArray cli = cliOutput({ QStringLiteral("query"), m_counter, QStringLiteral("--context"),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(model->rowsAsCsv({ 0, 1, 2, 3 }, allColumnsBut({ ResultsModel::ThreadColumn })), cli);

    // Shown: every context column; the thread column stays hidden.
    auto *view = panel.resultsView();
    for (int column = ResultsModel::PcColumn; column <= ResultsModel::ValueColumn; ++column)
        QVERIFY2(!view->isColumnHidden(column), ResultsModel::columnKey(column).constData());
    QVERIFY(view->isColumnHidden(ResultsModel::ThreadColumn));
}

void TestQueryPanel::contextColumnsHiddenWithoutContext()
{
    QueryPanel panel;
    panel.setHistory(m_small);
    ResultsModel *model = panel.resultsModel();
    QVERIFY(waitUntilExhausted(model));
    QVERIFY(!model->hasContext());
    QCOMPARE(model->columnCount(), int(ResultsModel::ColumnCount));
    for (int column = ResultsModel::ThreadColumn; column <= ResultsModel::ValueColumn; ++column) {
        QVERIFY(panel.resultsView()->isColumnHidden(column));
        QCOMPARE(model->index(0, column).data().toString(), QString());
    }
    for (int column = ResultsModel::RowIdColumn; column <= ResultsModel::SizeColumn; ++column)
        QVERIFY(!panel.resultsView()->isColumnHidden(column));
    // The menu offers them, disabled.
    std::unique_ptr<QMenu> menu(panel.createColumnsMenu(nullptr));
    QCOMPARE(menu->actions().size(), int(ResultsModel::ColumnCount));
    auto *function = menu->findChild<QAction *>(QStringLiteral("column-function"));
    QVERIFY(function);
    QVERIFY(!function->isEnabled());
    QCOMPARE(function->text(), QStringLiteral("Function (not in this history)"));
    QVERIFY(menu->findChild<QAction *>(QStringLiteral("column-address"))->isEnabled());
}

void TestQueryPanel::contextColumnsShownOnlyWithTheirTables_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QByteArrayList>("shown"); // the context columns shown, by key
    // A Tenet trace records PCs and values; a drmemtrace import without its modules PCs and
    // disassembly; a Lackey trace PCs only.
    QTest::newRow("tenet: pc and value") << "../data/tenet/boombox.trace.0.log" << QByteArrayList { "pc", "value" };
    QTest::newRow("drmemtrace without modules: pc and instruction")
        << "../data/drmemtrace/threadsig.x64.tracedir" << QByteArrayList { "pc", "instruction" };
    QTest::newRow("lackey: pc") << "../data/lackey/true.tiny.lackey" << QByteArrayList { "pc" };
}

void TestQueryPanel::contextColumnsShownOnlyWithTheirTables()
{
    QFETCH(QString, trace);
    QFETCH(QByteArrayList, shown);
    QSettings().clear();
    const QString history
        = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).section(u':', 0, 0) + u".memhist");
    QVERIFY(!cliOutput({ QStringLiteral("import"), QFINDTESTDATA(trace), QStringLiteral("-o"), history }).isEmpty());
    QueryPanel panel;
    panel.setHistory(history);
    ResultsModel *model = panel.resultsModel();
    QSignalSpy pages(model, &ResultsModel::pageLoaded);
    QVERIFY(pages.wait(20000));
    QVERIFY(model->hasContext());
    QCOMPARE(model->rowCount(), 500);
    std::unique_ptr<QMenu> menu(panel.createColumnsMenu(nullptr));
    for (int column = ResultsModel::PcColumn; column <= ResultsModel::ValueColumn; ++column) {
        const QByteArray key = ResultsModel::columnKey(column);
        const bool expected = shown.contains(key);
        QCOMPARE(model->hasColumnData(column), expected);
        QVERIFY2(panel.resultsView()->isColumnHidden(column) == !expected, key.constData());
        QCOMPARE(
            menu->findChild<QAction *>(QStringLiteral("column-") + QString::fromLatin1(key))->isEnabled(), expected);
        // What is hidden has nothing in any row; what is shown has something.
        int filled = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            filled += model->index(row, column).data().toString().isEmpty() ? 0 : 1;
        QVERIFY2(expected ? filled > 0 : filled == 0, key.constData());
    }
}

void TestQueryPanel::columnChoiceIsRemembered()
{
    QSettings().clear();
    {
        QueryPanel panel;
        panel.setHistory(m_counter);
        QVERIFY(waitUntilExhausted(panel.resultsModel()));
        std::unique_ptr<QMenu> menu(panel.createColumnsMenu(nullptr));
        auto *function = menu->findChild<QAction *>(QStringLiteral("column-function"));
        auto *linear = menu->findChild<QAction *>(QStringLiteral("column-linear"));
        QVERIFY(function && linear);
        QVERIFY(function->isEnabled());
        QVERIFY(function->isChecked());
        function->trigger();
        linear->trigger();
        QVERIFY(panel.resultsView()->isColumnHidden(ResultsModel::FunctionColumn));
        QVERIFY(panel.resultsView()->isColumnHidden(ResultsModel::LinearColumn));
        QVERIFY(!panel.resultsView()->isColumnHidden(ResultsModel::SourceColumn));
    }
    QCOMPARE(QSettings().value(QStringLiteral("results/hiddenColumns")).toStringList(),
        QStringList({ QStringLiteral("function"), QStringLiteral("linear") }));
    {
        // The next run: still hidden, and shown again from the menu.
        QueryPanel panel;
        panel.setHistory(m_counter);
        QVERIFY(waitUntilExhausted(panel.resultsModel()));
        QVERIFY(panel.resultsView()->isColumnHidden(ResultsModel::FunctionColumn));
        QVERIFY(panel.resultsView()->isColumnHidden(ResultsModel::LinearColumn));
        QVERIFY(!panel.isColumnWanted(ResultsModel::FunctionColumn));
        std::unique_ptr<QMenu> menu(panel.createColumnsMenu(nullptr));
        auto *function = menu->findChild<QAction *>(QStringLiteral("column-function"));
        QVERIFY(!function->isChecked());
        function->trigger();
        QVERIFY(!panel.resultsView()->isColumnHidden(ResultsModel::FunctionColumn));
    }
    QCOMPARE(QSettings().value(QStringLiteral("results/hiddenColumns")).toStringList(),
        QStringList({ QStringLiteral("linear") }));
    QSettings().clear();
}

void TestQueryPanel::exportWithThreadsMatchesCommandLineThreads()
{
    QueryPanel panel;
    panel.setHistory(m_threads);
    QVERIFY(waitUntilExhausted(panel.resultsModel()) || panel.resultsModel()->rowCount() > 0);
    QVERIFY(!panel.resultsView()->isColumnHidden(ResultsModel::ThreadColumn));
    const QString ours = m_dir.filePath(QStringLiteral("panel-threads.csv"));
    const QString theirs = m_dir.filePath(QStringLiteral("cli-threads.csv"));
    QSignalSpy finishedSpy(&panel, &QueryPanel::exportFinished);
    panel.exportTo(ours);
    QVERIFY(finishedSpy.wait(30000));
    QCOMPARE(finishedSpy.size(), 1);
    QCOMPARE(finishedSpy.at(0).at(0).toBool(), true);
    QVERIFY(!cliOutput(
        { QStringLiteral("export"), m_threads, QStringLiteral("-o"), theirs, QStringLiteral("--thread-column") })
                 .isEmpty());
    const QByteArray exported = readFile(ours);
    QCOMPARE(exported, readFile(theirs));
    const QList<QByteArray> lines = exported.split('\n');
    QCOMPARE(lines.size(), 3002); // header, 3000 rows, the empty piece after the last newline
    QCOMPARE(lines[0], QByteArray("rowid,transition,operation,address,linear,size,thread"));
    QCOMPARE(lines[1], QByteArray("1,0,R,0x601000,0x601000,1,101"));
    // The last access of thread 101 and the first of thread 202.
    QCOMPARE(lines[1500], QByteArray("1500,499,R,0x60101f,0x60101f,8,101"));
    QCOMPARE(lines[1501], QByteArray("1501,500,R,0x60102c,0x60102c,1,202"));
    // The default export stays the six columns of DESIGN.md §3.
    const QString six = m_dir.filePath(QStringLiteral("cli-six.csv"));
    QVERIFY(!cliOutput({ QStringLiteral("export"), m_threads, QStringLiteral("-o"), six }).isEmpty());
    QCOMPARE(
        readFile(six).left(readFile(six).indexOf('\n')), QByteArray("rowid,transition,operation,address,linear,size"));
}

void TestQueryPanel::commandLineThreadsOfAHistoryWithoutThreads()
{
    const QString out = m_dir.filePath(QStringLiteral("small-threads.csv"));
    QVERIFY(!cliOutput({ QStringLiteral("export"), m_small, QStringLiteral("-o"), out,
                           QStringLiteral("--thread-column"), QStringLiteral("--limit"), QStringLiteral("3") })
                 .isEmpty());
    QCOMPARE(readFile(out),
        QByteArray("rowid,transition,operation,address,linear,size,thread\n"
                   "2,0,W,0x7ffc0000,0x7ffc0000,8,\n"
                   "4,1,R,0x601000,0x601000,4,\n"
                   "6,2,R,0x7ffc0000,0x7ffc0000,8,\n"));
}

void TestQueryPanel::anotherHistoryStartsAtTheTop()
{
    QueryPanel panel;
    panel.resize(700, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ResultsModel *model = panel.resultsModel();
    QSignalSpy pageSpy(model, &ResultsModel::pageLoaded);
    panel.setHistory(m_example);
    QTableView *view = panel.resultsView();
    // Three pages in, scrolled to the end.
    while (model->rowCount() < 1500) {
        QVERIFY(pageSpy.wait(10000));
        view->scrollToBottom();
    }
    QTRY_VERIFY(view->verticalScrollBar()->value() > 0);
    view->horizontalScrollBar()->setValue(view->horizontalScrollBar()->maximum());

    // File ▸ Open of another history (the main window calls setHistory).
    pageSpy.clear();
    panel.setHistory(m_threads);
    QVERIFY(pageSpy.wait(10000));
    QCOMPARE(model->rowCount(), 500);
    QCoreApplication::processEvents();
    QCOMPARE(view->verticalScrollBar()->value(), 0);
    QCOMPARE(view->horizontalScrollBar()->value(), 0);
    QCOMPARE(view->rowAt(0), 0);
}

void TestQueryPanel::copyingSelectedRowsGivesCsv()
{
    QueryPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setHistory(m_small);
    QVERIFY(waitUntilExhausted(panel.resultsModel()));
    QTableView *view = panel.resultsView();
    QCOMPARE(view->selectionMode(), QAbstractItemView::ExtendedSelection);
    // The default query (reads and writes): rows 2, 4, 6, 7, 8, ... Three rows picked out of order
    // with Ctrl+click.
    const auto rowRect = [&](int row) { return view->visualRect(panel.resultsModel()->index(row, 1)); };
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rowRect(4).center());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, rowRect(0).center());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier, rowRect(2).center());
    QCOMPARE(view->selectionModel()->selectedRows().size(), 3);
    QApplication::clipboard()->clear();
    view->setFocus();
    QTest::keySequence(view, QKeySequence::Copy);
    const QByteArray expected = "rowid,transition,operation,address,linear,size\n"
                                "2,0,W,0x7ffc0000,0x7ffc0000,8\n"
                                "6,2,R,0x7ffc0000,0x7ffc0000,8\n"
                                "8,3,R,0x601004,,4\n";
    QCOMPARE(QApplication::clipboard()->text().toUtf8(), expected);
    QCOMPARE(panel.selectedRowsAsCsv(), expected);
    // The visible columns only: without Linear.
    panel.setColumnWanted(ResultsModel::LinearColumn, false);
    QCOMPARE(panel.selectedRowsAsCsv(),
        QByteArray("rowid,transition,operation,address,size\n"
                   "2,0,W,0x7ffc0000,8\n"
                   "6,2,R,0x7ffc0000,8\n"
                   "8,3,R,0x601004,4\n"));
    panel.setColumnWanted(ResultsModel::LinearColumn, true);
    QSettings().clear();
}

// Ctrl+End, the scroll bar moved far down and Go to Row show the exact rows of the 41,797-row
// result, without loading the pages between.
void TestQueryPanel::anyRowIsReachable()
{
    QString error;
    const auto database = HistoryDatabase::open(m_example, &error);
    QVERIFY2(database, qPrintable(error));
    HalfAxisQuery everything;
    everything.limit = 1'000'000;
    QueryPage page;
    QVERIFY(HalfAxisQueryEngine(*database).run(everything, &page, &error));
    const QList<Access> expected = page.accesses;
    QVERIFY(expected.size() > 1000);

    QueryPanel panel;
    panel.resize(700, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    ResultsModel *model = panel.resultsModel();
    model->setPageSize(50);
    QSignalSpy pages(model, &ResultsModel::pageLoaded);
    QSignalSpy jumps(model, &ResultsModel::jumped);
    QSignalSpy sizes(model, &ResultsModel::resultSizeChanged);
    panel.setHistory(m_example);
    QVERIFY(pages.wait());
    QVERIFY(sizes.wait());
    QCOMPARE(sizes.size(), 1);
    QTableView *view = panel.resultsView();
    QScrollBar *bar = panel.resultScrollBar();
    auto *status = panel.findChild<QLabel *>(QStringLiteral("statusLabel"));
    const bool exact = model->isResultSizeExact();
    if (exact)
        QCOMPARE(model->resultSize(), expected.size());
    // The bar spans the whole result, the table's own is off.
    QVERIFY(bar->isVisible());
    QVERIFY(!view->verticalScrollBar()->isVisible());
    QCOMPARE(qint64(bar->maximum()) + bar->pageStep(), model->resultSize());
    QCOMPARE(bar->value(), 0);
    const QString of = (exact ? QString() : QStringLiteral("≈ ")) + countText(quint64(model->resultSize()));
    QCOMPARE(status->text(), QStringLiteral("Rows 1 to 50 of %1; Ctrl+End: the last, Ctrl+L: any row").arg(of));

    // Ctrl+End: the last 50 rows, the last current, the bar at its end; nothing between loaded.
    view->setFocus();
    QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
    QVERIFY(jumps.wait());
    QCOMPARE(model->loadedAccesses(), expected.mid(expected.size() - 50));
    QCOMPARE(view->currentIndex().row(), 49);
    QCOMPARE(model->accessAt(view->currentIndex().row()), expected.constLast());
    QCOMPARE(bar->value(), bar->maximum());
    if (exact)
        QCOMPARE(status->text(),
            QStringLiteral("Rows %1 to %2 of %2; Ctrl+End: the last, Ctrl+L: any row")
                .arg(countText(quint64(expected.size() - 49)), countText(quint64(expected.size()))));

    // The bar moved to row 20,001 (as a drag released there): the rows from there, at the top.
    const int target = 20'000;
    bar->setValue(target);
    QVERIFY(jumps.wait());
    QCOMPARE(jumps.size(), 2);
    QCOMPARE(model->windowStart(), target);
    QCOMPARE(view->verticalScrollBar()->value(), 0);
    const qsizetype landed = expected.indexOf(model->accessAt(0));
    if (exact)
        QCOMPARE(landed, target);
    else
        QVERIFY(qAbs(landed - target) < 5000);
    QCOMPARE(model->loadedAccesses(), expected.mid(landed, 50));
    QCOMPARE(bar->value(), target);

    // Go to Row 7: outside the window, found again from the start, made current.
    panel.goToRow(7);
    QVERIFY(jumps.wait());
    QCOMPARE(model->accessAt(view->currentIndex().row()), expected.at(6));
    // Go to Row 30 is loaded now: made current at once.
    panel.goToRow(30);
    QCOMPARE(jumps.size(), 3);
    QCOMPARE(model->accessAt(view->currentIndex().row()), expected.at(29));
}

QTEST_MAIN(TestQueryPanel)
#include "tst_querypanel.moc"
