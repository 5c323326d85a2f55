// SPDX-License-Identifier: MIT
// The plane's thread filter on the four-thread drmemtrace fixture: zoomed in, the plane draws exactly
// the accesses `memhist query --thread N` returns over the view (the main window passes the query
// panel's choice on); hover and clicks never pick another
// thread's access (drawn or marked); clearing the filter restores the view. Zoomed out, the chunks
// stay and the transitions other threads ran are dimmed; the legend says which.
#include "core/storage/historydatabase.h"
#include "mainwindow.h"
#include "testsupport.h"
#include "widgets/plane/planehittest.h"
#include "widgets/plane/planeoverview.h"
#include "widgets/plane/planerenderer.h"
#include "widgets/plane/planethreadfilter.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/threadfilter.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::plane;
using namespace memhist::test;

namespace {

// The view of the tests: thread 10510's last spans, 10506's between them, and 10511's start
// (thread_spans: 10510 194..1290, 10506 1291..1366, 10510 1367..1423, ..., 10506 1785..2383,
// 10511 2384..2473), over all addresses.
constexpr std::uint64_t viewFirst = 1200;
constexpr std::uint64_t viewLast = 2600;

QList<qint64> rowIdsOf(const std::vector<Access> &accesses)
{
    QList<qint64> rows;
    for (const Access &access : accesses)
        rows << qint64(access.rowId.value);
    return rows;
}

// The rows `memhist query` returns from transition `range.firstTransition` over the range's
// addresses, all operations, up to its last transition (with --thread `thread` unless 0).
QList<qint64> queriedRows(const QString &path, const ViewRange &range, qint64 thread)
{
    QStringList arguments { QStringLiteral("query"), path, QStringLiteral("--at"),
        QString::number(range.firstTransition.value), QStringLiteral("--from"),
        QString::number(range.firstAddress.value), QStringLiteral("--to"), QString::number(range.lastAddress.value),
        QStringLiteral("--ops"), QStringLiteral("rwx"), QStringLiteral("--limit"), QStringLiteral("1000000"),
        QStringLiteral("--format"), QStringLiteral("csv") };
    if (thread != 0)
        arguments << QStringLiteral("--thread") << QString::number(thread);
    const QList<QByteArray> lines = cliOutput(arguments).split('\n');
    QList<qint64> rows;
    for (qsizetype i = 1; i < lines.size(); ++i) { // after the header
        const QList<QByteArray> fields = lines[i].split(',');
        if (fields.size() < 2)
            continue;
        if (fields[1].toULongLong() > range.lastTransition.value)
            break;
        rows << fields[0].toLongLong();
    }
    return rows;
}

// A transition's thread in the fixture.
qint64 threadAt(const QString &path, Transition t)
{
    std::unique_ptr<HistoryDatabase> db = HistoryDatabase::open(path, nullptr);
    return db ? ThreadSpans(*db).threadAt(t).value_or(0) : 0;
}

bool waitForRender(PlaneWidget &plane)
{
    QSignalSpy rendered(&plane, &PlaneWidget::renderFinished);
    return rendered.wait(10000);
}

} // namespace

