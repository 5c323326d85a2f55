// SPDX-License-Identifier: MIT
// memhist-plane-bench: drives the transition x address plane through the views a person would
// visit on large histories and prints, side by side for each history and with the growth ratio
// from the smallest to the largest, how long opening took until the first complete view, how long
// each view took from the change to the finished image, the longest time the GUI thread spent in
// one event (paint, mouse, wheel, timers) and the peak resident set size.
//
//   memhist-plane-bench --with H7.memhist --with H8.memhist --without P7.memhist --without P8.memhist
//                       [--rounds 3] [--size 1400x900] [--cache DIR] [--screenshots PREFIX] [--dark] [--detail]
//
// Per view kind (Home, zoom in, zoom out, pan, Back) it prints the median and the 99th percentile
// (nearest rank) over --rounds visits of the sequence, and per history the size of the summary it
// drew from in bytes per access and the CPU time building it took (summary_info's build_cpu_ms).
//
// --with: histories with their own display summary (written by memhist's writer);
// --without: histories without one (another tool's, an older memhist's), each run twice: the first
// open summarises it into the cache (an empty directory of the benchmark's own unless --cache), the
// second reuses that summary.
//
// Each run is a process of its own (this program with --one), so that its peak RSS is its own and
// nothing of one history is cached in the next one's process. Not a test: it prints figures (run
// it under Xvfb or QT_QPA_PLATFORM=offscreen).
#include "core/charts/chartdata.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/summary/summarystatements.h"
#include "core/summary/summarystore.h"
#include "processmemory.h"
#include "widgets/plane/planeoverview.h"
#include "widgets/plane/planerenderer.h"
#include "widgets/plane/planewidget.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QMouseEvent>
#include <QProcess>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <map>
#include <optional>
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
        if (ns > maxNs) {
            maxNs = ns;
            maxType = event->type();
            maxReceiver = QString::fromLatin1(receiver->metaObject()->className());
        }
        if (ns > 50'000'000)
            ++over50ms;
        return result;
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

