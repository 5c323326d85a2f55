// The query phase: random half-axis queries on a written database, per window size and direction,
// each first page timed, then the next page of every full first page.
#pragma once

#include "latency.h"
#include "model/types.h"

#include <QList>
#include <QString>
#include <cstdint>

namespace memhist::bench {

struct QueryClass
{
    QString window; // "1 B", "4 KiB", "whole space"
    std::uint64_t windowBytes = 0; // 0 for the whole address space
    Direction direction = Direction::Forward;
};

struct QueryClassResult
{
    QueryClass queryClass;
    QList<qint64> firstPageNs;
    QList<qint64> nextPageNs; // one per full first page
    qint64 rowsReturned = 0; // over all first pages
};

// One timed first page, kept for the slowest ones: where the time goes.
struct QuerySample
{
    qint64 nanoseconds = 0;
    qsizetype sequence = 0; // position in the run: early ones meet cold caches
    qsizetype classIndex = 0;
    Transition at;
    Address first;
    Address last;
    qsizetype rows = 0;
    bool exhausted = false;
};

struct QueryBenchmarkOptions
{
    std::uint64_t seed = 1;
    int queriesPerClass = 1000;
    quint64 limit = 100;
};

struct QueryBenchmarkResult
{
    bool ok = false;
    QString error;
    QList<QueryClassResult> classes;
    QList<QuerySample> slowest; // the slowest first pages, slowest first
    // Mean first-page time of each tenth of the run, all classes together: shows the warm-up.
    QList<double> meanMsByTenth;
    qint64 totalNanoseconds = 0; // the whole phase, lookups of random addresses included
};

// The five windows (1 B, 64 B, 4 KiB, 1 MiB, whole space), each forward then backward.
QList<QueryClass> standardQueryClasses();

// Runs the classes' queries in one deterministic shuffled order, so that warm-up and cache effects
// are shared evenly rather than charged to whichever class runs first.
QueryBenchmarkResult runQueryBenchmark(
    const QString &databasePath, const QList<QueryClass> &classes, const QueryBenchmarkOptions &options);

} // namespace memhist::bench
