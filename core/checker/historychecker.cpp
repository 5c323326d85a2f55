#include "historychecker.h"

#include "checker/checkmessages.h"
#include "checker/chunkcoverage.h"
#include "checker/progressmeter.h"
#include "model/types.h"
#include "storage/historydatabase.h"
#include "storage/schema.h"
#include "storage/sqlite.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <vector>

// How the checker stays fast and small on 10^8 accesses:
// - slices are few: they are all held in memory;
// - chunks are checked with two passes over the chunks table (rowid order, then per slice and
//   operation through idx_chunks_1) that keep nothing but a count of chunks per slice;
// - accesses are read once, in rowid order (a sequential table scan). Because transitions never
//   decrease with rowid, once the scan passes a slice's last transition no further access can
//   belong to it: its chunks are then finished (coverage, count, cap) and forgotten. Only the
//   chunks of the slice(s) being scanned are held.
// The first violation met in this order is the one reported.

namespace memhist {

namespace {

using namespace check;

namespace sql {
// SQLite's own check of the file: b-tree pages, cells, free list, and every index against its
// table. Its first problem only: the report names one violation.
constexpr const char *integrityCheck = "PRAGMA integrity_check(1)";
constexpr const char *slices = "SELECT rowid, transition_first, transition_last FROM slices ORDER BY rowid";
constexpr const char *chunks = "SELECT rowid, slice_id, phy_first, phy_last, operation FROM chunks ORDER BY rowid";
constexpr const char *maxChunkRowId = "SELECT max(rowid) FROM chunks";
constexpr const char *accessRowIdSpan = "SELECT min(rowid), max(rowid) FROM accesses";
// idx_chunks_1 narrows these to one slice (and one operation); only those few rows are sorted.
constexpr const char *chunksOfSliceAndOperation
    = "SELECT rowid, phy_first, phy_last FROM chunks WHERE operation = ?1 AND slice_id = ?2 ORDER BY rowid";
constexpr const char *chunksOfSlice = "SELECT rowid, phy_first, phy_last, operation FROM chunks "
                                      "WHERE operation IN (1, 2, 4) AND slice_id = ?1 ORDER BY rowid";
constexpr const char *chunkById = "SELECT slice_id, phy_first, phy_last, operation FROM chunks WHERE rowid = ?1";
constexpr const char *accesses
    = "SELECT rowid, chunk_id, transition, phy_first, size, operation FROM accesses ORDER BY rowid";
} // namespace sql

constexpr std::uint64_t lastSignedPositive = std::uint64_t(std::numeric_limits<std::int64_t>::max());

// A slice and what the checker learns about it.
struct SliceRow : SliceRecord
{
    qint64 chunkCount = 0;
    // Chunks of this slice the access scan has met; finished when the scan leaves the slice.
    std::vector<qint64> openChunks;
};

// A chunk the access scan has met and not yet finished.
struct OpenChunk
{
    ChunkRecord row;
    std::size_t slice = 0; // index in the slices vector
    qint64 accesses = 0;
    ChunkCoverage coverage;
};

// One run of the checker. Each step returns false once m_report.violation is set.
class CheckRun
{
public:
    CheckRun(HistoryDatabase &database, const std::function<bool(double)> &progress)
        : m_database(database)
        , m_db(database.connection())
        , m_progress(progress, estimateRows())
    { }

    CheckReport run()
    {
        if (checkSqliteIntegrity() && readCap() && checkSlices() && checkChunks() && checkChunkOrder()
            && checkAccesses() && checkMeta()) {
            addNotes();
            m_report.ok = m_progress.finish() || fail(QStringLiteral("cancelled"));
        }
        return m_report;
    }

private:
    qint64 estimateRows()
    {
        qint64 rows = 0;
        sqlite::Statement chunks = m_db.prepare(sql::maxChunkRowId);
        if (chunks.isValid() && chunks.step() == SQLITE_ROW)
            rows += 2 * chunks.int64(0); // two passes over the chunks
        sqlite::Statement accesses = m_db.prepare(sql::accessRowIdSpan);
        if (accesses.isValid() && accesses.step() == SQLITE_ROW && !accesses.isNull(0))
            rows += accesses.int64(1) - accesses.int64(0) + 1;
        return rows;
    }

