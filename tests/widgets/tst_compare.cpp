// SPDX-License-Identifier: MIT
// The viewer's File ▸ Compare With… (issue 31 item 2), driven headless on the runs tst_diff
// compares (diffpathsruns.h: data/diff/diffpaths.c with inputs a and b): the Differences tab lists
// what diffRuns() finds, row for row, under its counts; picking a row (a click, then the arrow
// key) moves the top plane to A's side of it and the bottom plane to B's, with its accesses marked
// on each; the planes stay time aligned when one is zoomed; identical histories show no
// differences; another program's run, the open file itself and a file that is no history are
// refused with the messages `memhist diff` gives; Cancel stops a comparison; Close Comparison and
// opening another history remove the second plane and the tab.
#include "comparejob.h"
#include "comparison.h"
#include "core/diff/rundiff.h"
#include "core/model/numbertext.h"
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/storage/historydatabase.h"
#include "diffpathsruns.h"
#include "mainwindow.h"
#include "testsupport.h"
#include "widgets/diff/diffentriesmodel.h"
#include "widgets/diff/diffentrytargets.h"
#include "widgets/diff/diffpanel.h"
#include "widgets/plane/planewidget.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace memhist;
using namespace memhist::test;
using namespace memhist::viewer;

namespace {

// A's or B's transitions of an entry, as the tab writes them (the test's own reading of the entry).
QString expectedTransitions(const DiffEntry &entry, bool sideA)
{
    switch (entry.kind) {
    case DiffEntry::Kind::Control: {
        const Transition first = sideA ? entry.control.aFirst : entry.control.bFirst;
        const std::uint64_t count = sideA ? entry.control.aCount : entry.control.bCount;
        if (count == 0)
            return QStringLiteral("none (at %1)").arg(countText(first.value));
        return count == 1 ? countText(first.value)
                          : countText(first.value) + QStringLiteral("..") + countText(first.value + count - 1);
    }
    case DiffEntry::Kind::Memory: {
        const auto &access = sideA ? entry.memory.a : entry.memory.b;
        return access ? countText(access->transition.value) : QStringLiteral("none");
    }
    case DiffEntry::Kind::Object: {
        const auto &first = sideA ? entry.object.aFirstDiffering : entry.object.bFirstDiffering;
        const auto &last = sideA ? entry.object.aLast : entry.object.bLast;
        return first ? countText(first->transition.value)
            : last   ? countText(last->transition.value)
                     : QStringLiteral("none");
    }
    }
    return {};
}

QList<qint64> rowIdsOf(const QList<Access> &accesses)
{
    QList<qint64> rowIds;
    for (const Access &access : accesses)
        rowIds << access.rowId.value;
    std::sort(rowIds.begin(), rowIds.end());
    return rowIds;
}

bool containsTransitions(const ViewRange &range, Transition first, Transition last)
{
    return range.firstTransition <= first && last <= range.lastTransition;
}

} // namespace

class tst_Compare : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void differencesListed();
    void pickingMovesBothPlanes();
    void aClickOnBsPlanePicksItsDifference();
    void planesStayAligned();
    void identicalHistoriesShowNoDifferences();
    void aBaselineLeavesOutTheNoise();
    void refusals_data();
    void refusals();
    void cancelStops();
    void headerSaysCappedAndMemoryOnly();
    void closingRemovesTheComparison();

private:
    QString path(const QString &name) const { return m_runs.path(name); }
    // A window with a.memhist open and its plane loaded.
    std::unique_ptr<MainWindow> openA();
    // compareWith(`b`) and the comparison's end: its ok and message.
    std::pair<bool, QString> compare(MainWindow &window, const QString &b, const QString &baseline = {});
    int rowOfObject(const DiffEntriesModel &model, const QString &object) const;
    int firstControlRow(const DiffEntriesModel &model) const;

    QTemporaryDir m_dir;
    DiffPathsRuns m_runs;
    DiffResult m_expected; // diffRuns(a, b) with the viewer's limit: the oracle of the tab
};

