// SPDX-License-Identifier: MIT
#include "core/summary/historysummarizer.h"

#include "core/model/types.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/summary/summarybuilder.h"
#include "core/summary/summarystatements.h"
#include "core/writer/partialfile.h"

#include <QFileInfo>
#include <algorithm>
#include <limits>

namespace memhist::summary {

namespace {

// Rows read between two progress reports (and cancellation checks).
constexpr qint64 rowsPerProgress = 1 << 14;

struct SliceSpan
{
    qint64 rowId;
    std::uint64_t first;
    std::uint64_t last;
};

// The slice an access at `transition` belongs to: the first slice (in transition order) that ends
// at or after it, else the last. Accesses come in rowid order, whose transitions never decrease
// (DESIGN.md §1): the search resumes from the previous answer and goes back only for a file that
// breaks that rule.
class SliceCursor
{
public:
    explicit SliceCursor(const std::vector<SliceSpan> &slices)
        : m_slices(slices)
    { }

    std::int64_t sliceOf(std::uint64_t transition)
    {
        const std::size_t count = m_slices.size();
        if (m_index > 0 && transition <= m_slices[m_index - 1].last) {
            m_index
                = std::size_t(std::partition_point(m_slices.begin(), m_slices.end(), [transition](const SliceSpan &s) {
                      return s.last < transition;
                  }) - m_slices.begin());
        }
        while (m_index + 1 < count && m_slices[m_index].last < transition)
            ++m_index;
        return std::int64_t(std::min(m_index, count - 1));
    }

private:
    const std::vector<SliceSpan> &m_slices;
    std::size_t m_index = 0;
};

} // namespace

bool summarizeHistory(
    const QString &historyPath, const QString &outputPath, const SummarizeOptions &options, QString *error)
{
    const auto failWith = [error](const QString &message) {
        *error = message;
        return false;
    };
    std::unique_ptr<HistoryDatabase> history = HistoryDatabase::open(historyPath, error);
    if (!history)
        return false;
    sqlite::Connection &db = history->connection();
    db.execute(statements::scanPragmas);
    const auto readFailure = [&] { return failWith(historyPath + QStringLiteral(": cannot read: ") + db.lastError()); };

    const std::optional<HistoryShape> shape = readHistoryShape(db);
    if (!shape)
        return readFailure();
    std::vector<SliceSpan> slices;
    slices.reserve(std::size_t(shape->slices));
    {
        sqlite::Statement select = db.prepare(statements::scanSlices);
        int rc = SQLITE_ROW;
        while (select.isValid() && (rc = select.step()) == SQLITE_ROW)
            slices.push_back({ select.int64(0), fromStored(select.int64(1)), fromStored(select.int64(2)) });
        if (!select.isValid() || rc != SQLITE_DONE)
            return readFailure();
    }
    // slice_id is a slice's rowid: the slices' indexes in transition order, by rowid.
    std::vector<std::pair<qint64, std::int64_t>> sliceByRowId(slices.size());
    for (std::size_t i = 0; i < slices.size(); ++i)
        sliceByRowId[i] = { slices[i].rowId, std::int64_t(i) };
    std::sort(sliceByRowId.begin(), sliceByRowId.end());

    SummaryBuilder builder;
    const QString directory = QFileInfo(outputPath).absolutePath();
    if (!builder.open(directory))
        return failWith(directory + QStringLiteral(": cannot create a temporary file: ") + builder.errorString());

    // Progress over both scans, then the binning: rows are most of the work.
    const double rows = double(std::max<qint64>(1, shape->lastChunkRowId + shape->lastAccessRowId));
    qint64 done = 0;
    const auto report
        = [&](double scanShare) { return !options.progress || options.progress(0.8 * std::min(1.0, scanShare)); };
    const auto cancelled = [&] { return failWith(QStringLiteral("cancelled")); };
    if (!report(0.0))
        return cancelled();

    SliceFragment fragment;
    std::int64_t fragmentSlice = -1;
    const auto flush = [&] {
        if (fragmentSlice < 0 || fragment.isEmpty())
            return true;
        return builder.addFragment(fragmentSlice, fragment);
    };
    const auto switchTo = [&](std::int64_t slice) {
        if (slice == fragmentSlice)
            return true;
        if (!flush())
            return false;
        fragmentSlice = slice;
        return true;
    };

    // Chunks: where each starts, and every range for the fold.
    {
        sqlite::Statement select = db.prepare(statements::scanChunks);
        int rc = SQLITE_ROW;
        qint64 cachedRowId = std::numeric_limits<qint64>::min();
        std::int64_t cachedSlice = -1;
        while (select.isValid() && (rc = select.step()) == SQLITE_ROW) {
            if (++done % rowsPerProgress == 0 && !report(double(done) / rows))
                return cancelled();
            const std::int64_t code = select.int64(3);
            const qint64 sliceId = select.int64(0);
            if (sliceId != cachedRowId) {
                const auto it = std::lower_bound(sliceByRowId.begin(), sliceByRowId.end(),
                    std::pair<qint64, std::int64_t>(sliceId, std::numeric_limits<std::int64_t>::min()));
                cachedRowId = sliceId;
                cachedSlice = (it != sliceByRowId.end() && it->first == sliceId) ? it->second : -1;
            }
            if (cachedSlice < 0 || !isValidOperationCode(code))
                continue; // a dangling or invalid chunk: `memhist check` reports it, the summary skips it
            const std::uint64_t first = fromStored(select.int64(1));
            const std::uint64_t last = std::max(first, fromStored(select.int64(2)));
            if (!switchTo(cachedSlice))
                return failWith(builder.errorString());
            fragment.addChunk(std::uint8_t(code), first);
            builder.addChunkRange(first, last);
        }
        if (!select.isValid() || rc != SQLITE_DONE)
            return readFailure();
    }
    // Accesses, in rowid order: each to the slice holding its transition.
    {
        SliceCursor cursor(slices);
        sqlite::Statement select = db.prepare(statements::scanAccesses);
        int rc = SQLITE_ROW;
        while (select.isValid() && (rc = select.step()) == SQLITE_ROW) {
            if (++done % rowsPerProgress == 0 && !report(double(done) / rows))
                return cancelled();
            const std::int64_t code = select.int64(3);
            if (slices.empty() || !isValidOperationCode(code))
                continue;
            if (!switchTo(cursor.sliceOf(fromStored(select.int64(0)))))
                return failWith(builder.errorString());
            const std::uint32_t size = std::uint32_t(std::clamp<std::int64_t>(select.int64(2), 1, 0xffffffffll));
            fragment.addAccess(std::uint8_t(code), fromStored(select.int64(1)), size);
            builder.addAccessToFold(fromStored(select.int64(1)), size);
        }
        if (!select.isValid() || rc != SQLITE_DONE)
            return readFailure();
    }
    if (!flush())
        return failWith(builder.errorString());

    PartialFile file(outputPath);
    if (!file.create())
        return failWith(outputPath + QStringLiteral(": ") + file.errorString());
    file.closeHandle();
    sqlite::Connection out;
    if (!out.open(file.temporaryPath(), sqlite::Connection::Mode::ReadWriteCreate, directory)
        || !out.execute(statements::summaryFilePragmas) || !out.execute("BEGIN"))
        return failWith(outputPath + QStringLiteral(": cannot create: ") + out.lastError());
    const auto binned = [&](double share) { return !options.progress || options.progress(0.8 + 0.2 * share); };
    if (!builder.finish(out, *shape, binned, options.sourceIdentity)) {
        if (builder.errorString() == QLatin1String("cancelled"))
            return cancelled();
        return failWith(outputPath + QStringLiteral(": cannot write: ") + builder.errorString());
    }
    if (!out.execute("COMMIT"))
        return failWith(outputPath + QStringLiteral(": cannot write: ") + out.lastError());
    out.close();
    if (!file.commit())
        return failWith(outputPath + QStringLiteral(": ") + file.errorString());
    if (options.progress)
        options.progress(1.0);
    return true;
}

} // namespace memhist::summary
