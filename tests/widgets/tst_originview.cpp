// SPDX-License-Identifier: MIT
// The Origin tab of the Detail pane (Where Did This Come From? / Where Did It Go?) in the real main
// window, on a small history with values and no code trace: the exact hops shown (memory hops only,
// with the core's words for what the history lacks), the path drawn on the plane through them, a
// click on a hop selecting its exact rowid (the current results row, the plane's current access),
// forward, a newer request dropping the older, Cancel keeping the tree shown.
#include "mainwindow.h"
#include "navigator.h"
#include "testsupport.h"
#include "widgets/detail/detailpane.h"
#include "widgets/detail/originview.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace memhist;
using namespace memhist::test;

namespace {

// Each hop of the tree, depth first: its depth, then the texts of the columns a person reads.
QStringList hopLines(const QTreeWidget *tree)
{
    QStringList lines;
    const std::function<void(const QTreeWidgetItem *, int)> walk = [&](const QTreeWidgetItem *item, int depth) {
        QStringList cells { QString::number(depth) };
        for (const int column : { OriginView::KindColumn, OriginView::PlaceColumn, OriginView::ValueColumn,
                 OriginView::ConfidenceColumn, OriginView::TransitionColumn, OriginView::RowColumn })
            cells << item->text(column);
        lines << cells.join(u'|');
        for (int i = 0; i < item->childCount(); ++i)
            walk(item->child(i), depth + 1);
    };
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        walk(tree->topLevelItem(i), 0);
    return lines;
}

QTreeWidgetItem *itemOfRow(const QTreeWidget *tree, const QString &row)
{
    const QList<QTreeWidgetItem *> found
        = tree->findItems(row, Qt::MatchExactly | Qt::MatchRecursive, OriginView::RowColumn);
    return found.size() == 1 ? found.first() : nullptr;
}

} // namespace

class TestOriginView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void whereDidThisComeFrom();
    void whereDidItGo();
    void aNewerRequestDropsTheOlder();
    void cancelKeepsTheTreeShown();
    void noAccessSelectedOffersNothing();

private:
    // A main window with m_history open, the plane loaded and row `row` selected in the results.
    bool openAndSelect(viewer::MainWindow &window, std::int64_t row);

    QTemporaryDir m_dir;
    QString m_history;
    QList<ValuedAccess> m_stream;
};

void TestOriginView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_history = m_dir.filePath(QStringLiteral("copied.memhist"));
    // A word written at 0x1000 (row 1), read (row 2), the same bytes written at 0x2000 (row 3), read
    // there twice (rows 4 and 5), then 0x1000 overwritten (row 6).
    const QByteArray word = QByteArray::fromHex("11223344");
    m_stream = {
        { userAccess(1, Operation::Write, 0x1000, 4), word },
        { userAccess(3, Operation::Read, 0x1000, 4), word },
        { userAccess(5, Operation::Write, 0x2000, 4), word },
        { userAccess(8, Operation::Read, 0x2000, 4), word },
        { userAccess(9, Operation::Read, 0x2000, 4), word },
        { userAccess(12, Operation::Write, 0x1000, 4), QByteArray::fromHex("55667788") },
    };
    QVERIFY(writeHistoryWithValues(m_history, m_stream));
}