void tst_Compare::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("memhist-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_compare"));
    QSettings().clear();
    if (ValgrindProcess::findValgrind().isEmpty())
        QSKIP("valgrind is not installed");
    QString why;
    QVERIFY2(!ToolRecorder::toolDirectory(&why).isEmpty(), qPrintable(why));
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_runs.build(m_dir.path(), QFINDTESTDATA("../data/diff/diffpaths.c"), &why), qPrintable(why));
    for (const auto &[program, input, history] : { std::tuple { "diffpaths", "a", "a.memhist" },
             { "diffpaths", "a", "a2.memhist" }, { "diffpaths", "a", "a3.memhist" }, { "diffpaths", "b", "b.memhist" },
             { "diffpaths-o1", "a", "o1.memhist" } })
        QVERIFY2(
            m_runs.record(QLatin1String(program), QLatin1String(input), QLatin1String(history), &why), qPrintable(why));
    QVERIFY(QFile::copy(path(QStringLiteral("a.memhist")), path(QStringLiteral("a-copy.memhist"))));
    QFile text(path(QStringLiteral("notes.txt")));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("not a history\n");
    text.close();

    QString error;
    const auto a = HistoryDatabase::open(path(QStringLiteral("a.memhist")), &error);
    QVERIFY2(a, qPrintable(error));
    const auto b = HistoryDatabase::open(path(QStringLiteral("b.memhist")), &error);
    QVERIFY2(b, qPrintable(error));
    DiffOptions options;
    options.limit = compareEntryLimit;
    QVERIFY2(diffRuns(*a, *b, options, &m_expected, &error), qPrintable(error));
    QVERIFY(m_expected.controlHunks >= 2);
    QVERIFY(m_expected.objects >= 1);
}

std::unique_ptr<MainWindow> tst_Compare::openA()
{
    auto window = std::make_unique<MainWindow>();
    window->setInteractive(false);
    window->resize(1280, 900);
    window->show();
    // The plane keys go to the plane with the focus, which needs the window active.
    if (!QTest::qWaitForWindowActive(window.get()))
        qWarning() << "the window is not active";
    QSignalSpy loaded(window->plane(), &PlaneWidget::historyLoaded);
    window->openHistory(path(QStringLiteral("a.memhist")));
    if (!QTest::qWaitFor([&] { return loaded.count() == 1; }, 20000))
        qWarning() << "a.memhist did not load:" << window->lastError();
    return window;
}

std::pair<bool, QString> tst_Compare::compare(MainWindow &window, const QString &b, const QString &baseline)
{
    QSignalSpy finished(window.comparison(), &Comparison::finished);
    window.compareWith(b, baseline);
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 60000))
        return { false, QStringLiteral("(the comparison did not finish)") };
    return { finished.first().at(0).toBool(), finished.first().at(1).toString() };
}

int tst_Compare::rowOfObject(const DiffEntriesModel &model, const QString &object) const
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.entry(row).kind == DiffEntry::Kind::Object && model.entry(row).object.object == object)
            return row;
    return -1;
}

int tst_Compare::firstControlRow(const DiffEntriesModel &model) const
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.entry(row).kind == DiffEntry::Kind::Control)
            return row;
    return -1;
}

