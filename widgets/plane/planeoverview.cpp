// SPDX-License-Identifier: MIT
#include "widgets/plane/planeoverview.h"

#include "core/storage/schema.h"
#include "core/summary/summarycache.h"
#include "core/summary/summarystatements.h"
#include "widgets/plane/planestatements.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <limits>

namespace memhist::plane {

namespace {

// Rows streamed between two cancellation checks: a check is cheap, the rows are a table scan.
constexpr qint64 rowsPerCancelCheck = 4096;

// Bits [first, last] of word-packed `bits` with a per-word callback: (word index, mask).
template<typename F> void forEachWord(int first, int last, F &&f)
{
    const int firstWord = first >> 6;
    const int lastWord = last >> 6;
    for (int w = firstWord; w <= lastWord; ++w) {
        quint64 mask = ~quint64(0);
        if (w == firstWord)
            mask &= ~quint64(0) << (first & 63);
        if (w == lastWord && (last & 63) != 63)
            mask &= (quint64(1) << ((last & 63) + 1)) - 1;
        if (!f(w, mask))
            return;
    }
}

} // namespace

bool OperationCoverage::any(int first, int last) const
{
    if (bits.empty() || first > last)
        return false;
    bool found = false;
    forEachWord(first, last, [&](int w, quint64 mask) {
        found = (bits[std::size_t(w)] & mask) != 0;
        return !found;
    });
    return found;
}

int OperationCoverage::count(int first, int last) const
{
    if (bits.empty() || first > last)
        return 0;
    int n = 0;
    forEachWord(first, last, [&](int w, quint64 mask) {
        n += std::popcount(bits[std::size_t(w)] & mask);
        return true;
    });
    return n;
}

double OperationCoverage::estimateChunks(int first, int last) const
{
    if (bits.empty() || first > last)
        return 0;
    constexpr int per = binsPerCoarseBin;
    double estimate = 0;
    for (int c = first / per; c <= last / per; ++c) {
        const quint32 n = coarseChunks[std::size_t(c)];
        if (n == 0)
            continue;
        const int cf = c * per;
        const int cl = cf + per - 1;
        if (first <= cf && cl <= last) {
            estimate += n;
        } else {
            const int inside = count(std::max(cf, first), std::min(cl, last));
            const int all = count(cf, cl);
            if (all > 0)
                estimate += double(n) * inside / all;
        }
    }
    return estimate;
}

namespace {

bool readSlices(sqlite::Connection &db, std::vector<SliceSpan> *slices)
{
    sqlite::Statement select = db.prepare(summary::statements::scanSlices);
    int rc = SQLITE_ROW;
    while (select.isValid() && (rc = select.step()) == SQLITE_ROW)
        slices->push_back({ select.int64(0), fromStored(select.int64(1)), fromStored(select.int64(2)) });
    return select.isValid() && rc == SQLITE_DONE;
}

// The history's own summary, when it still describes the history's tables. A summary that is
// there but cannot be used says why in *why (empty when there is simply none).
std::optional<summary::SummaryInfo> ownSummary(sqlite::Connection &db, std::size_t slices, QString *why)
{
    std::optional<summary::SummaryInfo> info = summary::readSummaryInfo(db, why);
    if (!info)
        return std::nullopt;
    const std::optional<summary::HistoryShape> shape = summary::readHistoryShape(db);
    if (!shape || !(*shape == info->shape) || info->levels.slices != qint64(slices)) {
        *why = QStringLiteral("it does not describe the history's tables (rows were added or removed since it was "
                              "written)");
        return std::nullopt;
    }
    return info;
}

// The summary cached for the history as it is now, if any.
std::optional<summary::SummaryInfo> cachedSummary(const summary::SummaryCache::Entry &entry, std::size_t slices)
{
    sqlite::Connection db;
    if (!db.open(entry.path, sqlite::Connection::Mode::ReadOnly))
        return std::nullopt;
    QString why;
    std::optional<summary::SummaryInfo> info = summary::readSummaryInfo(db, &why);
    if (!info || info->sourceIdentity != entry.identity.toString() || info->levels.slices != qint64(slices))
        return std::nullopt;
    return info;
}

} // namespace

std::shared_ptr<const HistoryOverview> openOverview(const QString &path, const QString &cacheDirectory)
{
    QElapsedTimer clock;
    clock.start();
    auto overview = std::make_shared<HistoryOverview>();
    overview->path = path;

    QString error;
    std::unique_ptr<HistoryDatabase> db = HistoryDatabase::open(path, &error);
    if (!db) {
        overview->error = error;
        return overview;
    }
    db->connection().execute(statements::connectionPragmas);
    if (!readSlices(db->connection(), &overview->slices)) {
        overview->error = path + QStringLiteral(": cannot read slices: ") + db->connection().lastError();
        return overview;
    }

    QString why;
    std::optional<summary::SummaryInfo> info = ownSummary(db->connection(), overview->slices.size(), &why);
    if (!why.isEmpty())
        overview->summaryNotice = path + QStringLiteral(": its display summary is not used: ") + why;
    QString summaryPath = path;
    if (!info && !cacheDirectory.isEmpty()) {
        const summary::SummaryCache cache(cacheDirectory);
        const std::optional<summary::SummaryCache::Entry> entry = cache.entryFor(path, &error);
        if (!entry) {
            overview->error = error;
            return overview;
        }
        info = cachedSummary(*entry, overview->slices.size());
        summaryPath = entry->path;
        if (!info)
            overview->summaryToMake = entry->path;
    }
    if (!info)
        return overview;

    overview->summaryInfo = std::make_shared<const summary::SummaryInfo>(*info);
    overview->summaryPath = summaryPath;
    overview->fold = info->fold();
    // The counts from the summary and the meta table, the transitions from the slices: nothing here
    // may scan a table (HistoryDatabase::summary() counts rows where meta says nothing).
    HistorySummary &counts = overview->summary;
    counts.accesses = info->accesses;
    counts.chunks = info->chunks;
    counts.slices = qint64(overview->slices.size());
    counts.fileBytes = QFileInfo(path).size();
    counts.reads = db->meta().value(QLatin1String(schema::meta::reads)).toLongLong();
    counts.writes = db->meta().value(QLatin1String(schema::meta::writes)).toLongLong();
    counts.executes = db->meta().value(QLatin1String(schema::meta::executes)).toLongLong();
    if (!overview->slices.empty()) {
        counts.firstTransition = Transition { overview->slices.front().first };
        counts.lastTransition = Transition { overview->slices.back().last };
    }
    overview->accessesPerChunk = info->chunks > 0 ? std::max(1.0, double(info->accesses) / double(info->chunks)) : 1.0;
    overview->milliseconds = clock.elapsed();
    return overview;
}

std::shared_ptr<const HistoryOverview> loadOverview(
    const QString &path, const std::function<bool()> &cancelled, const FoldOptions &options, qint64 summaryBudgetBytes)
{
    QElapsedTimer clock;
    clock.start();
    auto overview = std::make_shared<HistoryOverview>();
    overview->path = path;

    QString error;
    std::unique_ptr<HistoryDatabase> db = HistoryDatabase::open(path, &error);
    if (!db) {
        overview->error = error;
        return overview;
    }
    db->connection().execute(statements::connectionPragmas);
    overview->summary = db->summary();
    if (cancelled())
        return nullptr;

    readSlices(db->connection(), &overview->slices);

    OccupiedRegionsBuilder builder(options);
    sqlite::Statement chunks = db->connection().prepare(statements::chunkRanges);
    if (!chunks.isValid()) {
        overview->error = path + QStringLiteral(": cannot read chunks: ") + db->connection().lastError();
        return overview;
    }
    int rc = SQLITE_ROW;
    while ((rc = chunks.step()) == SQLITE_ROW) {
        builder.add(fromStored(chunks.int64(0)), fromStored(chunks.int64(1)));
        if (qint64(builder.added()) % rowsPerCancelCheck == 0 && cancelled())
            return nullptr;
    }
    if (rc != SQLITE_DONE) {
        overview->error = path + QStringLiteral(": cannot read chunks: ") + db->connection().lastError();
        return overview;
    }
    overview->fold = AddressFold(builder.finish());
    const qint64 chunkCount = qint64(builder.added());
    overview->accessesPerChunk
        = chunkCount > 0 ? std::max(1.0, double(overview->summary.accesses) / double(chunkCount)) : 1.0;

    // Second pass: which bins of the folded axis each slice's chunks cover, per operation.
    const std::size_t sliceCount = overview->slices.size();
    if (sliceCount > 0 && !overview->fold.isEmpty()) {
        // Per bin: one coverage bit and a share of a 32-bit count per coarse bin.
        const double bitsPerBin = 1.0 + 32.0 / OperationCoverage::binsPerCoarseBin;
        const double budgetBits = double(summaryBudgetBytes) * 8.0 / (3.0 * double(sliceCount) * bitsPerBin);
        int bins = 256;
        while (bins < 65536 && double(bins) * 2 <= budgetBits)
            bins *= 2;
        overview->summaryBins = bins;
        overview->summaries.resize(sliceCount);
        const double binsPerDisplay = double(bins) / overview->fold.displayLength();

        // slice_id is a slice's rowid; memhist writes them 1..N in order, other writers may not.
        std::vector<std::pair<qint64, std::size_t>> sliceIndex(sliceCount);
        for (std::size_t i = 0; i < sliceCount; ++i)
            sliceIndex[i] = { overview->slices[i].rowId, i };
        std::sort(sliceIndex.begin(), sliceIndex.end());
        qint64 cachedRowId = std::numeric_limits<qint64>::min();
        SliceSummary *cached = nullptr;

        sqlite::Statement rows = db->connection().prepare(summary::statements::scanChunks);
        qint64 read = 0;
        while (rows.isValid() && rows.step() == SQLITE_ROW) {
            if (++read % rowsPerCancelCheck == 0 && cancelled())
                return nullptr;
            const qint64 sliceId = rows.int64(0);
            if (sliceId != cachedRowId) {
                const auto it = std::lower_bound(
                    sliceIndex.begin(), sliceIndex.end(), std::pair<qint64, std::size_t>(sliceId, 0));
                cachedRowId = sliceId;
                cached = (it != sliceIndex.end() && it->first == sliceId) ? &overview->summaries[it->second] : nullptr;
            }
            const std::int64_t code = rows.int64(3);
            if (!cached || !isValidOperationCode(code))
                continue; // a dangling or invalid chunk: `memhist check` reports it, the plane skips it
            OperationCoverage &coverage = cached->ops[operationIndex(Operation(code))];
            if (coverage.bits.empty()) {
                coverage.bits.assign(std::size_t(bins) / 64, 0);
                coverage.coarseChunks.assign(std::size_t(bins / OperationCoverage::binsPerCoarseBin), 0);
            }
            ++coverage.chunks;
            const std::uint64_t first = fromStored(rows.int64(1));
            const std::uint64_t last = std::max(first, fromStored(rows.int64(2)));
            const int firstBin = std::clamp(int(overview->fold.toDisplay(first) * binsPerDisplay), 0, bins - 1);
            const int lastBin = std::clamp(
                int(std::ceil(overview->fold.toDisplayEnd(last) * binsPerDisplay)) - 1, firstBin, bins - 1);
            forEachWord(firstBin, lastBin, [&coverage](int w, quint64 mask) {
                coverage.bits[std::size_t(w)] |= mask;
                return true;
            });
            // Counted where the chunk starts: a chunk spanning coarse bins is rare (they are narrow)
            // and only makes a view that sees its upper part underestimate by one.
            ++coverage.coarseChunks[std::size_t(firstBin / OperationCoverage::binsPerCoarseBin)];
        }
    }
    overview->milliseconds = clock.elapsed();
    return overview;
}

std::size_t firstSliceEndingAfter(const std::vector<SliceSpan> &slices, double x)
{
    // Slice s covers [first, last + 1) in plane space.
    const auto it = std::partition_point(
        slices.begin(), slices.end(), [x](const SliceSpan &s) { return double(s.last) + 1.0 <= x; });
    return std::size_t(it - slices.begin());
}

} // namespace memhist::plane
