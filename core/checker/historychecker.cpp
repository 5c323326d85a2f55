// SPDX-License-Identifier: MIT
#include "core/checker/historychecker.h"

#include "core/checker/addresssummarycheck.h"
#include "core/checker/checkmessages.h"
#include "core/checker/checkstatements.h"
#include "core/checker/chunkcoverage.h"
#include "core/checker/codetracecheck.h"
#include "core/checker/integritycheck.h"
#include "core/checker/progressmeter.h"
#include "core/checker/valueindexcheck.h"
#include "core/model/numbertext.h"
#include "core/model/types.h"
#include "core/query/querystatements.h"
#include "core/storage/historydatabase.h"
#include "core/storage/historystatements.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"
#include "core/storage/threadspanstatements.h"
#include "core/values/valuecheck.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <vector>

// How the checker stays fast and small on 10^8 accesses:
// - SQLite's integrity check comes first (it reads every page and every index entry once);
// - slices are few: they are all held in memory;
// - chunks are checked with two passes over the chunks table (rowid order, then per slice and
//   operation in idx_chunks_1 order) that keep nothing but a count of chunks per slice;
// - accesses are read once, in rowid order (a sequential table scan). Because transitions never
//   decrease with rowid, once the scan passes a slice's last transition no further access can
//   belong to it: its chunks are then finished (coverage, count, cap) and forgotten. Only the
//   chunks of the slice(s) being scanned are held.
// Every check runs to the end, whatever it met before: the first violation met in this order is
// the one reported first. A row that breaks a property takes no part in the checks built on it
// (an access outside its chunk does not cover the chunk's bytes), so that one defect is not
// reported again under other properties.

namespace memhist {

namespace {

using namespace check;

constexpr std::uint64_t lastSignedPositive = std::uint64_t(std::numeric_limits<std::int64_t>::max());

// The first of `columns` (the statement's columns 1, 2, ..., after the rowid) not stored as an
// integer, or null: a TEXT or BLOB number reads back as a number here, but SQL compares it as
// greater than every number, so the queries' comparisons would pass it by.
const char *firstNonInteger(const sqlite::Statement &row, std::initializer_list<const char *> columns)
{
    int column = 1;
    for (const char *name : columns) {
        if (!row.isInteger(column++))
            return name;
    }
    return nullptr;
}
// The integrity check's virtual-machine operations that take about as long as one row of the
// checker's own scans (measured: 0.6 s for 17.8 M operations, 0.5 s for 0.95 M rows).
constexpr qint64 integrityOperationsPerRow = 16;
// Not a property of the model: the tables could not be read to the end.
constexpr auto readable = "the base tables can be read";
constexpr auto summaryReadable = "the address summary can be read";

// A slice and what the checker learns about it.
struct SliceRow : SliceRecord
{
    // Chunks of this slice whose own properties hold: those checked for coverage and emptiness.
    qint64 checkableChunks = 0;
    // Chunks of this slice the access scan has met; finished when the scan leaves the slice.
    std::vector<qint64> openChunks;
    bool finished = false;
};

// A chunk as an access finds it.
struct ChunkState
{
    ChunkRecord row;
    qint64 slice = -1; // index in the slices vector; -1 when its slice does not exist
    bool checkable = false; // its own properties hold: coverage and emptiness are checked
};

// A chunk the access scan has met and not yet finished.
struct OpenChunk
{
    ChunkState state;
    qint64 accesses = 0;
    ChunkCoverage coverage;
};

// Chunks of the last slice(s) that discard_after may have emptied or left partly covered.
struct Leftovers
{
    qint64 count = 0;
    QString first; // "chunk 3 (...)" and, for partly covered chunks, where
};

bool crosses2To63(std::uint64_t first, std::uint64_t last)
{
    return first <= lastSignedPositive && last > lastSignedPositive;
}

// A chunk whose own properties hold (given that its slice exists).
bool isCheckable(const ChunkRecord &chunk)
{
    return isValidOperationCode(chunk.operation) && chunk.first <= chunk.last && !crosses2To63(chunk.first, chunk.last);
}

// One run of the checker. Each step returns false only when the progress callback cancelled it.
class CheckRun
{
public:
    CheckRun(HistoryDatabase &database, const std::function<bool(double)> &progress)
        : m_database(database)
        , m_db(database.connection())
        , m_progress(progress, estimateWork())
        , m_summary(m_db)
        , m_values(m_db, messageReporter())
    { }

