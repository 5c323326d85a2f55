// SPDX-License-Identifier: MIT
// The value search phase (core/search/valuesearch.h): the first page of a search for values that
// occur (the bytes of a uniformly random access, from a uniformly random transition on, over the
// whole address space), and one search for a value that occurs nowhere, which walks the whole
// history; wall-clock and the searching thread's CPU time.
#pragma once

#include "core/search/valuesearch.h"

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QString>
#include <cstdint>

namespace memhist::bench {

// One first page: the value, what came back, what the search read, and its times.
struct SearchSample
{
    QByteArray value;
    std::uint64_t at = 0;
    qsizetype rows = 0;
    ValueSearchStats stats;
    qint64 wallNs = 0;
    qint64 cpuNs = 0;
};

struct SearchBenchmarkResult
{
    bool ok = false;
    QString error;
    bool hasIndex = false;
    qint64 historyAccesses = 0;
    QList<qint64> firstPageWallNs;
    QList<qint64> firstPageCpuNs;
    qint64 rowsReturned = 0; // over all first pages
    QList<SearchSample> samples;
    qint64 absentWallNs = 0; // the value that occurs nowhere, the whole history
    qint64 absentCpuNs = 0;
};

SearchBenchmarkResult runSearchBenchmark(const QString &databasePath, int searches, std::uint64_t seed);

// Every first page of `result` as a tab-separated line: history, value (hex), T, rows, window and
// value steps, second-level index rows read, groups it skipped, filters read, blocks read, blocks
// decoded (their bytes hold the value), blocks with a match, wall and CPU ms.
bool writeSearchSamples(QIODevice &file, const QString &history, const SearchBenchmarkResult &result);

// Each history's figures, smallest first.
void printSearchRuns(const QList<std::pair<QString, SearchBenchmarkResult>> &runs, int searches);

} // namespace memhist::bench
