// SPDX-License-Identifier: MIT
#include "core/query/halfaxisquery.h"

#include "core/model/numbertext.h"
#include "core/query/accessrow.h"
#include "core/query/addresssummarylookup.h"
#include "core/query/functionruns.h"
#include "core/query/queryfailure.h"
#include "core/query/querystatements.h"
#include "core/query/rowchecks.h"
#include "core/query/rowidsearch.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/storage/threadspanstatements.h"

#include <QScopeGuard>
#include <algorithm>
#include <array>
#include <limits>
#include <utility>
#include <vector>

namespace memhist {

namespace {

constexpr std::int64_t storedMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t storedMin = std::numeric_limits<std::int64_t>::min();

// Consecutive slices that share a boundary transition (another writer's; memhist's never do) are
// answered together, so that accesses at the shared transition merge in rowid order.
struct Unit
{
    std::vector<query::SliceRow> slices; // in transition order, bounds checked at load
    std::size_t firstOrdinal; // the first slice's position in the slices table's rowid order
    std::uint64_t firstTransition;
    std::uint64_t lastTransition;
    // The unit's rows: every access with a transition in [first, last]. Found by binary search the
    // first time a query needs to scan the unit, then kept.
    std::optional<std::pair<std::int64_t, std::int64_t>> rows;
};

struct ChunkRef
{
    query::ChunkRow row;
    const query::SliceRow *slice;
    const StoredRange *range;
};

// Two accesses read in any order: the one with the larger rowid must not have the smaller transition.
QString pairOrderProblem(const Access &a, const Access &b)
{
    const Access &earlier = a.rowId < b.rowId ? a : b;
    const Access &later = a.rowId < b.rowId ? b : a;
    return query::orderProblem(
        earlier.rowId.value, toStored(earlier.transition.value), later.rowId.value, toStored(later.transition.value));
}

// Walks the chunks of a unit that overlap the window, a few at a time: the spec's
// find_chunks_between for each (slice, operation, stored range), stopping at the first chunk that
// starts after the window, which is valid because chunks of one operation never overlap. Each chunk
// read is checked (bounds, and disjoint from the one read before it in index order).
class ChunkCollector
{
public:
    // candidates: when the address summary chose the slices, which operations each slice may hold
    // in the window (a lookup for any other would find nothing); null: every operation asked for.
    // needed: HalfAxisQuery::needed (empty: every chunk in the window is read); skipped counts the
    // chunks it leaves out.
    ChunkCollector(sqlite::Statement &lookup, const sqlite::Connection &db, QueryFailure &failure, const Unit &unit,
        Operations operations, const StoredRanges &window, const AddressSummaryLookup::Candidates *candidates,
        const QList<AddressRange> &needed, qint64 &skipped)
        : m_lookup(lookup)
        , m_db(db)
        , m_failure(failure)
        , m_unit(unit)
        , m_window(window)
        , m_candidates(candidates)
        , m_needed(needed)
        , m_skipped(skipped)
    {
        for (const Operation operation : { Operation::Execute, Operation::Write, Operation::Read }) {
            if (operations.testFlag(operation))
                m_operations[m_operationCount++] = operation;
        }
    }
    ~ChunkCollector()
    {
        if (m_active)
            m_lookup.reset();
    }
    ChunkCollector(const ChunkCollector &) = delete;
    ChunkCollector &operator=(const ChunkCollector &) = delete;

    bool isDone() const { return m_slice >= m_unit.slices.size(); }

    // Appends up to `count` more chunks; returns false on a database error or a violation.
    bool collect(std::size_t count, std::vector<ChunkRef> *chunks)
    {
        while (count > 0 && !isDone()) {
            const StoredRange &range = m_window.ranges[m_range];
            const query::SliceRow &slice = m_unit.slices[m_slice];
            const auto operation = std::int64_t(m_operations[m_operation]);
            if (!m_active && !mayHold(operation)) {
                advance();
                continue;
            }
            if (!m_active) {
                m_lookup.bind(1, operation);
                m_lookup.bind(2, slice.id);
                m_lookup.bind(3, range.first);
                m_active = true;
            }
            const int rc = m_lookup.step();
            if (rc == SQLITE_ROW) {
                const query::ChunkRow chunk { m_lookup.int64(0), slice.id, m_lookup.int64(1), m_lookup.int64(2),
                    operation };
                if (const QString problem = query::chunkProblem(chunk, m_previous ? &*m_previous : nullptr);
                    !problem.isEmpty())
                    return m_failure.violation(problem);
                m_previous = chunk;
                if (chunk.first <= range.last && !isNeeded(chunk)) {
                    ++m_skipped;
                    if (chunk.last >= range.last)
                        advance(); // as below: the next chunk starts after the window
                    continue;
                }
                if (chunk.first <= range.last) {
                    chunks->push_back({ chunk, &slice, &range });
                    --count;
                    // Chunks of one operation do not overlap: the next starts after this one's last
                    // byte, so after the window too. Skipping that row saves a step and a table read
                    // per slice and operation, which is most of a narrow window's cost per slice.
                    if (chunk.last >= range.last)
                        advance();
                    continue;
                }
            } else if (rc != SQLITE_DONE) {
                return m_failure.database(QStringLiteral("cannot read chunks"), m_db, rc);
            }
            advance();
        }
        return true;
    }

private:
    // Whether the chunk overlaps one of the needed ranges (a chunk never crosses 2^63: checked).
    bool isNeeded(const query::ChunkRow &chunk) const
    {
        if (m_needed.isEmpty())
            return true;
        const std::uint64_t first = fromStored(chunk.first);
        const std::uint64_t last = fromStored(chunk.last);
        const auto range = std::partition_point(
            m_needed.begin(), m_needed.end(), [first](const AddressRange &r) { return r.last.value < first; });
        return range != m_needed.end() && range->first.value <= last;
    }