void tst_Compare::differencesListed()
{
    const auto window = openA();
    QVERIFY(window->plane()->isHistoryLoaded());
    auto *compareAction = window->findChild<QAction *>(QStringLiteral("compareAction"));
    auto *closeAction = window->findChild<QAction *>(QStringLiteral("closeComparisonAction"));
    QVERIFY(compareAction && closeAction);
    QVERIFY(compareAction->isEnabled());
    QVERIFY(!closeAction->isEnabled());
    QVERIFY(window->comparedPlane()->isHidden());

    QSignalSpy bLoaded(window->comparedPlane(), &PlaneWidget::historyLoaded);
    const auto [ok, message] = compare(*window, path(QStringLiteral("b.memhist")));
    QVERIFY2(ok, qPrintable(message));
    QVERIFY(closeAction->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(bLoaded.count(), 1, 20000);
    QVERIFY(window->comparedPlane()->isVisible());
    QCOMPARE(window->comparedPlane()->historyPath(), path(QStringLiteral("b.memhist")));
    auto *dock = window->findChild<QDockWidget *>(QStringLiteral("differencesDock"));
    QVERIFY(dock && dock->isVisible());

    // The header: the counts as `memhist diff` ends its table; no notes (both have a code trace).
    const DiffResult &e = m_expected;
    const QString counts
        = QStringLiteral("%1 control hunks, %2 memory hunk%3, %4 objects differ; %5 instructions "
                         "aligned (A ran %6, B %7)")
              .arg(countText(e.controlHunks), countText(e.memoryHunks),
                  e.memoryHunks == 1 ? QString() : QStringLiteral("s"), countText(e.objects),
                  countText(e.alignedInstructions), countText(e.aInstructions), countText(e.bInstructions));
    QCOMPARE(message, counts);
    QCOMPARE(e.notes, QStringList());
    QCOMPARE(window->diffPanel()->headerText(), counts);
    QCOMPARE(window->diffPanel()->sidesText(),
        QStringLiteral("A: a.memhist (the plane above) · B: b.memhist (the plane below)"));

    // Every entry, in the result's order, as kind and both sides' transitions.
    const DiffEntriesModel *model = window->diffPanel()->model();
    QAbstractItemModelTester tester(
        window->diffPanel()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), e.entries.size());
    const QStringList kinds { QStringLiteral("control"), QStringLiteral("memory"), QStringLiteral("object") };
    for (int row = 0; row < model->rowCount(); ++row) {
        const DiffEntry &entry = e.entries[row];
        QCOMPARE(model->index(row, DiffEntriesModel::KindColumn).data().toString(), kinds[int(entry.kind)]);
        QCOMPARE(model->index(row, DiffEntriesModel::ATransitionsColumn).data().toString(),
            expectedTransitions(entry, true));
        QCOMPARE(model->index(row, DiffEntriesModel::BTransitionsColumn).data().toString(),
            expectedTransitions(entry, false));
        if (entry.kind == DiffEntry::Kind::Object)
            QCOMPARE(model->index(row, DiffEntriesModel::WhereColumn).data().toString(), entry.object.object);
    }
    // The first control hunk: where the runs part, in choose(), A running left() and B right().
    // (The rows before it are the nondeterminism of every run: ld.so's start time, the stack
    // protector's canary.)
    const int parted = firstControlRow(*model);
    QVERIFY(parted >= 0);
    const QString where = model->index(parted, DiffEntriesModel::WhereColumn).data().toString();
    QVERIFY2(where.startsWith(QStringLiteral("parted after choose+0x"))
            && where.endsWith(QString::fromUtf8(QByteArray(" (" + m_runs.sourceAt(QStringLiteral("branch")) + ')'))),
        qPrintable(where));
    // A runs the call of left(), B of right() (each side's first instruction is on that line), and
    // both meet again in choose() after it.
    const auto sourceText = [this](const char *mark) {
        return QStringLiteral("(%1)").arg(QString::fromUtf8(m_runs.sourceAt(QLatin1String(mark))));
    };
    const QString aText = model->index(parted, DiffEntriesModel::AColumn).data().toString();
    const QString bText = model->index(parted, DiffEntriesModel::BColumn).data().toString();
    const QRegularExpression side(QStringLiteral("^runs choose\\+0x[0-9a-f]+ (\\(.*\\)); meets again at "
                                                 "choose\\+0x[0-9a-f]+ (\\(.*\\)), transition ([0-9,]+)$"));
    const QRegularExpressionMatch aMatch = side.match(aText);
    QVERIFY2(aMatch.hasMatch(), qPrintable(aText));
    QCOMPARE(aMatch.captured(1), sourceText("left"));
    QCOMPARE(aMatch.captured(2), sourceText("resync"));
    QCOMPARE(aMatch.captured(3), countText(e.entries[parted].control.aResync->transition.value));
    const QRegularExpressionMatch bMatch = side.match(bText);
    QVERIFY2(bMatch.hasMatch(), qPrintable(bText));
    QCOMPARE(bMatch.captured(1), sourceText("right"));
    QCOMPARE(bMatch.captured(2), sourceText("resync"));
    QCOMPARE(bMatch.captured(3), countText(e.entries[parted].control.bResync->transition.value));
    // counter: written 50 times in A, 51 in B; B's 51st write is 150 (0x96).
    const int counter = rowOfObject(*model, QStringLiteral("counter"));
    QVERIFY(counter >= 0);
    QVERIFY2(model->index(counter, DiffEntriesModel::AColumn)
                 .data()
                 .toString()
                 .startsWith(QStringLiteral("50 writes; no write 51; final ")),
        qPrintable(model->index(counter, DiffEntriesModel::AColumn).data().toString()));
    QVERIFY2(model->index(counter, DiffEntriesModel::BColumn)
                 .data()
                 .toString()
                 .startsWith(QStringLiteral("51 writes; write 51 = 96 00 00 00 00 00 00 00 at ")),
        qPrintable(model->index(counter, DiffEntriesModel::BColumn).data().toString()));

    // View lists the tab once.
    int listed = 0;
    for (QAction *menu : window->menuBar()->actions())
        if (menu->menu())
            for (QAction *action : menu->menu()->actions())
                listed += action->text() == QStringLiteral("Differe&nces");
    QCOMPARE(listed, 1);
}

