// SPDX-License-Identifier: MIT
#include "querybenchmark.h"

#include "accessstreamgenerator.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"

#include <QElapsedTimer>
#include <algorithm>
#include <ctime>
#include <limits>
#include <utility>

namespace memhist::bench {

namespace {

constexpr const char *selectAccessAddress = "SELECT phy_first FROM accesses WHERE rowid = ?1";
constexpr qsizetype slowestKept = 8;
constexpr std::uint64_t lastAddress = std::numeric_limits<std::uint64_t>::max();

qint64 threadCpuNs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// A window of `bytes` bytes centred on `centre`, moved inside [0, 2^64-1] where it would cross an end.
std::pair<Address, Address> windowAround(std::uint64_t centre, std::uint64_t bytes)
{
    if (bytes == 0)
        return { Address { 0 }, Address { lastAddress } };
    const std::uint64_t half = bytes / 2;
    std::uint64_t first = centre >= half ? centre - half : 0;
    if (first > lastAddress - (bytes - 1))
        first = lastAddress - (bytes - 1);
    return { Address { first }, Address { first + (bytes - 1) } };
}

} // namespace

QList<QueryClass> standardQueryClasses()
{
    const std::pair<const char *, std::uint64_t> windows[] = {
        { "1 B", 1 },
        { "64 B", 64 },
        { "4 KiB", 4096 },
        { "1 MiB", 1 << 20 },
        { "whole space", 0 },
    };
    QList<QueryClass> classes;
    for (const auto &[name, bytes] : windows) {
        for (const Direction direction : { Direction::Forward, Direction::Backward })
            classes.append({ QString::fromLatin1(name), bytes, direction });
    }
    return classes;
}

QueryBenchmarkResult runQueryBenchmark(
    const QString &databasePath, const QList<QueryClass> &classes, const QueryBenchmarkOptions &options)
{
    QueryBenchmarkResult result;
    QElapsedTimer phaseTimer;
    phaseTimer.start();

    std::unique_ptr<HistoryDatabase> database = HistoryDatabase::open(databasePath, &result.error);
    if (!database)
        return result;
    const HistorySummary &summary = database->summary();
    if (summary.accesses <= 0 || !summary.firstTransition || !summary.lastTransition) {
        result.error = databasePath + QStringLiteral(": empty history, nothing to query");
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
    HalfAxisQueryEngine engine(*database);
    QueryTuning plainTuning;
    plainTuning.useAddressSummary = false;
    HalfAxisQueryEngine plainEngine(*database, plainTuning);

    for (const QueryClass &queryClass : classes) {
        QueryClassResult classResult;
        classResult.queryClass = queryClass;
        classResult.firstPageNs.reserve(options.queriesPerClass);
        result.classes.append(classResult);
        if (options.plainPath)
            result.plainClasses.append(classResult);
    }

    // Every class Q times, in a shuffled order (Fisher-Yates).
    SplitMix64 random(options.seed ^ 0x7175'6572'6965'7321ull); // "queries!"
    QList<qsizetype> schedule;
    schedule.reserve(classes.size() * options.queriesPerClass);
    for (qsizetype c = 0; c < classes.size(); ++c) {
        for (int i = 0; i < options.queriesPerClass; ++i)
            schedule.append(c);
    }
    for (qsizetype i = schedule.size() - 1; i > 0; --i)
        std::swap(schedule[i], schedule[qsizetype(random.below(std::uint64_t(i) + 1))]);

    QList<QuerySample> samples;
    samples.reserve(schedule.size());
    QueryPage page;
    QElapsedTimer timer;
    // One query on one engine: its first page, then the next page of a full first page, as a table
    // view fetching more would ask for it.
    const auto measure
        = [&](HalfAxisQueryEngine &on, QueryClassResult &classResult, HalfAxisQuery query, QuerySample *sample) {
              QString error;
              page = QueryPage();
              qint64 cpuStart = threadCpuNs();
              timer.start();
              const bool ok = on.run(query, &page, &error);
              const qint64 firstNs = timer.nsecsElapsed();
              const qint64 firstCpuNs = threadCpuNs() - cpuStart;
              classResult.firstPageCpuNs.append(firstCpuNs);
              if (!ok) {
                  result.error = error;
                  return false;
              }
              const QueryStats stats = on.lastStats();
              classResult.firstPageNs.append(firstNs);
              classResult.rowsReturned += page.accesses.size();
              classResult.slicesVisited += stats.slicesVisited;
              classResult.summaryUsed += stats.usedAddressSummary;
              if (sample) {
                  sample->nanoseconds = firstNs;
                  sample->rows = page.accesses.size();
                  sample->exhausted = page.exhausted;
                  sample->slicesVisited = stats.slicesVisited;
                  sample->chunksRead = stats.chunksRead;
                  sample->pageCacheMisses = stats.pageCacheMisses;
                  sample->cpuNanoseconds = firstCpuNs;
              }
              if (const std::optional<RowId> resume = page.resumePoint();
                  resume && quint64(page.accesses.size()) == options.limit) {
                  query.resumeAfter = resume;
                  page = QueryPage();
                  cpuStart = threadCpuNs();
                  timer.start();
                  const bool nextOk = on.run(query, &page, &error);
                  const qint64 nextNs = timer.nsecsElapsed();
                  classResult.nextPageCpuNs.append(threadCpuNs() - cpuStart);
                  if (!nextOk) {
                      result.error = error;
                      return false;
                  }
                  classResult.nextPageNs.append(nextNs);
                  if (sample) {
                      sample->nextNanoseconds = nextNs;
                      sample->nextRows = page.accesses.size();
                      sample->nextExhausted = page.exhausted;
                      sample->nextSlicesVisited = on.lastStats().slicesVisited;
                  }
              }
              return true;
          };
    for (const qsizetype c : schedule) {
        const QueryClass &queryClass = result.classes[c].queryClass;

        // The window is centred on the address of a uniformly random access of the history.
        const auto rowId = std::int64_t(1 + random.below(std::uint64_t(summary.accesses)));
        addressOf.bind(1, rowId);
        if (addressOf.step() != SQLITE_ROW) {
            result.error = databasePath + QStringLiteral(": no access with rowid %1").arg(rowId);
            return result;
        }
        const std::uint64_t centre = fromStored(addressOf.int64(0));
        addressOf.reset();

        HalfAxisQuery query;
        query.direction = queryClass.direction;
        query.at = Transition { firstTransition + random.below(transitionSpan) };
        std::tie(query.first, query.last) = windowAround(centre, queryClass.windowBytes);
        query.limit = options.limit;

        QuerySample sample;
        sample.sequence = samples.size();
        sample.classIndex = c;
        sample.at = *query.at;
        sample.first = query.first;
        sample.last = query.last;
        const bool plainFirst = options.plainPath && samples.size() % 2 == 1;
        if (plainFirst && !measure(plainEngine, result.plainClasses[c], query, nullptr))
            return result;
        if (!measure(engine, result.classes[c], query, &sample))
            return result;
        if (options.plainPath && !plainFirst && !measure(plainEngine, result.plainClasses[c], query, nullptr))
            return result;
        samples.append(sample);
    }
    result.totalNanoseconds = phaseTimer.nsecsElapsed();
    for (int tenth = 0; tenth < 10; ++tenth) {
        const qsizetype begin = samples.size() * tenth / 10;
        const qsizetype end = samples.size() * (tenth + 1) / 10;
        qint64 sum = 0;
        for (qsizetype i = begin; i < end; ++i)
            sum += samples[i].nanoseconds;
        result.meanMsByTenth.append(end > begin ? double(sum) / double(end - begin) / 1e6 : 0.0);
    }
    result.samples = samples;
    const qsizetype kept = std::min(slowestKept, samples.size());
    std::partial_sort(samples.begin(), samples.begin() + kept, samples.end(),
        [](const QuerySample &a, const QuerySample &b) { return a.nextNanoseconds > b.nextNanoseconds; });
    result.slowestNext = samples.first(kept);
    std::partial_sort(samples.begin(), samples.begin() + kept, samples.end(),
        [](const QuerySample &a, const QuerySample &b) { return a.nanoseconds > b.nanoseconds; });
    result.slowest = samples.first(kept);
    result.ok = true;
    return result;
}

} // namespace memhist::bench