    bool mayHold(std::int64_t operation) const
    {
        if (!m_candidates)
            return true;
        const std::size_t ordinal = m_unit.firstOrdinal + m_slice;
        const auto &bits = (*m_candidates)[std::size_t(addresssummary::operationIndex(operation))];
        return bits[ordinal / 64] >> (ordinal % 64) & 1;
    }

    void advance()
    {
        m_lookup.reset();
        m_active = false;
        m_previous.reset();
        if (++m_range < m_window.count)
            return;
        m_range = 0;
        if (++m_operation < m_operationCount)
            return;
        m_operation = 0;
        ++m_slice;
        if (m_operationCount == 0)
            m_slice = m_unit.slices.size();
    }

    sqlite::Statement &m_lookup;
    const sqlite::Connection &m_db;
    QueryFailure &m_failure;
    const Unit &m_unit;
    const StoredRanges &m_window;
    const AddressSummaryLookup::Candidates *m_candidates;
    const QList<AddressRange> &m_needed;
    qint64 &m_skipped;
    // A fixed array: one collector is made per slice a query visits, so no allocation here.
    std::array<Operation, 3> m_operations {};
    std::size_t m_operationCount = 0;
    std::size_t m_slice = 0;
    std::size_t m_operation = 0;
    int m_range = 0;
    bool m_active = false;
    // The chunk read before, in index order, in the current (slice, operation, range) lookup.
    std::optional<query::ChunkRow> m_previous;
};

// The runs of transitions a thread filter keeps, from the start point on in the query's direction:
// the filter's spans, clipped to the start, spans that touch merged into one run. Reads the
// thread_spans index in batches; every span read is checked against the one before it (spans of one
// timeline never overlap: a run boundary between overlapping spans would not be exact).
class ThreadRunWalk
{
public:
    ThreadRunWalk(sqlite::Statement &spanAt, sqlite::Statement &spansFrom, sqlite::Statement &spansUpTo,
        const sqlite::Connection &db, QueryFailure &failure, bool forward, std::int64_t start,
        const QList<qint64> &threads)
        : m_spanAt(spanAt)
        , m_spansFrom(spansFrom)
        , m_spansUpTo(spansUpTo)
        , m_db(db)
        , m_failure(failure)
        , m_forward(forward)
        , m_start(start)
        , m_bound(start)
        , m_threads(threads.begin(), threads.end())
    {
        std::sort(m_threads.begin(), m_threads.end());
    }

    // The next run [*first, *last] (inclusive, within the start's side), or *found false when none
    // is left. False on a database error or overlapping spans.
    bool next(std::int64_t *first, std::int64_t *last, bool *found)
    {
        *found = false;
        if (!m_pending) {
            if (!pull(&m_pending))
                return false;
            if (!m_pending)
                return true;
        }
        ThreadSpanRow run = *m_pending;
        m_pending.reset();
        for (;;) {
            std::optional<ThreadSpanRow> following;
            if (!pull(&following))
                return false;
            if (!following)
                break;
            const bool touches = m_forward ? following->first == run.last + 1 : following->last + 1 == run.first;
            if (!touches) {
                m_pending = following;
                break;
            }
            (m_forward ? run.last : run.first) = m_forward ? following->last : following->first;
        }
        *first = m_forward ? std::max(run.first, m_start) : run.first;
        *last = m_forward ? run.last : std::min(run.last, m_start);
        *found = true;
        return true;
    }

private:
    struct ThreadSpanRow
    {
        std::int64_t thread;
        std::int64_t first;
        std::int64_t last;
    };

    // The next span of a filtered thread, in the walk's order.
    bool pull(std::optional<ThreadSpanRow> *span)
    {
        span->reset();
        for (;;) {
            if (m_next == m_batch.size()) {
                if (m_exhausted)
                    return true;
                if (!readBatch())
                    return false;
                if (m_batch.empty())
                    return true;
            }
            const ThreadSpanRow row = m_batch[m_next++];
            if (std::binary_search(m_threads.begin(), m_threads.end(), row.thread)) {
                *span = row;
                return true;
            }
        }
    }