void tst_Compare::pickingMovesBothPlanes()
{
    const auto window = openA();
    QSignalSpy bLoaded(window->comparedPlane(), &PlaneWidget::historyLoaded);
    QVERIFY(compare(*window, path(QStringLiteral("b.memhist"))).first);
    QTRY_COMPARE_WITH_TIMEOUT(bLoaded.count(), 1, 20000);
    PlaneWidget *top = window->plane();
    PlaneWidget *bottom = window->comparedPlane();
    QTableView *view = window->diffPanel()->view();
    const DiffEntriesModel *model = window->diffPanel()->model();

    // A click on counter's row: each plane to its run's writes, those marked.
    const int counter = rowOfObject(*model, QStringLiteral("counter"));
    QVERIFY(counter >= 0);
    view->scrollTo(model->index(counter, 0));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
        view->visualRect(model->index(counter, DiffEntriesModel::KindColumn)).center());
    QCOMPARE(view->currentIndex().row(), counter);
    const DiffEntry &entry = model->entry(counter);
    const std::optional<DiffTarget> a = diffTarget(entry, DiffSide::A);
    const std::optional<DiffTarget> b = diffTarget(entry, DiffSide::B);
    QVERIFY(a && b);
    // A: its last write (it has no 51st); B: its 51st write, which is its last too.
    QCOMPARE(rowIdsOf(a->accesses), QList<qint64> { entry.object.aLast->rowId.value });
    QCOMPARE(rowIdsOf(b->accesses), QList<qint64> { entry.object.bFirstDiffering->rowId.value });
    QCOMPARE(entry.object.bFirstDiffering->rowId, entry.object.bLast->rowId);
    QVERIFY2(containsTransitions(top->visibleRange(), a->firstTransition, a->lastTransition),
        qPrintable(countText(top->visibleRange().firstTransition.value)));
    QVERIFY(top->visibleRange().firstAddress <= *a->firstAddress && *a->lastAddress <= top->visibleRange().lastAddress);
    QVERIFY2(containsTransitions(bottom->visibleRange(), b->firstTransition, b->lastTransition),
        qPrintable(countText(bottom->visibleRange().firstTransition.value)));
    QVERIFY(bottom->visibleRange().firstAddress <= *b->firstAddress
        && *b->lastAddress <= bottom->visibleRange().lastAddress);
    QCOMPARE(rowIdsOf(top->shownMarkers()), rowIdsOf(a->accesses));
    QCOMPARE(rowIdsOf(bottom->shownMarkers()), rowIdsOf(b->accesses));
    QVERIFY(top->markedTarget() && bottom->markedTarget());
    QCOMPARE(top->markedTarget()->firstTransition, a->firstTransition);
    QCOMPARE(bottom->markedTarget()->firstTransition, b->firstTransition);
    if (!qEnvironmentVariableIsEmpty("MEMHIST_SHOTS")) {
        // Both planes drawn at the picked entry (their renders run in the background).
        QTest::qWait(2000);
        window->grab().save(qEnvironmentVariable("MEMHIST_SHOTS") + QStringLiteral("/compare.png"));
    }

    // Ctrl+Home to the first row, then Down through the rows up to the first control hunk: each
    // plane to its own side of each, its accesses marked.
    QTest::keyClick(view, Qt::Key_Home, Qt::ControlModifier);
    QCOMPARE(view->currentIndex().row(), 0);
    const int parted = firstControlRow(*model);
    QVERIFY(parted > 0);
    for (int row = 0; row < parted; ++row) {
        if (row > 0)
            QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex().row(), row);
        for (const auto &[plane, side] : { std::pair { top, DiffSide::A }, { bottom, DiffSide::B } }) {
            const std::optional<DiffTarget> target = diffTarget(model->entry(row), side);
            QVERIFY(target);
            QVERIFY(containsTransitions(plane->visibleRange(), target->firstTransition, target->lastTransition));
            QCOMPARE(rowIdsOf(plane->shownMarkers()), rowIdsOf(target->accesses));
            QVERIFY(!target->accesses.isEmpty());
        }
    }
    QTest::keyClick(view, Qt::Key_Down);
    QCOMPARE(view->currentIndex().row(), parted);
    const DiffEntry &first = model->entry(parted);
    QVERIFY2(containsTransitions(top->visibleRange(), first.control.aFirst,
                 Transition { first.control.aFirst.value + first.control.aCount - 1 }),
        qPrintable(countText(top->visibleRange().firstTransition.value)));
    QVERIFY(containsTransitions(bottom->visibleRange(), first.control.bFirst,
        Transition { first.control.bFirst.value + first.control.bCount - 1 }));
    // A control hunk has no access of its own: the markers go.
    QCOMPARE(top->shownMarkers(), QList<Access>());
    QCOMPARE(bottom->shownMarkers(), QList<Access>());
}

