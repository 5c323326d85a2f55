// SPDX-License-Identifier: MIT
#include "latency.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace memhist::bench {

namespace {

constexpr double nanosecondsPerMs = 1e6;

double nearestRank(const QList<qint64> &sorted, double percentile)
{
    const auto rank = qsizetype(std::ceil(percentile / 100.0 * double(sorted.size())));
    return double(sorted[std::clamp<qsizetype>(rank, 1, sorted.size()) - 1]) / nanosecondsPerMs;
}

} // namespace

LatencySummary summarizeLatencies(QList<qint64> nanoseconds)
{
    LatencySummary summary;
    if (nanoseconds.isEmpty())
        return summary;
    std::sort(nanoseconds.begin(), nanoseconds.end());
    summary.count = nanoseconds.size();
    summary.p50Ms = nearestRank(nanoseconds, 50);
    summary.p99Ms = nearestRank(nanoseconds, 99);
    summary.maxMs = double(nanoseconds.constLast()) / nanosecondsPerMs;
    summary.meanMs = double(std::accumulate(nanoseconds.cbegin(), nanoseconds.cend(), qint64(0)))
        / double(nanoseconds.size()) / nanosecondsPerMs;
    return summary;
}

} // namespace memhist::bench
