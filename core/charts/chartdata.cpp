// SPDX-License-Identifier: MIT
#include "core/charts/chartdata.h"

#include "core/charts/chartstatements.h"
#include "core/query/rowidsearch.h"
#include "core/storage/historydatabase.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace memhist {

namespace {

constexpr std::int64_t maxStored = std::numeric_limits<std::int64_t>::max();

// Counts of one bucket before scaling. `regions` may be shared by every bucket when no scaling
// applies (exact counts).
struct BucketTally
{
    double reads = 0;
    double writes = 0;
    QHash<std::uint64_t, double> *regions = nullptr;
};

class Tallier
{
public:
    Tallier(sqlite::Connection &connection, const ChartData &data)
        : m_rows(connection.prepare(charts::statements::rowsInRowIdRange))
        , m_data(data)
    { }

    bool isValid() const { return m_rows.isValid(); }

    // Adds the reads and writes of rows [begin, end) that overlap the window to the tally that
    // tallyFor(transition) returns; returns the number of rows read.
    template<typename TallyFor> qint64 read(std::int64_t begin, std::int64_t end, const TallyFor &tallyFor)
    {
        const std::uint64_t windowFirst = m_data.range.firstAddress.value;
        const std::uint64_t windowLast = m_data.range.lastAddress.value;
        qint64 rows = 0;
        m_rows.reset();
        m_rows.bind(1, begin);
        m_rows.bind(2, end);
        while (m_rows.step() == SQLITE_ROW) {
            ++rows;
            const auto operation = Operation(m_rows.int64(1));
            if (operation != Operation::Read && operation != Operation::Write)
                continue;
            const std::uint64_t first = fromStored(m_rows.int64(2));
            const std::uint64_t last = first + std::uint64_t(m_rows.int64(3)) - 1;
            if (first > windowLast || last < windowFirst)
                continue;
            BucketTally &tally = tallyFor(fromStored(m_rows.int64(0)));
            (operation == Operation::Read ? tally.reads : tally.writes) += 1;
            (*tally.regions)[std::max(first, windowFirst) / m_data.regionSize] += 1;
        }
        return rows;
    }

private:
    sqlite::Statement m_rows;
    const ChartData &m_data;
};

} // namespace

TransitionBuckets makeTransitionBuckets(Transition first, Transition last, int maxBuckets)
{
    TransitionBuckets buckets;
    buckets.first = first;
    buckets.last = last;
    const std::uint64_t span = last.value - first.value; // one less than the number of transitions
    buckets.width = span / std::uint64_t(std::max(1, maxBuckets)) + 1;
    buckets.count = int(span / buckets.width) + 1;
    return buckets;
}

double niceStep(double step)
{
    if (!(step > 1)) // also NaN
        return 1;
    if (!std::isfinite(step))
        return std::numeric_limits<double>::max();
    const double magnitude = std::pow(10.0, std::floor(std::log10(step)));
    for (const double factor : { 1.0, 2.0, 5.0, 10.0 }) {
        if (factor * magnitude >= step)
            return factor * magnitude;
    }
    return 10 * magnitude;
}

TimeAxisTicks timeAxisTicks(Transition first, Transition last, int maxTicks)
{
    if (first > last)
        std::swap(first, last);
    const int ticks = std::clamp(maxTicks, 2, 50);
    TimeAxisTicks axis;
    // Both conversions are finite: a 64-bit transition is below 2^64.
    axis.min = double(first.value);
    axis.max = double(last.value);
    // Far enough apart that every step of the interval below moves a double by several units in
    // the last place (an ulp near 2^64 is 4096), and never less than one transition.
    const double ulp = std::nextafter(axis.max, std::numeric_limits<double>::infinity()) - axis.max;
    const double minimumSpan = std::max(1.0, 64 * ulp);
    if (axis.max - axis.min < minimumSpan)
        axis.max = axis.min + minimumSpan;
    // At most `ticks` ticks from any anchor: span / interval <= ticks - 1.
    axis.interval = niceStep((axis.max - axis.min) / (ticks - 1));
    return axis;
}

std::uint64_t regionSizeFor(Address first, Address last)
{
    const std::uint64_t perRegion = (last.value - first.value) / 64 + 1;
    return std::clamp<std::uint64_t>(std::bit_ceil(std::min<std::uint64_t>(perRegion, 4096)), 16, 4096);
}

QList<RegionCount> busiestRegions(const QHash<std::uint64_t, double> &counts, std::uint64_t regionSize, int count)
{
    QList<std::pair<std::uint64_t, double>> entries;
    entries.reserve(counts.size());
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > 0)
            entries.append({ it.key(), it.value() });
    }
    const auto busier
        = [](const auto &a, const auto &b) { return a.second != b.second ? a.second > b.second : a.first < b.first; };
    const qsizetype kept = std::min<qsizetype>(std::max(0, count), entries.size());
    std::partial_sort(entries.begin(), entries.begin() + kept, entries.end(), busier);

    QList<RegionCount> regions;
    regions.reserve(kept);
    for (qsizetype i = 0; i < kept; ++i) {
        const std::uint64_t start = entries[i].first * regionSize;
        regions.append({ Address { start }, Address { start + (regionSize - 1) }, entries[i].second });
    }
    return regions;
}

