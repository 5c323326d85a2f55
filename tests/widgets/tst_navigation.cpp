// SPDX-License-Identifier: MIT
// The viewer's Go menu (app/viewer/navigator.h), driven in the real main window: previous/next write
// and read of the selected access's bytes on tests/data/csv/small.csv (exact rows, the "none"
// messages), go to transition, address and symbol centring the plane, the executions of an
// instruction against `memhist query --pc`, and bookmarks kept outside the history across windows and
// exported to CSV and JSON.
#include "bookmarks.h"
#include "bookmarkspanel.h"
#include "core/importers/importsession.h"
#include "core/model/numbertext.h"
#include "executionspanel.h"
#include "gotodialog.h"
#include "historyinfo.h"
#include "mainwindow.h"
#include "navigator.h"
#include "programhistory.h"
#include "testsupport.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QFile>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStringListModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>

using namespace memhist;
using namespace memhist::test;
using namespace memhist::viewer;

namespace {

constexpr std::uint64_t pieBias = 0x555555554000;

bool importFixture(const QString &trace, const QString &output)
{
    QList<TraceInput> inputs;
    QString error;
    ImportSummary summary;
    return recogniseTraces({ trace }, std::nullopt, &inputs, &error)
        && importTraces(inputs, output, ImportOptions {}, {}, &summary, &error);
}

// A window showing `history`, its plane loaded and the results' first page in.
std::unique_ptr<MainWindow> openWindow(const QString &history)
{
    auto window = std::make_unique<MainWindow>();
    window->setInteractive(false);
    window->resize(1200, 800);
    window->show();
    QSignalSpy planeLoaded(window->plane(), &PlaneWidget::historyLoaded);
    window->openHistory(history);
    if (!QTest::qWaitFor([&] { return planeLoaded.count() == 1; }, 20000))
        return nullptr;
    // A history opens with no query; these tests pick their accesses among all of them.
    window->queryPanel()->runQuery(HalfAxisQuery {});
    ResultsModel *model = window->queryPanel()->resultsModel();
    if (!QTest::qWaitFor([&] { return !model->isLoading() && model->rowCount() > 0; }, 20000))
        return nullptr;
    return window;
}

// Makes the results row of access `rowId` current (it must be in the default query's rows).
bool selectRow(MainWindow &window, qint64 rowId)
{
    ResultsModel *model = window.queryPanel()->resultsModel();
    auto *view = window.queryPanel()->findChild<QTableView *>(QStringLiteral("resultsView"));
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->accessAt(row).rowId.value == rowId) {
            view->setCurrentIndex(model->index(row, 0));
            return window.navigator()->selectedAccess() && window.navigator()->selectedAccess()->rowId.value == rowId;
        }
    }
    return false;
}

QList<qint64> loadedRowIds(const ResultsModel &model)
{
    QList<qint64> rowIds;
    for (const Access &access : model.loadedAccesses())
        rowIds << access.rowId.value;
    return rowIds;
}

QStringList lines(const QByteArray &text)
{
    QStringList result = QString::fromUtf8(text).split(u'\n');
    if (!result.isEmpty() && result.constLast().isEmpty())
        result.removeLast();
    return result;
}

} // namespace