    bool fail(const QString &message)
    {
        m_report.ok = false;
        m_report.violation = message;
        return false;
    }

    bool failSql(const char *what)
    {
        return fail(QStringLiteral("cannot read %1: %2").arg(QLatin1String(what), m_db.lastError()));
    }

    bool advance() { return m_progress.advance() || fail(QStringLiteral("cancelled")); }

    // First: the property checks read the file through SQLite and would trust a damaged b-tree
    // (rows missing from an index, cells running off their page), which queries then meet.
    bool checkSqliteIntegrity()
    {
        sqlite::Statement stmt = m_db.prepare(sql::integrityCheck);
        if (!stmt.isValid())
            return failSql("the SQLite integrity check");
        const int rc = stmt.step();
        if (rc != SQLITE_ROW)
            return failSql("the SQLite integrity check");
        const QString result = stmt.text(0);
        if (result == QLatin1String("ok"))
            return true;
        return fail(violation(QStringLiteral("the SQLite file"),
            QStringLiteral("SQLite's integrity check reports \"%1\"").arg(result.simplified()),
            property::sqliteIntegrity));
    }

    bool readCap()
    {
        const auto &meta = m_database.meta();
        const auto it = meta.constFind(QLatin1String(schema::meta::chunkAccessCap));
        if (it == meta.constEnd())
            return true;
        bool ok = false;
        const qint64 cap = it->toLongLong(&ok);
        if (!ok || cap < 0) {
            return fail(violation(QStringLiteral("meta %1").arg(QLatin1String(schema::meta::chunkAccessCap)),
                QStringLiteral("\"%1\" is not a number").arg(*it), property::metaNumber));
        }
        m_cap = cap;
        return true;
    }

    bool checkSlices()
    {
        sqlite::Statement stmt = m_db.prepare(sql::slices);
        if (!stmt.isValid())
            return failSql("slices");
        qint64 shared = 0;
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            SliceRow slice;
            slice.id = stmt.int64(0);
            slice.first = fromStored(stmt.int64(1));
            slice.last = fromStored(stmt.int64(2));
            if (slice.first > slice.last) {
                return fail(violation(describe(slice),
                    QStringLiteral("transition_first %1 is after transition_last %2").arg(slice.first).arg(slice.last),
                    property::sliceBounds));
            }
            if (!m_slices.empty()) {
                const SliceRow &previous = m_slices.back();
                // The reference writer closes a slice when either of its sides is full and starts
                // the next one on the same transition: exact readers cope, so it is only noted.
                if (slice.first == previous.last) {
                    ++shared;
                } else if (slice.first < previous.last) {
                    return fail(violation(describe(slice),
                        QStringLiteral("starts at transition %1, before the end of the previous %2")
                            .arg(QString::number(slice.first), describe(previous)),
                        property::slicesDisjoint));
                }
            }
            m_slices.push_back(std::move(slice));
        }
        if (rc != SQLITE_DONE)
            return failSql("slices");
        m_report.slices = qint64(m_slices.size());
        if (shared == 1) {
            m_report.notes << QStringLiteral("1 slice shares a boundary transition with the previous slice "
                                             "(allowed; written by the reference writer)");
        } else if (shared > 1) {
            m_report.notes << QStringLiteral("%1 slices share a boundary transition with the previous slice "
                                             "(allowed; written by the reference writer)")
                                  .arg(shared);
        }
        return true;
    }

    // Index of the slice with rowid `id` in m_slices (which is in rowid order), or -1.
    qint64 sliceIndex(qint64 id) const
    {
        const auto it = std::lower_bound(
            m_slices.begin(), m_slices.end(), id, [](const SliceRow &slice, qint64 value) { return slice.id < value; });
        return it != m_slices.end() && it->id == id ? qint64(it - m_slices.begin()) : -1;
    }

