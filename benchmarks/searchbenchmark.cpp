// SPDX-License-Identifier: MIT
#include "searchbenchmark.h"

#include "accessstreamgenerator.h"
#include "core/search/valuesearch.h"
#include "core/storage/historydatabase.h"
#include "core/values/accessvaluereader.h"
#include "latency.h"

#include <QElapsedTimer>
#include <cstdio>
#include <ctime>

namespace memhist::bench {

namespace {

// Bytes the benchmark stream never stores (its pointers, small integers and text are other bytes).
constexpr char absentValue[] = "\xde\xad\xbe\xef\xfe\xed\xfa\xce";

qint64 threadCpuNs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

} // namespace

SearchBenchmarkResult runSearchBenchmark(const QString &databasePath, int searches, std::uint64_t seed)
{
    SearchBenchmarkResult result;
    std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(databasePath, &result.error);
    if (!database)
        return result;
    const HistorySummary &summary = database->summary();
    if (summary.accesses <= 0 || !summary.firstTransition || !summary.lastTransition) {
        result.error = databasePath + QStringLiteral(": empty history, nothing to search");
        return result;
    }
    result.historyAccesses = summary.accesses;
    const std::uint64_t firstTransition = summary.firstTransition->value;
    const std::uint64_t transitionSpan = summary.lastTransition->value - firstTransition + 1;
    ValueSearchEngine engine(*database);
    if (!engine.hasValues()) {
        result.error = databasePath + QStringLiteral(": the history keeps no values");
        return result;
    }
    result.hasIndex = engine.hasIndex();
    AccessValueReader values(database->connection());
    SplitMix64 random(seed ^ 0x7365'6172'6368'2121ull); // "search!!"
    QElapsedTimer timer;
    for (int i = 0; i < searches; ++i) {
        // A value that occurs: the bytes of a random access.
        const RowId rowId { std::int64_t(1 + random.below(std::uint64_t(summary.accesses))) };
        const std::optional<AccessValue> value = values.value(rowId);
        if (!value || value->bytes.isEmpty())
            continue;
        ValueSearch search;
        search.value = value->bytes;
        search.query.at = Transition { firstTransition + random.below(transitionSpan) };
        QueryPage page;
        QString error;
        const qint64 cpuStart = threadCpuNs();
        timer.start();
        const bool ok = engine.run(search, &page, &error);
        result.firstPageWallNs.append(timer.nsecsElapsed());
        result.firstPageCpuNs.append(threadCpuNs() - cpuStart);
        result.samples.append({ search.value, search.query.at->value, page.accesses.size(), engine.lastStats(),
            result.firstPageWallNs.last(), result.firstPageCpuNs.last() });
        if (!ok) {
            result.error = databasePath + QStringLiteral(": ") + error;
            return result;
        }
        result.rowsReturned += page.accesses.size();
    }
    ValueSearch absent;
    absent.value = QByteArray(absentValue, sizeof absentValue - 1);
    QueryPage page;
    QString error;
    const qint64 cpuStart = threadCpuNs();
    timer.start();
    const bool ok = engine.run(absent, &page, &error);
    result.absentWallNs = timer.nsecsElapsed();
    result.absentCpuNs = threadCpuNs() - cpuStart;
    if (!ok) {
        result.error = databasePath + QStringLiteral(": ") + error;
        return result;
    }
    if (!page.accesses.isEmpty()) {
        result.error = databasePath + QStringLiteral(": the absent value was found");
        return result;
    }
    result.ok = true;
    return result;
}

bool writeSearchSamples(QIODevice &file, const QString &history, const SearchBenchmarkResult &result)
{
    QByteArray text;
    for (const SearchSample &sample : result.samples) {
        text += QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6\t%7\t%8\t%9\t%10\t%11\t%12\t%13\t%14\n")
                    .arg(history, QString::fromLatin1(sample.value.toHex(' ')))
                    .arg(sample.at)
                    .arg(sample.rows)
                    .arg(sample.stats.windowSteps)
                    .arg(sample.stats.valueSteps)
                    .arg(sample.stats.groupRowsRead)
                    .arg(sample.stats.groupsSkipped)
                    .arg(sample.stats.filtersRead)
                    .arg(sample.stats.blocksRead)
                    .arg(sample.stats.blocksDecoded)
                    .arg(sample.stats.blocksMatched)
                    .arg(double(sample.wallNs) / 1e6, 0, 'f', 3)
                    .arg(double(sample.cpuNs) / 1e6, 0, 'f', 3)
                    .toUtf8();
    }
    return file.write(text) == text.size();
}

void printSearchRuns(const QList<std::pair<QString, SearchBenchmarkResult>> &runs, int searches)
{
    std::printf("Value search (ValueSearchEngine::run, N = 100, whole address space, forward from a uniform T)\n");
    std::printf("  %-12s %-6s %28s %28s %9s %26s\n", "accesses", "index", "first page wall p50/p99/max",
        "CPU p50/p99/max ms", "rows/page", "absent value: wall (CPU) s");
    for (const auto &[path, result] : runs) {
        const LatencySummary wall = summarizeLatencies(result.firstPageWallNs);
        const LatencySummary cpu = summarizeLatencies(result.firstPageCpuNs);
        std::printf("  %-12lld %-6s %8.3f / %7.3f / %7.3f %8.3f / %7.3f / %7.3f %9.1f %15.3f (%7.3f)   %s\n",
            static_cast<long long>(result.historyAccesses), result.hasIndex ? "yes" : "no", wall.p50Ms, wall.p99Ms,
            wall.maxMs, cpu.p50Ms, cpu.p99Ms, cpu.maxMs,
            double(result.rowsReturned) / double(std::max<qsizetype>(1, result.firstPageWallNs.size())),
            double(result.absentWallNs) / 1e9, double(result.absentCpuNs) / 1e9, qUtf8Printable(path));
    }
    std::printf("  (%d searches per history, each for the bytes of a random access)\n", searches);
}

} // namespace memhist::bench
