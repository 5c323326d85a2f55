// SPDX-License-Identifier: MIT
// The plane widget on a small real history written with HistoryWriter: loading, clicking an access,
// zoom history, wheel zoom anchored at the cursor, bringing the current access into view; drawing
// from the history's own display summary, or from one summarised in the background into the cache
// (once per version of the file, cancellable), and refusing a damaged summary with its reason.
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "planestreams.h"
#include "testsupport.h"
#include "widgets/plane/planeoverlays.h"
#include "widgets/plane/planewidget.h"

#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QWheelEvent>

using namespace memhist;
using namespace memhist::test;

namespace {

bool sameAccess(const Access &a, const Access &b)
{
    return a.transition == b.transition && a.operation == b.operation && a.physical == b.physical && a.size == b.size;
}

// A copy of `from` at `to` with `sql` run on it.
bool changedCopy(const QString &from, const QString &to, const char *sql)
{
    QFile::remove(to);
    if (!QFile::copy(from, to))
        return false;
    sqlite::Connection db;
    return db.open(to, sqlite::Connection::Mode::ReadWriteCreate) && db.execute(sql);
}

QStringList summaryFiles(const QString &directory)
{
    return QDir(directory).entryList({ QStringLiteral("*.memhist-summary") }, QDir::Files);
}

bool contains(const ViewRange &range, const Access &access)
{
    return access.transition >= range.firstTransition && access.transition <= range.lastTransition
        && access.physical >= range.firstAddress && access.physical <= range.lastAddress;
}

} // namespace