void tst_Compare::aClickOnBsPlanePicksItsDifference()
{
    const auto window = openA();
    QSignalSpy bLoaded(window->comparedPlane(), &PlaneWidget::historyLoaded);
    QVERIFY(compare(*window, path(QStringLiteral("b.memhist"))).first);
    QTRY_COMPARE_WITH_TIMEOUT(bLoaded.count(), 1, 20000);
    PlaneWidget *bottom = window->comparedPlane();
    QTableView *view = window->diffPanel()->view();
    const DiffEntriesModel *model = window->diffPanel()->model();
    auto *differences = window->findChild<QDockWidget *>(QStringLiteral("differencesDock"));
    QVERIFY(differences);

    // B's plane at counter's 51st write (its row picked), then no row current and another tab in
    // front: the click on that write must bring both back.
    const int counter = rowOfObject(*model, QStringLiteral("counter"));
    QVERIFY(counter >= 0);
    view->setCurrentIndex(model->index(counter, 0));
    const std::optional<DiffTarget> b = diffTarget(model->entry(counter), DiffSide::B);
    QVERIFY(b);
    QCOMPARE(b->accesses.size(), 1);
    const Access written = b->accesses.first();
    view->selectionModel()->clearCurrentIndex();
    QVERIFY(!view->currentIndex().isValid());
    differences->hide();
    std::optional<QPointF> at;
    QTRY_VERIFY((at = bottom->positionOf(written.transition, written.physical)).has_value());
    QCOMPARE(bottom->accessAt(*at).value_or(Access {}).rowId, written.rowId);
    QTest::mouseClick(bottom, Qt::LeftButton, {}, at->toPoint());
    QCOMPARE(view->currentIndex().row(), counter);
    QVERIFY(differences->isVisible());
    QCOMPARE(rowIdsOf(bottom->shownMarkers()), rowIdsOf(b->accesses));

    // The same entry again (current already): picked again, B's plane back at it after a move.
    const ViewRange picked = bottom->visibleRange();
    bottom->setVisibleRange(ViewRange { Transition { 1 }, Transition { 2 }, picked.firstAddress, picked.lastAddress });
    QVERIFY(bottom->visibleRange().lastTransition < written.transition);
    Comparison *comparison = window->findChild<Comparison *>();
    QVERIFY(comparison);
    comparison->pickOnBottomPlane(written.transition, written.physical, written);
    QCOMPARE(view->currentIndex().row(), counter);
    QVERIFY(containsTransitions(bottom->visibleRange(), written.transition, written.transition));

    // Where nothing differs (before B's first listed difference, at an address no entry has), the
    // status line says so and the current row stays.
    QSignalSpy status(comparison, &Comparison::statusMessage);
    comparison->pickOnBottomPlane(Transition { 1 }, Address { 0x10 }, std::nullopt);
    QCOMPARE(status.count(), 1);
    QCOMPARE(
        status.first().first().toString(), QStringLiteral("B: no difference listed at transition 1, address 0x10"));
    QCOMPARE(view->currentIndex().row(), counter);
}

