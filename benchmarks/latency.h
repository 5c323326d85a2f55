// SPDX-License-Identifier: MIT
// Percentiles of a set of measured durations.
#pragma once

#include <QList>

namespace memhist::bench {

struct LatencySummary
{
    qsizetype count = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    double maxMs = 0;
    double meanMs = 0;
};

// Nearest-rank percentiles (p99 of 1000 samples is the 990th smallest); all zero when empty.
LatencySummary summarizeLatencies(QList<qint64> nanoseconds);

} // namespace memhist::bench
