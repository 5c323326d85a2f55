// SPDX-License-Identifier: MIT
// memhist-origin-bench: the origin tree (`memhist origin`, core/origin/originfinder.h) of random
// reads of a recorded history, wall-clock: the first hop (a tree of depth 1) and the whole tree of
// depth 16, backward and forward, each with a fresh finder (as each command line run has), p50, p99
// and max. Targets: the tree <= 200 ms p99, the first hop <= 10 ms. A benchmark program: it prints
// figures, it is not a test.
#include "core/origin/originfinder.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "machinecontext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

using namespace memhist;

namespace {

struct Options
{
    QString history;
    int reads = 100;
    int depth = 16;
    std::uint64_t seed = 1;
};

[[noreturn]] void fail(const QString &message)
{
    std::fflush(stdout);
    std::fprintf(stderr, "memhist-origin-bench: %s\n", qUtf8Printable(message));
    std::exit(1);
}

Options parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Times origin trees of random reads of a recorded history."));
    parser.addHelpOption();
    const QCommandLineOption history(QStringLiteral("history"),
        QStringLiteral("A recorded history (memhist record: code trace, disassembly, values)."),
        QStringLiteral("FILE"));
    const QCommandLineOption reads(QStringLiteral("reads"), QStringLiteral("Random reads (default 100)."),
        QStringLiteral("N"), QStringLiteral("100"));
    const QCommandLineOption depth(
        QStringLiteral("depth"), QStringLiteral("Tree depth (default 16)."), QStringLiteral("N"), QStringLiteral("16"));
    const QCommandLineOption seed(
        QStringLiteral("seed"), QStringLiteral("Random seed (default 1)."), QStringLiteral("N"), QStringLiteral("1"));
    parser.addOptions({ history, reads, depth, seed });
    parser.process(app);
    Options options;
    options.history = parser.value(history);
    if (options.history.isEmpty())
        fail(QStringLiteral("give --history FILE"));
    options.reads = parser.value(reads).toInt();
    options.depth = parser.value(depth).toInt();
    options.seed = parser.value(seed).toULongLong();
    if (options.reads < 1 || options.depth < 1)
        fail(QStringLiteral("--reads and --depth must be at least 1"));
    return options;
}

struct Percentiles
{
    double p50 = 0;
    double p99 = 0;
    double max = 0;
};

// Of durations in nanoseconds, in milliseconds (nearest rank).
Percentiles percentiles(std::vector<qint64> durations)
{
    std::sort(durations.begin(), durations.end());
    const auto at = [&](double fraction) {
        const std::size_t rank = std::size_t(std::max(1.0, std::ceil(fraction * double(durations.size()))));
        return double(durations[std::min(rank, durations.size()) - 1]) / 1e6;
    };
    return Percentiles { at(0.50), at(0.99), double(durations.back()) / 1e6 };
}

// Random reads: each the first read at or after a random rowid.
std::vector<RowId> randomReads(HistoryDatabase &database, const Options &options)
{
    HalfAxisQueryEngine engine(database);
    HalfAxisQuery last;
    last.direction = Direction::Backward;
    last.limit = 1;
    QueryPage page;
    QString error;
    if (!engine.run(last, &page, &error) || page.accesses.isEmpty())
        fail(QStringLiteral("%1: no accesses (%2)").arg(database.path(), error));
    const std::int64_t lastRow = page.accesses.constFirst().rowId.value;
    std::mt19937_64 random(options.seed);
    std::uniform_int_distribution<std::int64_t> rows(1, lastRow);
    std::vector<RowId> reads;
    while (int(reads.size()) < options.reads) {
        HalfAxisQuery query;
        query.resumeAfter = RowId { rows(random) - 1 };
        query.operations = Operation::Read;
        query.limit = 1;
        if (!engine.run(query, &page, &error))
            fail(error);
        if (!page.accesses.isEmpty())
            reads.push_back(page.accesses.constFirst().rowId);
    }
    return reads;
}

// The CPU time of this thread: wall-clock figures on a loaded machine also count the waits for a
// processor, CPU time does not (both are printed).
qint64 threadCpuNanoseconds()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1000000000 + now.tv_nsec;
}

struct Run
{
    std::vector<qint64> nanoseconds;
    std::vector<qint64> cpuNanoseconds;
    qint64 hops = 0;
    int truncated = 0;
    int maxHops = 0;
};

Run timeTrees(HistoryDatabase &database, const std::vector<RowId> &reads, Direction direction, int depth)
{
    Run run;
    for (const RowId row : reads) {
        QElapsedTimer timer;
        timer.start();
        const qint64 cpuStart = threadCpuNanoseconds();
        OriginFinder finder(database);
        OriginRequest request;
        request.row = row;
        request.direction = direction;
        request.depth = depth;
        OriginTree tree;
        QString error;
        if (!finder.find(request, &tree, &error))
            fail(QStringLiteral("row %1: %2").arg(row.value).arg(error));
        run.nanoseconds.push_back(timer.nsecsElapsed());
        run.cpuNanoseconds.push_back(threadCpuNanoseconds() - cpuStart);
        run.hops += tree.hops.size();
        run.maxHops = std::max(run.maxHops, int(tree.hops.size()));
        run.truncated += tree.truncated ? 1 : 0;
    }
    return run;
}

void print(const char *what, const Run &run, double target)
{
    const Percentiles figures = percentiles(run.nanoseconds);
    const Percentiles cpu = percentiles(run.cpuNanoseconds);
    std::printf("  %-28s wall p50 %7.2f ms, p99 %7.2f ms, max %7.2f ms (CPU p50 %.2f, p99 %.2f ms); hops: mean %.1f, "
                "max %d, %d trees cut at the hop limit; target p99 <= %.0f ms: %s\n",
        what, figures.p50, figures.p99, figures.max, cpu.p50, cpu.p99,
        double(run.hops) / double(run.nanoseconds.size()), run.maxHops, run.truncated, target,
        figures.p99 <= target ? "met" : "MISSED");
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app);
    const bench::MachineContext machine = bench::collectMachineContext();
    std::printf("memhist-origin-bench (%s build)\n", MEMHIST_BENCH_BUILD_TYPE);
    std::printf("  machine: %s, %d processors, load average %s\n", qUtf8Printable(machine.cpuModel), machine.processors,
        qUtf8Printable(machine.loadAverage));
    QString error;
    const auto database = HistoryDatabase::open(options.history, &error);
    if (!database)
        fail(error);
    std::printf(
        "  history: %s, %.1f MB\n", qUtf8Printable(options.history), double(QFileInfo(options.history).size()) / 1e6);
    {
        OriginFinder finder(*database);
        if (!finder.hasCode() || !finder.hasValues())
            std::printf("  note: the history lacks %s: its trees are memory hops only or unchecked\n",
                !finder.hasCode() ? "a code trace" : "values");
    }
    const std::vector<RowId> reads = randomReads(*database, options);
    std::printf(
        "  %d random reads (seed %llu), a fresh finder each, wall-clock:\n", options.reads, qulonglong(options.seed));
    print("first hop (depth 1)", timeTrees(*database, reads, Direction::Backward, 1), 10);
    const QByteArray whole = "tree of depth " + QByteArray::number(options.depth);
    print(whole.constData(), timeTrees(*database, reads, Direction::Backward, options.depth), 200);
    const QByteArray forward = "forward " + whole;
    print(forward.constData(), timeTrees(*database, reads, Direction::Forward, options.depth), 200);
    std::printf("  load average after: %s\n", qUtf8Printable(bench::collectMachineContext().loadAverage));
    return 0;
}