class TestPlaneThreadFilter : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path; // tests/data/drmemtrace/legacy-gz.x64.tracedir: threads 10506, 10510, 10511, 10512

    // A shown plane on the fixture at the tests' view, rendered.
    std::unique_ptr<PlaneWidget> zoomedPlane()
    {
        auto plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(m_dir.filePath(QStringLiteral("cache")));
        plane->resize(900, 600);
        plane->show();
        QSignalSpy loaded(plane.get(), &PlaneWidget::historyLoaded);
        QSignalSpy rendered(plane.get(), &PlaneWidget::renderFinished);
        plane->setHistory(m_path);
        if (!loaded.wait(20000) || (rendered.isEmpty() && !rendered.wait(10000)))
            return nullptr;
        const QList<ViewRange> regions = plane->occupiedRegions();
        ViewRange view { Transition { viewFirst }, Transition { viewLast }, regions.front().firstAddress,
            regions.back().lastAddress };
        plane->setVisibleRange(view);
        if (!waitForRender(*plane))
            return nullptr;
        return plane;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("threads.memhist"));
        QVERIFY(!cliOutput({ QStringLiteral("import"), QFINDTESTDATA("../data/drmemtrace/legacy-gz.x64.tracedir"),
                               QStringLiteral("-o"), m_path })
                     .isEmpty());
    }

    void drawsTheQuerysAccesses_data()
    {
        QTest::addColumn<qint64>("thread");
        QTest::addColumn<int>("count"); // the accesses of the view the thread ran
        QTest::newRow("10506: five spans in the view") << qint64(10506) << 420;
        QTest::newRow("10510: four spans, the first from before the view") << qint64(10510) << 281;
        QTest::newRow("10511: its first two spans") << qint64(10511) << 83;
        QTest::newRow("10512: none in the view") << qint64(10512) << 0;
    }

    void drawsTheQuerysAccesses()
    {
        QFETCH(qint64, thread);
        QFETCH(int, count);
        auto plane = zoomedPlane();
        QVERIFY(plane);
        QVERIFY(plane->showsAccesses());
        const ViewRange range = plane->visibleRange();
        QCOMPARE(range.firstTransition, Transition { viewFirst });
        QCOMPARE(range.lastTransition, Transition { viewLast });
        const QList<qint64> all = rowIdsOf(plane->drawnAccesses());
        QCOMPARE(all, queriedRows(m_path, range, 0));
        QCOMPARE(all.size(), 784); // 420 + 281 + 83

        plane->setThreadFilter({ thread });
        QCOMPARE(plane->threadFilter(), QList<qint64> { thread });
        QVERIFY(waitForRender(*plane));
        QVERIFY(plane->showsAccesses());
        const QList<qint64> drawn = rowIdsOf(plane->drawnAccesses());
        QCOMPARE(drawn, queriedRows(m_path, range, thread));
        QCOMPARE(drawn.size(), count);

        // Clearing the filter restores the view.
        plane->setThreadFilter({});
        QVERIFY(waitForRender(*plane));
        QCOMPARE(rowIdsOf(plane->drawnAccesses()), all);
    }

    void neverPicksAnotherThreadsAccess()
    {
        auto plane = zoomedPlane();
        QVERIFY(plane);
        // An access in the middle of 10506's span 1291..1366, and one of 10510's in 194..1290.
        const std::vector<Access> all = plane->drawnAccesses();
        const auto other = std::find_if(all.begin(), all.end(),
            [](const Access &a) { return a.transition.value >= 1325 && a.transition.value <= 1335; });
        const auto own = std::find_if(all.begin(), all.end(),
            [](const Access &a) { return a.transition.value >= 1240 && a.transition.value <= 1250; });
        QVERIFY(other != all.end());
        QVERIFY(own != all.end());
        QCOMPARE(threadAt(m_path, other->transition), qint64(10506));
        QCOMPARE(threadAt(m_path, own->transition), qint64(10510));
        const std::optional<QPointF> otherAt = plane->positionOf(other->transition, other->physical);
        const std::optional<QPointF> ownAt = plane->positionOf(own->transition, own->physical);
        QVERIFY(otherAt);
        QVERIFY(ownAt);
        QVERIFY(plane->accessAt(*otherAt));
        QCOMPARE(threadAt(m_path, plane->accessAt(*otherAt)->transition), qint64(10506));

        plane->setThreadFilter({ 10510 });
        // Until the image drawn with the filter arrives, nothing is picked.
        QCOMPARE(plane->accessAt(*otherAt), std::optional<Access>());
        QCOMPARE(plane->accessAt(*ownAt), std::optional<Access>());
        QVERIFY(waitForRender(*plane));
        QCOMPARE(plane->accessAt(*otherAt), std::optional<Access>());
        QVERIFY(plane->accessAt(*ownAt));
        QCOMPARE(threadAt(m_path, plane->accessAt(*ownAt)->transition), qint64(10510));
        // Nor as a query result's marker.
        plane->setMarkedAccesses({ *other, *own });
        QCOMPARE(plane->accessAt(*otherAt), std::optional<Access>());
        // Nor drawn: only the chosen thread's marker is.
        QCOMPARE(plane->shownMarkers(), QList<Access>({ *own }));

        // A click there is a click on no access; the hover names no access.
        QSignalSpy clicked(plane.get(), &PlaneWidget::pointClicked);
        QTest::mouseClick(plane.get(), Qt::LeftButton, {}, otherAt->toPoint());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(2).value<std::optional<Access>>(), std::optional<Access>());
        QTest::mouseMove(plane.get(), otherAt->toPoint());
        QTRY_VERIFY(!plane->hoverText().isEmpty());
        QVERIFY(!plane->hoverText().contains(QStringLiteral(" bytes at ")));

        plane->setThreadFilter({});
        QVERIFY(waitForRender(*plane));
        QCOMPARE(plane->shownMarkers(), QList<Access>({ *other, *own }));
        QCOMPARE(plane->accessAt(*otherAt)->rowId, other->rowId);
    }

    void zoomedOutDimsOtherThreads()
    {
        std::shared_ptr<const HistoryOverview> overview = loadOverview(m_path, [] { return false; });
        QVERIFY(overview);
        std::unique_ptr<HistoryDatabase> db = HistoryDatabase::open(m_path, nullptr);
        QVERIFY(db);
        RenderRequest request;
        request.overview = overview;
        request.view = extentFor(Transition { 0 }, Transition { 38066 }, overview->fold).bounds;
        request.pixels = QSize(381, 100); // about 100 transitions a column
        request.colors.background = QColor(255, 255, 255);
        request.colors.alternateBackground = QColor(240, 240, 240);
        request.colors.sliceEdge = QColor(128, 128, 128);
        request.colors.read = QColor(0, 0, 255);
        request.colors.write = QColor(255, 0, 0);
        request.colors.execute = QColor(0, 128, 0);
        request.limits.accessDetailLimit = 10; // chunks only
        const auto never = [] { return false; };
        const std::shared_ptr<RenderResult> all = renderPlane(request, db->connection(), never);
        QVERIFY(all);
        QVERIFY(!all->accessDetail);
        QVERIFY(!all->kept.isFiltered());
        QVERIFY(all->kept.spans.empty());

        request.threads = { 10506 };
        const std::shared_ptr<RenderResult> filtered = renderPlane(request, db->connection(), never);
        QVERIFY(filtered);
        QVERIFY(!filtered->accessDetail);
        QCOMPARE(filtered->kept.threads, QList<qint64> { 10506 });
        QCOMPARE(filtered->kept.spans.size(), std::size_t(11)); // all of 10506's spans
        QCOMPARE(threadFilterLegend(filtered->kept.threads, filtered->accessDetail),
            QStringLiteral("thread 10506: other threads dimmed"));

        const PixelMapping mapping(request.view, QSizeF(request.pixels));
        const std::vector<double> share = keptShareByColumn(filtered->kept, mapping, request.pixels.width());
        // Column 230 (transitions 22979.9..23079.8) inside 10506's span 22882..25028: as drawn
        // without the filter; column 100 (9991.3..10091.3) inside 10511's 6957..22881: dimmed
        // wherever something is drawn.
        const int ownColumn = int(mapping.xToPixel(23030));
        const int otherColumn = int(mapping.xToPixel(10040));
        QCOMPARE(ownColumn, 230);
        QCOMPARE(otherColumn, 100);
        QCOMPARE(share[std::size_t(ownColumn)], 1.0);
        QCOMPARE(share[std::size_t(otherColumn)], 0.0);
        int dimmed = 0;
        for (int y = 0; y < request.pixels.height(); ++y) {
            QCOMPARE(filtered->image.pixel(ownColumn, y), all->image.pixel(ownColumn, y));
            const QColor before = all->image.pixelColor(otherColumn, y);
            const QColor after = filtered->image.pixelColor(otherColumn, y);
            if (before != request.colors.background) {
                QVERIFY(after != before);
                ++dimmed;
            }
            // Towards the background.
            QVERIFY(after.red() >= before.red() && after.green() >= before.green() && after.blue() >= before.blue());
        }
        QVERIFY(dimmed > 0);
    }

    // The main window passes the query panel's choice, or a query's threads, to the plane; opening a
    // history clears it.
    void theQueryPanelsChoiceFiltersThePlane()
    {
        viewer::MainWindow window;
        window.setInteractive(false);
        window.show();
        ThreadFilter *filter = window.queryPanel()->threadFilter();
        QSignalSpy planeLoaded(window.plane(), &PlaneWidget::historyLoaded);
        QSignalSpy threadsLoaded(filter, &ThreadFilter::threadsLoaded);
        window.openPath(m_path);
        QTRY_COMPARE_WITH_TIMEOUT(planeLoaded.count(), 1, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(threadsLoaded.count(), 1, 20000);
        QCOMPARE(threadsLoaded.at(0).at(0).toInt(), 4);
        QCOMPARE(window.plane()->threadFilter(), QList<qint64>());

        filter->setFocus();
        QTest::keyClick(filter, Qt::Key_Down);
        QTest::keyClick(filter, Qt::Key_Down);
        QCOMPARE(filter->threads(), QList<qint64> { 10510 });
        QCOMPARE(window.plane()->threadFilter(), QList<qint64> { 10510 });
        QTest::keyClick(filter, Qt::Key_Up);
        QTest::keyClick(filter, Qt::Key_Up);
        QCOMPARE(filter->threads(), QList<qint64>());
        QCOMPARE(window.plane()->threadFilter(), QList<qint64>());

        // A query run with a thread (a click query, one of the navigation history) shows it in the
        // filter, silently: the plane follows.
        HalfAxisQuery query;
        query.setThreads({ 10511 });
        window.queryPanel()->runQuery(query);
        QCOMPARE(filter->threads(), QList<qint64> { 10511 });
        QCOMPARE(window.plane()->threadFilter(), QList<qint64> { 10511 });

        QTest::keyClick(filter, Qt::Key_Up);
        QCOMPARE(window.plane()->threadFilter(), QList<qint64> { 10510 });
        window.openPath(m_path);
        QTRY_COMPARE_WITH_TIMEOUT(planeLoaded.count(), 2, 20000);
        QCOMPARE(filter->threads(), QList<qint64>());
        QCOMPARE(window.plane()->threadFilter(), QList<qint64>());
    }

    void keptTransitionsAndLegend()
    {
        KeptTransitions kept;
        QVERIFY(kept.keeps(Transition { 5 })); // no filter: everything
        kept.threads = { 4 };
        QVERIFY(!kept.keeps(Transition { 5 })); // a filter without spans: nothing
        kept.spans = { { 4, Transition { 10 }, Transition { 19 } }, { 4, Transition { 30 }, Transition { 30 } } };
        QVERIFY(!kept.keeps(Transition { 9 }));
        QVERIFY(kept.keeps(Transition { 10 }));
        QVERIFY(kept.keeps(Transition { 19 }));
        QVERIFY(!kept.keeps(Transition { 20 }));
        QVERIFY(kept.keeps(Transition { 30 }));
        QVERIFY(!kept.keeps(Transition { 31 }));

        // 64 transitions over 8 columns: 8 a column (exact in binary).
        const PixelMapping mapping(PlaneViewport { 0, 64, 0, 1 }, QSizeF(8, 4));
        QCOMPARE(keptShareByColumn(kept, mapping, 8), (std::vector<double> { 0, 0.75, 0.5, 0.125, 0, 0, 0, 0 }));
        QCOMPARE(keptShareByColumn(KeptTransitions {}, mapping, 3), (std::vector<double> { 1, 1, 1 }));

        QCOMPARE(threadFilterLegend({}, true), QString());
        QCOMPARE(threadFilterLegend({ 4 }, true), QStringLiteral("thread 4 only"));
        QCOMPARE(threadFilterLegend({ 3, 7 }, true), QStringLiteral("threads 3, 7 only"));
        QCOMPARE(threadFilterLegend({ 4 }, false), QStringLiteral("thread 4: other threads dimmed"));
    }
};

QTEST_MAIN(TestPlaneThreadFilter)
#include "tst_planethreadfilter.moc"