    bool readBatch()
    {
        constexpr std::int64_t batchSize = 256;
        m_batch.clear();
        m_next = 0;
        // Backward, the span that holds the start but ends after it comes first (the batches read
        // spans ending at or before a bound).
        if (!m_forward && !m_straddleRead) {
            m_straddleRead = true;
            m_spanAt.bind(1, m_start);
            const int rc = m_spanAt.step();
            if (rc == SQLITE_ROW) {
                const ThreadSpanRow row { m_spanAt.int64(0), m_spanAt.int64(1), m_spanAt.int64(2) };
                if (row.first <= m_start && row.last > m_start && !accept(row)) {
                    m_spanAt.reset();
                    return false;
                }
                if (row.first <= m_start && row.last > m_start)
                    m_batch.push_back(row);
            } else if (rc != SQLITE_DONE) {
                m_failure.database(QStringLiteral("cannot read thread spans"), m_db, rc); // before the reset
                m_spanAt.reset();
                return false;
            }
            m_spanAt.reset();
            if (!m_batch.empty())
                return true;
        }
        sqlite::Statement &statement = m_forward ? m_spansFrom : m_spansUpTo;
        statement.bind(1, m_bound);
        statement.bind(2, batchSize);
        int rc;
        while ((rc = statement.step()) == SQLITE_ROW) {
            const ThreadSpanRow row { statement.int64(0), statement.int64(1), statement.int64(2) };
            if (!accept(row)) {
                statement.reset();
                return false;
            }
            m_batch.push_back(row);
        }
        if (rc != SQLITE_DONE)
            m_failure.database(QStringLiteral("cannot read thread spans"), m_db, rc); // before the reset
        statement.reset();
        if (m_failure.failed())
            return false;
        if (std::int64_t(m_batch.size()) < batchSize)
            m_exhausted = true;
        else if (m_forward ? m_batch.back().last == storedMax : m_batch.back().last == 0)
            m_exhausted = true;
        else
            m_bound = m_forward ? m_batch.back().last + 1 : m_batch.back().last - 1;
        return true;
    }

    // Checks a span against the one read before it in the walk's order. `memhist check` does not
    // read thread_spans (it is optional), so a damaged span is described, not sent to the checker.
    bool accept(const ThreadSpanRow &row)
    {
        const bool disordered
            = m_previous && (m_forward ? row.first <= m_previous->last : row.last >= m_previous->first);
        if (row.first < 0 || row.first > row.last || disordered) {
            return m_failure.described(
                QStringLiteral("the thread_spans table is damaged: span [%1, %2] of thread %3 %4")
                    .arg(row.first)
                    .arg(row.last)
                    .arg(row.thread)
                    .arg(disordered ? QStringLiteral("overlaps span [%1, %2] of thread %3 (spans never overlap)")
                                          .arg(m_previous->first)
                                          .arg(m_previous->last)
                                          .arg(m_previous->thread)
                                    : QStringLiteral("is not a transition range (0 <= first <= last)")));
        }
        m_previous = row;
        return true;
    }

    sqlite::Statement &m_spanAt;
    sqlite::Statement &m_spansFrom;
    sqlite::Statement &m_spansUpTo;
    const sqlite::Connection &m_db;
    QueryFailure &m_failure;
    bool m_forward;
    std::int64_t m_start;
    std::int64_t m_bound; // where the next batch starts
    std::vector<qint64> m_threads; // sorted
    std::vector<ThreadSpanRow> m_batch;
    std::size_t m_next = 0;
    bool m_exhausted = false;
    bool m_straddleRead = false;
    std::optional<ThreadSpanRow> m_previous;
    std::optional<ThreadSpanRow> m_pending;
};

} // namespace

// What the engine checks on a damaged database, and why.
//
// The engine answers through the structure of the storage model (slices, chunks, the rowid order
// of transitions), so a database that breaks a property can make it answer wrong. It checks, at
// O(1) per item, every item SQLite hands it anyway, and fails naming the first violation
// (query/rowchecks.h) instead of answering:
// - at load: every slice (transitions not negative, first <= last, in rowid order not starting
//   before the previous one ends: the units and the binary searches rely on it), the distinct
//   operation codes of the chunks (at most four seeks in idx_chunks_1: the chunks of any other code
//   are invisible to every lookup, and their accesses with them), and the first and last access
//   (where a writer's transitions of 2^63 or more, stored negative, end up);
// - each chunk a lookup reads (bounds, not across 2^63, after the chunk read before it in index
//   order, which is what stopping at the first chunk past the window relies on);
// - the per-chunk cursors: every matching row, against the chunk it was reached through and the
//   chunk's slice (transition not negative, the chunk's operation, size, bytes inside the chunk,
//   transition inside the slice), and rows of one cursor against each other (index order must be
//   rowid order);
// - the rowid scan: every matching row of the scanned range (transition not negative, a valid
//   operation code, size, no wrap, a transition within the bounds the binary search promised for
//   the range: outside them, transitions decrease somewhere); each row the binary search probes,
//   against the probes around it;
// - the page, in rowid order: transitions never decrease.
// Why that suffices for the rows on a page: each row on a page was checked by the path that
// returned it, and a path chooses its rows only by what it checked: the scan by the rows of its
// range and the range's bounds, the cursors by the chunks read and their rows. A row SQLite filters
// out (it does not match the query) is not on the page and not in the right answer either,
// whatever it breaks; letting such rows through to check them too cost 30 % more instructions over
// the benchmark's queries (callgrind), for no row of the answer. What no path reads cannot put a
// wrong row on a page, only keep a row away: an access stored outside the chunk, operation or slice
// it names (no lookup leads to it; a scan returns it as the table holds it), a chunk overlapping
// another one past the window, transitions decreasing between rows the binary search did not
// probe, or a negative transition amid the table (forward cursors start at transition 0). Finding
// those takes a pass over every row, which is what `memhist check` does.
class HalfAxisQueryEngine::Private
{
public:
    Private(HistoryDatabase &database, QueryTuning tuning)
        : tuning(tuning)
        , path(database.path())
        , database(database)
        , db(database.connection())
        , rowids(db)
        , summary(db)
    { }