class TestNavigation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Bookmarks and settings go to a throwaway location, not the user's.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("memhist-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_navigation"));
        QSettings().clear();
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
        QVERIFY(m_directory.isValid());
        m_smallHistory = m_directory.filePath(QStringLiteral("small.memhist"));
        QVERIFY(importFixture(QFINDTESTDATA("../data/csv/small.csv"), m_smallHistory));
    }

    void cleanupTestCase()
    {
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).removeRecursively();
    }

    void refusesADamagedBookmarksFile()
    {
        const QString file = m_directory.filePath(QStringLiteral("damaged.json"));
        QFile output(file);
        QVERIFY(output.open(QIODevice::WriteOnly));
        output.write("{\"bookmarks\": [{\"transition\": \"2\"}]}");
        output.close();
        QList<Bookmark> bookmarks;
        QString error;
        QVERIFY(!loadBookmarks(file, &bookmarks, &error));
        QCOMPARE(error, file + QStringLiteral(": a bookmark without a transition or an address"));
        QVERIFY(bookmarks.isEmpty());

        QVERIFY(output.open(QIODevice::WriteOnly | QIODevice::Truncate));
        output.write("[1, 2");
        output.close();
        QVERIFY(!loadBookmarks(file, &bookmarks, &error));
        QVERIFY2(error.startsWith(file + QStringLiteral(": not a bookmarks file (")), qPrintable(error));

        // No file: no bookmarks, no error.
        QVERIFY(loadBookmarks(m_directory.filePath(QStringLiteral("none.json")), &bookmarks, &error));
        QVERIFY(bookmarks.isEmpty());
    }

    void centringKeepsTheZoom()
    {
        const ViewRange view { Transition { 100 }, Transition { 200 }, Address { 0x1000 }, Address { 0x1fff } };
        QCOMPARE(centredOnTransition(view, Transition { 1000 }),
            (ViewRange { Transition { 950 }, Transition { 1050 }, Address { 0x1000 }, Address { 0x1fff } }));
        // Saturates at transition 0 rather than wrapping.
        QCOMPARE(centredOnTransition(view, Transition { 10 }),
            (ViewRange { Transition { 0 }, Transition { 100 }, Address { 0x1000 }, Address { 0x1fff } }));
        // Inside a region wider than the view: the span stays.
        const QList<ViewRange> regions { { Transition { 0 }, Transition { 0 }, Address { 0 }, Address { 0xffff } } };
        QCOMPARE(centredOnAddress(view, Address { 0x8000 }, regions),
            (ViewRange { Transition { 100 }, Transition { 200 }, Address { 0x7801 }, Address { 0x8800 } }));
        // A region narrower than the view: the span shrinks to it (at least 256 bytes).
        const QList<ViewRange> small { { Transition { 0 }, Transition { 0 }, Address { 0x8000 }, Address { 0x8007 } } };
        QCOMPARE(centredOnAddress(view, Address { 0x8004 }, small),
            (ViewRange { Transition { 100 }, Transition { 200 }, Address { 0x7f85 }, Address { 0x8084 } }));
        QCOMPARE(
            noneFoundText(Operation::Write, Direction::Backward), QStringLiteral("No earlier write to these bytes"));
        QCOMPARE(noneFoundText(Operation::Read, Direction::Forward), QStringLiteral("No later read of these bytes"));
    }

    void stepsToTheNeighbouringAccess_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<int>("action");
        QTest::addColumn<qint64>("foundRow"); // 0: none
        QTest::addColumn<quint64>("foundTransition");
        QTest::addColumn<QString>("status");
        using A = Navigator::Action;
        // small.csv: row 6 reads 8 bytes at 0x7ffc0000 at transition 2, row 7 writes them at the same
        // transition, row 2 wrote them at 0, row 18 reads them at 12; row 16 reads 16 bytes at
        // 0x601000 (9), row 9 wrote 8 of them (5), row 19 writes 4 at 0x601008 (12).
        QTest::newRow("next write at the same transition")
            << qint64(6) << int(A::NextWrite) << qint64(7) << quint64(2)
            << "Next write to 0x7ffc0000 (8 bytes) at transition 2, row 7";
        QTest::newRow("previous write") << qint64(6) << int(A::PreviousWrite) << qint64(2) << quint64(0)
                                        << "Previous write to 0x7ffc0000 (8 bytes) at transition 0, row 2";
        QTest::newRow("previous read: none")
            << qint64(6) << int(A::PreviousRead) << qint64(0) << quint64(0) << "No earlier read of these bytes";
        QTest::newRow("next read") << qint64(7) << int(A::NextRead) << qint64(18) << quint64(12)
                                   << "Next read of 0x7ffc0000 (8 bytes) at transition 12, row 18";
        QTest::newRow("next write: none")
            << qint64(18) << int(A::NextWrite) << qint64(0) << quint64(0) << "No later write to these bytes";
        QTest::newRow("previous write: none")
            << qint64(2) << int(A::PreviousWrite) << qint64(0) << quint64(0) << "No earlier write to these bytes";
        QTest::newRow("previous read of a wider access")
            << qint64(19) << int(A::PreviousRead) << qint64(16) << quint64(9)
            << "Previous read of 0x601000 (16 bytes) at transition 9, row 16";
        QTest::newRow("next write to part of the bytes") << qint64(16) << int(A::NextWrite) << qint64(19) << quint64(12)
                                                         << "Next write to 0x601008 (4 bytes) at transition 12, row 19";
        QTest::newRow("previous write to part of the bytes")
            << qint64(16) << int(A::PreviousWrite) << qint64(9) << quint64(5)
            << "Previous write to 0x601000 (8 bytes) at transition 5, row 9";
    }

    void stepsToTheNeighbouringAccess()
    {
        QFETCH(qint64, from);
        QFETCH(int, action);
        QFETCH(qint64, foundRow);
        QFETCH(quint64, foundTransition);
        QFETCH(QString, status);
        const auto window = openWindow(m_smallHistory);
        QVERIFY(window);
        Navigator *navigator = window->navigator();
        QVERIFY(!navigator->action(Navigator::Action(action))->isEnabled());
        QVERIFY(selectRow(*window, from));
        QVERIFY(navigator->action(Navigator::Action(action))->isEnabled());

        QSignalSpy finished(navigator, &Navigator::stepFinished);
        navigator->action(Navigator::Action(action))->trigger();
        QTRY_COMPARE(finished.count(), 1);
        const auto found = finished.first().first().value<std::optional<Access>>();
        QCOMPARE(window->hoverText(), status);
        if (foundRow == 0) {
            QVERIFY(!found);
            // The selection stays.
            QCOMPARE(navigator->selectedAccess()->rowId.value, from);
            return;
        }
        QVERIFY(found);
        QCOMPARE(found->rowId.value, foundRow);
        QCOMPARE(found->transition.value, foundTransition);
        // It becomes the selection: the current results row, marked on the plane and in view.
        QTRY_VERIFY(navigator->selectedAccess() && navigator->selectedAccess()->rowId.value == foundRow);
        QCOMPARE(*navigator->selectedAccess(), *found);
        auto *view = window->queryPanel()->findChild<QTableView *>(QStringLiteral("resultsView"));
        QCOMPARE(view->currentIndex().row(), 0);
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
        QVERIFY(view->selectionModel()->isRowSelected(0, {}));
        const ViewRange visible = window->plane()->visibleRange();
        QVERIFY(visible.firstTransition <= found->transition && found->transition <= visible.lastTransition);
        QVERIFY(window->plane()->positionOf(found->transition, found->physical).has_value());
    }

    void stepShowsItsQueryInThePanel_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<int>("action");
        QTest::addColumn<QString>("transition");
        QTest::addColumn<int>("direction"); // the combo's index: 0 forward, 1 backward
        QTest::addColumn<QString>("resume");
        QTest::addColumn<QList<qint64>>("rows");
        using A = Navigator::Action;
        // small.csv: row 6 reads 0x7ffc0000 (8 bytes) at transition 2, row 7 writes them there, row 2
        // wrote them at 0, row 18 reads them at 12. The transition alone would also list row 7
        // backward (7, 6, 2) and row 6 forward (6, 7, 18).
        QTest::newRow("previous read: backward from it")
            << qint64(18) << int(A::PreviousRead) << "2" << 1 << "starting at row 6" << QList<qint64> { 6, 2 };
        QTest::newRow("next write: forward from it")
            << qint64(6) << int(A::NextWrite) << "2" << 0 << "starting at row 7" << QList<qint64> { 7, 18 };
    }

    void stepShowsItsQueryInThePanel()
    {
        QFETCH(qint64, from);
        QFETCH(int, action);
        QFETCH(QString, transition);
        QFETCH(int, direction);
        QFETCH(QString, resume);
        QFETCH(QList<qint64>, rows);
        const auto window = openWindow(m_smallHistory);
        QVERIFY(window);
        QueryPanel *panel = window->queryPanel();
        ResultsModel *model = panel->resultsModel();
        QVERIFY(selectRow(*window, from));
        QSignalSpy finished(window->navigator(), &Navigator::stepFinished);
        window->navigator()->action(Navigator::Action(action))->trigger();
        QTRY_COMPARE(finished.count(), 1);
        QTRY_VERIFY(model->isExhausted() && !model->isLoading());
        QCOMPARE(loadedRowIds(*model), rows);

        // The fields show that query: Run gives the same rows.
        QCOMPARE(panel->findChild<QLineEdit *>(QStringLiteral("transitionEdit"))->text(), transition);
        QCOMPARE(panel->findChild<QComboBox *>(QStringLiteral("directionCombo"))->currentIndex(), direction);
        auto *resumeLabel = panel->findChild<QLabel *>(QStringLiteral("resumeLabel"));
        QVERIFY(!resumeLabel->isHidden());
        QCOMPARE(resumeLabel->text(), resume);
        const std::optional<HalfAxisQuery> inputs = panel->inputsQuery();
        QVERIFY(inputs);
        QCOMPARE(inputs->resumeAfter, panel->currentQuery().resumeAfter);
        QCOMPARE(inputs->direction, panel->currentQuery().direction);
        QCOMPARE(inputs->first, panel->currentQuery().first);
        QCOMPARE(inputs->last, panel->currentQuery().last);
        QCOMPARE(inputs->operations, panel->currentQuery().operations);
        QSignalSpy pages(model, &ResultsModel::pageLoaded);
        panel->findChild<QPushButton *>(QStringLiteral("runButton"))->click();
        QVERIFY(pages.wait());
        QVERIFY(model->isExhausted());
        QCOMPARE(loadedRowIds(*model), rows);

        // Export writes those rows.
        const QString csv
            = m_directory.filePath(QStringLiteral("step-%1.csv").arg(QLatin1String(QTest::currentDataTag())));
        QSignalSpy exported(panel, &QueryPanel::exportFinished);
        panel->exportTo(csv);
        QVERIFY(exported.wait());
        QVERIFY(exported.first().first().toBool());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QStringList exportedLines = lines(file.readAll());
        QCOMPARE(exportedLines.takeFirst(), QStringLiteral("rowid,transition,operation,address,linear,size"));
        QList<qint64> exportedRows;
        for (const QString &line : std::as_const(exportedLines))
            exportedRows << line.section(u',', 0, 0).toLongLong();
        QCOMPARE(exportedRows, rows);

        // A transition typed by the user starts at the transition.
        auto *transitionEdit = panel->findChild<QLineEdit *>(QStringLiteral("transitionEdit"));
        transitionEdit->setFocus();
        transitionEdit->selectAll();
        QTest::keyClicks(transitionEdit, transition);
        QVERIFY(resumeLabel->isHidden());
        QVERIFY(!panel->inputsQuery()->resumeAfter);
    }

    void shortcutsAreWindowWide()
    {
        const auto window = openWindow(m_smallHistory);
        QVERIFY(window);
        const auto shortcut = [&](Navigator::Action action) {
            return window->navigator()->action(action)->shortcut().toString(QKeySequence::PortableText);
        };
        QCOMPARE(shortcut(Navigator::Action::PreviousWrite), QStringLiteral("F7"));
        QCOMPARE(shortcut(Navigator::Action::NextWrite), QStringLiteral("F8"));
        QCOMPARE(shortcut(Navigator::Action::PreviousRead), QStringLiteral("Shift+F7"));
        QCOMPARE(shortcut(Navigator::Action::NextRead), QStringLiteral("Shift+F8"));
        QCOMPARE(shortcut(Navigator::Action::GoToTransition), QStringLiteral("Ctrl+G"));
        QCOMPARE(shortcut(Navigator::Action::GoToAddress), QStringLiteral("Ctrl+Shift+G"));
        QVERIFY(selectRow(*window, 6));
        // Typed while the results table has the focus, not the plane.
        window->queryPanel()->findChild<QTableView *>(QStringLiteral("resultsView"))->setFocus();
        QSignalSpy finished(window->navigator(), &Navigator::stepFinished);
        QTest::keyClick(window.get(), Qt::Key_F8);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.first().first().value<std::optional<Access>>()->rowId.value, qint64(7));
        QTRY_VERIFY(
            window->navigator()->selectedAccess() && window->navigator()->selectedAccess()->rowId == RowId { 7 });

        // Typed on the plane, which must not take it as a key of its own.
        PlaneWidget *plane = window->plane();
        plane->setFocus();
        const bool couldGoBack = plane->canGoBack();
        const ViewRange view = plane->visibleRange();
        QTest::keyClick(plane, Qt::Key_F7, Qt::ShiftModifier);
        QTRY_COMPARE(finished.count(), 2);
        QCOMPARE(finished.at(1).first().value<std::optional<Access>>()->rowId.value, qint64(6));
        QCOMPARE(plane->canGoBack(), couldGoBack);
        QCOMPARE(plane->visibleRange(), view);
    }

    void goesToATransition()
    {
        const auto window = openWindow(m_smallHistory);
        QVERIFY(window);
        PlaneWidget *plane = window->plane();
        const ViewRange whole = plane->visibleRange();
        plane->setVisibleRange({ Transition { 1 }, Transition { 5 }, whole.firstAddress, whole.lastAddress });
        const ViewRange zoomed = plane->visibleRange();
        const std::uint64_t width = zoomed.lastTransition.value - zoomed.firstTransition.value;
        QString error;
        QVERIFY(window->navigator()->goToTransitionText(QStringLiteral("0x6"), &error));
        ViewRange centred = plane->visibleRange();
        QCOMPARE(centred.lastTransition.value - centred.firstTransition.value, width);
        QCOMPARE(centred.firstTransition.value, 6 - width / 2);
        QCOMPARE(centred.firstAddress, zoomed.firstAddress);
        QCOMPARE(centred.lastAddress, zoomed.lastAddress);
        QCOMPARE(window->hoverText(), QStringLiteral("Transition 6"));

        QVERIFY(!window->navigator()->goToTransitionText(QStringLiteral("ten"), &error));
        QCOMPARE(error, QStringLiteral("“ten” is not a transition: type a number (150218, 150,218 or 0x24aca)."));
        QCOMPARE(plane->visibleRange(), centred);

        // The dialog: a refused text keeps it open with the reason; the viewer's digit groups go.
        GoToDialog dialog(
            QStringLiteral("Go to Transition"), QStringLiteral("Transition:"), {},
            [&](const QString &text, QString *why) { return window->navigator()->goToTransitionText(text, why); },
            window.get());
        dialog.show();
        QTest::keyClicks(dialog.edit(), QStringLiteral("1,0,"));
        dialog.accept();
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.errorText(),
            QStringLiteral("“1,0,” is not a transition: type a number (150218, 150,218 or 0x24aca)."));
        QCOMPARE(plane->visibleRange(), centred);
        dialog.edit()->setText(QStringLiteral("9"));
        dialog.accept();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        centred = plane->visibleRange();
        QCOMPARE(centred.firstTransition.value, 9 - width / 2);
        QCOMPARE(window->hoverText(), QStringLiteral("Transition 9"));
    }

    void goesToAnAddress()
    {
        const auto window = openWindow(m_smallHistory);
        QVERIFY(window);
        PlaneWidget *plane = window->plane();
        const ViewRange before = plane->visibleRange();
        QString error;
        // The viewer's own digit groups.
        QVERIFY(window->navigator()->goToAddressText(QStringLiteral("0x60'1004"), &error));
        const ViewRange centred = plane->visibleRange();
        QCOMPARE(window->hoverText(), QStringLiteral("Address 0x601004"));
        QCOMPARE(centred.firstTransition, before.firstTransition);
        QCOMPARE(centred.lastTransition, before.lastTransition);
        QVERIFY2(centred.firstAddress.value <= 0x601004 && 0x601004 <= centred.lastAddress.value,
            qPrintable(
                hexText(centred.firstAddress.value) + QStringLiteral("..") + hexText(centred.lastAddress.value)));
        const std::uint64_t below = 0x601004 - centred.firstAddress.value;
        const std::uint64_t above = centred.lastAddress.value - 0x601004;
        QVERIFY2(below - above <= 1 || above - below <= 1, qPrintable(QStringLiteral("%1 %2").arg(below).arg(above)));

        QTRY_VERIFY(window->navigator()->symbolsRead());
        QVERIFY(!window->navigator()->goToAddressText(QStringLiteral("main"), &error));
        QCOMPARE(error,
            QStringLiteral("“main” is not an address, and this history names no functions or data objects: type an "
                           "address (0x4a1b140)."));
    }

    void goesToASymbolWithCompletion()
    {
        QVERIFY(QFile::copy(
            QFINDTESTDATA("../data/programs/counter.c"), m_directory.filePath(QStringLiteral("counter.c"))));
        QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_directory.path()));
        const QString output = m_directory.filePath(QStringLiteral("counter.memhist"));
        CounterHistory history;
        QVERIFY(writeCounterHistory(m_directory.filePath(QStringLiteral("counter")), pieBias, output, &history));
        m_counter = history;

        const auto window = openWindow(output);
        QVERIFY(window);
        Navigator *navigator = window->navigator();
        QTRY_VERIFY(!navigator->symbols().isEmpty());
        const QStringList names = qobject_cast<QStringListModel *>(navigator->symbolCompleter()->model())->stringList();
        for (const char *name : { "bump", "counter", "main", "table" })
            QVERIFY2(names.contains(QLatin1String(name)), qPrintable(names.join(u' ')));
        navigator->symbolCompleter()->setCompletionPrefix(QStringLiteral("coun"));
        QCOMPARE(navigator->symbolCompleter()->currentCompletion(), QStringLiteral("counter"));

        QString error;
        QVERIFY(navigator->goToAddressText(QStringLiteral("counter"), &error));
        QCOMPARE(window->hoverText(),
            QStringLiteral("counter (data object, 4 bytes) at %1").arg(hexText(history.counterAddress)));
        ViewRange centred = window->plane()->visibleRange();
        QVERIFY(centred.firstAddress.value <= history.counterAddress
            && history.counterAddress <= centred.lastAddress.value);
        QVERIFY(navigator->goToAddressText(QStringLiteral("table+3"), &error));
        QCOMPARE(window->hoverText(), QStringLiteral("table+3 (data object) at %1").arg(hexText(history.tableAddress)));
        QVERIFY(!navigator->goToAddressText(QStringLiteral("nosuchname"), &error));
        QCOMPARE(
            error, QStringLiteral("“nosuchname” is neither an address nor a function or data object of this history."));
    }

    void goToFramesAndOutlinesItsTarget()
    {
        // Typed into the Go to Address or Symbol dialog (Ctrl+Shift+G) as a user does.
        const QString output = m_directory.filePath(QStringLiteral("counter.memhist"));
        QVERIFY2(QFile::exists(output), "goesToASymbolWithCompletion writes it");
        const auto window = openWindow(output);
        QVERIFY(window);
        Navigator *navigator = window->navigator();
        QTRY_VERIFY(navigator->symbolsRead());
        NamedRange counter;
        NamedRange table;
        for (const NamedRange &symbol : navigator->symbols()) {
            if (symbol.name == QLatin1String("counter"))
                counter = symbol;
            if (symbol.name == QLatin1String("table"))
                table = symbol;
        }
        QCOMPARE(counter.range.last.value - counter.range.first.value, quint64(3));
        QCOMPARE(table.range.last.value - table.range.first.value, quint64(15));
        navigator->setInteractive(true);
        PlaneWidget *plane = window->plane();
        const auto typeInDialog = [&](const QString &text) {
            window->activateWindow();
            QVERIFY(QTest::qWaitForWindowActive(window.get()));
            QTimer::singleShot(0, this, [text] {
                auto *dialog = qobject_cast<GoToDialog *>(QApplication::activeModalWidget());
                QVERIFY(dialog);
                QTest::keyClicks(dialog->edit(), text);
                if (QCompleter *completer = dialog->edit()->completer(); completer && completer->popup()->isVisible())
                    QTest::keyClick(completer->popup(), Qt::Key_Escape);
                QTest::keyClick(dialog->edit(), Qt::Key_Return);
            });
            QTest::keyClick(window.get(), Qt::Key_G, Qt::ControlModifier | Qt::ShiftModifier);
            QTRY_VERIFY(!QApplication::activeModalWidget());
        };
        typeInDialog(QStringLiteral("table"));
        QCOMPARE(window->hoverText(),
            QStringLiteral("table (data object, 16 bytes) at %1").arg(hexText(table.range.first.value)));
        // Its 16 bytes outlined in the middle of the plot.
        ViewRange framed = plane->visibleRange();
        QCOMPARE(plane->markedTarget(),
            std::optional<ViewRange>(
                ViewRange { framed.firstTransition, framed.lastTransition, table.range.first, table.range.last }));
        std::optional<QRect> outline = plane->targetOutline();
        QVERIFY(outline);
        const QRect plot = plane->plotRectangle();
        QVERIFY2(std::abs((outline->top() + outline->bottom() + 1) / 2.0 - (plot.top() + plot.bottom() + 1) / 2.0) <= 3,
            qPrintable(QStringLiteral("outline %1..%2, plot %3..%4")
                           .arg(outline->top())
                           .arg(outline->bottom())
                           .arg(plot.top())
                           .arg(plot.bottom())));
        // A third of the plot at most (only 4 of its 16 bytes lie in an occupied region, the others
        // in a folded gap, so the zoom floor of 32 bytes decides): far from a sub-pixel line.
        QVERIFY2(outline->height() >= plot.height() / 9 && outline->height() <= plot.height() / 3 + 3,
            qPrintable(QStringLiteral("%1 of %2").arg(outline->height()).arg(plot.height())));
        plane->grab().save(m_directory.filePath(QStringLiteral("goto-table.png")));

        // counter is the lowest object: the view stops at the axis' end, the object still in view.
        typeInDialog(QStringLiteral("counter"));
        QCOMPARE(window->hoverText(),
            QStringLiteral("counter (data object, 4 bytes) at %1").arg(hexText(counter.range.first.value)));
        framed = plane->visibleRange();
        QVERIFY(framed.firstAddress <= counter.range.first && counter.range.last < framed.lastAddress);
        outline = plane->targetOutline();
        QVERIFY(outline);
        QVERIFY2(outline->height() >= plane::minTargetPixels, qPrintable(QString::number(outline->height())));
        QTRY_VERIFY_WITH_TIMEOUT(!plane->markedTarget(), PlaneWidget::targetOutlineMs + 2000);
        QVERIFY(!plane->targetOutline());

        // A function: the data its instructions touched, outlined, not its .text bytes.
        QSignalSpy framedFunction(navigator, &Navigator::functionFramed);
        typeInDialog(QStringLiteral("bump"));
        QTRY_COMPARE(framedFunction.count(), 1);
        const std::optional<ViewRange> target = plane->markedTarget();
        QVERIFY(target);
        QCOMPARE(target->firstTransition.value, m_counter.storeTransition);
        QCOMPARE(target->lastTransition.value, m_counter.storeTransition);
        const std::uint64_t lowest = std::min(
            { m_counter.counterAddress, m_counter.tableAddress, m_counter.stackAddress, m_counter.heapAddress });
        QCOMPARE(target->firstAddress.value, lowest);
        QVERIFY(target->lastAddress.value >= std::max({ m_counter.counterAddress, m_counter.tableAddress,
                    m_counter.stackAddress, m_counter.heapAddress }));
        QCOMPARE(window->hoverText(),
            QStringLiteral("Function bump made 4 memory accesses, at %1..%2, transitions %3..%3")
                .arg(hexText(target->firstAddress.value), hexText(target->lastAddress.value),
                    countText(m_counter.storeTransition)));
        const ViewRange shown = plane->visibleRange();
        QVERIFY(shown.firstTransition.value <= m_counter.storeTransition
            && m_counter.storeTransition <= shown.lastTransition.value);
        QVERIFY(shown.firstAddress.value <= target->firstAddress.value
            && target->lastAddress.value <= shown.lastAddress.value);
        plane->grab().save(m_directory.filePath(QStringLiteral("goto-bump.png")));

        typeInDialog(QStringLiteral("main"));
        QTRY_COMPARE(framedFunction.count(), 2);
        QCOMPARE(window->hoverText(), QStringLiteral("Function main made no memory accesses"));
        if (!qEnvironmentVariableIsEmpty("MEMHIST_SHOTS"))
            for (const char *name : { "goto-table.png", "goto-bump.png" })
                QFile::copy(m_directory.filePath(QLatin1String(name)),
                    qEnvironmentVariable("MEMHIST_SHOTS") + u'/' + QLatin1String(name));
    }

    void listsTheExecutionsOfAnInstructionAsTheCli()
    {
        const QString history = m_directory.filePath(QStringLiteral("true.memhist"));
        QVERIFY(!cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../data/lackey/true.tiny.lackey"),
                               QStringLiteral("-o"), history })
                     .isEmpty());
        // The access whose instruction ran most often among the first 2000.
        const QStringList rows = lines(cliOutput({ QStringLiteral("query"), history, QStringLiteral("--context"),
            QStringLiteral("--format"), QStringLiteral("csv"), QStringLiteral("--limit"), QStringLiteral("2000") }));
        QVERIFY(rows.size() > 100);
        QHash<QString, int> runs;
        for (const QString &row : rows.mid(1))
            ++runs[row.section(u',', 6, 6)];
        QString busiest;
        for (auto it = runs.cbegin(); it != runs.cend(); ++it) {
            if (busiest.isEmpty() || it.value() > runs.value(busiest))
                busiest = it.key();
        }
        // Its last access among them: an execution well down the list, past the first page of 7.
        QStringList chosen;
        for (const QString &row : rows.mid(1)) {
            if (row.section(u',', 6, 6) == busiest)
                chosen = row.split(u',');
        }
        std::uint64_t address = 0;
        QVERIFY(parseUnsigned(chosen.at(3).toLatin1(), &address));
        const Access access { RowId { chosen.at(0).toLongLong() }, Transition { chosen.at(1).toULongLong() },
            chosen.at(2) == QLatin1String("W") ? Operation::Write : Operation::Read, Address { address },
            Address { address }, std::uint32_t(chosen.at(5).toUInt()) };
        QList<quint64> expected;
        for (const QString &row : lines(cliOutput({ QStringLiteral("query"), history, QStringLiteral("--pc"), busiest,
                                            QStringLiteral("--format"), QStringLiteral("csv"),
                                            QStringLiteral("--limit"), QStringLiteral("1000000") }))
                                      .mid(1))
            expected << row.section(u',', 0, 0).toULongLong();
        QVERIFY(expected.size() > 10);

        const auto window = openWindow(history);
        QVERIFY(window);
        Navigator *navigator = window->navigator();
        navigator->selectAccess(access);
        QTRY_VERIFY(navigator->selectedAccess() && navigator->selectedAccess()->rowId == access.rowId);
        ExecutionsModel *model = navigator->executionsPanel()->model();
        model->setPageSize(7); // pages of 7, resumed after the last
        ExecutionsPanel *panel = navigator->executionsPanel();
        QSignalSpy activated(panel, &ExecutionsPanel::transitionActivated);
        navigator->action(Navigator::Action::Executions)->trigger();
        QTRY_VERIFY(model->pc().has_value() && !model->isLoading());
        QCOMPARE(hexText(model->pc()->value), busiest);
        // The list opens on the execution the user came from, selected (and not picked: the viewer
        // is there already): the first page runs to it.
        const int current = int(expected.indexOf(access.transition.value));
        QVERIFY2(current > 7, qPrintable(QString::number(current)));
        QVERIFY(model->rowCount() > current);
        QCOMPARE(model->transitions().at(current), access.transition);
        QCOMPARE(panel->currentRow(), current);
        QCOMPARE(activated.size(), 0);
        auto *view = panel->findChild<QListView *>(QStringLiteral("executionsView"));
        QVERIFY(view && view->isVisible()); // its tab raised
        QVERIFY(view->verticalScrollBar()->value() > 0); // not left at the top
        QVERIFY(view->viewport()->rect().contains(view->visualRect(model->index(current))));
        while (!model->isExhausted()) {
            QVERIFY(model->canFetchMore({}));
            const int before = model->rowCount();
            model->fetchMore({});
            QTRY_VERIFY(!model->isLoading());
            QVERIFY(model->rowCount() > before || model->isExhausted());
        }
        QList<quint64> listed;
        for (const Transition t : model->transitions())
            listed << t.value;
        QCOMPARE(listed, expected);
        QCOMPARE(navigator->executionsPanel()
                     ->findChild<QLabel *>(QStringLiteral("executionsHeader"))
                     ->text()
                     .section(QStringLiteral(" — "), 1),
            QStringLiteral("%1 executions").arg(countText(quint64(expected.size()))));

        // Picking one centres the plane on it.
        const ViewRange before = window->plane()->visibleRange();
        window->plane()->setVisibleRange(
            { Transition { 0 }, Transition { 99 }, before.firstAddress, before.lastAddress });
        navigator->executionsPanel()->activate(int(expected.size()) - 1);
        const ViewRange centred = window->plane()->visibleRange();
        QCOMPARE(centred.firstTransition.value + (centred.lastTransition.value - centred.firstTransition.value) / 2,
            expected.constLast());

        // A list filled while hidden opens on the same execution when it is shown.
        ExecutionsPanel hidden;
        hidden.resize(300, 120);
        hidden.model()->setPageSize(7);
        QSignalSpy loaded(hidden.model(), &ExecutionsModel::pageLoaded);
        hidden.showInstructionAt(history, access.transition);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(hidden.currentRow(), current);
        hidden.show();
        QVERIFY(QTest::qWaitForWindowExposed(&hidden));
        auto *hiddenView = hidden.findChild<QListView *>(QStringLiteral("executionsView"));
        QVERIFY(hiddenView->verticalScrollBar()->value() > 0);
        QVERIFY(hiddenView->viewport()->rect().contains(hiddenView->visualRect(hidden.model()->index(current))));
    }

    void bookmarksPersistOutsideTheHistory()
    {
        const QByteArray historyBytes = readFile(m_smallHistory);
        QVERIFY(!historyBytes.isEmpty());
        QString storePath;
        {
            const auto window = openWindow(m_smallHistory);
            QVERIFY(window);
            Navigator *navigator = window->navigator();
            BookmarksPanel *panel = navigator->bookmarksPanel();
            QCOMPARE(panel->bookmarks().size(), 0);
            QVERIFY(selectRow(*window, 7));
            navigator->action(Navigator::Action::AddBookmark)->trigger();
            panel->setNote(0, QStringLiteral("the frame's \"saved\" slot, rewritten"));
            QVERIFY(selectRow(*window, 16));
            navigator->addBookmark();
            panel->setNote(1, QStringLiteral("table read"));
            storePath = panel->storePath();
            QVERIFY(storePath.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
            QVERIFY(QFile::exists(storePath));
            panel->add(Bookmark {
                Transition { 11 }, Address { 0x602000 }, std::nullopt, std::nullopt, 1, QStringLiteral("a point") });
            panel->remove(2);
        }
        QCOMPARE(readFile(m_smallHistory), historyBytes);

        const auto window = openWindow(m_smallHistory);
        QVERIFY(window);
        BookmarksPanel *panel = window->navigator()->bookmarksPanel();
        QCOMPARE(panel->storePath(), storePath);
        const QList<Bookmark> expected {
            { Transition { 2 }, Address { 0x7ffc0000 }, RowId { 7 }, Operation::Write, 8,
                QStringLiteral("the frame's \"saved\" slot, rewritten") },
            { Transition { 9 }, Address { 0x601000 }, RowId { 16 }, Operation::Read, 16, QStringLiteral("table read") },
        };
        QCOMPARE(panel->bookmarks(), expected);

        QString error;
        const QString csv = m_directory.filePath(QStringLiteral("bookmarks.csv"));
        QVERIFY2(panel->exportTo(csv, &error), qPrintable(error));
        QCOMPARE(readFile(csv),
            QByteArray("transition,address,rowid,operation,size,note\n"
                       "2,0x7ffc0000,7,W,8,\"the frame's \"\"saved\"\" slot, rewritten\"\n"
                       "9,0x601000,16,R,16,table read\n"));
        const QString json = m_directory.filePath(QStringLiteral("bookmarks.json"));
        QVERIFY2(panel->exportTo(json, &error), qPrintable(error));
        QCOMPARE(readFile(json),
            QStringLiteral("{\n"
                           "    \"bookmarks\": [\n"
                           "        {\n"
                           "            \"address\": \"0x7ffc0000\",\n"
                           "            \"note\": \"the frame's \\\"saved\\\" slot, rewritten\",\n"
                           "            \"operation\": \"W\",\n"
                           "            \"rowid\": \"7\",\n"
                           "            \"size\": 8,\n"
                           "            \"transition\": \"2\"\n"
                           "        },\n"
                           "        {\n"
                           "            \"address\": \"0x601000\",\n"
                           "            \"note\": \"table read\",\n"
                           "            \"operation\": \"R\",\n"
                           "            \"rowid\": \"16\",\n"
                           "            \"size\": 16,\n"
                           "            \"transition\": \"9\"\n"
                           "        }\n"
                           "    ],\n"
                           "    \"history\": \"%1\"\n"
                           "}\n")
                .arg(QFileInfo(m_smallHistory).absoluteFilePath())
                .toUtf8());
        QCOMPARE(readFile(storePath), readFile(json));

        // Going to one selects its access.
        panel->activate(1);
        QTRY_VERIFY(
            window->navigator()->selectedAccess() && window->navigator()->selectedAccess()->rowId == RowId { 16 });
    }

private:
    QTemporaryDir m_directory;
    QString m_smallHistory;
    CounterHistory m_counter; // goesToASymbolWithCompletion's counter.memhist
};

QTEST_MAIN(TestNavigation)
#include "tst_navigation.moc"
