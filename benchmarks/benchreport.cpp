// SPDX-License-Identifier: MIT
#include "benchreport.h"

#include <QList>
#include <algorithm>
#include <cstdio>

namespace memhist::bench {

namespace {

// The targets of the brief, stated once.
constexpr double writerRateTarget = 1.5e6; // accesses/s
constexpr double writerRatioTarget = 0.65; // of the unindexed plain insert
constexpr double bytesPerAccessTarget = 50;
constexpr double peakRssTargetMiB = 256;
constexpr double windowedP99TargetMs = 5; // windows up to 1 MiB
constexpr double wholeSpaceP99TargetMs = 10;
constexpr double nextPageP99TargetMs = 2;

constexpr double mebibyte = 1024.0 * 1024.0;

double perSecond(qint64 count, qint64 nanoseconds)
{
    return nanoseconds > 0 ? double(count) * 1e9 / double(nanoseconds) : 0.0;
}

double percent(qint64 part, qint64 whole)
{
    return whole > 0 ? 100.0 * double(part) / double(whole) : 0.0;
}

const char *directionName(Direction direction)
{
    return direction == Direction::Forward ? "forward" : "backward";
}

QString className(const QueryClass &queryClass)
{
    return queryClass.window + u' ' + QString::fromLatin1(directionName(queryClass.direction));
}

// Which part of the synthetic process layout an address lies in.
const char *regionName(std::uint64_t address)
{
    if (address >= layout::arrayBase && address < layout::arrayBase + layout::arrayBytes)
        return "array";
    if (address >= layout::pointerBase && address < layout::pointerBase + layout::pointerBytes)
        return "pointer chase";
    if (address >= layout::stackTop - (1u << 20) && address < layout::stackTop)
        return "stack";
    return "other";
}

void printTarget(const char *name, const QString &figure, const char *target, bool met)
{
    std::printf("  %-28s %-36s %-22s %s\n", name, qUtf8Printable(figure), target, met ? "met" : "NOT met");
}

// The worst p99 over the classes `select` accepts, and which class it was.
template<typename Select, typename Samples>
std::pair<double, QString> worstP99(const QueryBenchmarkResult &queries, Select select, Samples samples)
{
    double worst = -1;
    QString which;
    for (const QueryClassResult &result : queries.classes) {
        if (!select(result.queryClass) || samples(result).isEmpty())
            continue;
        const double p99 = summarizeLatencies(samples(result)).p99Ms;
        if (p99 > worst) {
            worst = p99;
            which = className(result.queryClass);
        }
    }
    return { worst, which };
}

// The slowest first pages, or next pages, of `samples`: when and where each query looked, the
// rows it returned and the slices it visited (for a next page: its first page's, then its own).
void printSlowest(const QueryBenchmarkResult &queries, const QList<QuerySample> &samples, bool nextPages)
{
    std::printf(nextPages ? "Slowest next pages (slices: visited by the first page, then by the next)\n"
                          : "Slowest first pages\n");
    std::printf("  %9s %6s  %-22s %20s %-41s %-14s %5s %s\n", "ms", "#", "class", "T", "window", "region", "rows",
        nextPages ? "slices" : "slices, chunks read, SQLite cache misses, CPU ms");
    for (const QuerySample &sample : samples) {
        const qint64 nanoseconds = nextPages ? sample.nextNanoseconds : sample.nanoseconds;
        if (nanoseconds == 0)
            break; // no next page: the first was not full
        const QueryClass &queryClass = queries.classes[sample.classIndex].queryClass;
        const std::uint64_t centre = sample.first.value / 2 + sample.last.value / 2;
        const QString slices = nextPages
            ? QStringLiteral("%1, %2").arg(sample.slicesVisited).arg(sample.nextSlicesVisited)
            : QStringLiteral("%1, %2, %3, %4")
                  .arg(sample.slicesVisited)
                  .arg(sample.chunksRead)
                  .arg(sample.pageCacheMisses)
                  .arg(double(sample.cpuNanoseconds) / 1e6, 0, 'f', 3);
        std::printf("  %9.3f %6lld  %-22s %20llu 0x%016llx-0x%016llx %-14s %4lld %s%s\n", double(nanoseconds) / 1e6,
            static_cast<long long>(sample.sequence), qUtf8Printable(className(queryClass)),
            static_cast<unsigned long long>(sample.at.value), static_cast<unsigned long long>(sample.first.value),
            static_cast<unsigned long long>(sample.last.value), queryClass.windowBytes == 0 ? "-" : regionName(centre),
            static_cast<long long>(nextPages ? sample.nextRows : sample.rows), qUtf8Printable(slices),
            (nextPages ? sample.nextExhausted : sample.exhausted) ? " (exhausted)" : "");
    }
}

} // namespace

void printHeader(const MachineContext &machine, const BenchSettings &settings)
{
    std::printf("memhist-bench %s\n", MEMHIST_VERSION);
    std::printf("  date            %s\n", qUtf8Printable(machine.date));
    std::printf("  nproc           %d (load average %s)\n", machine.processors, qUtf8Printable(machine.loadAverage));
    std::printf("  cpu             %s\n", qUtf8Printable(machine.cpuModel));
    std::printf("  memory          %.1f GiB\n", double(machine.memoryBytes) / (1024.0 * mebibyte));
    std::printf("  kernel          %s\n", qUtf8Printable(machine.kernel));
    std::printf("  Qt %s, SQLite %s, build %s\n", qUtf8Printable(machine.qtVersion),
        qUtf8Printable(machine.sqliteVersion), MEMHIST_BENCH_BUILD_TYPE);
    std::printf("  accesses        %lld, seed %llu, %d queries per class\n", static_cast<long long>(settings.accesses),
        static_cast<unsigned long long>(settings.seed), settings.queriesPerClass);
    std::printf(
        "  directory       %s (%s)\n\n", qUtf8Printable(settings.directory), qUtf8Printable(settings.fileSystem));
}

void printStream(const StreamMix &mix, qint64 generateNs)
{
    std::printf("Synthetic stream\n");
    std::printf("  instructions    %lld (%.2f accesses per instruction, %.1f %% without a data access)\n",
        static_cast<long long>(mix.instructions), double(mix.accesses) / double(std::max<qint64>(1, mix.instructions)),
        percent(mix.silentInstructions, mix.instructions));
    std::printf("  accesses        %lld, %.1f %% writes\n", static_cast<long long>(mix.accesses),
        percent(mix.writes, mix.accesses));
    std::printf("  regions         stack %.1f %% (call depth up to %d), loop counter %.1f %%, array sweeps %.1f %%, "
                "pointer chasing %.1f %%\n",
        percent(mix.stack, mix.accesses), mix.maxCallDepth, percent(mix.counter, mix.accesses),
        percent(mix.array, mix.accesses), percent(mix.pointer, mix.accesses));
    if (mix.valueBytes > 0) {
        std::printf("  values          %.2f bytes per access, %.2f before bytes per write; writes store zeros %.1f %%, "
                    "small integers %.1f %%, pointers %.1f %%, text %.1f %%\n",
            double(mix.valueBytes) / double(std::max<qint64>(1, mix.accesses)),
            double(mix.beforeBytes) / double(std::max<qint64>(1, mix.writes)), percent(mix.zeroWrites, mix.writes),
            percent(mix.smallIntegerWrites, mix.writes), percent(mix.pointerWrites, mix.writes),
            percent(mix.textWrites, mix.writes));
    } else {
        std::printf("  values          none (--no-values)\n");
    }
    std::printf("  generator alone %.2f M accesses/s (included in every rate below)\n\n",
        perSecond(mix.accesses, generateNs) / 1e6);
}

void printWriter(const WriterRunResult &writer)
{
    const WriterStats &stats = writer.stats;
    const WriterOptions defaults;
    const bool isDefault = writer.options.sliceAccessCap == defaults.sliceAccessCap
        && writer.options.chunkAccessCap == defaults.chunkAccessCap
        && writer.options.chunkTargetAccesses == defaults.chunkTargetAccesses;
    std::printf("Writer (HistoryWriter, %s options: slice cap %u, chunk cap %u, chunk target %u)\n",
        isDefault ? "default" : "custom", writer.options.sliceAccessCap, writer.options.chunkAccessCap,
        writer.options.chunkTargetAccesses);
    std::printf("  time            %.3f s, open() to the end of finish() (CPU %.3f s, all threads)\n",
        double(writer.nanoseconds) / 1e9, double(writer.cpuNanoseconds) / 1e9);
    std::printf("  of which finish %.3f s (the indexes built, the display summary binned, the summaries written)\n",
        double(writer.finishNanoseconds) / 1e9);
    std::printf("  throughput      %.3f M accesses/s\n", perSecond(stats.accesses, writer.nanoseconds) / 1e6);
    std::printf("  file            %lld bytes, %.2f bytes per access\n", static_cast<long long>(writer.fileBytes),
        double(writer.fileBytes) / double(std::max<qint64>(1, stats.accesses)));
    std::printf(
        "  address summary %lld bytes, %.3f bytes per access (in the file above); %.3f s CPU to build it, %.1f %% "
        "of the writer's\n",
        static_cast<long long>(writer.summaryBytes),
        double(writer.summaryBytes) / double(std::max<qint64>(1, stats.accesses)),
        double(stats.addressSummaryCpuNanoseconds) / 1e9,
        100.0 * double(stats.addressSummaryCpuNanoseconds) / double(std::max<qint64>(1, writer.cpuNanoseconds)));
    if (writer.valueBytes >= 0) {
        std::printf("  values          %lld bytes, %.2f bytes per access (in the file above; %.2f bytes of value and "
                    "before bytes per access given)\n",
            static_cast<long long>(writer.valueBytes),
            double(writer.valueBytes) / double(std::max<qint64>(1, stats.accesses)),
            double(writer.mix.valueBytes + writer.mix.beforeBytes) / double(std::max<qint64>(1, stats.accesses)));
    }
    std::printf("  slices          %lld (%.0f accesses each)\n", static_cast<long long>(stats.slices),
        double(stats.accesses) / double(std::max<qint64>(1, stats.slices)));
    std::printf("  chunks          %lld (%.1f accesses each)\n", static_cast<long long>(stats.chunks),
        double(stats.accesses) / double(std::max<qint64>(1, stats.chunks)));
    if (writer.peakRssBytes >= 0)
        std::printf("  peak RSS        %.1f MiB (VmHWM over the phase; %.1f MiB resident when it started)\n\n",
            double(writer.peakRssBytes) / mebibyte, double(writer.rssBeforeBytes) / mebibyte);
    else
        std::printf("  peak RSS        unavailable (no /proc/self/clear_refs or VmHWM)\n\n");
}

void printPlainInsert(const QString &label, const PlainInsertResult &plain, const WriterRunResult &writer)
{
    const double rate = perSecond(plain.rows, plain.nanoseconds);
    const double writerRate = perSecond(writer.stats.accesses, writer.nanoseconds);
    std::printf("%s\n", qUtf8Printable(label));
    std::printf("  time            %.3f s, %.3f M accesses/s, %.2f bytes per access (CPU %.3f s)\n",
        double(plain.nanoseconds) / 1e9, rate / 1e6, double(plain.fileBytes) / double(std::max<qint64>(1, plain.rows)),
        double(plain.cpuNanoseconds) / 1e9);
    // Wall time is what the target is about; CPU time is printed too because it does not depend
    // on what else runs on the machine (the writer uses two threads, this one).
    std::printf("  writer / this   %.3fx (CPU time: this / writer %.3fx)\n\n", rate > 0 ? writerRate / rate : 0.0,
        writer.cpuNanoseconds > 0 ? double(plain.cpuNanoseconds) / double(writer.cpuNanoseconds) : 0.0);
}

void printQueries(const QueryBenchmarkResult &queries, quint64 limit)
{
    std::printf("Half-axis queries (N = %llu, ops rw, windows centred on a random access, T uniform; %.1f s in all)\n",
        static_cast<unsigned long long>(limit), double(queries.totalNanoseconds) / 1e9);
    std::printf("  %-12s %-9s %7s %9s %9s %9s %9s %10s\n", "window", "direction", "queries", "p50 ms", "p99 ms",
        "max ms", "mean ms", "rows/page");
    for (const QueryClassResult &result : queries.classes) {
        const LatencySummary first = summarizeLatencies(result.firstPageNs);
        std::printf("  %-12s %-9s %7lld %9.3f %9.3f %9.3f %9.3f %10.1f\n", qUtf8Printable(result.queryClass.window),
            directionName(result.queryClass.direction), static_cast<long long>(first.count), first.p50Ms, first.p99Ms,
            first.maxMs, first.meanMs,
            double(result.rowsReturned) / double(std::max<qsizetype>(1, result.firstPageNs.size())));
    }
    std::printf("\nFirst-page mean ms by tenth of the run (all classes, in run order):");
    for (const double mean : queries.meanMsByTenth)
        std::printf(" %.2f", mean);
    std::printf("\n\n");
    printSlowest(queries, queries.slowest, false);
    std::printf("\nNext page (resumeAfter = resumePoint() of every full first page)\n");
    std::printf("  %-12s %-9s %7s %9s %9s %9s\n", "window", "direction", "pages", "p50 ms", "p99 ms", "max ms");
    for (const QueryClassResult &result : queries.classes) {
        const LatencySummary next = summarizeLatencies(result.nextPageNs);
        if (next.count == 0) {
            std::printf("  %-12s %-9s %7d %9s %9s %9s\n", qUtf8Printable(result.queryClass.window),
                directionName(result.queryClass.direction), 0, "-", "-", "-");
            continue;
        }
        std::printf("  %-12s %-9s %7lld %9.3f %9.3f %9.3f\n", qUtf8Printable(result.queryClass.window),
            directionName(result.queryClass.direction), static_cast<long long>(next.count), next.p50Ms, next.p99Ms,
            next.maxMs);
    }
    std::printf("\n");
    printSlowest(queries, queries.slowestNext, true);
    std::printf("\n");
}

void printSummary(const BenchFigures &figures, const MachineContext &machine)
{
    const WriterRunResult &writer = figures.writer;
    const double writerRate = perSecond(writer.stats.accesses, writer.nanoseconds);
    const double ceilingRate = figures.ceiling ? perSecond(figures.ceiling->rows, figures.ceiling->nanoseconds) : 0.0;
    const double ratio = ceilingRate > 0 ? writerRate / ceilingRate : 0.0;
    const double bytesPerAccess = double(writer.fileBytes) / double(std::max<qint64>(1, writer.stats.accesses));
    const double peakMiB = double(writer.peakRssBytes) / mebibyte;

    std::printf("Summary (%lld accesses; nproc %d, load average %s, %s)\n",
        static_cast<long long>(writer.stats.accesses), machine.processors, qUtf8Printable(machine.loadAverage),
        qUtf8Printable(machine.date));
    printTarget("writer throughput", QStringLiteral("%1 M accesses/s").arg(writerRate / 1e6, 0, 'f', 3),
        ">= 1.5 M accesses/s", writerRate >= writerRateTarget);
    if (figures.ceiling)
        printTarget("writer / plain insert",
            QStringLiteral("%1x (ceiling %2 M/s)").arg(ratio, 0, 'f', 3).arg(ceilingRate / 1e6, 0, 'f', 3), ">= 0.65x",
            ratio >= writerRatioTarget);
    else
        printTarget("writer / plain insert", QStringLiteral("not measured (--no-references)"), ">= 0.65x", false);
    printTarget("file size", QStringLiteral("%1 bytes/access").arg(bytesPerAccess, 0, 'f', 2), "<= 50 bytes/access",
        bytesPerAccess <= bytesPerAccessTarget);
    if (writer.peakRssBytes >= 0)
        printTarget("writer peak RSS", QStringLiteral("%1 MiB").arg(peakMiB, 0, 'f', 1), "<= 256 MiB",
            peakMiB <= peakRssTargetMiB);
    else
        printTarget("writer peak RSS", QStringLiteral("unavailable"), "<= 256 MiB", false);

    if (!figures.queries) {
        std::printf("  queries not run (--queries 0)\n");
        return;
    }
    const auto firstPages = [](const QueryClassResult &r) { return r.firstPageNs; };
    const auto nextPages = [](const QueryClassResult &r) { return r.nextPageNs; };
    const auto windowed = [](const QueryClass &c) { return c.windowBytes != 0; };
    const auto wholeSpace = [](const QueryClass &c) { return c.windowBytes == 0; };
    const auto any = [](const QueryClass &) { return true; };

    const auto printLatencyTarget
        = [](const char *name, const std::pair<double, QString> &worst, const char *target, double limitMs) {
              if (worst.first < 0) {
                  printTarget(name, QStringLiteral("no samples"), target, false);
                  return;
              }
              printTarget(name, QStringLiteral("%1 ms (%2)").arg(worst.first, 0, 'f', 3).arg(worst.second), target,
                  worst.first <= limitMs);
          };
    printLatencyTarget("query p99, windows <= 1 MiB", worstP99(*figures.queries, windowed, firstPages), "<= 5 ms",
        windowedP99TargetMs);
    printLatencyTarget("query p99, whole space", worstP99(*figures.queries, wholeSpace, firstPages), "<= 10 ms",
        wholeSpaceP99TargetMs);
    printLatencyTarget("next page p99", worstP99(*figures.queries, any, nextPages), "<= 2 ms", nextPageP99TargetMs);
}

} // namespace memhist::bench
