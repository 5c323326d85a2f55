// memhist-plane-bench: drives the transition x address plane through the views a person would
// visit on a large history and prints how long each took to render, the longest time the GUI
// thread spent in one event (paint, mouse, wheel, timers), and the peak resident set size.
// Doubles as a viewer harness: --screenshots PREFIX saves each view as PREFIX-<view>.png.
//
//   memhist-plane-bench --db HISTORY.memhist [--size 1400x900] [--screenshots /tmp/plane] [--dark]
//
// Not a test: it prints figures (run it under Xvfb or QT_QPA_PLATFORM=offscreen).
#include "plane/planeoverview.h"
#include "plane/planerenderer.h"
#include "plane/planewidget.h"
#include "processmemory.h"
#include "storage/historydatabase.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMouseEvent>
#include <QStyleFactory>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>
#include <cstdio>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

namespace {

// Times every event the GUI thread handles at the outermost level: the stall a person would feel.
class TimingApplication : public QApplication
{
public:
    using QApplication::QApplication;

    bool notify(QObject *receiver, QEvent *event) override
    {
        // notify() also runs for the render worker's events, on its thread: only the GUI thread's
        // events are what a person waits for.
        if (QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        if (m_depth++ > 0) {
            const bool result = QApplication::notify(receiver, event);
            --m_depth;
            return result;
        }
        QElapsedTimer clock;
        clock.start();
        const qint64 cpuStart = threadCpuNs();
        const bool result = QApplication::notify(receiver, event);
        --m_depth;
        const qint64 ns = clock.nsecsElapsed();
        maxCpuNs = std::max(maxCpuNs, threadCpuNs() - cpuStart);
        viewMaxNs = std::max(viewMaxNs, ns);
        if (ns > maxNs) {
            maxNs = ns;
            maxType = event->type();
            maxReceiver = QString::fromLatin1(receiver->metaObject()->className());
        }
        if (ns > 50'000'000)
            ++over50ms;
        if (event->type() == QEvent::Paint || event->type() == QEvent::UpdateRequest)
            maxPaintNs = std::max(maxPaintNs, ns);
        return result;
    }

    void resetStats()
    {
        viewMaxNs = 0;
        maxNs = 0;
        maxPaintNs = 0;
        over50ms = 0;
    }

    // The CPU time the GUI thread itself spent in one event: on a loaded machine the wall time also
    // counts the time the thread waited for a core.
    static qint64 threadCpuNs()
    {
        timespec ts {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }
    qint64 maxCpuNs = 0;
    qint64 maxNs = 0;
    qint64 viewMaxNs = 0; // since the last resetView()
    qint64 maxPaintNs = 0;
    QEvent::Type maxType = QEvent::None;
    QString maxReceiver;
    int over50ms = 0;

private:
    int m_depth = 0;
};

void wait(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
}

// Waits for the next renderFinished(); returns its figure and the wall time, or -1 on timeout.
struct RenderWait
{
    qint64 reported = -1;
    qint64 wall = -1;
};

template<typename Action> RenderWait renderAfter(memhist::PlaneWidget &plane, Action action)
{
    RenderWait result;
    QEventLoop loop;
    QElapsedTimer clock;
    const auto connection = QObject::connect(&plane, &memhist::PlaneWidget::renderFinished, &loop, [&](qint64 ms) {
        result.reported = ms;
        result.wall = clock.elapsed();
        loop.quit();
    });
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    clock.start();
    action();
    if (result.reported < 0) // the action's own event processing may already have seen it
        loop.exec();
    QObject::disconnect(connection);
    wait(30); // let the paint of the new image happen inside the measured window
    return result;
}

void sendMouse(QWidget &w, QEvent::Type type, QPoint pos, Qt::MouseButton button, Qt::MouseButtons buttons)
{
    QMouseEvent event(type, QPointF(pos), QPointF(w.mapToGlobal(pos)), button, buttons, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &event);
}

void sendWheel(QWidget &w, QPoint pos, int angle, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent event(QPointF(pos), QPointF(w.mapToGlobal(pos)), QPoint(), QPoint(0, angle), Qt::NoButton, modifiers,
        Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(&w, &event);
}

} // namespace

int main(int argc, char **argv)
{
    TimingApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("memhist-plane-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Render times of the transition x address plane"));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("db"), QStringLiteral("The history to show."), QStringLiteral("path") });
    parser.addOption({ QStringLiteral("size"), QStringLiteral("Widget size (default 1400x900)."), QStringLiteral("WxH"),
        QStringLiteral("1400x900") });
    parser.addOption({ QStringLiteral("screenshots"), QStringLiteral("Save each view as PREFIX-<view>.png."),
        QStringLiteral("prefix") });
    parser.addOption({ QStringLiteral("dark"), QStringLiteral("Use a dark palette (Fusion style).") });
    parser.process(app);
    const QString path = parser.value(QStringLiteral("db"));
    if (path.isEmpty()) {
        std::fprintf(stderr, "memhist-plane-bench: --db is required\n");
        return 2;
    }
    const QStringList size = parser.value(QStringLiteral("size")).split(u'x');
    const int width = size.value(0).toInt() > 0 ? size.value(0).toInt() : 1400;
    const int height = size.value(1).toInt() > 0 ? size.value(1).toInt() : 900;
    const QString prefix = parser.value(QStringLiteral("screenshots"));

    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (parser.isSet(QStringLiteral("dark"))) {
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
        dark.setColor(QPalette::WindowText, QColor(0xdf, 0xe1, 0xe5));
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
        dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
        dark.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
        dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9d, 0xa3));
        dark.setColor(QPalette::Mid, QColor(0x5a, 0x5d, 0x63));
        dark.setColor(QPalette::Highlight, QColor(0xd0, 0x5c, 0xe3));
        QApplication::setPalette(dark);
    }

    memhist::PlaneWidget plane;
    plane.resize(width, height);
    plane.show();
    const auto shoot = [&](const char *name) {
        if (prefix.isEmpty())
            return;
        // "stack, 200 transitions (deeper)" -> "stack-200-transitions-deeper"
        QString file;
        for (const QChar c : QString::fromUtf8(name).toLower()) {
            if (c.isLetterOrNumber())
                file += c;
            else if (!file.isEmpty() && !file.endsWith(u'-'))
                file += u'-';
        }
        while (file.endsWith(u'-'))
            file.chop(1);
        plane.grab().save(prefix + u'-' + file + QStringLiteral(".png"));
    };

    std::printf(
        "memhist-plane-bench: %s, %dx%d, build %s\n", qPrintable(path), width, height, MEMHIST_BENCH_BUILD_TYPE);
    QElapsedTimer clock;
    clock.start();
    qint64 loadMs = -1;
    RenderWait first = renderAfter(plane, [&] {
        QObject::connect(&plane, &memhist::PlaneWidget::historyLoaded, &plane, [&] { loadMs = clock.elapsed(); });
        QObject::connect(&plane, &memhist::PlaneWidget::historyFailed, &plane, [](const QString &message) {
            std::fprintf(stderr, "memhist-plane-bench: %s\n", qPrintable(message));
            std::exit(1);
        });
        plane.setHistory(path);
    });
    std::printf("  overview (fold + per-slice coverage) ready in %lld ms, first view after %lld ms\n",
        static_cast<long long>(loadMs), static_cast<long long>(first.wall));
    shoot("home");

    const QList<memhist::ViewRange> regions = plane.occupiedRegions();
    std::printf("  %lld occupied regions:", static_cast<long long>(regions.size()));
    for (const auto &r : regions)
        std::printf(" [%llx, %llx]", static_cast<unsigned long long>(r.firstAddress.value),
            static_cast<unsigned long long>(r.lastAddress.value));
    std::printf("\n\n  %-44s %10s %10s %8s %10s\n", "view", "render ms", "wall ms", "detail", "max GUI ms");

    app.resetStats();
    std::vector<std::pair<std::string, memhist::ViewRange>> views;
    const auto report = [&](const char *name, const RenderWait &w) {
        views.emplace_back(name, plane.visibleRange());
        std::printf("  %-44s %10lld %10lld %8s %10.1f\n", name, static_cast<long long>(w.reported),
            static_cast<long long>(w.wall), plane.showsAccesses() ? "accesses" : "chunks", app.viewMaxNs / 1e6);
        app.viewMaxNs = 0;
        shoot(name);
    };

    report("whole view (Home)", renderAfter(plane, [&] {
        plane.setVisibleRange(regions.front());
        plane.home();
    }));
    const memhist::ViewRange all = plane.visibleRange();
    const memhist::ViewRange stack = regions.back();
    report("stack region, all transitions", renderAfter(plane, [&] { plane.setVisibleRange(stack); }));
    memhist::ViewRange heap = regions.front();
    report("lowest region (heap), all transitions", renderAfter(plane, [&] { plane.setVisibleRange(heap); }));

    const std::uint64_t middle = (all.firstTransition.value + all.lastTransition.value) / 2;
    memhist::ViewRange band = all;
    band.firstTransition = memhist::Transition { middle };
    band.lastTransition = memhist::Transition { middle + 100000 };
    report("all addresses, 100,000 transitions", renderAfter(plane, [&] { plane.setVisibleRange(band); }));
    band.lastTransition = memhist::Transition { middle + 20000 };
    report("all addresses, 20,000 transitions", renderAfter(plane, [&] { plane.setVisibleRange(band); }));
    memhist::ViewRange heapSlice = heap;
    heapSlice.lastAddress
        = memhist::Address { heap.firstAddress.value + (heap.lastAddress.value - heap.firstAddress.value) / 150 };
    report("1/150 of the heap, all transitions", renderAfter(plane, [&] { plane.setVisibleRange(heapSlice); }));

    memhist::ViewRange deep = stack;
    deep.firstTransition = memhist::Transition { middle };
    deep.lastTransition = memhist::Transition { middle + 3000 };
    report("stack, 3000 transitions (deep zoom)", renderAfter(plane, [&] { plane.setVisibleRange(deep); }));
    deep.lastTransition = memhist::Transition { middle + 200 };
    report("stack, 200 transitions (deeper)", renderAfter(plane, [&] { plane.setVisibleRange(deep); }));

    // A pan: a 500-pixel drag in 25 steps at ~60 Hz, as a hand would. "render ms" counts from the
    // last view change (the last move) to its image; "wall ms" includes the 400 ms of dragging.
    const QPoint start(width / 2, height / 2);
    report("pan by 500 px (drag)", renderAfter(plane, [&] {
        sendMouse(plane, QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton);
        for (int i = 1; i <= 25; ++i) {
            sendMouse(plane, QEvent::MouseMove, start - QPoint(i * 20, 0), Qt::NoButton, Qt::LeftButton);
            wait(16);
        }
        sendMouse(plane, QEvent::MouseButtonRelease, start - QPoint(500, 0), Qt::LeftButton, Qt::NoButton);
    }));

    report("wheel: 6 notches out at the cursor", renderAfter(plane, [&] {
        for (int i = 0; i < 6; ++i) {
            sendWheel(plane, QPoint(width / 3, height / 3), -120);
            wait(10);
        }
    }));
    report("Ctrl+wheel: 8 notches in (transitions)", renderAfter(plane, [&] {
        for (int i = 0; i < 8; ++i) {
            sendWheel(plane, QPoint(width / 2, height / 2), 120, Qt::ControlModifier);
            wait(10);
        }
    }));
    report("Home again", renderAfter(plane, [&] { plane.home(); }));
    report("Back", renderAfter(plane, [&] { plane.back(); }));

    std::printf("\n  GUI thread: longest event %.1f ms (type %d to %s), longest paint %.1f ms, events over 50 ms: %d\n",
        app.maxNs / 1e6, int(app.maxType), qPrintable(app.maxReceiver), app.maxPaintNs / 1e6, app.over50ms);
    std::printf("  GUI thread CPU time in one event: at most %.1f ms\n", app.maxCpuNs / 1e6);

    std::printf("  peak RSS of the viewer part %.1f MiB\n", double(memhist::bench::peakRssBytes()) / (1024.0 * 1024.0));

    // The same views rendered directly on this thread, best of three: the renderer's own cost
    // (wall and CPU), without queueing or the GUI, which on a loaded machine differ a lot.
    {
        const auto overview = memhist::plane::loadOverview(path, [] { return false; });
        QString error;
        auto db = memhist::HistoryDatabase::open(path, &error);
        db->connection().execute("PRAGMA mmap_size = 0");
        std::printf(
            "\n  renderer alone (best of 3)                     wall ms     CPU ms   chunks read  accesses read\n");
        for (const auto &[name, range] : views) {
            memhist::plane::RenderRequest request;
            request.overview = overview;
            request.view = memhist::plane::toViewport(range, overview->fold);
            request.pixels = QSize(width - 150, height - 60);
            request.colors = { Qt::white, QColor(245, 245, 245), Qt::lightGray, Qt::blue, Qt::red, Qt::green };
            qint64 bestWall = std::numeric_limits<qint64>::max();
            qint64 bestCpu = std::numeric_limits<qint64>::max();
            std::shared_ptr<memhist::plane::RenderResult> result;
            for (int i = 0; i < 3; ++i) {
                QElapsedTimer clock;
                clock.start();
                const qint64 cpu = TimingApplication::threadCpuNs();
                result = memhist::plane::renderPlane(request, db->connection(), [] { return false; });
                bestCpu = std::min(bestCpu, (TimingApplication::threadCpuNs() - cpu) / 1'000'000);
                bestWall = std::min(bestWall, clock.elapsed());
            }
            std::printf("  %-44s %9lld %10lld %13lld %14lld   (estimated %lld chunks, %lld accesses; "
                        "transitions %llu..%llu, addresses %llx..%llx)\n",
                name.c_str(), static_cast<long long>(bestWall), static_cast<long long>(bestCpu),
                static_cast<long long>(result->chunksRead), static_cast<long long>(result->accessesRead),
                static_cast<long long>(result->estimatedChunks), static_cast<long long>(result->estimatedAccesses),
                static_cast<unsigned long long>(range.firstTransition.value),
                static_cast<unsigned long long>(range.lastTransition.value),
                static_cast<unsigned long long>(range.firstAddress.value),
                static_cast<unsigned long long>(range.lastAddress.value));
        }
    }
    std::printf(
        "  peak RSS (with the direct renders) %.1f MiB\n", double(memhist::bench::peakRssBytes()) / (1024.0 * 1024.0));
    return 0;
}
