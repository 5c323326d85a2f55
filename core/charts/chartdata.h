// SPDX-License-Identifier: MIT
// What the charts panel draws, and how it is computed from a history without scanning it: the
// bucketing of a transition range, the address regions, and the estimate from the rowid time index.
#pragma once

#include "core/model/viewrange.h"

#include <QHash>
#include <QList>
#include <QString>
#include <functional>

namespace memhist {

class HistoryDatabase;

// [first, last] split into `count` buckets of `width` transitions each; the last bucket may be
// shorter (it ends at `last`).
struct TransitionBuckets
{
    Transition first { 0 };
    Transition last { 0 };
    std::uint64_t width = 1;
    int count = 1;

    Transition bucketFirst(int bucket) const { return Transition { first.value + std::uint64_t(bucket) * width }; }
    Transition bucketLast(int bucket) const
    {
        return bucket == count - 1 ? last : Transition { bucketFirst(bucket).value + width - 1 };
    }
    // The bucket holding `transition`, which must lie in [first, last].
    int bucketOf(Transition transition) const { return int((transition.value - first.value) / width); }
};

// The fewest equal buckets of whole transitions, at most maxBuckets (≥ 1), that cover [first, last]
// (first ≤ last). Exact for the full 64-bit range: the width is ceil((last - first + 1) / max)
// computed without forming last - first + 1.
TransitionBuckets makeTransitionBuckets(Transition first, Transition last, int maxBuckets);

// The size of the address regions counted in a window [first, last]: a power of two giving the
// window at least ~64 regions, no smaller than 16 bytes and no larger than a 4 KiB page.
std::uint64_t regionSizeFor(Address first, Address last);

// The range and tick spacing of the transition axis for buckets [first, last], safe to hand to a
// QValueAxis with dynamic ticks. Qt Charts lays dynamic ticks out with a loop like
// `for (v = firstTick; v <= max; v += interval)`: an interval that does not move v (zero, or below
// the spacing of doubles near max: 2^53 and up, where one transition is not representable) never
// ends, and a tiny interval over a wide range makes millions of ticks. So min < max always (a
// single transition or a range too narrow for doubles is widened), the span is at least 64
// doubles wide at max, and the interval (1, 2 or 5 x 10^k whole transitions) leaves at most
// maxTicks ticks (clamped to 2..50). All values are finite.
struct TimeAxisTicks
{
    double min = 0;
    double max = 1;
    double interval = 1;
};
TimeAxisTicks timeAxisTicks(Transition first, Transition last, int maxTicks);

// The smallest of 1, 2 or 5 x 10^k that is at least `step`, and at least 1 (transitions are whole).
double niceStep(double step);

struct RegionCount
{
    Address first { 0 }; // aligned to the region size
    Address last { 0 };
    double accesses = 0; // an estimate when the chart is sampled
    friend bool operator==(const RegionCount &, const RegionCount &) = default;
};

// The `count` regions with the most accesses, busiest first; ties go to the lower address.
// `counts` maps a region index (address / regionSize) to its accesses.
QList<RegionCount> busiestRegions(const QHash<std::uint64_t, double> &counts, std::uint64_t regionSize, int count);

struct ChartData
{
    ViewRange range; // transitions as bucketed (clamped to the history)
    TransitionBuckets buckets;
    QList<double> reads; // per bucket: reads overlapping the address window
    QList<double> writes;
    std::uint64_t regionSize = 4096;
    QList<RegionCount> regions; // busiest first
    // Accesses (all operations, any address) in the transition range, from the time index: exact.
    qint64 accessesInRange = 0;
    // Rows actually read; equal to accessesInRange when the counts are exact.
    qint64 rowsRead = 0;
    bool estimated = false;
    bool emptyHistory = false;
};

struct ChartOptions
{
    int maxBuckets = 500;
    int topRegions = 10;
    // Up to this many accesses in the range, every row is read and the counts are exact. Above it,
    // each bucket is estimated from samplesPerBucket rows read in runs of sampleRun consecutive rows.
    qint64 exactRowLimit = 250'000;
    int samplesPerBucket = 256;
    int sampleRun = 32;
};

// Computes the charts of `range` on `database` (its thread's own connection). When `wholeHistory`
// is set, the range's transitions are replaced by the history's first and last. `cancelled` is
// polled between buckets; a cancelled computation returns false with an empty error.
bool computeChartData(HistoryDatabase &database, ViewRange range, bool wholeHistory, const ChartOptions &options,
    ChartData *data, QString *error, const std::function<bool()> &cancelled = {});

} // namespace memhist