// Runs `action` and waits for the next renderFinished(); returns the wall time from the action to
// the image, or -1 on timeout.
template<typename Action> qint64 renderAfter(memhist::PlaneWidget &plane, Action action, int timeoutMs = 60000)
{
    qint64 wall = -1;
    QEventLoop loop;
    QElapsedTimer clock;
    const auto connection = QObject::connect(&plane, &memhist::PlaneWidget::renderFinished, &loop, [&](qint64) {
        wall = clock.elapsed();
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    clock.start();
    action();
    if (wall < 0) // the action's own event processing may already have seen it
        loop.exec();
    QObject::disconnect(connection);
    wait(30); // let the paint of the new image happen inside the measured window
    return wall;
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

// The figures of one run, in the order printed: (name, value).
using Figures = std::vector<std::pair<std::string, double>>;

struct RunOptions
{
    QString path;
    QString cacheDirectory;
    int width = 1400;
    int height = 900;
    QString screenshots;
    bool detail = false;
    int rounds = 3; // times the sequence of views is visited (the percentiles are over all of them)
};

// One history through the views; prints "name\tvalue" lines (the parent reads them) and, with
// `detail`, the renderer's own time per view.
int runOne(TimingApplication &app, const RunOptions &options)
{
    memhist::PlaneWidget plane;
    plane.setSummaryCacheDirectory(options.cacheDirectory);
    plane.resize(options.width, options.height);
    plane.show();
    const auto shoot = [&](const char *name) {
        if (options.screenshots.isEmpty())
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
        plane.grab().save(options.screenshots + u'-' + file + QStringLiteral(".png"));
    };

    Figures figures;
    QElapsedTimer summaryClock;
    qint64 summaryMs = 0;
    QObject::connect(&plane, &memhist::PlaneWidget::summaryStarted, &plane, [&] { summaryClock.start(); });
    QObject::connect(&plane, &memhist::PlaneWidget::summaryFinished, &plane, [&](bool ok, const QString &message) {
        summaryMs = summaryClock.elapsed();
        if (!ok)
            std::fprintf(stderr, "memhist-plane-bench: summarising failed: %s\n", qPrintable(message));
    });
    QObject::connect(&plane, &memhist::PlaneWidget::historyFailed, &plane, [](const QString &message) {
        std::fprintf(stderr, "memhist-plane-bench: %s\n", qPrintable(message));
        std::exit(1);
    });
    const qint64 openMs = renderAfter(
        plane, [&] { plane.setHistory(options.path); }, 30 * 60 * 1000);
    figures.emplace_back("open -> first complete view", double(openMs));
    figures.emplace_back("  of which summarising", double(summaryMs));
    shoot("home");

    const QList<memhist::ViewRange> regions = plane.occupiedRegions();
    std::vector<std::pair<std::string, memhist::ViewRange>> views;
    // The kinds of view the targets name, each view's by its name; their samples over the rounds.
    const auto kindOf = [](const std::string &name) -> std::string {
        if (name.find("Home") != std::string::npos)
            return "view kind Home";
        if (name.find("pan") == 0)
            return "view kind pan";
        if (name.find("out") != std::string::npos)
            return "view kind zoom out";
        if (name == "Back")
            return "view kind Back";
        return "view kind zoom in";
    };
    std::map<std::string, std::vector<double>> samplesByKind;
    int round = 0;
    const auto report = [&](const char *name, qint64 wall) {
        samplesByKind[kindOf(name)].push_back(double(wall));
        if (round > 0)
            return;
        views.emplace_back(name, plane.visibleRange());
        figures.emplace_back(name, double(wall));
        shoot(name);
    };

    for (round = 0; round < options.rounds; ++round) {
        report("whole view (Home)", renderAfter(plane, [&] {
            plane.setVisibleRange(regions.front());
            plane.home();
        }));
        const memhist::ViewRange all = plane.visibleRange();
        const memhist::ViewRange stack = regions.back();
        report("stack region, all transitions", renderAfter(plane, [&] { plane.setVisibleRange(stack); }));
        const memhist::ViewRange heap = regions.front();
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

        // A pan: a 500-pixel drag in 25 steps at ~60 Hz, as a hand would; timed from the last move
        // (the last view change) to its image.
        const QPoint start(options.width / 2, options.height / 2);
        sendMouse(plane, QEvent::MouseButtonPress, start, Qt::LeftButton, Qt::LeftButton);
        for (int i = 1; i < 25; ++i) {
            sendMouse(plane, QEvent::MouseMove, start - QPoint(i * 20, 0), Qt::NoButton, Qt::LeftButton);
            wait(16);
        }
        report("pan by 500 px (drag)", renderAfter(plane, [&] {
            sendMouse(plane, QEvent::MouseMove, start - QPoint(500, 0), Qt::NoButton, Qt::LeftButton);
            sendMouse(plane, QEvent::MouseButtonRelease, start - QPoint(500, 0), Qt::LeftButton, Qt::NoButton);
        }));

        // Wheel bursts: the last notch is the view change timed.
        for (int i = 0; i < 5; ++i) {
            sendWheel(plane, QPoint(options.width / 3, options.height / 3), -120);
            wait(10);
        }
        report("wheel: 6 notches out at the cursor",
            renderAfter(plane, [&] { sendWheel(plane, QPoint(options.width / 3, options.height / 3), -120); }));
        for (int i = 0; i < 7; ++i) {
            sendWheel(plane, QPoint(options.width / 2, options.height / 2), 120, Qt::ControlModifier);
            wait(10);
        }
        report("Ctrl+wheel: 8 notches in (transitions)", renderAfter(plane, [&] {
            sendWheel(plane, QPoint(options.width / 2, options.height / 2), 120, Qt::ControlModifier);
        }));
        report("Home again", renderAfter(plane, [&] { plane.home(); }));
        report("Back", renderAfter(plane, [&] { plane.back(); }));
    }
    // Per kind of view, over every round: the median and the 99th percentile (nearest rank).
    for (const auto &[kind, samples] : samplesByKind) {
        std::vector<double> sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        const auto rank = [&sorted](double p) {
            return sorted[std::size_t(std::max(1.0, std::ceil(p * double(sorted.size()))) - 1)];
        };
        figures.emplace_back(kind + ": p50", rank(0.5));
        figures.emplace_back(kind + ": p99", rank(0.99));
    }

    figures.emplace_back("longest GUI-thread event (wall)", app.maxNs / 1e6);
    figures.emplace_back("longest GUI-thread event (CPU)", app.maxCpuNs / 1e6);
    figures.emplace_back("GUI-thread events over 50 ms", app.over50ms);
    figures.emplace_back("peak RSS, MiB", double(memhist::bench::peakRssBytes()) / (1024.0 * 1024.0));
    // The summary drawn from: its size and what building it cost (at import for a history's own,
    // the builder's part of summarising for a cached one), per access.
    {
        memhist::sqlite::Connection summaryDb;
        QString why;
        std::optional<memhist::summary::SummaryInfo> info;
        if (!plane.summaryPath().isEmpty()
            && summaryDb.open(plane.summaryPath(), memhist::sqlite::Connection::Mode::ReadOnly))
            info = memhist::summary::readSummaryInfo(summaryDb, &why);
        memhist::sqlite::Statement bytes = summaryDb.prepare(memhist::summary::statements::summaryBytes);
        if (info && info->accesses > 0 && bytes.isValid() && bytes.step() == SQLITE_ROW) {
            const double accesses = double(info->accesses);
            figures.emplace_back("summary size, bytes per access", double(bytes.int64(0)) / accesses);
            figures.emplace_back("summary build CPU, s", double(info->buildCpuMilliseconds) / 1000.0);
            figures.emplace_back(
                "summary build CPU, ns per access", double(info->buildCpuMilliseconds) * 1e6 / accesses);
        }
    }
    // The charts panel's computation of the whole history (tst_chartspanel proves that it reads a
    // bounded sample; this is what that costs).
    {
        QElapsedTimer clock;
        clock.start(); // the panel opens its own connection for each computation, too
        QString why;
        const auto database = memhist::HistoryDatabase::open(options.path, &why);
        memhist::ChartData charts;
        if (database
            && memhist::computeChartData(
                *database, memhist::ViewRange {}, true, memhist::ChartOptions {}, &charts, &why)) {
            figures.emplace_back("charts of the whole history, ms", double(clock.nsecsElapsed()) / 1e6);
            figures.emplace_back("charts of the whole history, rows read", double(charts.rowsRead));
        } else {
            std::fprintf(stderr, "memhist-plane-bench: charts: %s\n", qPrintable(why));
        }
    }
    for (const auto &[name, value] : figures)
        std::printf("%s\t%.1f\n", name.c_str(), value);
    std::fflush(stdout);
    std::fprintf(stderr, "  longest GUI-thread event: type %d to %s\n", int(app.maxType), qPrintable(app.maxReceiver));

    if (!options.detail)
        return 0;
    // The same views rendered directly on this thread, best of three: the renderer's own cost
    // (wall and CPU), without queueing or the GUI.
    const auto overview = memhist::plane::openOverview(options.path, options.cacheDirectory);
    QString error;
    auto db = memhist::HistoryDatabase::open(options.path, &error);
    if (!db || !overview || !overview->error.isEmpty())
        return 1;
    db->connection().execute("PRAGMA mmap_size = 0");
    memhist::sqlite::Connection summaryDb;
    if (overview->summaryInfo && overview->summaryPath != overview->path)
        summaryDb.open(overview->summaryPath, memhist::sqlite::Connection::Mode::ReadOnly);
    std::fprintf(stderr,
        "\n  renderer alone (best of 3; first)              wall ms     CPU ms   summary cells  chunks read  "
        "accesses read   first: wall ms  CPU ms\n");
    for (const auto &[name, range] : views) {
        memhist::plane::RenderRequest request;
        request.overview = overview;
        request.view = memhist::plane::toViewport(range, overview->fold);
        request.pixels = QSize(options.width - 150, options.height - 60);
        request.colors = { Qt::white, QColor(245, 245, 245), Qt::lightGray, Qt::blue, Qt::red, Qt::green };
        qint64 bestWall = std::numeric_limits<qint64>::max();
        qint64 bestCpu = std::numeric_limits<qint64>::max();
        qint64 firstWall = 0; // the first render of a view reads pages no earlier view read
        qint64 firstCpu = 0;
        std::shared_ptr<memhist::plane::RenderResult> result;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer clock;
            clock.start();
            const qint64 cpu = TimingApplication::threadCpuNs();
            result = memhist::plane::renderPlane(
                request, db->connection(), [] { return false; }, summaryDb.isOpen() ? &summaryDb : nullptr);
            const qint64 cpuMs = (TimingApplication::threadCpuNs() - cpu) / 1'000'000;
            if (i == 0) {
                firstWall = clock.elapsed();
                firstCpu = cpuMs;
            }
            bestCpu = std::min(bestCpu, cpuMs);
            bestWall = std::min(bestWall, clock.elapsed());
        }
        if (!result)
            continue;
        std::fprintf(stderr,
            "  %-44s %9lld %10lld %15lld %12lld %14lld %16lld %7lld   (estimated %lld chunks, %lld accesses)\n",
            name.c_str(), static_cast<long long>(bestWall), static_cast<long long>(bestCpu),
            static_cast<long long>(result->summaryCellsRead), static_cast<long long>(result->chunksRead),
            static_cast<long long>(result->accessesRead), static_cast<long long>(firstWall),
            static_cast<long long>(firstCpu), static_cast<long long>(result->estimatedChunks),
            static_cast<long long>(result->estimatedAccesses));
    }
    return 0;
}

// The number of accesses of a history, for its column's title ("1e7"); 0 when unknown.
qint64 accessesOf(const QString &path)
{
    QString error;
    auto db = memhist::HistoryDatabase::open(path, &error);
    if (!db)
        return 0;
    memhist::sqlite::Statement last = db->connection().prepare("SELECT max(rowid) FROM accesses");
    return last.isValid() && last.step() == SQLITE_ROW ? last.int64(0) : 0;
}

QString sizeLabel(qint64 accesses)
{
    if (accesses <= 0)
        return QStringLiteral("?");
    const int exponent = int(std::floor(std::log10(double(accesses))));
    const double mantissa = double(accesses) / std::pow(10.0, exponent);
    return std::abs(mantissa - 1.0) < 1e-9 ? QStringLiteral("10^%1").arg(exponent)
                                           : QStringLiteral("%1e%2").arg(mantissa, 0, 'g', 3).arg(exponent);
}

struct Column
{
    QString group; // "with summary", ...
    QString title; // "10^7"
    std::map<std::string, double> values;
    std::vector<std::string> order;
};

// Runs this program with --one on `path`; false when the run failed.
bool runChild(const QString &path, const QString &cache, const QStringList &passOn, Column *column)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QStringList arguments { QStringLiteral("--one"), path, QStringLiteral("--cache"), cache };
    arguments += passOn;
    child.start(QCoreApplication::applicationFilePath(), arguments);
    if (!child.waitForStarted() || !child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit
        || child.exitCode() != 0)
        return false;
    const QList<QByteArray> lines = child.readAllStandardOutput().split('\n');
    for (const QByteArray &line : lines) {
        const qsizetype tab = line.lastIndexOf('\t');
        if (tab < 0)
            continue;
        const std::string name = line.left(tab).toStdString();
        column->values[name] = line.mid(tab + 1).toDouble();
        column->order.push_back(name);
    }
    return !column->order.empty();
}

} // namespace