    bool load();
    // The position a query starts from: transition bound `transition` and row bound `rowBound`
    // (forward: transition >= t and rowid >= r; backward: <= both). *found false when nothing lies
    // there.
    bool startPoint(const HalfAxisQuery &query, std::int64_t *transition, std::int64_t *rowBound, bool *found);
    // Appends the first matches (in the query's direction) among the given chunks' accesses, up to
    // the page's limit.
    // `far`: no row past this transition (forward: above, backward: below) belongs to the answer.
    bool gather(const std::vector<ChunkRef> &chunks, bool forward, std::int64_t transition, std::int64_t rowBound,
        std::int64_t far, quint64 limit, QList<Access> *out);
    // Appends the matches among rowids from..to (either order), in the query's direction, until
    // the page is full. Every row of the range has a transition in [lowest, highest].
    bool scan(bool forward, std::int64_t from, std::int64_t to, std::int64_t lowest, std::int64_t highest,
        Operations operations, const StoredRanges &window, quint64 limit, QList<Access> *out);
    bool rowsOf(Unit &unit, std::pair<std::int64_t, std::int64_t> *rows);
    // The unit's matches from the start point (transition, rowBound) up to the transition `far`.
    bool answerUnit(Unit &unit, const HalfAxisQuery &query, const StoredRanges &window, std::int64_t transition,
        std::int64_t rowBound, std::int64_t far, QList<Access> *out);
    // Appends the matches with transitions from the start point (transition, rowBound) to `far`, in
    // the query's direction, until the page is full.
    bool answerRun(const HalfAxisQuery &query, const StoredRanges &window, std::int64_t transition,
        std::int64_t rowBound, std::int64_t far, QList<Access> *out);
    // Appends a row read in the query's direction, checking it against the row before it.
    bool append(QList<Access> *out, Access &&access);
    // After a call to `rowids`: false (its failure becomes the query's) when it failed.
    bool rowidsOk()
    {
        if (!rowids.failed())
            return true;
        failure = rowids.failure();
        return false;
    }

    // The next unit from `index` on (forward) or back (backward) that holds a candidate slice, or
    // -1 / units.size() when none is left.
    std::ptrdiff_t nextCandidate(std::ptrdiff_t index, bool forward) const;

