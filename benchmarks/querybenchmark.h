// SPDX-License-Identifier: MIT
// The query phase: random half-axis queries on a written database, per window size and direction,
// each first page timed, then the next page of every full first page.
#pragma once

#include "core/model/types.h"
#include "latency.h"

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
    // The same pages in CPU time of the querying thread: without the waits for the processor (on a
    // shared machine, another process's turn) and for the disk (pages not yet in memory).
    QList<qint64> firstPageCpuNs;
    QList<qint64> nextPageCpuNs;
    qint64 rowsReturned = 0; // over all first pages
    qint64 slicesVisited = 0; // over all first pages (QueryStats::slicesVisited)
    qint64 summaryUsed = 0; // first pages answered through the address summary
};

// One timed first page and its next page, kept for the slowest ones: where the time goes.
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
    qint64 slicesVisited = 0;
    qint64 chunksRead = 0; // QueryStats::chunksRead
    qint64 pageCacheMisses = 0;
    qint64 cpuNanoseconds = 0;
    qint64 nextNanoseconds = 0; // 0 without a next page (the first was not full)
    qsizetype nextRows = 0;
    bool nextExhausted = false;
    qint64 nextSlicesVisited = 0;
};

struct QueryBenchmarkOptions
{
    std::uint64_t seed = 1;
    int queriesPerClass = 1000;
    quint64 limit = 100;
    // Also answer every query (first and next page) on the plain path, which visits every slice as
    // if the history had no address summary. The two engines take turns going first, so that
    // neither always meets the pages the other just read.
    bool plainPath = false;
};

struct QueryBenchmarkResult
{
    bool ok = false;
    QString error;
    QList<QueryClassResult> classes;
    QList<QueryClassResult> plainClasses; // with QueryBenchmarkOptions::plainPath
    QList<QuerySample> slowest; // the slowest first pages, slowest first
    QList<QuerySample> slowestNext; // the slowest next pages, slowest first
    QList<QuerySample> samples; // every query, in run order
    // Mean first-page time of each tenth of the run, all classes together: shows the warm-up.
    QList<double> meanMsByTenth;
    qint64 totalNanoseconds = 0; // the whole phase, lookups of random addresses included
    qint64 historyAccesses = 0;
};

// The five windows (1 B, 64 B, 4 KiB, 1 MiB, whole space), each forward then backward.
QList<QueryClass> standardQueryClasses();

// Runs the classes' queries in one deterministic shuffled order, so that warm-up and cache effects
// are shared evenly rather than charged to whichever class runs first.
QueryBenchmarkResult runQueryBenchmark(
    const QString &databasePath, const QList<QueryClass> &classes, const QueryBenchmarkOptions &options);

} // namespace memhist::bench