void tst_Compare::planesStayAligned()
{
    const auto window = openA();
    QSignalSpy bLoaded(window->comparedPlane(), &PlaneWidget::historyLoaded);
    QVERIFY(compare(*window, path(QStringLiteral("b.memhist"))).first);
    QTRY_COMPARE_WITH_TIMEOUT(bLoaded.count(), 1, 20000);
    PlaneWidget *top = window->plane();
    PlaneWidget *bottom = window->comparedPlane();
    // Before any pick, the same transitions (offset 0).
    QTRY_COMPARE(bottom->visibleRange().firstTransition, top->visibleRange().firstTransition);
    QTRY_COMPARE(bottom->visibleRange().lastTransition, top->visibleRange().lastTransition);
    // The top plane zoomed in with the key: the bottom one follows; its own zoom then leads the top.
    top->setFocus();
    QTRY_VERIFY(top->hasFocus());
    QTest::keyClick(top, Qt::Key_Plus);
    const ViewRange zoomed = top->visibleRange();
    QTRY_COMPARE(bottom->visibleRange().firstTransition, zoomed.firstTransition);
    QCOMPARE(bottom->visibleRange().lastTransition, zoomed.lastTransition);
    // Following is no step of the follower's zoom history: Back there has nothing to undo.
    QVERIFY(top->canGoBack());
    QVERIFY(!bottom->canGoBack());
    bottom->setFocus();
    QTRY_VERIFY(bottom->hasFocus());
    QTest::keyClick(bottom, Qt::Key_Plus);
    const ViewRange bottomZoomed = bottom->visibleRange();
    QVERIFY(bottomZoomed.lastTransition.value - bottomZoomed.firstTransition.value
        < zoomed.lastTransition.value - zoomed.firstTransition.value);
    QTRY_COMPARE(top->visibleRange().firstTransition, bottomZoomed.firstTransition);
    QCOMPARE(top->visibleRange().lastTransition, bottomZoomed.lastTransition);

    // After a pick, B's side of it stays under A's: the offset is the entry's.
    QTableView *view = window->diffPanel()->view();
    const int counter = rowOfObject(*window->diffPanel()->model(), QStringLiteral("counter"));
    view->setFocus();
    view->setCurrentIndex(window->diffPanel()->model()->index(counter, 0));
    const DiffEntry &entry = window->diffPanel()->model()->entry(counter);
    const std::int64_t offset
        = std::int64_t(entry.object.bFirstDiffering->transition.value - entry.object.aLast->transition.value);
    QCOMPARE(
        std::int64_t(bottom->visibleRange().firstTransition.value - top->visibleRange().firstTransition.value), offset);
    top->setFocus();
    QTRY_VERIFY(top->hasFocus());
    QTest::keyClick(top, Qt::Key_Minus);
    const ViewRange out = top->visibleRange();
    QTRY_COMPARE(std::int64_t(bottom->visibleRange().firstTransition.value - out.firstTransition.value), offset);
    QCOMPARE(bottom->visibleRange().lastTransition.value - bottom->visibleRange().firstTransition.value,
        out.lastTransition.value - out.firstTransition.value);
}

void tst_Compare::aBaselineLeavesOutTheNoise()
{
    // Two recordings of input a differ by what differs in every run (the stack canary, the loader's
    // timings); a second run of a as the baseline leaves that out, as `memhist diff --baseline` does.
    const auto window = openA();
    const auto [plainOk, plain] = compare(*window, path(QStringLiteral("a3.memhist")));
    QVERIFY2(plainOk, qPrintable(plain));
    QVERIFY2(!plain.startsWith(QStringLiteral("No differences")), qPrintable(plain));

    const auto [ok, message] = compare(*window, path(QStringLiteral("a3.memhist")), path(QStringLiteral("a2.memhist")));
    QVERIFY2(ok, qPrintable(message));
    const DiffResult &result = window->comparison()->result();
    QVERIFY(!result.differ());
    QVERIFY(result.ignored > 0);
    QCOMPARE(message,
        QStringLiteral("No differences: %1 instructions aligned (A ran %2, B %3); %4 left out (the baseline has them "
                       "too)")
            .arg(countText(result.alignedInstructions), countText(result.aInstructions),
                countText(result.bInstructions), countText(result.ignored)));
    QCOMPARE(window->diffPanel()->findChild<QLabel *>(QStringLiteral("diffSides"))->text(),
        QStringLiteral("A: a.memhist (the plane above) · B: a3.memhist (the plane below) · baseline: a2.memhist (what "
                       "differs between A and it is left out)"));

    // A baseline of another program is refused with the reason.
    const auto [otherOk, other]
        = compare(*window, path(QStringLiteral("b.memhist")), path(QStringLiteral("o1.memhist")));
    QVERIFY(!otherOk);
    QVERIFY2(other.startsWith(QStringLiteral("Baseline: ") + path(QStringLiteral("a.memhist"))), qPrintable(other));
}