bool TestOriginView::openAndSelect(viewer::MainWindow &window, std::int64_t row)
{
    window.setInteractive(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy planeLoaded(window.plane(), &PlaneWidget::historyLoaded);
    window.openHistory(m_history);
    if (!planeLoaded.wait(20000) && planeLoaded.count() != 1)
        return false;
    // Selected as a step of the Go menu selects: the results list it, it the current row.
    Access access = m_stream.value(row - 1).access;
    access.rowId = RowId { row };
    window.navigator()->selectAccess(access, Direction::Backward);
    // Its detail shown: the pane's actions act on it.
    return QTest::qWaitFor(
               [&] {
                   return window.navigator()->selectedAccess()
                       && window.navigator()->selectedAccess()->rowId == RowId { row } && window.detailPane()->detail()
                       && window.detailPane()->detail()->access.rowId == RowId { row };
               },
               10000)
        && window.queryPanel()->resultsView()->currentIndex().isValid();
}

void TestOriginView::whereDidThisComeFrom()
{
    viewer::MainWindow window;
    QVERIFY(openAndSelect(window, 4));
    DetailPane *pane = window.detailPane();
    OriginView *view = pane->originView();
    QVERIFY(pane->comeFromAction()->isEnabled());
    QCOMPARE(pane->comeFromAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+O")));
    // In the results' context menu too.
    QVERIFY(window.queryPanel()->resultsView()->actions().contains(pane->comeFromAction()));

    QSignalSpy shown(view, &OriginView::originShown);
    pane->comeFromAction()->trigger();
    QVERIFY(pane->showsOrigin());
    QVERIFY(shown.wait(10000));
    QCOMPARE(shown.count(), 1);
    // Memory hops only, checked against the values; in the core's words, why no register is followed.
    QCOMPARE(hopLines(view->tree()),
        (QStringList { QStringLiteral("0|access|0x2000|11 22 33 44|exact|8|4"),
            QStringLiteral("1|last write|0x2000|11 22 33 44|exact|5|3") }));
    QCOMPARE(view->summary(),
        QStringLiteral("Where the 4 bytes read at transition 8 (row 4) came from: 2 hops.\n")
            + QStringLiteral(
                "No code trace (the instruction of each transition), so only memory hops are followed, not "
                "registers."));

    // The path on the plane: the memory hops, each joined to its parent's point.
    const QList<std::pair<Access, int>> &path = window.plane()->originPath();
    QCOMPARE(path.size(), 2);
    QCOMPARE(path[0].first.rowId, RowId { 4 });
    QCOMPARE(path[0].second, -1);
    QCOMPARE(path[1].first.rowId, RowId { 3 });
    QCOMPARE(path[1].first.transition, Transition { 5 });
    QCOMPARE(path[1].first.physical, Address { 0x2000 });
    QCOMPARE(path[1].second, 0);

    // A click on the hop of row 3 selects row 3: the navigator's access, the results' current row,
    // the plane's current access; the Origin tab keeps its tree.
    QTreeWidgetItem *hop = itemOfRow(view->tree(), QStringLiteral("3"));
    QVERIFY(hop);
    QSignalSpy activated(view, &OriginView::hopActivated);
    const QRect rect = view->tree()->visualItemRect(hop);
    QTest::mouseClick(view->tree()->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).value<Access>().rowId, RowId { 3 });
    QVERIFY(QTest::qWaitFor(
        [&] {
            return window.navigator()->selectedAccess() && window.navigator()->selectedAccess()->rowId == RowId { 3 }
            && pane->detail() && pane->detail()->access.rowId == RowId { 3 };
        },
        10000));
    const QModelIndex current = window.queryPanel()->resultsView()->currentIndex();
    QVERIFY(current.isValid());
    QCOMPARE(window.queryPanel()->resultsModel()->accessAt(current.row()).rowId, RowId { 3 });
    QCOMPARE(window.plane()->currentLineX().has_value(), true);
    QCOMPARE(window.navigator()->selectedAccess()->physical, Address { 0x2000 });
    QCOMPARE(window.navigator()->selectedAccess()->operation, Operation::Write);
    QVERIFY(pane->showsOrigin());
    QCOMPARE(hopLines(view->tree()).size(), 2);
}

void TestOriginView::whereDidItGo()
{
    viewer::MainWindow window;
    QVERIFY(openAndSelect(window, 3));
    DetailPane *pane = window.detailPane();
    OriginView *view = pane->originView();
    QCOMPARE(pane->wentToAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+D")));
    QSignalSpy shown(view, &OriginView::originShown);
    pane->wentToAction()->trigger();
    QVERIFY(shown.wait(10000));
    QCOMPARE(shown.count(), 1);
    // The two later reads of the bytes before they are overwritten, each under the write.
    QCOMPARE(hopLines(view->tree()),
        (QStringList { QStringLiteral("0|access|0x2000|11 22 33 44|exact|5|3"),
            QStringLiteral("1|load|0x2000|11 22 33 44|exact|8|4"),
            QStringLiteral("1|load|0x2000|11 22 33 44|exact|9|5") }));
    QCOMPARE(view->summary(),
        QStringLiteral("Where the 4 bytes written at transition 5 (row 3) went: 3 hops.\n")
            + QStringLiteral(
                "No code trace (the instruction of each transition), so only memory hops are followed, not "
                "registers."));
    QCOMPARE(window.plane()->originPath().size(), 3);
    QCOMPARE(window.plane()->originPath()[2].second, 0);
}

void TestOriginView::aNewerRequestDropsTheOlder()
{
    viewer::MainWindow window;
    QVERIFY(openAndSelect(window, 3));
    DetailPane *pane = window.detailPane();
    QSignalSpy shown(pane->originView(), &OriginView::originShown);
    pane->comeFromAction()->trigger();
    pane->wentToAction()->trigger();
    QVERIFY(shown.wait(10000));
    QTest::qWait(100);
    // Only the newer one arrives: where the bytes went.
    QCOMPARE(shown.count(), 1);
    QCOMPARE(pane->originView()->result()->direction, Direction::Forward);
    QCOMPARE(hopLines(pane->originView()->tree()).size(), 3);
}

void TestOriginView::cancelKeepsTheTreeShown()
{
    viewer::MainWindow window;
    QVERIFY(openAndSelect(window, 4));
    DetailPane *pane = window.detailPane();
    OriginView *view = pane->originView();
    QSignalSpy shown(view, &OriginView::originShown);
    pane->comeFromAction()->trigger();
    QVERIFY(shown.wait(10000));
    pane->wentToAction()->trigger();
    QVERIFY(view->isBusy());
    view->cancel();
    QVERIFY(!view->isBusy());
    QTest::qWait(200);
    // The cancelled tree never arrives; the one before stays, and the line above says so.
    QCOMPARE(shown.count(), 1);
    QCOMPARE(view->result()->direction, Direction::Backward);
    QCOMPARE(hopLines(view->tree()).size(), 2);
    QVERIFY(
        view->findChild<QLabel *>(QStringLiteral("originSummary"))
            ->text()
            .startsWith(QStringLiteral("Cancelled; still showing: Where the 4 bytes read at transition 8 (row 4)")));
}

void TestOriginView::noAccessSelectedOffersNothing()
{
    viewer::MainWindow window;
    window.setInteractive(false);
    QVERIFY(!window.detailPane()->comeFromAction()->isEnabled());
    QVERIFY(!window.detailPane()->wentToAction()->isEnabled());
    QSignalSpy planeLoaded(window.plane(), &PlaneWidget::historyLoaded);
    window.openHistory(m_history);
    QVERIFY(planeLoaded.wait(20000) || planeLoaded.count() == 1);
    QVERIFY(!window.detailPane()->comeFromAction()->isEnabled());
    window.detailPane()->showOrigin(Direction::Backward);
    QVERIFY(!window.detailPane()->showsOrigin());
    QVERIFY(!window.detailPane()->originView()->isBusy());
}

QTEST_MAIN(TestOriginView)
#include "tst_originview.moc"
