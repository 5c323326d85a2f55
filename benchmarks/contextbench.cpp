// SPDX-License-Identifier: MIT
// memhist-context-bench: measures the read side of the program context on a history: pcAt over
// random transitions (p50, p99, max; the target is <= 0.1 ms), and pages of 500 consecutive
// accesses with their full context (PC, function, source line, instruction, region, value), as
// `memhist query --context` prints them (target: <= 20 ms a page), with a fresh reader per page as
// each command line run has. A benchmark program: it prints figures, it is not a test.
#include "core/context/contextreader.h"
#include "core/importers/accesssink.h"
#include "core/importers/lackeyimporter.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "machinecontext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <vector>

using namespace memhist;

namespace {

struct Options
{
    QString history;
    QString trace;
    int samples = 100000;
    int pages = 50;
    std::uint64_t seed = 1;
};

[[noreturn]] void fail(int status, const QString &message)
{
    std::fflush(stdout);
    std::fprintf(stderr, "memhist-context-bench: %s\n", qUtf8Printable(message));
    std::exit(status);
}

Options parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Measures pcAt and pages of 500 accesses with their context on a history (or a Lackey log imported first)."));
    parser.addHelpOption();
    const QCommandLineOption history(QStringLiteral("history"),
        QStringLiteral("A history with PCs (memhist import/record)."), QStringLiteral("FILE"));
    const QCommandLineOption trace(QStringLiteral("trace"),
        QStringLiteral("A Lackey log (plain or gzip) to import into a temporary history first."),
        QStringLiteral("FILE"));
    const QCommandLineOption samples(QStringLiteral("samples"),
        QStringLiteral("Random transitions for pcAt (default 100000)."), QStringLiteral("N"), QStringLiteral("100000"));
    const QCommandLineOption pages(QStringLiteral("pages"), QStringLiteral("Pages of 500 accesses (default 50)."),
        QStringLiteral("N"), QStringLiteral("50"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Seed of the random choices (default 1)."),
        QStringLiteral("S"), QStringLiteral("1"));
    parser.addOptions({ history, trace, samples, pages, seed });
    parser.process(app);
    Options options;
    options.history = parser.value(history);
    options.trace = parser.value(trace);
    if (options.history.isEmpty() == options.trace.isEmpty())
        fail(2, QStringLiteral("give either --history FILE or --trace FILE"));
    bool ok = false;
    options.samples = parser.value(samples).toInt(&ok);
    if (!ok || options.samples < 1)
        fail(2, QStringLiteral("--samples: expected a positive number"));
    options.pages = parser.value(pages).toInt(&ok);
    if (!ok || options.pages < 1)
        fail(2, QStringLiteral("--pages: expected a positive number"));
    options.seed = parser.value(seed).toULongLong(&ok);
    if (!ok)
        fail(2, QStringLiteral("--seed: expected a number"));
    return options;
}

struct Percentiles
{
    double p50 = 0;
    double p99 = 0;
    double max = 0;
    double mean = 0;
};

// Of durations in nanoseconds, in microseconds.
Percentiles percentiles(std::vector<qint64> durations)
{
    std::sort(durations.begin(), durations.end());
    Percentiles result;
    const auto at = [&](double fraction) {
        return double(durations[std::min(durations.size() - 1, std::size_t(fraction * double(durations.size())))])
            / 1e3;
    };
    result.p50 = at(0.50);
    result.p99 = at(0.99);
    result.max = double(durations.back()) / 1e3;
    double sum = 0;
    for (const qint64 duration : durations)
        sum += double(duration);
    result.mean = sum / double(durations.size()) / 1e3;
    return result;
}

// CPU time of this thread: on a machine shared with other work, wall time also counts the time
// the benchmark waited for a processor.
qint64 threadCpuNs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// The transitions the code trace covers: [first, end).
std::pair<std::uint64_t, std::uint64_t> codeTraceSpan(sqlite::Connection &connection)
{
    sqlite::Statement span
        = connection.prepare("SELECT (SELECT transition_first FROM code_trace ORDER BY transition_first LIMIT 1), "
                             "(SELECT max(transition) FROM accesses)");
    if (!span.isValid() || span.step() != SQLITE_ROW)
        return { 0, 0 };
    return { fromStored(span.int64(0)), fromStored(span.int64(1)) + 1 };
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("memhist-context-bench"));
    const Options options = parseOptions(app);
    sqlite::configureProcess();

    const bench::MachineContext machine = bench::collectMachineContext();
    std::printf("memhist-context-bench (%s build)\n", MEMHIST_BENCH_BUILD_TYPE);
    std::printf("  machine: %s, %d processors, load average %s\n", qUtf8Printable(machine.cpuModel), machine.processors,
        qUtf8Printable(machine.loadAverage));