bool computeChartData(HistoryDatabase &database, ViewRange range, bool wholeHistory, const ChartOptions &options,
    ChartData *data, QString *error, const std::function<bool()> &cancelled)
{
    *data = {};
    error->clear();
    sqlite::Connection &connection = database.connection();
    RowIdSearch search(connection);
    if (!search.load()) {
        *error = database.path() + QStringLiteral(": ") + connection.lastError();
        return false;
    }
    const std::optional<RowPosition> firstRow = search.rowAtOrAfter(std::numeric_limits<std::int64_t>::min());
    const std::optional<RowPosition> lastRow = search.rowAtOrBefore(maxStored);
    if (!firstRow || !lastRow) {
        data->emptyHistory = true;
        data->range = range;
        return true;
    }
    if (wholeHistory) {
        range.firstTransition = Transition { fromStored(firstRow->transition) };
        range.lastTransition = Transition { fromStored(lastRow->transition) };
    }
    if (range.firstTransition > range.lastTransition)
        std::swap(range.firstTransition, range.lastTransition);
    if (range.firstAddress > range.lastAddress)
        std::swap(range.firstAddress, range.lastAddress);
    data->range = range;
    data->buckets = makeTransitionBuckets(range.firstTransition, range.lastTransition, options.maxBuckets);
    data->regionSize = regionSizeFor(range.firstAddress, range.lastAddress);
    const TransitionBuckets &buckets = data->buckets;

    // Transitions never decrease with rowid, so the range is one run of rowids and so is each
    // bucket, found by binary search: exact access counts for ~log2(rows) lookups per boundary.
    const std::int64_t pastLastRow = lastRow->rowId + 1;
    const auto firstRowIdFrom = [&](std::uint64_t transition) {
        return transition > std::uint64_t(maxStored) ? pastLastRow
                                                     : search.firstRowIdAtOrAfter(std::int64_t(transition));
    };
    const std::int64_t rangeBegin = firstRowIdFrom(range.firstTransition.value);
    const std::int64_t rangeEnd = range.lastTransition.value == ~std::uint64_t(0)
        ? pastLastRow
        : firstRowIdFrom(range.lastTransition.value + 1);
    data->accessesInRange = rangeEnd - rangeBegin;

    Tallier tallier(connection, *data);
    if (!tallier.isValid()) {
        *error = database.path() + QStringLiteral(": ") + connection.lastError();
        return false;
    }
    data->reads.fill(0, buckets.count);
    data->writes.fill(0, buckets.count);
    QHash<std::uint64_t, double> regions;

    if (data->accessesInRange <= options.exactRowLimit) {
        // Small enough to read every row in one pass: exact counts.
        QList<BucketTally> tallies(buckets.count, BucketTally { 0, 0, &regions });
        // A row of the range whose transition lies outside it (transitions that decrease with
        // rowid: a damaged history, which check names) is counted nowhere, not past the buckets' end.
        QHash<std::uint64_t, double> discardedRegions;
        BucketTally discarded { 0, 0, &discardedRegions };
        data->rowsRead = tallier.read(rangeBegin, rangeEnd, [&](std::uint64_t transition) -> BucketTally & {
            if (transition < buckets.first.value || transition > buckets.last.value)
                return discarded;
            return tallies[buckets.bucketOf(Transition { transition })];
        });
        for (int i = 0; i < buckets.count; ++i) {
            data->reads[i] = tallies[i].reads;
            data->writes[i] = tallies[i].writes;
        }
        data->regions = busiestRegions(regions, data->regionSize, options.topRegions);
        return !(cancelled && cancelled());
    }

    QList<std::int64_t> boundaries(buckets.count + 1);
    boundaries[0] = rangeBegin;
    boundaries[buckets.count] = rangeEnd;
    for (int i = 1; i < buckets.count; ++i) {
        if (cancelled && cancelled())
            return false;
        boundaries[i] = firstRowIdFrom(buckets.bucketFirst(i).value);
    }

    const qint64 samples = std::max(1, options.samplesPerBucket);
    const qint64 run = std::clamp<qint64>(options.sampleRun, 1, samples);
    const qint64 runs = samples / run;
    for (int i = 0; i < buckets.count; ++i) {
        if (cancelled && cancelled())
            return false;
        const std::int64_t begin = boundaries[i];
        const std::int64_t end = boundaries[i + 1];
        const qint64 rows = end - begin;
        if (rows <= 0)
            continue;
        QHash<std::uint64_t, double> bucketRegions;
        BucketTally tally { 0, 0, &bucketRegions };
        const auto toTally = [&](std::uint64_t) -> BucketTally & { return tally; };
        qint64 read = 0;
        const bool everyRow = rows <= samples;
        if (everyRow) {
            read = tallier.read(begin, end, toTally);
        } else {
            // Runs of consecutive rows spread evenly over the bucket: a run costs one b-tree descent
            // and usually one page, where as many scattered rows would each cost a page.
            for (qint64 r = 0; r < runs; ++r) {
                const std::int64_t centre = begin + std::int64_t(rows * (2 * r + 1) / (2 * runs));
                const std::int64_t start = std::clamp<std::int64_t>(centre - run / 2, begin, end - run);
                read += tallier.read(start, start + run, toTally);
            }
            data->estimated = true;
        }
        data->rowsRead += read;
        if (read == 0)
            continue;
        // Read rows count once; a sample stands for its share of the bucket's rows.
        const double scale = everyRow ? 1.0 : double(rows) / double(read);
        data->reads[i] = tally.reads * scale;
        data->writes[i] = tally.writes * scale;
        for (auto it = bucketRegions.cbegin(); it != bucketRegions.cend(); ++it)
            regions[it.key()] += it.value() * scale;
    }
    data->regions = busiestRegions(regions, data->regionSize, options.topRegions);
    return true;
}

} // namespace memhist