    // Properties of each chunk on its own, in rowid order.
    bool checkChunks()
    {
        sqlite::Statement stmt = m_db.prepare(sql::chunks);
        if (!stmt.isValid())
            return failSql("chunks");
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            if (!advance())
                return false;
            const ChunkRecord chunk { stmt.int64(0), stmt.int64(1), fromStored(stmt.int64(2)),
                fromStored(stmt.int64(3)), stmt.int64(4) };
            ++m_report.chunks;
            const qint64 slice = sliceIndex(chunk.sliceId);
            if (slice < 0) {
                return fail(violation(describe(chunk), QStringLiteral("slice %1 does not exist").arg(chunk.sliceId),
                    property::chunkSlice));
            }
            if (!isValidOperationCode(chunk.operation)) {
                return fail(violation(describe(chunk),
                    QStringLiteral("operation %1 is none of 1, 2, 4").arg(chunk.operation), property::chunkOperation));
            }
            if (chunk.first > chunk.last) {
                return fail(violation(describe(chunk),
                    QStringLiteral("phy_first %1 is after phy_last %2").arg(hex(chunk.first), hex(chunk.last)),
                    property::chunkBounds));
            }
            if (chunk.first <= lastSignedPositive && chunk.last > lastSignedPositive) {
                return fail(violation(describe(chunk),
                    QStringLiteral("contains both %1 and %2: idx_chunks_1 orders phy_last as "
                                   "signed, where this chunk ends before it starts")
                        .arg(hex(lastSignedPositive), hex(lastSignedPositive + 1)),
                    property::chunkSign));
            }
            ++m_slices[std::size_t(slice)].chunkCount;
        }
        return rc == SQLITE_DONE || failSql("chunks");
    }

    // Within one (slice, operation), chunks in rowid order have increasing, disjoint ranges.
    bool checkChunkOrder()
    {
        sqlite::Statement stmt = m_db.prepare(sql::chunksOfSliceAndOperation);
        if (!stmt.isValid())
            return failSql("chunks");
        for (const SliceRow &slice : m_slices) {
            for (const Operation operation : { Operation::Execute, Operation::Write, Operation::Read }) {
                stmt.reset();
                stmt.bind(1, std::int64_t(operation));
                stmt.bind(2, slice.id);
                std::optional<ChunkRecord> previous;
                int rc;
                while ((rc = stmt.step()) == SQLITE_ROW) {
                    if (!advance())
                        return false;
                    const ChunkRecord chunk { stmt.int64(0), slice.id, fromStored(stmt.int64(1)),
                        fromStored(stmt.int64(2)), std::int64_t(operation) };
                    if (previous && chunk.first <= previous->last) {
                        return fail(violation(describe(chunk),
                            QStringLiteral("starts at %1, not after the end of the previous %2")
                                .arg(hex(chunk.first), describe(*previous)),
                            property::chunksDisjoint));
                    }
                    previous = chunk;
                }
                if (rc != SQLITE_DONE)
                    return failSql("chunks");
            }
        }
        return true;
    }

    // The chunk an access refers to: held if open, else read (once per chunk in a valid database).
    OpenChunk *findChunk(qint64 id, bool *isNew)
    {
        const auto it = m_open.find(id);
        if (it != m_open.end()) {
            *isNew = false;
            return &it->second;
        }
        *isNew = true;
        m_chunkById.reset();
        m_chunkById.bind(1, id);
        if (m_chunkById.step() != SQLITE_ROW)
            return nullptr;
        m_candidate = OpenChunk {};
        m_candidate.row = ChunkRecord { id, m_chunkById.int64(0), fromStored(m_chunkById.int64(1)),
            fromStored(m_chunkById.int64(2)), m_chunkById.int64(3) };
        // checkChunks() proved the slice exists.
        m_candidate.slice = std::size_t(sliceIndex(m_candidate.row.sliceId));
        return &m_candidate;
    }