    CheckReport run()
    {
        const bool finished = checkIntegrity() && readCap() && readLastTransition() && checkSlices()
            && startSummaryCheck() && checkChunks() && checkChunkOrder() && checkAccesses() && checkMeta()
            && checkThreadSpans() && checkCodeTrace() && checkValueIndex() && finishSummaryCheck()
            && m_progress.finish();
        if (!finished) {
            CheckReport cancelled;
            cancelled.violation = QStringLiteral("cancelled");
            return cancelled;
        }
        m_report.ok = m_report.violations.isEmpty();
        if (m_report.ok)
            addNotes();
        return m_report;
    }

private:
    qint64 maxRowId(const char *statement)
    {
        sqlite::Statement stmt = m_db.prepare(statement);
        return stmt.isValid() && stmt.step() == SQLITE_ROW ? stmt.int64(0) : 0;
    }

    // In rows of the checker's scans: the integrity check, two passes over chunks, one over accesses.
    qint64 estimateWork()
    {
        const qint64 slices = maxRowId(sql::maxSliceRowId);
        const qint64 chunks = maxRowId(memhist::statements::lastChunkRowId);
        qint64 accesses = 0;
        sqlite::Statement span = m_db.prepare(sql::accessRowIdSpan);
        if (span.isValid() && span.step() == SQLITE_ROW && !span.isNull(0))
            accesses = span.int64(1) - span.int64(0) + 1;
        const qint64 integrityOperations = estimateIntegrityOperations(
            m_db, { { "slices", slices }, { "chunks", chunks }, { "accesses", accesses } });
        m_integrityWork = std::max<qint64>(integrityOperations / integrityOperationsPerRow, 1);
        return m_integrityWork + 2 * chunks + accesses;
    }

    // Counts a violation of `property`; `message` is only built for the first one of each property
    // (formatting every violation of a badly broken file would cost more than the check).
    template<typename Message> void report(const char *property, Message &&message)
    {
        for (PropertyViolations &seen : m_report.violations) {
            if (seen.property == QLatin1String(property)) {
                ++seen.count;
                return;
            }
        }
        m_report.violations.append({ QLatin1String(property), message(), 1 });
        if (m_report.violation.isEmpty())
            m_report.violation = m_report.violations.constLast().first;
    }

    // For the checks of optional parts (values, code trace), which hand over whole messages.
    std::function<void(const char *, const QString &)> messageReporter()
    {
        return [this](const char *property, const QString &message) { report(property, [&] { return message; }); };
    }

    void reportReadError(const char *what)
    {
        report(
            readable, [&] { return QStringLiteral("cannot read %1: %2").arg(QLatin1String(what), m_db.lastError()); });
    }

    bool advance() { return m_progress.advance(); }

    bool checkIntegrity()
    {
        const qint64 start = m_progress.done();
        qint64 ticks = 0;
        const IntegrityResult result = runIntegrityCheck(m_db, integrityOperationsPerRow * m_progress.step(), [&] {
            ++ticks;
            return m_progress.reportAt(start + std::min(ticks * m_progress.step(), m_integrityWork));
        });
        if (result.cancelled)
            return false;
        m_progress.skipTo(start + m_integrityWork);
        const QString object = QStringLiteral("file ") + m_database.path();
        for (const QString &problem : result.problems) {
            report(property::sqliteIntegrity, [&] {
                return violation(object, QStringLiteral("SQLite's integrity check reports \"%1\"").arg(problem),
                    property::sqliteIntegrity);
            });
        }
        if (!result.error.isEmpty()) {
            report(property::sqliteIntegrity, [&] {
                return violation(object, QStringLiteral("SQLite's integrity check stopped: %1").arg(result.error),
                    property::sqliteIntegrity);
            });
        }
        return true;
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
            report(property::metaNumber, [&] {
                return violation(QStringLiteral("meta %1").arg(QLatin1String(schema::meta::chunkAccessCap)),
                    QStringLiteral("\"%1\" is not a number").arg(*it), property::metaNumber);
            });
            return true;
        }
        m_cap = cap;
        return true;
    }

