// SPDX-License-Identifier: MIT
#include "memorybenchmark.h"

#include "accessstreamgenerator.h"
#include "core/memory/memoryreader.h"
#include "core/storage/historydatabase.h"
#include "latency.h"

#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>

namespace memhist::bench {

namespace {

constexpr const char *selectAccessAddress = "SELECT phy_first FROM accesses WHERE rowid = ?1";
constexpr qsizetype slowestKept = 5;

qint64 threadCpuNs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// The p99 each size must meet, wall-clock (issue 27); 0: none.
double targetMs(std::uint64_t rangeBytes)
{
    return rangeBytes == 256 ? 10.0 : rangeBytes == 4096 ? 50.0 : 0.0;
}

QString sizeText(std::uint64_t bytes)
{
    return bytes % 1024 == 0 ? QStringLiteral("%1 KiB").arg(bytes / 1024) : QStringLiteral("%1 B").arg(bytes);
}

} // namespace

MemoryBenchmarkResult runMemoryBenchmark(
    const QString &databasePath, const QList<std::uint64_t> &rangeBytes, int readsPerClass, std::uint64_t seed)
{
    MemoryBenchmarkResult result;
    std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(databasePath, &result.error);
    if (!database)
        return result;
    const HistorySummary &summary = database->summary();
    if (summary.accesses <= 0 || !summary.firstTransition || !summary.lastTransition) {
        result.error = databasePath + QStringLiteral(": empty history, nothing to read");
        return result;
    }
    result.historyAccesses = summary.accesses;
    const std::uint64_t firstTransition = summary.firstTransition->value;
    const std::uint64_t transitionSpan = summary.lastTransition->value - firstTransition + 1;
    sqlite::Statement addressOf = database->connection().prepare(selectAccessAddress);
    if (!addressOf.isValid()) {
        result.error = databasePath + QStringLiteral(": ") + database->connection().lastError();
        return result;
    }
    MemoryReader reader(*database);
    result.hasValues = reader.hasValues();

    for (const std::uint64_t bytes : rangeBytes) {
        MemoryClassResult classResult;
        classResult.rangeBytes = bytes;
        result.classes.append(classResult);
    }
    SplitMix64 random(seed ^ 0x6d65'6d6f'7279'2121ull); // "memory!!"
    QList<qsizetype> schedule;
    for (qsizetype c = 0; c < rangeBytes.size(); ++c) {
        for (int i = 0; i < readsPerClass; ++i)
            schedule.append(c);
    }
    for (qsizetype i = schedule.size() - 1; i > 0; --i)
        std::swap(schedule[i], schedule[qsizetype(random.below(std::uint64_t(i) + 1))]);

    QElapsedTimer timer;
    QList<MemoryByte> bytes;
    for (const qsizetype c : schedule) {
        MemoryClassResult &classResult = result.classes[c];
        const auto rowId = std::int64_t(1 + random.below(std::uint64_t(summary.accesses)));
        addressOf.bind(1, rowId);
        if (addressOf.step() != SQLITE_ROW) {
            result.error = databasePath + QStringLiteral(": no access with rowid %1").arg(rowId);
            return result;
        }
        const std::uint64_t centre = fromStored(addressOf.int64(0));
        addressOf.reset();
        const std::uint64_t half = classResult.rangeBytes / 2;
        const std::uint64_t first = centre >= half ? centre - half : 0;
        const Transition at { firstTransition + random.below(transitionSpan) };

        QString error;
        const qint64 cpuStart = threadCpuNs();
        timer.start();
        const bool ok
            = reader.read(at, Address { first }, Address { first + classResult.rangeBytes - 1 }, &bytes, &error);
        const MemorySample sample { timer.nsecsElapsed(), threadCpuNs() - cpuStart, at.value, first, 0 };
        classResult.wallNs.append(sample.wallNs);
        classResult.cpuNs.append(sample.cpuNs);
        classResult.slowest.append(sample);
        if (!ok) {
            result.error = databasePath + QStringLiteral(": ") + error;
            return result;
        }
        for (const MemoryByte &byte : std::as_const(bytes)) {
            switch (byte.knownBy) {
            case KnownBy::Write:
                ++classResult.bytesByWrite;
                break;
            case KnownBy::Read:
                ++classResult.bytesByRead;
                break;
            case KnownBy::LaterRead:
                ++classResult.bytesByLaterRead;
                break;
            case KnownBy::Unknown:
                ++classResult.bytesUnknown;
                ++classResult.slowest.last().unknown;
                break;
            }
        }
    }
    for (MemoryClassResult &classResult : result.classes) {
        QList<MemorySample> &samples = classResult.slowest;
        const qsizetype kept = std::min<qsizetype>(slowestKept, samples.size());
        std::partial_sort(samples.begin(), samples.begin() + kept, samples.end(),
            [](const MemorySample &a, const MemorySample &b) { return a.wallNs > b.wallNs; });
        samples.resize(kept);
    }
    result.ok = true;
    return result;
}

void printMemoryRuns(const QList<SizedMemoryRun> &runs, int readsPerClass)
{
    for (const SizedMemoryRun &run : runs) {
        std::printf("Memory at T (MemoryReader::read), %s: %lld accesses, %s; %d reads per size, ranges centred on "
                    "a random access, T uniform\n",
            qUtf8Printable(run.path), static_cast<long long>(run.result.historyAccesses),
            run.result.hasValues ? "with values" : "WITHOUT values (every byte unknown)", readsPerClass);
        std::printf("  %-8s %26s %26s   %s\n", "range", "wall p50 / p99 / max ms", "CPU p50 / p99 / max ms",
            "bytes known by write / read / later read / unknown");
        for (const MemoryClassResult &c : run.result.classes) {
            const LatencySummary wall = summarizeLatencies(c.wallNs);
            const LatencySummary cpu = summarizeLatencies(c.cpuNs);
            const double total
                = double(std::max<qint64>(1, c.bytesByWrite + c.bytesByRead + c.bytesByLaterRead + c.bytesUnknown));
            std::printf("  %-8s %8.3f / %7.3f / %7.3f %8.3f / %7.3f / %7.3f   %.1f %% / %.1f %% / %.1f %% / %.1f %%\n",
                qUtf8Printable(sizeText(c.rangeBytes)), wall.p50Ms, wall.p99Ms, wall.maxMs, cpu.p50Ms, cpu.p99Ms,
                cpu.maxMs, 100.0 * double(c.bytesByWrite) / total, 100.0 * double(c.bytesByRead) / total,
                100.0 * double(c.bytesByLaterRead) / total, 100.0 * double(c.bytesUnknown) / total);
        }
        for (const MemoryClassResult &c : run.result.classes) {
            std::printf("  slowest %s reads: wall ms (CPU ms) T first-address unknown-bytes\n",
                qUtf8Printable(sizeText(c.rangeBytes)));
            for (const MemorySample &sample : c.slowest) {
                std::printf("    %9.3f (%9.3f) %20llu 0x%016llx %5lld\n", double(sample.wallNs) / 1e6,
                    double(sample.cpuNs) / 1e6, static_cast<unsigned long long>(sample.at),
                    static_cast<unsigned long long>(sample.first), static_cast<long long>(sample.unknown));
            }
        }
        std::printf("\n");
    }
    if (runs.isEmpty())
        return;
    std::printf("Memory at T side by side: p99 ms, wall (CPU)\n");
    std::printf("  %-8s", "range");
    for (const SizedMemoryRun &run : runs)
        std::printf(" %24lld", static_cast<long long>(run.result.historyAccesses));
    std::printf("   target (wall)\n");
    for (qsizetype c = 0; c < runs.constFirst().result.classes.size(); ++c) {
        const std::uint64_t rangeBytes = runs.constFirst().result.classes[c].rangeBytes;
        std::printf("  %-8s", qUtf8Printable(sizeText(rangeBytes)));
        bool met = true;
        for (const SizedMemoryRun &run : runs) {
            const MemoryClassResult &result = run.result.classes[c];
            const LatencySummary wall = summarizeLatencies(result.wallNs);
            const LatencySummary cpu = summarizeLatencies(result.cpuNs);
            std::printf(" %11.3f (%9.3f)", wall.p99Ms, cpu.p99Ms);
            met = met && (targetMs(rangeBytes) == 0 || wall.p99Ms <= targetMs(rangeBytes));
        }
        if (targetMs(rangeBytes) > 0)
            std::printf("   <= %.0f ms %s\n", targetMs(rangeBytes), met ? "met" : "NOT met");
        else
            std::printf("\n");
    }
}

} // namespace memhist::bench