    QueryTuning tuning;
    QString path;
    HistoryDatabase &database;
    sqlite::Connection &db;
    QueryFailure failure;
    RowIdSearch rowids;
    AddressSummaryLookup summary;
    bool loaded = false;
    std::vector<Unit> units;
    std::vector<qint64> sliceIds; // the slices table in rowid order
    std::vector<std::uint32_t> unitOfOrdinal; // for each slice in that order, its unit
    // With the address summary: per operation, bit i set when slice i (rowid order) may hold a
    // match; `candidates` ORs the operations of the query.
    AddressSummaryLookup::Candidates operationCandidates;
    std::vector<std::uint64_t> candidates;
    bool useCandidates = false;
    QueryStats stats;
    sqlite::Statement chunkLookup;
    sqlite::Statement scanForward;
    sqlite::Statement scanBackward;
    sqlite::Statement scanOneRangeForward;
    sqlite::Statement scanOneRangeBackward;
    sqlite::Statement chunkForward;
    sqlite::Statement chunkBackward;
    // With a thread_spans table (prepared at load): the thread filter's statements.
    bool hasThreadSpans = false;
    sqlite::Statement threadSpanAt;
    sqlite::Statement threadSpansFrom;
    sqlite::Statement threadSpansUpTo;
    // The function filter of the last query that had one, kept for the next page.
    std::unique_ptr<FunctionRuns> functionRuns;
};

bool HalfAxisQueryEngine::Private::load()
{
    if (loaded)
        return true;
    units.clear();
    sliceIds.clear();
    unitOfOrdinal.clear();
    const QString what = QStringLiteral("cannot prepare queries");
    sqlite::Statement slices = db.prepare(statements::slicesInOrder);
    sqlite::Statement lowestOperation = db.prepare(statements::lowestChunkOperation);
    sqlite::Statement nextOperation = db.prepare(statements::nextChunkOperation);
    chunkLookup = db.prepare(statements::chunksOverlapping);
    scanForward = db.prepare(statements::scanForward);
    scanBackward = db.prepare(statements::scanBackward);
    scanOneRangeForward = db.prepare(statements::scanOneRangeForward);
    scanOneRangeBackward = db.prepare(statements::scanOneRangeBackward);
    chunkForward = db.prepare(statements::chunkAccessesForward);
    chunkBackward = db.prepare(statements::chunkAccessesBackward);
    for (const sqlite::Statement *statement : { &slices, &lowestOperation, &nextOperation, &chunkLookup, &scanForward,
             &scanBackward, &scanOneRangeForward, &scanOneRangeBackward, &chunkForward, &chunkBackward }) {
        if (!statement->isValid())
            return failure.preparation(what, db);
    }

    // Slices are few (hundreds to thousands): kept in memory, searched with a binary search.
    int rc;
    std::optional<query::SliceRow> previous;
    while ((rc = slices.step()) == SQLITE_ROW) {
        const query::SliceRow slice { slices.int64(0), slices.int64(1), slices.int64(2) };
        if (const QString problem = query::sliceProblem(slice, previous ? &*previous : nullptr); !problem.isEmpty())
            return failure.violation(problem);
        previous = slice;
        const auto first = std::uint64_t(slice.first);
        const auto last = std::uint64_t(slice.last);
        if (!units.empty() && first <= units.back().lastTransition) {
            units.back().slices.push_back(slice);
            units.back().lastTransition = std::max(units.back().lastTransition, last);
        } else {
            units.push_back({ { slice }, sliceIds.size(), first, last, std::nullopt });
        }
        sliceIds.push_back(slice.id);
        unitOfOrdinal.push_back(std::uint32_t(units.size() - 1));
    }
    if (rc != SQLITE_DONE)
        return failure.database(QStringLiteral("cannot read slices"), db, rc);
    if (!summary.load(sliceIds, failure))
        return false;

    // Every chunk lookup names its operation: a chunk of any other code would never be found.
    sqlite::Statement *operations = &lowestOperation;
    while ((rc = operations->step()) == SQLITE_ROW) {
        const query::ChunkRow chunk { operations->int64(0), operations->int64(1), operations->int64(2),
            operations->int64(3), operations->isInteger(4) ? operations->int64(4) : 0 };
        if (const QString problem = query::chunkOperationProblem(chunk); !problem.isEmpty())
            return failure.violation(problem);
        operations->reset();
        operations = &nextOperation;
        operations->bind(1, chunk.operation);
    }
    if (rc != SQLITE_DONE)
        return failure.database(QStringLiteral("cannot read chunks"), db, rc);

    sqlite::Statement threadSpansTable = db.prepare(statements::threadSpansTableExists);
    if (!threadSpansTable.isValid())
        return failure.preparation(what, db);
    rc = threadSpansTable.step();
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return failure.database(QStringLiteral("cannot read the schema"), db, rc);
    hasThreadSpans = rc == SQLITE_ROW;
    if (hasThreadSpans) {
        threadSpanAt = db.prepare(statements::threadSpanEndingAtOrAfter);
        threadSpansFrom = db.prepare(statements::threadSpansEndingFrom);
        threadSpansUpTo = db.prepare(statements::threadSpansEndingUpTo);
        for (const sqlite::Statement *statement : { &threadSpanAt, &threadSpansFrom, &threadSpansUpTo }) {
            if (!statement->isValid())
                return failure.preparation(what, db);
        }
    }

    rowids.clearFailure();
    if (!rowids.load())
        return rowidsOk();
    loaded = true;
    return true;
}

bool HalfAxisQueryEngine::Private::startPoint(
    const HalfAxisQuery &query, std::int64_t *transition, std::int64_t *rowBound, bool *found)
{
    const bool forward = query.direction == Direction::Forward;
    *found = true;
    // Where `at` alone starts: (transition, row) pairs compare in rowid order, since transitions
    // never decrease with rowid.
    if (forward) {
        *transition = std::int64_t(std::min<std::uint64_t>(query.at.value_or(Transition { 0 }).value, storedMax));
        *rowBound = storedMin;
    } else {
        *transition = query.at ? std::int64_t(std::min<std::uint64_t>(query.at->value, storedMax)) : storedMax;
        *rowBound = storedMax;
    }
    if (!query.resumeAfter)
        return true;

    const std::int64_t resume = query.resumeAfter->value;
    // The row next to the resume point, in the query's direction, gives the transition to seek.
    const auto next = forward ? rowids.rowAtOrAfter(resume == storedMax ? resume : resume + 1)
                              : rowids.rowAtOrBefore(resume == storedMin ? resume : resume - 1);
    if (!rowidsOk())
        return false;
    if (!next || (forward ? next->rowId <= resume : next->rowId >= resume)) {
        *found = false;
        return true;
    }
    // With `at` too, both hold: the later start forward, the earlier backward. Without it, the
    // resume point alone decides.
    const std::pair resumeStart { next->transition, next->rowId };
    const std::pair atStart { *transition, *rowBound };
    const bool resumeDecides = !query.at || (forward ? resumeStart > atStart : resumeStart < atStart);
    if (resumeDecides) {
        *transition = next->transition;
        *rowBound = next->rowId;
    }
    return true;
}

bool HalfAxisQueryEngine::Private::append(QList<Access> *out, Access &&access)
{
    if (!out->isEmpty()) {
        if (const QString problem = pairOrderProblem(out->constLast(), access); !problem.isEmpty())
            return failure.violation(problem);
    }
    out->append(std::move(access));
    return true;
}

bool HalfAxisQueryEngine::Private::gather(const std::vector<ChunkRef> &chunks, bool forward, std::int64_t transition,
    std::int64_t rowBound, std::int64_t far, quint64 limit, QList<Access> *out)
{
    // The best `needed` rows so far, the worst (latest forward, earliest backward) on top. Chunks are
    // read one at a time: SQLite keeps a connection's open cursors in a list, so holding one cursor
    // per chunk open at once (a k-way merge) costs O(k^2) when they close.
    const auto needed = std::size_t(limit - quint64(out->size()));
    const auto worse
        = [forward](const Access &a, const Access &b) { return forward ? a.rowId < b.rowId : a.rowId > b.rowId; };
    std::vector<Access> best;
    best.reserve(std::min<std::size_t>(needed, 4096) + 1); // the limit may be huge (export: every match)
    sqlite::Statement &cursor = forward ? chunkForward : chunkBackward;
    for (const ChunkRef &chunk : chunks) {
        ++stats.chunksRead;
        cursor.bind(1, chunk.row.id);
        cursor.bind(2, transition);
        cursor.bind(3, rowBound);
        cursor.bind(4, chunk.range->last);
        cursor.bind(5, chunk.range->first);
        // Once the page is full, rows past the worst kept one's transition cannot enter it.
        const bool full = best.size() == needed;
        cursor.bind(6, full ? std::int64_t(best.front().transition.value) : far);
        std::optional<query::AccessRow> previous;
        QString problem;
        int rc;
        while ((rc = cursor.step()) == SQLITE_ROW) {
            const query::AccessRow row = query::readAccessRow(cursor);
            problem = query::accessInChunkProblem(row, chunk.row, *chunk.slice);
            // Index order is (transition, rowid): a row out of rowid order has a smaller transition
            // than one with a smaller rowid.
            if (problem.isEmpty() && previous
                && (forward ? row.rowId < previous->rowId : row.rowId > previous->rowId)) {
                problem = forward
                    ? query::orderProblem(row.rowId, row.transition, previous->rowId, previous->transition)
                    : query::orderProblem(previous->rowId, previous->transition, row.rowId, row.transition);
            }
            if (!problem.isEmpty())
                break;
            previous = row;
            if (best.size() == needed
                && (forward ? row.rowId > best.front().rowId.value : row.rowId < best.front().rowId.value))
                break; // this chunk's later rows are later still
            best.push_back(query::toAccess(row));
            std::push_heap(best.begin(), best.end(), worse);
            if (best.size() > needed) {
                std::pop_heap(best.begin(), best.end(), worse);
                best.pop_back();
            }
        }
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            failure.database(QStringLiteral("cannot read accesses"), db, rc); // before the reset
        cursor.reset();
        if (!problem.isEmpty())
            return failure.violation(problem);
        if (failure.failed())
            return false;
    }
    std::sort_heap(best.begin(), best.end(), worse);
    for (Access &access : best) {
        if (!append(out, std::move(access)))
            return false;
    }
    return true;
}

bool HalfAxisQueryEngine::Private::scan(bool forward, std::int64_t from, std::int64_t to, std::int64_t lowest,
    std::int64_t highest, Operations operations, const StoredRanges &window, quint64 limit, QList<Access> *out)
{
    sqlite::Statement &statement = window.count == 1 ? (forward ? scanOneRangeForward : scanOneRangeBackward)
                                                     : (forward ? scanForward : scanBackward);
    statement.bind(1, std::min(from, to));
    statement.bind(2, std::max(from, to));
    statement.bind(3, std::int64_t(operations.toInt()));
    statement.bind(4, window.ranges[0].last);
    statement.bind(5, window.ranges[0].first);
    if (window.count == 2) {
        statement.bind(6, window.ranges[1].last);
        statement.bind(7, window.ranges[1].first);
    }
    statement.bind(8, std::int64_t(std::min<quint64>(limit - quint64(out->size()), quint64(storedMax))));
    QString problem;
    int rc;
    while ((rc = statement.step()) == SQLITE_ROW) {
        const query::AccessRow row = query::readAccessRow(statement);
        problem = query::scannedAccessProblem(row, lowest, highest);
        if (!problem.isEmpty())
            break;
        Access access = query::toAccess(row);
        if (!out->isEmpty())
            problem = pairOrderProblem(out->constLast(), access);
        if (!problem.isEmpty())
            break;
        out->append(std::move(access));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        failure.database(QStringLiteral("cannot read accesses"), db, rc); // before the reset
    statement.reset();
    if (!problem.isEmpty())
        return failure.violation(problem);
    return !failure.failed();
}

std::ptrdiff_t HalfAxisQueryEngine::Private::nextCandidate(std::ptrdiff_t index, bool forward) const
{
    const auto count = std::ptrdiff_t(units.size());
    if (index < 0 || index >= count)
        return index;
    const auto words = std::ptrdiff_t(candidates.size());
    if (forward) {
        // From the unit's first slice up: the first set bit names a slice, and so its unit.
        auto bit = std::ptrdiff_t(units[std::size_t(index)].firstOrdinal);
        for (std::ptrdiff_t word = bit / 64; word < words; ++word) {
            std::uint64_t bits = candidates[std::size_t(word)];
            if (word == bit / 64)
                bits &= ~std::uint64_t(0) << (bit % 64);
            if (bits)
                return unitOfOrdinal[std::size_t(word * 64 + __builtin_ctzll(bits))];
        }
        return count;
    }
    const Unit &unit = units[std::size_t(index)];
    const auto bit = std::ptrdiff_t(unit.firstOrdinal + unit.slices.size() - 1);
    for (std::ptrdiff_t word = bit / 64; word >= 0; --word) {
        std::uint64_t bits = candidates[std::size_t(word)];
        if (word == bit / 64 && bit % 64 != 63)
            bits &= (std::uint64_t(1) << (bit % 64 + 1)) - 1;
        if (bits)
            return unitOfOrdinal[std::size_t(word * 64 + 63 - __builtin_clzll(bits))];
    }
    return -1;
}

bool HalfAxisQueryEngine::Private::rowsOf(Unit &unit, std::pair<std::int64_t, std::int64_t> *rows)
{
    if (!unit.rows) {
        const std::int64_t first = rowids.firstRowIdAtOrAfter(std::int64_t(unit.firstTransition));
        const std::int64_t last = rowids.lastRowIdAtOrBefore(std::int64_t(unit.lastTransition));
        if (!rowidsOk())
            return false;
        unit.rows = { first, last };
    }
    *rows = *unit.rows;
    return true;
}

bool HalfAxisQueryEngine::Private::answerUnit(Unit &unit, const HalfAxisQuery &query, const StoredRanges &window,
    std::int64_t transition, std::int64_t rowBound, std::int64_t far, QList<Access> *out)
{
    const bool forward = query.direction == Direction::Forward;
    ChunkCollector collector(chunkLookup, db, failure, unit, query.operations, window,
        useCandidates ? &operationCandidates : nullptr, query.needed, stats.chunksSkipped);
    std::vector<ChunkRef> chunks;
    const std::int64_t cursorCost = std::max<std::int64_t>(1, tuning.cursorCostInRows);
    const std::int64_t scanStep = std::max<std::int64_t>(1, tuning.scanStep);
    const auto collectStep = std::size_t(std::max<std::int64_t>(1, scanStep / cursorCost));

    // The rows still to scan, [position, end] in the query's direction, whose transitions lie in
    // [lowest, highest]; found only if scanning starts.
    std::optional<std::int64_t> position;
    std::int64_t end = 0;
    std::int64_t lowest = 0;
    std::int64_t highest = 0;
    const auto startScanning = [&] {
        std::pair<std::int64_t, std::int64_t> rows;
        if (!rowsOf(unit, &rows))
            return false;
        const auto [first, last] = rows;
        lowest = std::int64_t(unit.firstTransition);
        highest = std::int64_t(unit.lastTransition);
        std::int64_t start = 0;
        if (forward) {
            start = std::max(rowBound, first);
            if (transition > lowest) {
                start = std::max(start, rowids.firstRowIdAtOrAfter(transition));
                if (!rowidsOk())
                    return false;
                lowest = transition;
            }
            end = last;
            if (far < highest) {
                end = std::min(end, rowids.lastRowIdAtOrBefore(far));
                if (!rowidsOk())
                    return false;
                highest = far;
            }
        } else {
            start = std::min(rowBound, last);
            if (transition < highest) {
                start = std::min(start, rowids.lastRowIdAtOrBefore(transition));
                if (!rowidsOk())
                    return false;
                highest = transition;
            }
            end = first;
            if (far > lowest) {
                end = std::max(end, rowids.firstRowIdAtOrAfter(far));
                if (!rowidsOk())
                    return false;
                lowest = far;
            }
        }
        position = start;
        return true;
    };
    const auto rowsLeft = [&] { return forward ? end - *position + 1 : *position - end + 1; };

    for (;;) {
        if (!collector.isDone() && !collector.collect(collectStep, &chunks))
            return false;
        if (collector.isDone()) {
            if (chunks.empty())
                return true;
            if (!position || std::int64_t(chunks.size()) * cursorCost <= rowsLeft()) {
                // Rows already scanned are behind `position`; the cursors start there.
                const std::int64_t bound = position ? *position : rowBound;
                return gather(chunks, forward, transition, bound, far, query.limit, out);
            }
            return rowsLeft() <= 0
                || scan(forward, *position, end, lowest, highest, query.operations, window, query.limit, out);
        }
        // Many chunks so far: matches may be dense, so read the next rows too.
        if (!position && !startScanning())
            return false;
        if (rowsLeft() <= 0)
            return true;
        const std::int64_t stepEnd = forward ? (end - *position < scanStep ? end : *position + scanStep - 1)
                                             : (*position - end < scanStep ? end : *position - scanStep + 1);
        if (!scan(forward, *position, stepEnd, lowest, highest, query.operations, window, query.limit, out))
            return false;
        if (quint64(out->size()) >= query.limit || stepEnd == end)
            return true;
        position = forward ? stepEnd + 1 : stepEnd - 1;
    }
}

HalfAxisQueryEngine::HalfAxisQueryEngine(HistoryDatabase &database, QueryTuning tuning)
    : d(std::make_unique<Private>(database, tuning))
{ }

HalfAxisQueryEngine::~HalfAxisQueryEngine() = default;

bool HalfAxisQueryEngine::run(const HalfAxisQuery &query, QueryPage *page, QString *error)
{
    page->accesses.clear();
    page->exhausted = false;
    d->stats = QueryStats();
    if (query.first > query.last) {
        *error = QStringLiteral("empty address range: from %1 is above to %2")
                     .arg(hexText(query.first.value), hexText(query.last.value));
        return false;
    }
    if (!(query.operations & allOperations())) {
        *error = QStringLiteral("no operation selected");
        return false;
    }
    for (qsizetype i = 0; i < query.needed.size(); ++i) {
        const AddressRange &range = query.needed[i];
        if (range.first > range.last || range.first < query.first || range.last > query.last
            || (i > 0 && range.first <= query.needed[i - 1].last)) {
            *error = QStringLiteral("needed range %1 (from %2 to %3) is not inside the window from %4 to %5, after "
                                    "the range before it")
                         .arg(i + 1)
                         .arg(hexText(range.first.value), hexText(range.last.value), hexText(query.first.value),
                             hexText(query.last.value));
            return false;
        }
    }
    // One read transaction for the whole query: otherwise SQLite takes and releases its file lock
    // (fcntl, fstat, a header read) around every one of the query's many small statements.
    sqlite::Transaction readTransaction(d->db);
    int unused = 0;
    int misses = 0;
    sqlite3_db_status(d->db.handle(), SQLITE_DBSTATUS_CACHE_MISS, &misses, &unused, 1); // reset
    const auto countMisses = qScopeGuard([&] {
        sqlite3_db_status(d->db.handle(), SQLITE_DBSTATUS_CACHE_MISS, &misses, &unused, 0);
        d->stats.pageCacheMisses = misses;
    });
    d->failure.clear();
    d->rowids.clearFailure();
    const auto fail = [&] {
        *error = d->failure.message(d->path);
        page->accesses.clear();
        return false;
    };
    if (!d->load())
        return fail();
    if (!query.threads.isEmpty() && !d->hasThreadSpans) {
        *error = QStringLiteral("this history records no threads");
        return false;
    }
    if (query.function.isSet()) {
        if (!d->functionRuns || d->functionRuns->filter() != query.function)
            d->functionRuns = std::make_unique<FunctionRuns>(d->database, query.function);
        if (!d->functionRuns->load(error))
            return false;
    }
    if (query.limit == 0)
        return true;

    const bool forward = query.direction == Direction::Forward;
    std::int64_t transition = 0;
    std::int64_t rowBound = 0;
    bool found = false;
    if (!d->startPoint(query, &transition, &rowBound, &found))
        return fail();
    if (!found) {
        page->exhausted = true;
        return true;
    }
    const StoredRanges window = toStoredRanges(query.first.value, query.last.value);
    d->useCandidates = false;
    if (d->tuning.useAddressSummary
        && !d->summary.candidates(query.first.value, query.last.value, query.operations, &d->operationCandidates,
            &d->useCandidates, d->failure))
        return fail();
    if (d->useCandidates) {
        d->candidates.assign(d->operationCandidates[0].size(), 0);
        for (const auto &bits : d->operationCandidates) {
            for (std::size_t word = 0; word < bits.size(); ++word)
                d->candidates[word] |= bits[word];
        }
    }
    d->stats.usedAddressSummary = d->useCandidates;

    if (query.threads.isEmpty() && !query.function.isSet()) {
        if (!d->answerRun(query, window, transition, rowBound, forward ? storedMax : storedMin, &page->accesses))
            return fail();
    } else {
        // One bounded walk per run of the filters' transitions; the row bound stays: rows of later
        // runs lie past it anyway. With both filters, the runs both keep: each filter's runs in the
        // walk's order, the one that ends first replaced after each overlap.
        std::optional<ThreadRunWalk> threadRuns;
        if (!query.threads.isEmpty())
            threadRuns.emplace(d->threadSpanAt, d->threadSpansFrom, d->threadSpansUpTo, d->db, d->failure, forward,
                transition, query.threads);
        if (query.function.isSet())
            d->functionRuns->start(forward, transition);
        using Span = std::pair<std::int64_t, std::int64_t>;
        std::optional<Span> threadRun;
        std::optional<Span> functionRun;
        while (quint64(page->accesses.size()) < query.limit) {
            bool more = false;
            Span span;
            if (threadRuns && !threadRun) {
                if (!threadRuns->next(&span.first, &span.second, &more))
                    return fail();
                if (!more)
                    break;
                threadRun = span;
            }
            if (query.function.isSet() && !functionRun) {
                if (!d->functionRuns->next(&span.first, &span.second, &more)) {
                    d->failure.described(d->functionRuns->error());
                    return fail();
                }
                if (!more)
                    break;
                functionRun = span;
            }
            Span run = threadRun ? *threadRun : *functionRun;
            if (threadRun && functionRun) {
                run = { std::max(threadRun->first, functionRun->first),
                    std::min(threadRun->second, functionRun->second) };
                const bool threadEndsFirst
                    = forward ? threadRun->second <= functionRun->second : threadRun->first >= functionRun->first;
                (threadEndsFirst ? threadRun : functionRun).reset();
            } else {
                threadRun.reset();
                functionRun.reset();
            }
            if (run.first > run.second)
                continue;
            if (!d->answerRun(query, window, forward ? run.first : run.second, rowBound,
                    forward ? run.second : run.first, &page->accesses))
                return fail();
        }
    }
    page->exhausted = quint64(page->accesses.size()) < query.limit;
    return true;
}

bool HalfAxisQueryEngine::Private::answerRun(const HalfAxisQuery &query, const StoredRanges &window,
    std::int64_t transition, std::int64_t rowBound, std::int64_t far, QList<Access> *out)
{
    // Forward: the first unit that ends at or after the start. Backward: the last that begins at or
    // before it (the spec's backward find_slice is not exact when slices share a boundary).
    const bool forward = query.direction == Direction::Forward;
    const auto t = std::uint64_t(transition);
    std::ptrdiff_t index;
    if (forward) {
        index = std::partition_point(units.begin(), units.end(), [t](const Unit &u) { return u.lastTransition < t; })
            - units.begin();
    } else {
        index = std::partition_point(units.begin(), units.end(), [t](const Unit &u) { return u.firstTransition <= t; })
            - units.begin() - 1;
    }
    for (; quint64(out->size()) < query.limit; index += forward ? 1 : -1) {
        if (useCandidates)
            index = nextCandidate(index, forward);
        if (index < 0 || index >= std::ptrdiff_t(units.size()))
            break;
        Unit &unit = units[std::size_t(index)];
        // Past the run's far end: no later unit holds a row of it.
        // (Unit transitions were checked not negative at load: they compare as stored.)
        if (forward ? std::int64_t(unit.firstTransition) > far : std::int64_t(unit.lastTransition) < far)
            break;
        ++stats.slicesVisited;
        if (!answerUnit(unit, query, window, transition, rowBound, far, out))
            return false;
    }
    return true;
}

const QueryStats &HalfAxisQueryEngine::lastStats() const
{
    return d->stats;
}

} // namespace memhist