void tst_Compare::identicalHistoriesShowNoDifferences()
{
    const auto window = openA();
    const auto [ok, message] = compare(*window, path(QStringLiteral("a-copy.memhist")));
    QVERIFY2(ok, qPrintable(message));
    const QString expected = QStringLiteral("No differences: %1 instructions aligned (A ran %1, B %1)")
                                 .arg(countText(m_expected.aInstructions));
    QCOMPARE(message, expected);
    QCOMPARE(window->diffPanel()->headerText(), expected);
    QCOMPARE(window->diffPanel()->model()->rowCount(), 0);
}

void tst_Compare::refusals_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message"); // a wildcard pattern; %1 the folder

    QTest::newRow("another program")
        << QStringLiteral("o1.memhist")
        << QStringLiteral("%1/a.memhist recorded diffpaths (build-id *), %1/o1.memhist recorded diffpaths-o1 "
                          "(build-id *): runs of different programs are not compared");
    QTest::newRow("the open history") << QStringLiteral("a.memhist")
                                      << QStringLiteral("%1/a.memhist is the history open already: compare it "
                                                        "with another run of the same program");
    QTest::newRow("no such file") << QStringLiteral("none.memhist") << QStringLiteral("%1/none.memhist: no such file");
}

void tst_Compare::refusals()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    const auto window = openA();
    QSignalSpy failed(window->comparison(), &Comparison::failed);
    const auto [ok, said] = compare(*window, path(file));
    QVERIFY(!ok);
    const QRegularExpression expected(QStringLiteral("^%1$").arg(
        QRegularExpression::wildcardToRegularExpression(QString(message).replace(QStringLiteral("%1"), m_dir.path()),
            QRegularExpression::UnanchoredWildcardConversion)));
    QVERIFY2(expected.match(said).hasMatch(), qPrintable(said));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(window->lastError(), said);
    QCOMPARE(window->diffPanel()->headerText(), said);
    QCOMPARE(window->diffPanel()->sidesText(), QString());
    QCOMPARE(window->diffPanel()->model()->rowCount(), 0);
    QVERIFY(window->comparedPlane()->isHidden());
    QVERIFY(!window->comparison()->isOpen());
    QVERIFY(!window->findChild<QAction *>(QStringLiteral("closeComparisonAction"))->isEnabled());
}

void tst_Compare::cancelStops()
{
    const auto window = openA();
    QSignalSpy finished(window->comparison(), &Comparison::finished);
    QSignalSpy failed(window->comparison(), &Comparison::failed);
    // The comparison held until Cancel is clicked, so that it cannot be done before (on a loaded
    // machine the click may come late); then the real one, which stops at its first check.
    auto release = std::make_shared<QSemaphore>();
    window->comparison()->setCompareFunction([release](const QString &a, const QString &b, const QString &baseline,
                                                 std::size_t limit, const std::function<bool(Transition)> &progress) {
        release->acquire();
        return compareHistories(a, b, baseline, limit, progress);
    });
    window->compareWith(path(QStringLiteral("b.memhist")));
    auto *cancel = window->diffPanel()->findChild<QPushButton *>(QStringLiteral("diffCancel"));
    QVERIFY(cancel && cancel->isVisible());
    QVERIFY(window->diffPanel()->isComparing());
    QCOMPARE(
        window->diffPanel()->headerText(), QStringLiteral("Comparing a.memhist (A, above) with b.memhist (B, below)…"));
    // The comparison then checks at its first 4,096 instructions (diffpaths runs over 125,000).
    QTest::mouseClick(cancel, Qt::LeftButton);
    release->release();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("The comparison was cancelled"));
    QCOMPARE(window->diffPanel()->headerText(), QStringLiteral("The comparison was cancelled"));
    QCOMPARE(window->diffPanel()->model()->rowCount(), 0);
    QVERIFY(!window->diffPanel()->isComparing());
    QCOMPARE(failed.count(), 0); // no message box: the user asked for it
    QVERIFY(window->lastError().isEmpty());
}