    bool checkAccesses()
    {
        m_chunkById = m_db.prepare(sql::chunkById);
        sqlite::Statement stmt = m_db.prepare(sql::accesses);
        if (!stmt.isValid() || !m_chunkById.isValid())
            return failSql("accesses");
        std::optional<std::pair<qint64, std::uint64_t>> previous; // rowid, transition
        std::size_t nextToFinish = 0; // slices before this index are finished
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            if (!advance())
                return false;
            const qint64 rowId = stmt.int64(0);
            const qint64 chunkId = stmt.int64(1);
            const std::uint64_t transition = fromStored(stmt.int64(2));
            const std::uint64_t first = fromStored(stmt.int64(3));
            const std::int64_t size = stmt.int64(4);
            const std::int64_t operation = stmt.int64(5);
            // Built only on failure: formatting per row would cost more than the whole scan.
            const auto self = [&] { return describeAccess(rowId, transition); };
            ++m_report.accesses;

            if (previous && transition < previous->second) {
                return fail(violation(self(),
                    QStringLiteral("transition %1 is before transition %2 of the previous access %3")
                        .arg(transition)
                        .arg(previous->second)
                        .arg(previous->first),
                    property::accessOrder));
            }
            previous = { rowId, transition };
            // Transitions never decrease from here on: slices that end before this one are done.
            while (nextToFinish < m_slices.size() && m_slices[nextToFinish].last < transition) {
                if (!finishSlice(nextToFinish++))
                    return false;
            }

            bool isNew = false;
            OpenChunk *chunk = findChunk(chunkId, &isNew);
            if (!chunk)
                return fail(
                    violation(self(), QStringLiteral("chunk %1 does not exist").arg(chunkId), property::accessChunk));
            if (size < 1)
                return fail(violation(self(), QStringLiteral("size is %1").arg(size), property::accessSize));
            const std::uint64_t last = first + std::uint64_t(size - 1);
            if (last < first) {
                return fail(violation(self(),
                    QStringLiteral("%1 bytes at %2 wrap past 0xffffffffffffffff").arg(size).arg(hex(first)),
                    property::accessWrap));
            }
            const ChunkRecord &row = chunk->row;
            if (operation != row.operation) {
                return fail(violation(self(),
                    QStringLiteral("is %1 but its chunk %2 is %3")
                        .arg(operationName(operation), QString::number(row.id), operationName(row.operation)),
                    property::accessOperation));
            }
            if (first < row.first || last > row.last) {
                return fail(violation(self(),
                    QStringLiteral("bytes %1..%2 reach outside its %3").arg(hex(first), hex(last), describe(row)),
                    property::accessInChunk));
            }
            SliceRow &slice = m_slices[chunk->slice];
            if (transition < slice.first || transition > slice.last) {
                return fail(violation(self(),
                    QStringLiteral("transition %1 is outside its %2").arg(QString::number(transition), describe(slice)),
                    property::accessInSlice));
            }
            if (isNew) {
                chunk = &m_open.emplace(chunkId, std::move(m_candidate)).first->second;
                slice.openChunks.push_back(chunkId);
            }
            ++chunk->accesses;
            ++m_accessesByOperation[std::size_t(operation)];
            chunk->coverage.add(first, last);
            m_lastTransition = transition;
            if (!m_firstTransition)
                m_firstTransition = transition;
        }
        if (rc != SQLITE_DONE)
            return failSql("accesses");
        while (nextToFinish < m_slices.size()) {
            if (!finishSlice(nextToFinish++))
                return false;
        }
        return true;
    }

    // No access after this point can belong to the slice: check each of its chunks, in rowid order.
    bool finishSlice(std::size_t index)
    {
        SliceRow &slice = m_slices[index];
        std::vector<ChunkRecord> rows;
        if (qint64(slice.openChunks.size()) < slice.chunkCount) {
            // Some chunk of the slice was never met: list them all to name the first empty one.
            sqlite::Statement stmt = m_db.prepare(sql::chunksOfSlice);
            stmt.bind(1, slice.id);
            while (stmt.isValid() && stmt.step() == SQLITE_ROW) {
                rows.push_back(ChunkRecord {
                    stmt.int64(0), slice.id, fromStored(stmt.int64(1)), fromStored(stmt.int64(2)), stmt.int64(3) });
            }
        } else {
            std::sort(slice.openChunks.begin(), slice.openChunks.end());
            for (const qint64 id : slice.openChunks)
                rows.push_back(m_open.at(id).row);
        }
        for (const ChunkRecord &row : rows) {
            const auto it = m_open.find(row.id);
            if (it == m_open.end())
                return fail(violation(describe(row), QStringLiteral("holds no access"), property::chunkNotEmpty));
            if (!finishChunk(it->second, slice))
                return false;
            m_open.erase(it);
        }
        slice.openChunks = {};
        return true;
    }

    bool finishChunk(OpenChunk &chunk, const SliceRow &slice)
    {
        m_report.largestChunk = std::max(m_report.largestChunk, chunk.accesses);
        if (const auto hole = chunk.coverage.firstHole(chunk.row.first, chunk.row.last)) {
            return fail(violation(describe(chunk.row),
                describeBytes(*hole) + QStringLiteral(" covered by none of its accesses"), property::chunkCovered));
        }
        if (m_cap && chunk.accesses > *m_cap) {
            // Accesses of one transition cannot be spread over slices: the one exception.
            if (slice.first == slice.last) {
                ++m_overCapAtOneTransition;
            } else {
                return fail(violation(describe(chunk.row),
                    QStringLiteral("holds %1 accesses, more than %2 %3")
                        .arg(QString::number(chunk.accesses), QLatin1String(schema::meta::chunkAccessCap),
                            QString::number(*m_cap)),
                    property::chunkCap));
            }
        }
        return true;
    }

    // Counts a writer recorded in meta must be those of the database (keys absent are not checked).
    bool checkMeta()
    {
        const auto &meta = m_database.meta();
        const auto compare = [&](const char *key, std::optional<std::uint64_t> actual, const QString &found) {
            const auto it = meta.constFind(QLatin1String(key));
            if (it == meta.constEnd())
                return true;
            const QString object = QStringLiteral("meta ") + QLatin1String(key);
            bool ok = false;
            const std::uint64_t recorded = it->toULongLong(&ok);
            if (!ok)
                return fail(violation(object, QStringLiteral("\"%1\" is not a number").arg(*it), property::metaNumber));
            if (actual && recorded == *actual)
                return true;
            return fail(violation(object, QStringLiteral("records %1 but %2").arg(QString::number(recorded), found),
                property::metaCount));
        };
        const auto count = [&](const char *key, qint64 value) {
            return compare(key, std::uint64_t(value),
                QStringLiteral("the database holds %1 %2").arg(QString::number(value), QLatin1String(key)));
        };
        const auto transition = [&](const char *key, std::optional<std::uint64_t> value, const char *which) {
            return compare(key, value,
                value ? QStringLiteral("the %1 access is at transition %2")
                            .arg(QLatin1String(which), QString::number(*value))
                      : QStringLiteral("the database holds no access"));
        };
        return count(schema::meta::accesses, m_report.accesses)
            && count(schema::meta::reads, m_accessesByOperation[std::size_t(Operation::Read)])
            && count(schema::meta::writes, m_accessesByOperation[std::size_t(Operation::Write)])
            && count(schema::meta::executes, m_accessesByOperation[std::size_t(Operation::Execute)])
            && count(schema::meta::slices, m_report.slices) && count(schema::meta::chunks, m_report.chunks)
            && transition(schema::meta::transitionFirst, m_firstTransition, "first")
            && transition(schema::meta::transitionLast, m_lastTransition, "last");
    }

    void addNotes()
    {
        if (!m_cap) {
            m_report.notes << QStringLiteral(
                "the chunk access cap is unknown (no %1 in meta); the largest chunk holds %2 accesses")
                                  .arg(QLatin1String(schema::meta::chunkAccessCap))
                                  .arg(m_report.largestChunk);
        } else if (m_overCapAtOneTransition > 0) {
            m_report.notes << QStringLiteral("%1 chunk(s) hold more than %2 %3 accesses within a single transition "
                                             "(allowed: one transition cannot be split)")
                                  .arg(m_overCapAtOneTransition)
                                  .arg(QLatin1String(schema::meta::chunkAccessCap))
                                  .arg(*m_cap);
        }
    }

    HistoryDatabase &m_database;
    sqlite::Connection &m_db;
    ProgressMeter m_progress;
    CheckReport m_report;
    std::optional<qint64> m_cap;
    std::vector<SliceRow> m_slices;
    std::unordered_map<qint64, OpenChunk> m_open;
    OpenChunk m_candidate; // a chunk read for an access, kept only if the access is valid
    sqlite::Statement m_chunkById;
    std::array<qint64, 5> m_accessesByOperation {}; // indexed by operation code
    std::optional<std::uint64_t> m_firstTransition;
    std::optional<std::uint64_t> m_lastTransition;
    qint64 m_overCapAtOneTransition = 0;
};

} // namespace

HistoryChecker::HistoryChecker(HistoryDatabase &database)
    : m_database(database)
{ }

CheckReport HistoryChecker::run(const std::function<bool(double)> &progress)
{
    // One read transaction: every query sees the same snapshot of the file.
    sqlite::Transaction snapshot(m_database.connection());
    CheckRun check(m_database, progress);
    return check.run();
}

} // namespace memhist