class TestPlaneWidget : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;
    QList<Access> m_stream;

    // A shown plane with the history loaded and its first view rendered.
    std::unique_ptr<PlaneWidget> loadedPlane()
    {
        auto plane = std::make_unique<PlaneWidget>();
        plane->resize(900, 600);
        plane->show();
        QSignalSpy loaded(plane.get(), &PlaneWidget::historyLoaded);
        QSignalSpy rendered(plane.get(), &PlaneWidget::renderFinished);
        plane->setHistory(m_path);
        if (!loaded.wait(10000)) {
            qWarning("historyLoaded never came");
            return nullptr;
        }
        if (rendered.isEmpty() && !rendered.wait(10000)) {
            qWarning("renderFinished never came");
            return nullptr;
        }
        return plane;
    }

    // A shown plane with `path` loaded (summarised first when it has no summary of its own, into
    // `cacheDirectory`) and its first view rendered.
    static std::unique_ptr<PlaneWidget> openedPlane(const QString &path, const QString &cacheDirectory)
    {
        auto plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(cacheDirectory);
        plane->resize(900, 600);
        plane->show();
        QSignalSpy loaded(plane.get(), &PlaneWidget::historyLoaded);
        QSignalSpy rendered(plane.get(), &PlaneWidget::renderFinished);
        plane->setHistory(path);
        if (!loaded.wait(20000) || (rendered.isEmpty() && !rendered.wait(10000)))
            return nullptr;
        return plane;
    }

    // Waits until the view in place has been rendered (the first renderFinished after now).
    static bool waitForRender(PlaneWidget &plane)
    {
        QSignalSpy rendered(&plane, &PlaneWidget::renderFinished);
        return rendered.wait(10000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("small.memhist"));
        HistoryWriter writer(m_path);
        QVERIFY2(writer.open(), qPrintable(writer.errorString()));
        m_stream = smallPlaneStream();
        for (const Access &access : std::as_const(m_stream))
            QVERIFY2(writer.add(access), qPrintable(writer.errorString()));
        QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    }

    void smallHotArrayIsVisibleAtHome()
    {
        // A 1 MiB buffer written once through, and right after it a 128-byte array read twice as
        // often: one occupied region, in which the array's bytes are 0.01 % (a sub-pixel line by
        // bytes alone). The fold gives it length by its share of the accesses.
        const QString path = m_dir.filePath(QStringLiteral("hotarray.memhist"));
        {
            HistoryWriter writer(path);
            QVERIFY2(writer.open(), qPrintable(writer.errorString()));
            std::uint64_t t = 0;
            for (std::uint64_t i = 0; i < 0x100000 / 8; ++i) {
                QVERIFY(writer.add(userAccess(t++, Operation::Write, 0x10000000 + 8 * i, 8)));
                QVERIFY(writer.add(userAccess(t++, Operation::Read, 0x10100000 + 8 * (i % 16), 8)));
                QVERIFY(writer.add(userAccess(t++, Operation::Read, 0x10100000 + 8 * ((i + 8) % 16), 8)));
            }
            QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
        }
        const auto plane = openedPlane(path, m_dir.filePath(QStringLiteral("cache")));
        QVERIFY(plane);
        QCOMPARE(plane->occupiedRegions().size(), 1);
        const ViewRange home = plane->visibleRange();
        const std::optional<QPointF> low = plane->positionOf(home.firstTransition, Address { 0x10100000 });
        const std::optional<QPointF> high = plane->positionOf(home.firstTransition, Address { 0x1010007f });
        QVERIFY(low && high);
        const double pixels = low->y() - high->y();
        const double plot = plane->plotRectangle().height();
        // 2/3 of the accesses: 2/3 more display length than the bytes alone take, so 40 % of the
        // axis (a byte's own height aside).
        QVERIFY2(pixels >= 0.38 * plot && pixels <= 0.42 * plot,
            qPrintable(QStringLiteral("%1 of %2 pixels").arg(pixels).arg(plot)));
        // A click on it finds the array's accesses.
        const std::optional<QPointF> middle = plane->positionOf(Transition { 3000 }, Address { 0x10100040 });
        QVERIFY(middle);
        QSignalSpy clicked(plane.get(), &PlaneWidget::pointClicked);
        QTest::mouseClick(plane.get(), Qt::LeftButton, {}, middle->toPoint());
        QCOMPARE(clicked.count(), 1);
        const Address picked = clicked.first().at(1).value<Address>();
        QVERIFY2(
            picked.value >= 0x10100000 && picked.value <= 0x1010007f, qPrintable(QString::number(picked.value, 16)));
        if (!qEnvironmentVariableIsEmpty("MEMHIST_SHOTS"))
            plane->grab().save(qEnvironmentVariable("MEMHIST_SHOTS") + QStringLiteral("/hotarray-home.png"));
    }

    void loadsAndShowsEverything()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        QVERIFY(plane->isHistoryLoaded());
        QVERIFY(plane->showsAccesses()); // 170 accesses: drawn one by one
        const ViewRange range = plane->visibleRange();
        QCOMPARE(range.firstTransition, Transition { 0 });
        QCOMPARE(range.lastTransition, Transition { 99 });
        QVERIFY(range.firstAddress.value <= planeCodeBase);
        QVERIFY(range.lastAddress.value >= planeStackBase + 0x10 + 8 * 15 + 7);
        const QList<ViewRange> regions = plane->occupiedRegions();
        QCOMPARE(regions.size(), 3); // code, heap and stack, with the gaps between them folded
        QVERIFY(!plane->canGoBack());
        QVERIFY(!plane->canGoForward());
    }

    void clickOnAccessEmitsIt_data()
    {
        QTest::addColumn<int>("index");
        QTest::newRow("stack write") << 2; // transition 0's write
        QTest::newRow("heap read") << 1;
        QTest::newRow("instruction fetch in the middle") << int(smallPlaneStream().size() / 2);
    }
    void clickOnAccessEmitsIt()
    {
        QFETCH(int, index);
        auto plane = loadedPlane();
        QVERIFY(plane);
        const Access target = m_stream.at(index);
        // The middle of the access's bar.
        const std::optional<QPointF> position
            = plane->positionOf(target.transition, Address { target.physical.value + target.size / 2 });
        QVERIFY(position);
        QSignalSpy clicked(plane.get(), &PlaneWidget::pointClicked);
        QTest::mouseClick(plane.get(), Qt::LeftButton, Qt::NoModifier, position->toPoint());
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).value<Transition>(), target.transition);
        const auto access = clicked.at(0).at(2).value<std::optional<Access>>();
        QVERIFY2(access, "the click landed on no access");
        QVERIFY(sameAccess(*access, target));
        QVERIFY(access->rowId.value > 0);
        const Address address = clicked.at(0).at(1).value<Address>();
        QVERIFY(address >= target.physical && address <= target.lastByte());

        // Hovering names the transition, the address's region and the access.
        QSignalSpy hover(plane.get(), &PlaneWidget::hoverTextChanged);
        QTest::mouseMove(plane.get(), position->toPoint() + QPoint(0, 1));
        QTest::mouseMove(plane.get(), position->toPoint());
        QVERIFY(!hover.isEmpty());
        const QString text = plane->hoverText();
        QCOMPARE(hover.last().at(0).toString(), text);
        QVERIFY2(text.contains(QStringLiteral("transition %1").arg(target.transition.value)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("region")), qPrintable(text));
        const QString op = target.operation == Operation::Write ? QStringLiteral("write")
            : target.operation == Operation::Read               ? QStringLiteral("read")
                                                                : QStringLiteral("execute");
        QVERIFY2(text.contains(op + QStringLiteral(" of %1 bytes").arg(target.size)), qPrintable(text));
    }

    void altClickCarriesModifiers()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        QSignalSpy clicked(plane.get(), &PlaneWidget::pointClicked);
        const QPoint centre = plane->rect().center();
        QTest::mouseClick(plane.get(), Qt::LeftButton, Qt::AltModifier, centre);
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(3).value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::AltModifier));
        // A drag is a pan, not a click.
        QTest::mousePress(plane.get(), Qt::LeftButton, Qt::NoModifier, centre);
        QTest::mouseMove(plane.get(), centre + QPoint(40, 0));
        QTest::mouseRelease(plane.get(), Qt::LeftButton, Qt::NoModifier, centre + QPoint(40, 0));
        QCOMPARE(clicked.size(), 1);
    }

    void homeBackForward()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        const ViewRange all = plane->visibleRange();
        QSignalSpy navigation(plane.get(), &PlaneWidget::navigationChanged);
        QSignalSpy rangeChanged(plane.get(), &PlaneWidget::visibleRangeChanged);

        ViewRange zoomed = all;
        zoomed.firstTransition = Transition { 20 };
        zoomed.lastTransition = Transition { 40 };
        plane->setVisibleRange(zoomed);
        QCOMPARE(plane->visibleRange().firstTransition, zoomed.firstTransition);
        QCOMPARE(plane->visibleRange().lastTransition, zoomed.lastTransition);
        QVERIFY(plane->canGoBack());
        QVERIFY(!plane->canGoForward());
        QVERIFY(navigation.size() >= 1);
        QVERIFY(rangeChanged.wait(2000)); // throttled, but it comes
        QCOMPARE(rangeChanged.last().at(0).value<ViewRange>(), plane->visibleRange());

        plane->back();
        QCOMPARE(plane->visibleRange(), all);
        QVERIFY(!plane->canGoBack());
        QVERIFY(plane->canGoForward());

        plane->forward();
        QCOMPARE(plane->visibleRange().firstTransition, zoomed.firstTransition);
        QVERIFY(plane->canGoBack());
        QVERIFY(!plane->canGoForward());

        plane->home();
        QCOMPARE(plane->visibleRange(), all);
        QVERIFY(plane->canGoBack()); // Home is a step too
        QTest::keyClick(plane.get(), Qt::Key_Backspace);
        QCOMPARE(plane->visibleRange().firstTransition, zoomed.firstTransition);
        QTest::keyClick(plane.get(), Qt::Key_Home);
        QCOMPARE(plane->visibleRange(), all);
    }

    void wheelZoomKeepsAnchor_data()
    {
        QTest::addColumn<int>("modifiers");
        QTest::addColumn<bool>("xZooms");
        QTest::addColumn<bool>("yZooms");
        QTest::newRow("plain wheel: both axes") << int(Qt::NoModifier) << true << true;
        QTest::newRow("Ctrl: transitions only") << int(Qt::ControlModifier) << true << false;
        QTest::newRow("Shift: addresses only") << int(Qt::ShiftModifier) << false << true;
    }
    void wheelZoomKeepsAnchor()
    {
        QFETCH(int, modifiers);
        QFETCH(bool, xZooms);
        QFETCH(bool, yZooms);
        auto plane = loadedPlane();
        QVERIFY(plane);
        const ViewRange before = plane->visibleRange();
        // A heap read at transition 30: under the cursor before and after.
        const Transition t { 30 };
        const Address a { planeHeapBase + 8 * 14 };
        const std::optional<QPointF> anchor = plane->positionOf(t, a);
        QVERIFY(anchor);
        for (int i = 0; i < 3; ++i) {
            QWheelEvent wheel(*anchor, plane->mapToGlobal(*anchor), QPoint(), QPoint(0, 120), Qt::NoButton,
                Qt::KeyboardModifiers(modifiers), Qt::NoScrollPhase, false);
            QApplication::sendEvent(plane.get(), &wheel);
        }
        const ViewRange after = plane->visibleRange();
        const std::optional<QPointF> moved = plane->positionOf(t, a);
        QVERIFY(moved);
        QVERIFY2(std::abs(moved->x() - anchor->x()) <= 1.0 && std::abs(moved->y() - anchor->y()) <= 1.0,
            qPrintable(QStringLiteral("anchor moved from (%1, %2) to (%3, %4)")
                           .arg(anchor->x())
                           .arg(anchor->y())
                           .arg(moved->x())
                           .arg(moved->y())));
        const auto span = [](const ViewRange &r) { return r.lastTransition.value - r.firstTransition.value; };
        const auto bytes = [](const ViewRange &r) { return r.lastAddress.value - r.firstAddress.value; };
        QCOMPARE(span(after) < span(before), xZooms);
        QCOMPARE(bytes(after) < bytes(before), yZooms);
        QVERIFY(plane->canGoBack()); // the burst is one step back
        plane->back();
        QCOMPARE(plane->visibleRange(), before);
        QVERIFY(!plane->canGoBack());
    }

    void rubberBandZooms()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        const std::optional<QPointF> from = plane->positionOf(Transition { 10 }, Address { planeHeapBase + 0x70 });
        const std::optional<QPointF> to = plane->positionOf(Transition { 30 }, Address { planeHeapBase });
        QVERIFY(from && to);
        QTest::mousePress(plane.get(), Qt::RightButton, Qt::NoModifier, from->toPoint());
        QTest::mouseMove(plane.get(), ((*from + *to) / 2).toPoint());
        QTest::mouseRelease(plane.get(), Qt::RightButton, Qt::NoModifier, to->toPoint());
        const ViewRange range = plane->visibleRange();
        QVERIFY(range.firstTransition.value >= 9 && range.firstTransition.value <= 11);
        QVERIFY(range.lastTransition.value >= 29 && range.lastTransition.value <= 31);
        QVERIFY(range.firstAddress.value >= planeHeapBase - 8 && range.lastAddress.value <= planeHeapBase + 0x80);
        QVERIFY(plane->canGoBack());
    }

    void currentAccessIsBroughtIntoView()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        // Look at the heap early on; the current access is a stack write at the end.
        ViewRange heapEarly = plane->visibleRange();
        heapEarly.firstTransition = Transition { 0 };
        heapEarly.lastTransition = Transition { 20 };
        heapEarly.firstAddress = Address { planeHeapBase };
        heapEarly.lastAddress = Address { planeHeapBase + 0x7f };
        plane->setVisibleRange(heapEarly);
        const Access target = *std::find_if(m_stream.rbegin(), m_stream.rend(),
            [](const Access &a) { return a.operation == Operation::Write; }); // transition 95's write
        QCOMPARE(target.operation, Operation::Write);
        QCOMPARE(target.transition, Transition { 95 });
        QVERIFY(!contains(plane->visibleRange(), target));
        plane->setCurrentAccess(target);
        QVERIFY(contains(plane->visibleRange(), target));
        QVERIFY(plane->positionOf(target.transition, target.physical));
        // Already visible: the view stays.
        const ViewRange now = plane->visibleRange();
        plane->setCurrentAccess(target);
        QCOMPARE(plane->visibleRange(), now);
        QVERIFY(waitForRender(*plane));
        plane->setCurrentAccess(std::nullopt);
        QCOMPARE(plane->visibleRange(), now);
    }

    void markedAccessesAreDrawn()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        const QImage before = plane->grab().toImage();
        plane->setMarkedAccesses(m_stream.mid(0, 10));
        // grab() paints the widget as it is now: no need to wait for its throttled (25 Hz) repaint.
        const QImage after = plane->grab().toImage();
        QCOMPARE(after.size(), before.size());
        QVERIFY(after != before);
        plane->setMarkedAccesses({});
        QCOMPARE(plane->grab().toImage(), before);
    }

    void clearing()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        plane->setHistory(QString());
        QVERIFY(!plane->isHistoryLoaded());
        QCOMPARE(plane->visibleRange(), ViewRange {});
        QVERIFY(!plane->canGoBack());
        QVERIFY(plane->occupiedRegions().isEmpty());
    }

    void drawsFromItsOwnSummary()
    {
        QTemporaryDir cache;
        auto plane = openedPlane(m_path, cache.path());
        QVERIFY(plane);
        QCOMPARE(plane->summaryPath(), m_path);
        QVERIFY(plane->summaryNotice().isEmpty());
        QVERIFY(plane->renderError().isEmpty());
        QVERIFY(!plane->isSummarising());
        QVERIFY(summaryFiles(cache.path()).isEmpty());
    }

    // Without the summary tables (an older memhist's or another tool's file): summarised once into
    // the cache, the same picture as from the history's own summary; opened again, the cached
    // summary is used; after the file changed, it is summarised again and the old one removed.
    void historyWithoutSummaryIsSummarisedOnce()
    {
        const QString bare = m_dir.filePath(QStringLiteral("bare.memhist"));
        QVERIFY(changedCopy(m_path, bare, "DROP TABLE summary_info; DROP TABLE summary_tiles;"));
        QTemporaryDir cache;
        const QString cacheDirectory = cache.filePath(QStringLiteral("summaries"));

        auto own = openedPlane(m_path, cacheDirectory);
        QVERIFY(own);
        const QImage ownImage = own->grab().toImage();
        own.reset();

        auto plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(cacheDirectory);
        plane->resize(900, 600);
        plane->show();
        QSignalSpy started(plane.get(), &PlaneWidget::summaryStarted);
        QSignalSpy finished(plane.get(), &PlaneWidget::summaryFinished);
        QSignalSpy loaded(plane.get(), &PlaneWidget::historyLoaded);
        QSignalSpy rendered(plane.get(), &PlaneWidget::renderFinished);
        plane->setHistory(bare);
        QVERIFY(loaded.wait(20000));
        QVERIFY(!rendered.isEmpty() || rendered.wait(10000));
        QCOMPARE(started.size(), 1);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0), (QVariantList { true, QString() }));
        const QStringList files = summaryFiles(cacheDirectory);
        QCOMPARE(files.size(), 1);
        QCOMPARE(plane->summaryPath(), QDir(cacheDirectory).filePath(files.front()));
        QVERIFY(plane->summaryNotice().isEmpty());
        QVERIFY(!plane->findChild<QPushButton *>(QStringLiteral("summaryButton"))->isVisible());
        // The history itself was only read.
        sqlite::Connection db;
        QVERIFY(db.open(bare, sqlite::Connection::Mode::ReadOnly));
        sqlite::Statement tables
            = db.prepare("SELECT count(*) FROM sqlite_schema WHERE name IN ('summary_info', 'summary_tiles')");
        QVERIFY(tables.step() == SQLITE_ROW);
        QCOMPARE(tables.int64(0), 0);
        QCOMPARE(plane->grab().toImage(), ownImage);
        plane.reset();

        // Again: the cached summary, nothing summarised.
        plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(cacheDirectory);
        plane->resize(900, 600);
        plane->show();
        QSignalSpy startedAgain(plane.get(), &PlaneWidget::summaryStarted);
        QSignalSpy loadedAgain(plane.get(), &PlaneWidget::historyLoaded);
        plane->setHistory(bare);
        QVERIFY(loadedAgain.wait(20000));
        QCOMPARE(startedAgain.size(), 0);
        QCOMPARE(plane->summaryPath(), QDir(cacheDirectory).filePath(files.front()));
        QCOMPARE(summaryFiles(cacheDirectory), files);
        plane.reset();

        // Changed (a new modification time): summarised again, the old summary gone.
        {
            QFile file(bare);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(QFileInfo(bare).lastModified().addSecs(10), QFileDevice::FileModificationTime));
        }
        plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(cacheDirectory);
        plane->resize(900, 600);
        plane->show();
        QSignalSpy startedChanged(plane.get(), &PlaneWidget::summaryStarted);
        QSignalSpy loadedChanged(plane.get(), &PlaneWidget::historyLoaded);
        plane->setHistory(bare);
        QVERIFY(loadedChanged.wait(20000));
        QCOMPARE(startedChanged.size(), 1);
        const QStringList changedFiles = summaryFiles(cacheDirectory);
        QCOMPARE(changedFiles.size(), 1);
        QVERIFY(changedFiles != files);
        QCOMPARE(plane->summaryPath(), QDir(cacheDirectory).filePath(changedFiles.front()));
    }

    void summarisingIsCancellable()
    {
        const QString bare = m_dir.filePath(QStringLiteral("cancel.memhist"));
        QVERIFY(changedCopy(m_path, bare, "DROP TABLE summary_info; DROP TABLE summary_tiles;"));
        QTemporaryDir cache;
        PlaneWidget plane;
        plane.setSummaryCacheDirectory(cache.path());
        plane.resize(900, 600);
        plane.show();
        // The summarising job is queued behind jobs that hold every thread of the pool until the
        // plane has been told to cancel: the job sees the cancel at its first progress report.
        QThreadPool *pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        QSemaphore running;
        QSemaphore gate;
        connect(&plane, &PlaneWidget::summaryStarted, this, [&] {
            for (int i = 0; i < threads; ++i) {
                pool->start([&] {
                    running.release();
                    gate.acquire();
                });
            }
            running.acquire(threads);
            QTimer::singleShot(0, &plane, [&] {
                QVERIFY(plane.isSummarising());
                plane.cancelSummary();
                gate.release(threads);
            });
        });
        QSignalSpy finished(&plane, &PlaneWidget::summaryFinished);
        QSignalSpy loaded(&plane, &PlaneWidget::historyLoaded);
        plane.setHistory(bare);
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.at(0), (QVariantList { false, QStringLiteral("cancelled") }));
        QVERIFY(!plane.isSummarising());
        QVERIFY(!plane.isHistoryLoaded());
        QCOMPARE(loaded.size(), 0);
        QCOMPARE(summaryFiles(cache.path()), QStringList());
        QCOMPARE(QDir(cache.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
        auto *button = plane.findChild<QPushButton *>(QStringLiteral("summaryButton"));
        QVERIFY(button->isVisible());
        QCOMPARE(button->text(), QStringLiteral("Summarise"));

        // Started again from the button: it completes.
        disconnect(&plane, &PlaneWidget::summaryStarted, this, nullptr);
        button->click();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(finished.size(), 2);
        QCOMPARE(finished.at(1), (QVariantList { true, QString() }));
        QCOMPARE(summaryFiles(cache.path()).size(), 1);
        QVERIFY(!button->isVisible());
    }

    // Summary tables the plane cannot use are never drawn from: the reason is given and the plane
    // draws from a summary of its own.
    void unusableSummaryIsRefused_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::newRow("a later version") << QStringLiteral("UPDATE summary_info SET value = '3' WHERE key = 'version'")
                                         << QStringLiteral("the summary is of version 3, this viewer reads version 2");
        QTest::newRow("another tool's table of the same name")
            << QStringLiteral("DROP TABLE summary_info; CREATE TABLE summary_info(name text, payload blob)")
            << QStringLiteral("cannot read summary_info: no such column: key");
        QTest::newRow("rows removed since it was written")
            << QStringLiteral("DELETE FROM accesses WHERE rowid = (SELECT max(rowid) FROM accesses)")
            << QStringLiteral("it does not describe the history's tables (rows were added or removed since it was "
                              "written)");
    }
    void unusableSummaryIsRefused()
    {
        QFETCH(QString, change);
        QFETCH(QString, reason);
        const QString path = m_dir.filePath(QStringLiteral("refused.memhist"));
        QVERIFY(changedCopy(m_path, path, change.toUtf8().constData()));
        QTemporaryDir cache;
        auto plane = openedPlane(path, cache.path());
        QVERIFY(plane);
        QCOMPARE(plane->summaryNotice(), path + QStringLiteral(": its display summary is not used: ") + reason);
        QCOMPARE(summaryFiles(cache.path()).size(), 1);
        QCOMPARE(plane->summaryPath(), QDir(cache.path()).filePath(summaryFiles(cache.path()).front()));
        QVERIFY(plane->renderError().isEmpty());
    }

    void damagedBlockIsNotDrawn()
    {
        const QString path = m_dir.filePath(QStringLiteral("damaged.memhist"));
        QVERIFY(changedCopy(m_path, path, "UPDATE summary_tiles SET data = x'05ffffffff'"));
        QTemporaryDir cache;
        auto plane = std::make_unique<PlaneWidget>();
        plane->setSummaryCacheDirectory(cache.path());
        plane->resize(900, 600);
        plane->show();
        QSignalSpy failed(plane.get(), &PlaneWidget::renderFailed);
        QSignalSpy rendered(plane.get(), &PlaneWidget::renderFinished);
        plane->setHistory(path);
        QVERIFY(rendered.wait(20000));
        QCOMPARE(failed.size(), 1);
        // The first stored block the home view reads: its own level, stored since the pyramid rule
        // stores any block of at most a quarter of the cells it replaces (it used to be level 11's).
        const QString message
            = path + QStringLiteral(": damaged summary block (time level 0, address level 10, block 0, tile 0)");
        QCOMPARE(failed.at(0).at(0).toString(), message);
        QCOMPARE(plane->renderError(), message);
        QVERIFY(!plane->showsAccesses());
        QVERIFY(summaryFiles(cache.path()).isEmpty());
    }

    // --- The current position, threads (issue 13 items 2 and 3) ----------------------------------

    void currentPositionLineFollowsTheSelection()
    {
        auto plane = loadedPlane();
        QVERIFY(plane);
        QCOMPARE(plane->currentLineX(), std::optional<int>());
        const QColor highlight = plane->palette().color(QPalette::Highlight);
        for (const std::uint64_t t : { 37, 80 }) {
            const Access access = userAccess(t, Operation::Execute, planeCodeBase + 4 * t, 4);
            plane->setCurrentAccess(access);
            const std::optional<QPointF> centre = plane->positionOf(Transition { t }, access.physical);
            QVERIFY(centre);
            QCOMPARE(plane->currentLineX(), std::optional<int>(int(std::floor(centre->x()))));
            // The line runs down the whole plot: also across the heap, far from the access.
            const std::optional<QPointF> heap = plane->positionOf(Transition { t }, Address { planeHeapBase + 40 });
            QVERIFY(heap);
            const QImage image = plane->grab().toImage();
            QCOMPARE(image.pixelColor(*plane->currentLineX(), int(heap->y())), highlight);
        }
        // A position without an access (Go to Transition, an execution): the line moves there;
        // the next selected access takes it back.
        const Access selected = userAccess(80, Operation::Execute, planeCodeBase + 4 * 80, 4);
        plane->setCurrentTransition(Transition { 37 });
        const std::optional<QPointF> at37 = plane->positionOf(Transition { 37 }, selected.physical);
        QVERIFY(at37);
        QCOMPARE(plane->currentLineX(), std::optional<int>(int(std::floor(at37->x()))));
        const std::optional<QPointF> heap37 = plane->positionOf(Transition { 37 }, Address { planeHeapBase + 40 });
        QVERIFY(heap37);
        QCOMPARE(plane->grab().toImage().pixelColor(*plane->currentLineX(), int(heap37->y())), highlight);
        plane->setCurrentAccess(selected);
        const std::optional<QPointF> at80 = plane->positionOf(Transition { 80 }, selected.physical);
        QVERIFY(at80);
        QCOMPARE(plane->currentLineX(), std::optional<int>(int(std::floor(at80->x()))));
        plane->setCurrentAccess(std::nullopt);
        QCOMPARE(plane->currentLineX(), std::optional<int>());
    }

    void threadsColourTheStripAndNameTheHover()
    {
        const QString path = m_dir.filePath(QStringLiteral("threads.memhist"));
        {
            HistoryWriter writer(path);
            QVERIFY(writer.open());
            for (const Access &access : std::as_const(m_stream))
                QVERIFY(writer.add(access));
            writer.addThreadSpan(7, Transition { 0 }, Transition { 49 });
            writer.addThreadSpan(9, Transition { 50 }, Transition { 99 });
            QVERIFY(writer.finish());
        }
        auto plane = openedPlane(path, QString());
        QVERIFY(plane);
        QTRY_VERIFY(plane->addressNames());
        QCOMPARE(plane->addressNames()->threads, QList<qint64>({ 7, 9 }));
        QTRY_COMPARE(plane->threadSpans().size(), 2);
        QCOMPARE(plane->threadSpans()[1].threadId, 9);
        QCOMPARE(plane->threadSpans()[1].first, Transition { 50 });

        // The strip along the plot's bottom, in each thread's colour (read between the transition
        // grid lines, which over 100 transitions fall on multiples of 10 or 20).
        const QImage image = plane->grab().toImage();
        for (const auto &[t, index] : { std::pair { 13ull, 0 }, std::pair { 63ull, 1 } }) {
            const std::optional<QPointF> bottom = plane->positionOf(Transition { t }, Address { planeCodeBase });
            QVERIFY(bottom);
            QCOMPARE(
                image.pixelColor(int(bottom->x()), int(bottom->y()) - 2), plane::threadColor(index, plane->palette()));
        }
        // With a thread filter, the other threads' runs are faded and the chosen one's stay.
        plane->setThreadFilter({ 9 });
        const QImage filtered = plane->grab().toImage();
        for (const auto &[t, index] : { std::pair { 13ull, 0 }, std::pair { 63ull, 1 } }) {
            const std::optional<QPointF> bottom = plane->positionOf(Transition { t }, Address { planeCodeBase });
            QVERIFY(bottom);
            const QPoint strip(int(bottom->x()), int(bottom->y()) - 2);
            QCOMPARE(filtered.pixelColor(strip) == plane::threadColor(index, plane->palette()), index == 1);
            QCOMPARE(filtered.pixelColor(strip) == image.pixelColor(strip), index == 1);
        }
        plane->setThreadFilter({});

        // Hovering an access names its thread (read with its context); an empty place, the thread
        // that ran its transition.
        QVERIFY(plane->showsAccesses());
        const std::optional<QPointF> read
            = plane->positionOf(Transition { 60 }, Address { planeHeapBase + 8 * (60 % 16) });
        QVERIFY(read);
        QVERIFY(plane->accessAt(*read));
        QTest::mouseMove(plane.get(), read->toPoint());
        QTRY_COMPARE(plane->hoverText(),
            QStringLiteral("transition 60 · address 0x601060 · region 2/3 (0x601000–0x601077) · read of 8 bytes at "
                           "0x601060, transition 60 (row 104) · thread 9"));
        const std::optional<QPointF> empty = plane->positionOf(Transition { 13 }, Address { planeHeapBase });
        QVERIFY(empty);
        QVERIFY(!plane->accessAt(*empty));
        QTest::mouseMove(plane.get(), empty->toPoint());
        QTRY_VERIFY(plane->hoverText().endsWith(QStringLiteral(" · thread 7")));
        QVERIFY(!plane->hoverText().contains(QStringLiteral(" of ")));
    }

    void missingFileFails()
    {
        PlaneWidget plane;
        QSignalSpy failed(&plane, &PlaneWidget::historyFailed);
        plane.setHistory(m_dir.filePath(QStringLiteral("no-such.memhist")));
        QVERIFY(failed.wait(5000));
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("no such file")));
        QVERIFY(!plane.isHistoryLoaded());
    }
};

QTEST_MAIN(TestPlaneWidget)
#include "tst_planewidget.moc"