    // The spec allows chunks that are empty or not tight "on the very last (few) transition": the
    // reference writer's discard_after deletes the accesses at or after a transition without
    // shrinking chunks or slices. Only slices ending after the last stored access can hold them.
    bool readLastTransition()
    {
        sqlite::Statement stmt = m_db.prepare(sql::lastAccessTransition);
        if (!stmt.isValid()) {
            reportReadError("accesses");
            return true;
        }
        const int rc = stmt.step();
        if (rc == SQLITE_ROW)
            m_lastStoredTransition = stmt.int64(0);
        else if (rc != SQLITE_DONE)
            reportReadError("accesses");
        return true;
    }

    bool mayHoldLeftovers(const SliceRow &slice) const
    {
        return !m_lastStoredTransition || slice.last > *m_lastStoredTransition;
    }

    bool checkSlices()
    {
        sqlite::Statement stmt = m_db.prepare(memhist::statements::slicesInOrder);
        if (!stmt.isValid()) {
            reportReadError("slices");
            return true;
        }
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            SliceRow slice;
            slice.id = stmt.int64(0);
            slice.first = stmt.int64(1);
            slice.last = stmt.int64(2);
            if (const char *column = firstNonInteger(stmt, { "transition_first", "transition_last" })) {
                report(property::integerColumns, [&] {
                    return violation(describe(slice),
                        QStringLiteral("%1 is not stored as an integer").arg(QLatin1String(column)),
                        property::integerColumns);
                });
            }
            if (slice.first < 0) {
                report(property::transitionRange, [&] {
                    return violation(describe(slice), describeNegativeTransition("transition_first", slice.first),
                        property::transitionRange);
                });
            }
            if (slice.last < 0) {
                report(property::transitionRange, [&] {
                    return violation(describe(slice), describeNegativeTransition("transition_last", slice.last),
                        property::transitionRange);
                });
            }
            if (slice.first > slice.last) {
                report(property::sliceBounds, [&] {
                    return violation(describe(slice),
                        QStringLiteral("transition_first %1 is after transition_last %2")
                            .arg(slice.first)
                            .arg(slice.last),
                        property::sliceBounds);
                });
            }
            if (!m_slices.empty()) {
                const SliceRow &previous = m_slices.back();
                // The reference writer closes a slice when either of its sides is full and starts
                // the next one on the same transition: exact readers cope, so it is only noted.
                if (slice.first == previous.last) {
                    ++m_sharedBoundaries;
                } else if (slice.first < previous.last) {
                    report(property::slicesDisjoint, [&] {
                        return violation(describe(slice),
                            QStringLiteral("starts at transition %1, before the end of the previous %2")
                                .arg(QString::number(slice.first), describe(previous)),
                            property::slicesDisjoint);
                    });
                }
            }
            m_slices.push_back(std::move(slice));
        }
        if (rc != SQLITE_DONE)
            reportReadError("slices");
        m_report.slices = qint64(m_slices.size());
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
        if (!stmt.isValid()) {
            reportReadError("chunks");
            return true;
        }
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            if (!advance())
                return false;
            const ChunkRecord chunk { stmt.int64(0), stmt.int64(1), fromStored(stmt.int64(2)),
                fromStored(stmt.int64(3)), stmt.int64(4) };
            ++m_report.chunks;
            m_summary.addChunk(chunk);
            if (const char *column = firstNonInteger(stmt, { "slice_id", "phy_first", "phy_last", "operation" })) {
                report(property::integerColumns, [&] {
                    return violation(describe(chunk),
                        QStringLiteral("%1 is not stored as an integer").arg(QLatin1String(column)),
                        property::integerColumns);
                });
            }
            const qint64 slice = sliceIndex(chunk.sliceId);
            if (slice < 0) {
                report(property::chunkSlice, [&] {
                    return violation(describe(chunk), QStringLiteral("slice %1 does not exist").arg(chunk.sliceId),
                        property::chunkSlice);
                });
            }
            if (!isValidOperationCode(chunk.operation)) {
                report(property::chunkOperation, [&] {
                    return violation(describe(chunk),
                        QStringLiteral("operation %1 is none of 1, 2, 4").arg(chunk.operation),
                        property::chunkOperation);
                });
            }
            if (chunk.first > chunk.last) {
                report(property::chunkBounds, [&] {
                    return violation(describe(chunk),
                        QStringLiteral("phy_first %1 is after phy_last %2")
                            .arg(hexText(chunk.first), hexText(chunk.last)),
                        property::chunkBounds);
                });
            }
            if (crosses2To63(chunk.first, chunk.last)) {
                report(property::chunkSign, [&] {
                    return violation(describe(chunk),
                        QStringLiteral("contains both %1 and %2: idx_chunks_1 orders phy_last as "
                                       "signed, where this chunk ends before it starts")
                            .arg(hexText(lastSignedPositive), hexText(lastSignedPositive + 1)),
                        property::chunkSign);
                });
            }
            if (slice >= 0 && isCheckable(chunk))
                ++m_slices[std::size_t(slice)].checkableChunks;
        }
        if (rc != SQLITE_DONE)
            reportReadError("chunks");
        return true;
    }

    // Within one (slice, operation), chunks in idx_chunks_1 order (by phy_last, the order readers
    // walk them in) have increasing, disjoint ranges. Their rowid order does not matter.
    bool checkChunkOrder()
    {
        sqlite::Statement stmt = m_db.prepare(sql::chunksOfSliceAndOperationInIndexOrder);
        if (!stmt.isValid()) {
            reportReadError("chunks");
            return true;
        }
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
                    // Its bounds are already reported: its place in the order means nothing.
                    if (!isCheckable(chunk))
                        continue;
                    // The index orders phy_last as signed; chunks do not cross 2^63, so comparing as
                    // stored compares addresses within each half and keeps the halves apart.
                    if (previous && toStored(chunk.first) <= toStored(previous->last)) {
                        report(property::chunksDisjoint, [&] {
                            return violation(describe(chunk),
                                QStringLiteral("starts at %1, not after the end of the previous %2")
                                    .arg(hexText(chunk.first), describe(*previous)),
                                property::chunksDisjoint);
                        });
                    }
                    previous = chunk;
                }
                if (rc != SQLITE_DONE) {
                    reportReadError("chunks");
                    return true;
                }
            }
        }
        return true;
    }

    // The chunk an access refers to: held if open, else read (once per chunk in a valid database).
    // Null when it does not exist.
    const ChunkState *findChunk(qint64 id)
    {
        const auto it = m_open.find(id);
        if (it != m_open.end())
            return &it->second.state;
        m_chunkById.reset();
        m_chunkById.bind(1, id);
        if (m_chunkById.step() != SQLITE_ROW)
            return nullptr;
        m_candidate.row = ChunkRecord { id, m_chunkById.int64(0), fromStored(m_chunkById.int64(1)),
            fromStored(m_chunkById.int64(2)), m_chunkById.int64(3) };
        m_candidate.slice = sliceIndex(m_candidate.row.sliceId);
        m_candidate.checkable = m_candidate.slice >= 0 && isCheckable(m_candidate.row);
        return &m_candidate;
    }

    bool checkAccesses()
    {
        m_chunkById = m_db.prepare(sql::chunkById);
        sqlite::Statement stmt = m_db.prepare(sql::accesses);
        if (!stmt.isValid() || !m_chunkById.isValid()) {
            reportReadError("accesses");
            return true;
        }
        std::optional<std::pair<qint64, std::int64_t>> previous; // rowid, transition
        std::optional<std::int64_t> latest; // the largest transition met
        std::size_t nextToFinish = 0; // slices before this index are finished
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            if (!advance())
                return false;
            const qint64 rowId = stmt.int64(0);
            const qint64 chunkId = stmt.int64(1);
            const std::int64_t transition = stmt.int64(2);
            const std::uint64_t first = fromStored(stmt.int64(3));
            const std::int64_t size = stmt.int64(4);
            const std::int64_t operation = stmt.int64(5);
            // Built only on failure: formatting per row would cost more than the whole scan.
            const auto self = [&] { return describeAccess(rowId, transition); };
            ++m_report.accesses;
            if (isValidOperationCode(operation))
                ++m_accessesByOperation[std::size_t(operation)];
            if (!m_firstTransition)
                m_firstTransition = transition;
            m_lastTransition = transition;
            // Whether this access covers bytes of its chunk: only when all of its own properties hold.
            bool counts = true;

            if (const char *column
                = firstNonInteger(stmt, { "chunk_id", "transition", "phy_first", "size", "operation" })) {
                counts = false;
                report(property::integerColumns, [&] {
                    return violation(self(),
                        QStringLiteral("%1 is not stored as an integer").arg(QLatin1String(column)),
                        property::integerColumns);
                });
            }
            if (transition < 0) {
                counts = false;
                report(property::transitionRange, [&] {
                    return violation(
                        self(), describeNegativeTransition("transition", transition), property::transitionRange);
                });
            }
            if (previous && transition < previous->second) {
                counts = false;
                report(property::accessOrder, [&] {
                    return violation(self(),
                        QStringLiteral("transition %1 is before transition %2 of the previous access %3")
                            .arg(transition)
                            .arg(previous->second)
                            .arg(previous->first),
                        property::accessOrder);
                });
            }
            previous = { rowId, transition };
            latest = std::max(latest.value_or(transition), transition);
            // Transitions never decrease from here on: slices that end before this one are done.
            while (nextToFinish < m_slices.size() && m_slices[nextToFinish].last < *latest)
                finishSlice(nextToFinish++);

            const ChunkState *chunk = findChunk(chunkId);
            if (!chunk) {
                counts = false;
                report(property::accessChunk, [&] {
                    return violation(
                        self(), QStringLiteral("chunk %1 does not exist").arg(chunkId), property::accessChunk);
                });
            }
            const std::uint64_t last = first + std::uint64_t(size - 1);
            const bool sizeHolds = size >= 1 && last >= first;
            if (size < 1) {
                counts = false;
                report(property::accessSize,
                    [&] { return violation(self(), QStringLiteral("size is %1").arg(size), property::accessSize); });
            } else if (size > std::int64_t(0xffffffff)) {
                counts = false;
                report(property::accessSizeWidth, [&] {
                    return violation(
                        self(), QStringLiteral("size is %1, past 32 bits").arg(size), property::accessSizeWidth);
                });
            } else if (last < first) {
                counts = false;
                report(property::accessWrap, [&] {
                    return violation(self(),
                        QStringLiteral("%1 bytes at %2 wrap past 0xffffffffffffffff").arg(size).arg(hexText(first)),
                        property::accessWrap);
                });
            }
            if (chunk) {
                const ChunkRecord &row = chunk->row;
                if (operation != row.operation) {
                    counts = false;
                    report(property::accessOperation, [&] {
                        return violation(self(),
                            QStringLiteral("is %1 but its chunk %2 is %3")
                                .arg(operationName(operation), QString::number(row.id), operationName(row.operation)),
                            property::accessOperation);
                    });
                }
                if (sizeHolds && (first < row.first || last > row.last)) {
                    counts = false;
                    report(property::accessInChunk, [&] {
                        return violation(self(),
                            QStringLiteral("bytes %1..%2 reach outside its %3")
                                .arg(hexText(first), hexText(last), describe(row)),
                            property::accessInChunk);
                    });
                }
                if (chunk->slice >= 0) {
                    const SliceRow &slice = m_slices[std::size_t(chunk->slice)];
                    if (transition < slice.first || transition > slice.last) {
                        counts = false;
                        report(property::accessInSlice, [&] {
                            return violation(self(),
                                QStringLiteral("transition %1 is outside its %2")
                                    .arg(QString::number(transition), describe(slice)),
                                property::accessInSlice);
                        });
                    }
                }
                // A finished slice only takes accesses that came back in time: reported above.
                if (counts && chunk->checkable && !m_slices[std::size_t(chunk->slice)].finished)
                    cover(chunkId, *chunk, first, last);
            }
            if (counts && isValidOperationCode(operation))
                m_values.visit(rowId, transition, Operation(operation), first, size);
        }
        if (rc != SQLITE_DONE)
            reportReadError("accesses");
        while (nextToFinish < m_slices.size())
            finishSlice(nextToFinish++);
        return true;
    }

    void cover(qint64 chunkId, const ChunkState &state, std::uint64_t first, std::uint64_t last)
    {
        auto it = m_open.find(chunkId);
        if (it == m_open.end()) {
            it = m_open.emplace(chunkId, OpenChunk { state, 0, {} }).first;
            m_slices[std::size_t(state.slice)].openChunks.push_back(chunkId);
        }
        ++it->second.accesses;
        it->second.coverage.add(first, last);
    }

    // No access after this point can belong to the slice: check each of its chunks, in rowid order.
    void finishSlice(std::size_t index)
    {
        SliceRow &slice = m_slices[index];
        slice.finished = true;
        std::vector<ChunkRecord> rows;
        if (qint64(slice.openChunks.size()) < slice.checkableChunks) {
            // Some chunk of the slice was never met: list them all to name the first empty one.
            sqlite::Statement stmt = m_db.prepare(sql::chunksOfSlice);
            stmt.bind(1, slice.id);
            while (stmt.isValid() && stmt.step() == SQLITE_ROW) {
                const ChunkRecord row { stmt.int64(0), slice.id, fromStored(stmt.int64(1)), fromStored(stmt.int64(2)),
                    stmt.int64(3) };
                if (isCheckable(row))
                    rows.push_back(row);
            }
        } else {
            std::sort(slice.openChunks.begin(), slice.openChunks.end());
            for (const qint64 id : slice.openChunks)
                rows.push_back(m_open.at(id).state.row);
        }
        for (const ChunkRecord &row : rows) {
            const auto it = m_open.find(row.id);
            if (it == m_open.end()) {
                if (mayHoldLeftovers(slice)) {
                    noteLeftover(m_emptyLeftovers, [&] { return describe(row); });
                } else {
                    report(property::chunkNotEmpty, [&] {
                        return violation(describe(row), QStringLiteral("holds no access"), property::chunkNotEmpty);
                    });
                }
                continue;
            }
            finishChunk(it->second, slice);
            m_open.erase(it);
        }
        slice.openChunks = {};
    }

    template<typename Description> static void noteLeftover(Leftovers &leftovers, Description &&description)
    {
        if (leftovers.count++ == 0)
            leftovers.first = description();
    }

    void finishChunk(OpenChunk &chunk, const SliceRow &slice)
    {
        const ChunkRecord &row = chunk.state.row;
        m_report.largestChunk = std::max(m_report.largestChunk, chunk.accesses);
        if (const auto hole = chunk.coverage.firstHole(row.first, row.last)) {
            if (mayHoldLeftovers(slice)) {
                noteLeftover(m_uncoveredLeftovers,
                    [&] { return QStringLiteral("%1, where %2 uncovered").arg(describe(row), describeBytes(*hole)); });
            } else {
                report(property::chunkCovered, [&] {
                    return violation(describe(row),
                        describeBytes(*hole) + QStringLiteral(" covered by none of its accesses"),
                        property::chunkCovered);
                });
            }
        }
        if (m_cap && chunk.accesses > *m_cap) {
            // Accesses of one transition cannot be spread over slices: the one exception.
            if (slice.first == slice.last) {
                ++m_overCapAtOneTransition;
            } else {
                report(property::chunkCap, [&] {
                    return violation(describe(row),
                        QStringLiteral("holds %1 accesses, more than %2 %3")
                            .arg(QString::number(chunk.accesses), QLatin1String(schema::meta::chunkAccessCap),
                                QString::number(*m_cap)),
                        property::chunkCap);
                });
            }
        }
    }

    // Counts a writer recorded in meta must be those of the database (keys absent are not checked).
    // The optional thread_spans table: each span first <= last, none overlapping another (a
    // transition run by two threads would answer a thread filter by chance).
    bool checkThreadSpans()
    {
        sqlite::Statement exists = m_db.prepare(memhist::statements::threadSpansTableExists);
        if (!exists.isValid() || exists.step() != SQLITE_ROW)
            return true;
        sqlite::Statement stmt = m_db.prepare(sql::threadSpansInOrder);
        if (!stmt.isValid()) {
            reportReadError("thread_spans");
            return true;
        }
        std::optional<std::pair<qint64, std::int64_t>> previous; // rowid, transition_last
        int rc;
        while ((rc = stmt.step()) == SQLITE_ROW) {
            const qint64 rowId = stmt.int64(0);
            const std::int64_t first = stmt.int64(2);
            const std::int64_t last = stmt.int64(3);
            const auto self
                = [&] { return QStringLiteral("thread span %1 (thread %2)").arg(rowId).arg(stmt.int64(1)); };
            if (const char *column = firstNonInteger(stmt, { "thread_id", "transition_first", "transition_last" })) {
                report(property::integerColumns, [&] {
                    return violation(self(),
                        QStringLiteral("%1 is not stored as an integer").arg(QLatin1String(column)),
                        property::integerColumns);
                });
            } else if (first < 0 || first > last) {
                report(property::threadSpans, [&] {
                    return violation(self(), QStringLiteral("covers transitions %1..%2").arg(first).arg(last),
                        property::threadSpans);
                });
            } else if (previous && first <= previous->second) {
                report(property::threadSpans, [&] {
                    return violation(self(),
                        QStringLiteral("starts at transition %1, inside span %2, which ends at %3")
                            .arg(first)
                            .arg(previous->first)
                            .arg(previous->second),
                        property::threadSpans);
                });
            }
            if (!previous || last > previous->second)
                previous = { rowId, last };
        }
        if (rc != SQLITE_DONE)
            reportReadError("thread_spans");
        return true;
    }

    bool checkValueIndex()
    {
        ValueIndexCheck valueIndex(m_db, messageReporter());
        QString error;
        if (!valueIndex.run(&error))
            report(readable, [&] { return error; });
        return true;
    }

    bool checkCodeTrace()
    {
        CodeTraceCheck codeTrace(m_db, messageReporter());
        QString error;
        if (!codeTrace.run(&error))
            report(readable, [&] { return error; });
        return true;
    }

    bool checkMeta()
    {
        const auto &meta = m_database.meta();
        const auto compare = [&](const char *key, std::optional<std::uint64_t> actual, const QString &found) {
            const auto it = meta.constFind(QLatin1String(key));
            if (it == meta.constEnd())
                return;
            const QString object = QStringLiteral("meta ") + QLatin1String(key);
            bool ok = false;
            const std::uint64_t recorded = it->toULongLong(&ok);
            if (!ok) {
                report(property::metaNumber, [&] {
                    return violation(object, QStringLiteral("\"%1\" is not a number").arg(*it), property::metaNumber);
                });
            } else if (!actual || recorded != *actual) {
                report(property::metaCount, [&] {
                    return violation(object, QStringLiteral("records %1 but %2").arg(QString::number(recorded), found),
                        property::metaCount);
                });
            }
        };
        const auto count = [&](const char *key, qint64 value) {
            compare(key, std::uint64_t(value),
                QStringLiteral("the database holds %1 %2").arg(QString::number(value), QLatin1String(key)));
        };
        // A negative transition is reported on its access; here it is compared as the unsigned value
        // its writer meant.
        const auto transition = [&](const char *key, std::optional<std::int64_t> value, const char *which) {
            compare(key, value ? std::optional(fromStored(*value)) : std::nullopt,
                value ? QStringLiteral("the %1 access is at transition %2")
                            .arg(QLatin1String(which), QString::number(*value))
                      : QStringLiteral("the database holds no access"));
        };
        count(schema::meta::accesses, m_report.accesses);
        count(schema::meta::reads, m_accessesByOperation[std::size_t(Operation::Read)]);
        count(schema::meta::writes, m_accessesByOperation[std::size_t(Operation::Write)]);
        count(schema::meta::executes, m_accessesByOperation[std::size_t(Operation::Execute)]);
        count(schema::meta::slices, m_report.slices);
        count(schema::meta::chunks, m_report.chunks);
        transition(schema::meta::transitionFirst, m_firstTransition, "first");
        transition(schema::meta::transitionLast, m_lastTransition, "last");
        return true;
    }

    // The optional address summary is rebuilt from the chunks as checkChunks() reads them.
    bool startSummaryCheck()
    {
        QString error;
        if (!m_summary.start(reportSummary(), &error))
            report(summaryReadable, [&] { return error; });
        return true;
    }

    bool finishSummaryCheck()
    {
        QString error;
        if (!m_summary.finish(reportSummary(), &error))
            report(summaryReadable, [&] { return error; });
        return true;
    }

    AddressSummaryCheck::Report reportSummary()
    {
        return [this](const QString &message) { report(property::addressSummary, [&] { return message; }); };
    }

    void addNotes()
    {
        m_report.notes << m_values.notes();
        if (!m_summary.note().isEmpty())
            m_report.notes << m_summary.note();
        if (m_sharedBoundaries > 0) {
            m_report.notes << QStringLiteral("%1 a boundary transition with the previous slice (allowed; written by "
                                             "the reference writer)")
                                  .arg(countOf(m_sharedBoundaries, "slice shares", "slices share"));
        }
        const QString allowed
            = QStringLiteral(": leftovers of discard_after, allowed in slices that end after the "
                             "last stored access (%1); the first is %2")
                  .arg(m_lastStoredTransition ? QStringLiteral("transition %1").arg(*m_lastStoredTransition)
                                              : QStringLiteral("the database holds none"));
        if (m_emptyLeftovers.count > 0) {
            m_report.notes << countOf(m_emptyLeftovers.count, "chunk holds no access", "chunks hold no access")
                    + allowed.arg(m_emptyLeftovers.first);
        }
        if (m_uncoveredLeftovers.count > 0) {
            m_report.notes << countOf(m_uncoveredLeftovers.count, "chunk has bytes covered by none of its accesses",
                                  "chunks have bytes covered by none of their accesses")
                    + allowed.arg(m_uncoveredLeftovers.first);
        }
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
    qint64 m_integrityWork = 1; // set by estimateWork(), before the meter exists
    ProgressMeter m_progress;
    CheckReport m_report;
    std::optional<qint64> m_cap;
    std::optional<std::int64_t> m_lastStoredTransition;
    std::vector<SliceRow> m_slices;
    qint64 m_sharedBoundaries = 0;
    std::unordered_map<qint64, OpenChunk> m_open;
    ChunkState m_candidate; // a chunk read for an access that is not open
    sqlite::Statement m_chunkById;
    std::array<qint64, 5> m_accessesByOperation {}; // indexed by operation code
    std::optional<std::int64_t> m_firstTransition;
    std::optional<std::int64_t> m_lastTransition;
    qint64 m_overCapAtOneTransition = 0;
    Leftovers m_emptyLeftovers;
    Leftovers m_uncoveredLeftovers;
    AddressSummaryCheck m_summary;
    ValueCheck m_values;
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