int main(int argc, char **argv)
{
    TimingApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("memhist-plane-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Open and view times of the transition x address plane"));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("with"), QStringLiteral("A history with its own summary (repeatable)."),
        QStringLiteral("path") });
    parser.addOption({ QStringLiteral("without"),
        QStringLiteral("A history without one: opened twice, summarised, then from the cache (repeatable)."),
        QStringLiteral("path") });
    parser.addOption({ QStringLiteral("one"), QStringLiteral("Run one history in this process (what each run is)."),
        QStringLiteral("path") });
    parser.addOption({ QStringLiteral("cache"),
        QStringLiteral("The summary cache directory (default: an empty one of the benchmark's own)."),
        QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("size"), QStringLiteral("Widget size (default 1400x900)."), QStringLiteral("WxH"),
        QStringLiteral("1400x900") });
    parser.addOption({ QStringLiteral("screenshots"), QStringLiteral("Save each view as PREFIX-<view>.png."),
        QStringLiteral("prefix") });
    parser.addOption({ QStringLiteral("dark"), QStringLiteral("Use a dark palette (Fusion style).") });
    parser.addOption(
        { QStringLiteral("detail"), QStringLiteral("Also print the renderer's own time per view (stderr).") });
    parser.addOption({ QStringLiteral("rounds"),
        QStringLiteral("Visit the sequence of views this many times (default 3): the percentiles are over all."),
        QStringLiteral("n"), QStringLiteral("3") });
    parser.process(app);

    const QStringList size = parser.value(QStringLiteral("size")).split(u'x');
    RunOptions options;
    options.width = size.value(0).toInt() > 0 ? size.value(0).toInt() : 1400;
    options.height = size.value(1).toInt() > 0 ? size.value(1).toInt() : 900;
    options.screenshots = parser.value(QStringLiteral("screenshots"));
    options.detail = parser.isSet(QStringLiteral("detail"));
    options.rounds = std::max(1, parser.value(QStringLiteral("rounds")).toInt());

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

    if (parser.isSet(QStringLiteral("one"))) {
        options.path = parser.value(QStringLiteral("one"));
        options.cacheDirectory = parser.value(QStringLiteral("cache"));
        return runOne(app, options);
    }

    const QStringList with = parser.values(QStringLiteral("with"));
    const QStringList without = parser.values(QStringLiteral("without"));
    if (with.isEmpty() && without.isEmpty()) {
        std::fprintf(stderr, "memhist-plane-bench: give histories with --with and/or --without\n");
        return 2;
    }
    QTemporaryDir ownCache(QDir::tempPath() + QStringLiteral("/memhist-plane-bench-XXXXXX"));
    const QString cache = parser.isSet(QStringLiteral("cache")) ? parser.value(QStringLiteral("cache"))
                                                                : ownCache.path() + QStringLiteral("/summaries");
    QStringList passOn { QStringLiteral("--size"), QStringLiteral("%1x%2").arg(options.width).arg(options.height) };
    passOn << QStringLiteral("--rounds") << QString::number(options.rounds);
    if (options.detail)
        passOn << QStringLiteral("--detail");
    if (parser.isSet(QStringLiteral("dark")))
        passOn << QStringLiteral("--dark");

    std::printf("memhist-plane-bench: %dx%d, build %s, nproc %d\n", options.width, options.height,
        MEMHIST_BENCH_BUILD_TYPE, QThread::idealThreadCount());
    std::vector<Column> columns;
    const auto run = [&](const QString &group, const QString &path) {
        Column column;
        column.group = group;
        column.title = sizeLabel(accessesOf(path));
        std::printf("  %s, %s: %s\n", qPrintable(group), qPrintable(column.title), qPrintable(path));
        std::fflush(stdout);
        if (!runChild(path, cache, passOn, &column)) {
            std::fprintf(stderr, "memhist-plane-bench: the run on %s failed\n", qPrintable(path));
            std::exit(1);
        }
        columns.push_back(std::move(column));
    };
    for (const QString &path : with)
        run(QStringLiteral("with summary"), path);
    for (const QString &path : without) {
        // The first open summarises into the cache, the second reads that summary.
        QDir(cache).removeRecursively();
        run(QStringLiteral("without: first open"), path);
        run(QStringLiteral("without: cached"), path);
    }
    // Regrouped: the first opens of every size, then the cached ones.
    std::stable_sort(columns.begin(), columns.end(), [](const Column &a, const Column &b) {
        const auto rank = [](const Column &c) {
            return c.group == QLatin1String("with summary")       ? 0
                : c.group == QLatin1String("without: first open") ? 1
                                                                  : 2;
        };
        return rank(a) < rank(b);
    });

    // The table: per group, its sizes, then the ratio of the largest to the smallest.
    std::printf("\n  %-42s", "");
    QString previous;
    std::vector<std::pair<std::size_t, std::size_t>> groups; // [first, end) column indexes
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].group != previous) {
            groups.emplace_back(i, i);
            previous = columns[i].group;
        }
        groups.back().second = i + 1;
    }
    for (const auto &[first, end] : groups) {
        const int width = int(end - first) * 9 + (end - first > 1 ? 8 : 0);
        std::printf(" | %-*s", width, qPrintable(columns[first].group.left(width)));
    }
    std::printf("\n  %-42s", "");
    for (const auto &[first, end] : groups) {
        std::printf(" |");
        for (std::size_t i = first; i < end; ++i)
            std::printf(" %8s", qPrintable(columns[i].title));
        if (end - first > 1)
            std::printf(" %7s", "ratio");
    }
    std::printf("\n");
    for (const std::string &name : columns.front().order) {
        std::printf("  %-42s", name.c_str());
        for (const auto &[first, end] : groups) {
            std::printf(" |");
            for (std::size_t i = first; i < end; ++i) {
                const double value = columns[i].values[name];
                std::printf(value < 100 && value != std::floor(value) ? " %8.2f" : " %8.0f", value);
            }
            if (end - first > 1) {
                const double small = columns[first].values[name];
                const double large = columns[end - 1].values[name];
                if (small > 0)
                    std::printf(" %6.2fx", large / small);
                else
                    std::printf(" %7s", "-");
            }
        }
        std::printf("\n");
    }
    std::printf("\n  times in ms from the change to the finished image; the targets at 10^8: first complete view\n"
                "  <= 1000 ms, every view <= 200 ms, no GUI-thread event over 50 ms, peak RSS <= 500 MiB.\n");
    return 0;
}
