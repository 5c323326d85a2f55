// SPDX-License-Identifier: MIT
// The value search phase (core/search/valuesearch.h): the first page of a search for values that
// occur (the bytes of a uniformly random access, from a uniformly random transition on, over the
// whole address space), and one search for a value that occurs nowhere, which walks the whole
// history; wall-clock and the searching thread's CPU time.
#pragma once

#include <QList>
#include <QString>
#include <cstdint>

namespace memhist::bench {

struct SearchBenchmarkResult
{
    bool ok = false;
    QString error;
    bool hasIndex = false;
    qint64 historyAccesses = 0;
    QList<qint64> firstPageWallNs;
    QList<qint64> firstPageCpuNs;
    qint64 rowsReturned = 0; // over all first pages
    qint64 absentWallNs = 0; // the value that occurs nowhere, the whole history
    qint64 absentCpuNs = 0;
};

SearchBenchmarkResult runSearchBenchmark(const QString &databasePath, int searches, std::uint64_t seed);

// Each history's figures, smallest first.
void printSearchRuns(const QList<std::pair<QString, SearchBenchmarkResult>> &runs, int searches);

} // namespace memhist::bench