    std::optional<QTemporaryDir> temporary;
    QString historyPath = options.history;
    if (historyPath.isEmpty()) {
        temporary.emplace(QDir::tempPath() + QStringLiteral("/memhist-context-bench-XXXXXX"));
        if (!temporary->isValid())
            fail(1, QStringLiteral("cannot create a temporary directory"));
        historyPath = QDir(temporary->path()).filePath(QStringLiteral("context.memhist"));
        HistoryWriter writer(historyPath);
        WriterSink sink(writer);
        QString error;
        ImportReport report;
        QElapsedTimer timer;
        timer.start();
        if (!writer.open() || !LackeyImporter().run(options.trace, sink, {}, &report, &error, {}) || !writer.finish())
            fail(1, error.isEmpty() ? writer.errorString() : error);
        std::printf("  imported %s: %lld instructions, %lld accesses in %.2f s\n", qUtf8Printable(options.trace),
            (long long)report.instructions, (long long)report.accesses, double(timer.nsecsElapsed()) / 1e9);
    }
    QString error;
    auto database = HistoryDatabase::open(historyPath, &error);
    if (!database)
        fail(1, error);
    std::printf("  history: %s, %.1f MB\n", qUtf8Printable(historyPath), double(QFileInfo(historyPath).size()) / 1e6);
    const auto [first, end] = codeTraceSpan(database->connection());
    if (end <= first)
        fail(1, historyPath + QStringLiteral(": no PCs (code_trace) or no accesses"));
    std::mt19937_64 random(options.seed);

    // 1. pcAt at random transitions, each timed on its own (a new row decoded almost every time).
    {
        ContextReader reader(*database);
        std::vector<qint64> durations;
        std::vector<qint64> cpuDurations;
        durations.reserve(std::size_t(options.samples));
        cpuDurations.reserve(std::size_t(options.samples));
        std::uint64_t known = 0;
        QElapsedTimer timer;
        for (int i = 0; i < options.samples; ++i) {
            const Transition transition { first + random() % (end - first) };
            const qint64 cpuStart = threadCpuNs();
            timer.start();
            const auto pc = reader.pcAt(transition);
            durations.push_back(timer.nsecsElapsed());
            cpuDurations.push_back(threadCpuNs() - cpuStart);
            known += pc.has_value();
        }
        const Percentiles figures = percentiles(durations);
        const Percentiles cpu = percentiles(cpuDurations);
        std::printf("  pcAt, %d random transitions in [%llu, %llu) (%llu known):\n", options.samples,
            (unsigned long long)first, (unsigned long long)end, (unsigned long long)known);
        std::printf("    wall: p50 %.1f us, p99 %.1f us, max %.1f us, mean %.1f us\n", figures.p50, figures.p99,
            figures.max, figures.mean);
        std::printf(
            "    CPU:  p50 %.1f us, p99 %.1f us, max %.1f us, mean %.1f us\n", cpu.p50, cpu.p99, cpu.max, cpu.mean);
        std::printf("target: pcAt <= 100 us: %s (p99 %.1f us wall, %.1f us CPU)\n",
            figures.p99 <= 100 ? "met" : "NOT met", figures.p99, cpu.p99);
    }

    // 2. Pages of 500 consecutive accesses with their context, a fresh reader per page.
    {
        sqlite::Statement lastRow = database->connection().prepare("SELECT max(rowid) FROM accesses");
        lastRow.step();
        const qint64 rows = lastRow.int64(0);
        sqlite::Statement page = database->connection().prepare(
            "SELECT rowid, transition, phy_first FROM accesses WHERE rowid >= ?1 ORDER BY rowid LIMIT 500");
        std::vector<qint64> durations;
        qint64 described = 0;
        QElapsedTimer timer;
        for (int p = 0; p < options.pages; ++p) {
            const qint64 start = 1 + qint64(random() % std::uint64_t(std::max<qint64>(1, rows - 500)));
            timer.start();
            ContextReader reader(*database);
            page.bind(1, start);
            while (page.step() == SQLITE_ROW) {
                const Transition transition { fromStored(page.int64(1)) };
                const auto pc = reader.pcAt(transition);
                const CodeDescription code = pc ? reader.describeCode(*pc, transition) : CodeDescription {};
                const AddressDescription region
                    = reader.describeAddress(Address { fromStored(page.int64(2)) }, transition);
                const auto value = reader.value(RowId { page.int64(0) });
                described += !code.functionText().isEmpty() + !region.text().isEmpty() + value.has_value();
            }
            page.reset();
            durations.push_back(timer.nsecsElapsed());
        }
        const Percentiles figures = percentiles(durations);
        std::printf("  page of 500 accesses with context, %d pages: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%lld fields "
                    "known)\n",
            options.pages, figures.p50 / 1e3, figures.p99 / 1e3, figures.max / 1e3, (long long)described);
        std::printf(
            "target: a page <= 20 ms: %s (p99 %.2f ms)\n", figures.p99 <= 20000 ? "met" : "NOT met", figures.p99 / 1e3);
    }
    return 0;
}
