// SPDX-License-Identifier: MIT
// The query phase on histories of several sizes, side by side: p50 and p99 of first and next pages
// per window and direction, with the address summary and on the plain path (every slice visited),
// the growth of p99 from the smallest history to the largest, and the slices each path visits.
#pragma once

#include "querybenchmark.h"

#include <QList>
#include <QString>

namespace memhist::bench {

struct SizedQueryRun
{
    QString path;
    qint64 accesses = 0;
    qint64 summaryBytes = -1; // the address summary's pages; -1 when the history has none
    QueryBenchmarkResult result;
};

// `runs` in the order given (smallest first, by convention); the growth is last / first.
void printQueryGrowth(const QList<SizedQueryRun> &runs, quint64 limit, int queriesPerClass);

} // namespace memhist::bench