void tst_Compare::headerSaysCappedAndMemoryOnly()
{
    // 12,345 found, 2 listed (the viewer asks for 10,000; a result made by hand here), compared
    // without a code trace: the header says both.
    DiffResult result;
    result.entries.resize(2);
    result.entries[0].kind = DiffEntry::Kind::Memory;
    result.entries[0].memory.a = DiffAccess { RowId { 7 }, Transition { 40 }, Address { 0 }, {}, {}, Operation::Write,
        Address { 0x4010 }, 4, QStringLiteral("counter"), QByteArray("\x32\0\0\0", 4) };
    result.entries[1].kind = DiffEntry::Kind::Object;
    result.entries[1].object.object = QStringLiteral("counter");
    result.entries[1].object.aWrites = 50;
    result.entries[1].object.bWrites = 51;
    result.memoryHunks = 1;
    result.objects = 12344;
    result.aAccesses = 1000;
    result.notes << QStringLiteral(
        "no code trace in either history: memory only, compared by transition (no control flow, no alignment)");
    DiffPanel panel;
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.showResult(result);
    QCOMPARE(panel.headerText(),
        QStringLiteral("0 control hunks, 1 memory hunk, 12,344 objects differ; 0 instructions aligned (A ran 0, B 0); "
                       "first 2 of 12,345 listed\nNote: no code trace in either history: memory only, compared by "
                       "transition (no control flow, no alignment)"));
    QCOMPARE(panel.model()->rowCount(), 2);
    QCOMPARE(panel.model()->index(0, DiffEntriesModel::ATransitionsColumn).data().toString(), QStringLiteral("40"));
    QCOMPARE(panel.model()->index(0, DiffEntriesModel::BTransitionsColumn).data().toString(), QStringLiteral("none"));
    QCOMPARE(panel.model()->index(0, DiffEntriesModel::AColumn).data().toString(),
        QStringLiteral("write 4 bytes at 0x4010 = 32 00 00 00"));
    QCOMPARE(panel.model()->index(0, DiffEntriesModel::BColumn).data().toString(), QStringLiteral("no such access"));
    QCOMPARE(
        panel.model()->index(1, DiffEntriesModel::AColumn).data().toString(), QStringLiteral("50 writes; final none"));
    QCOMPARE(panel.model()->index(1, DiffEntriesModel::BTransitionsColumn).data().toString(), QStringLiteral("none"));
}

void tst_Compare::closingRemovesTheComparison()
{
    const auto window = openA();
    // Markers of a query (here set by hand) are not the comparison's: closing it keeps them.
    Access marked;
    marked.rowId = RowId { 1 };
    marked.transition = Transition { 1 };
    marked.physical = Address { 0x1000 };
    const QList<Access> queried { marked };
    window->plane()->setMarkedAccesses(queried);
    QVERIFY(compare(*window, path(QStringLiteral("b.memhist"))).first);
    auto *dock = window->findChild<QDockWidget *>(QStringLiteral("differencesDock"));
    window->findChild<QAction *>(QStringLiteral("closeComparisonAction"))->trigger();
    QCOMPARE(window->plane()->shownMarkers(), queried);
    QVERIFY(window->comparedPlane()->isHidden());
    QVERIFY(window->comparedPlane()->historyPath().isEmpty());
    QVERIFY(dock->isHidden());
    QCOMPARE(window->diffPanel()->model()->rowCount(), 0);
    QCOMPARE(window->diffPanel()->sidesText(), QString());
    QVERIFY(!window->findChild<QAction *>(QStringLiteral("closeComparisonAction"))->isEnabled());

    // A picked entry's markers go with the comparison.
    QVERIFY(compare(*window, path(QStringLiteral("b.memhist"))).first);
    const int counter = rowOfObject(*window->diffPanel()->model(), QStringLiteral("counter"));
    window->diffPanel()->view()->setCurrentIndex(window->diffPanel()->model()->index(counter, 0));
    QCOMPARE(window->plane()->shownMarkers().size(), 1);
    QCOMPARE(window->plane()->shownMarkers().first().rowId,
        window->diffPanel()->model()->entry(counter).object.aLast->rowId);
    window->closeComparison();
    QCOMPARE(window->plane()->shownMarkers(), QList<Access>());

    // Opening another history closes a comparison too.
    QVERIFY(compare(*window, path(QStringLiteral("b.memhist"))).first);
    QVERIFY(window->comparedPlane()->isVisible());
    QSignalSpy opened(window.get(), &MainWindow::historyOpened);
    window->openHistory(path(QStringLiteral("b.memhist")));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 20000);
    QVERIFY(window->comparedPlane()->isHidden());
    QVERIFY(dock->isHidden());
    QVERIFY(!window->comparison()->isOpen());
}

QTEST_MAIN(tst_Compare)
#include "tst_compare.moc"
