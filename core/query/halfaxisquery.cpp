#include "halfaxisquery.h"

#include "query/querystatements.h"
#include "query/rowidsearch.h"
#include "storage/historydatabase.h"
#include "storage/sqlite.h"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

namespace memhist {

namespace {

constexpr std::int64_t storedMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t storedMin = std::numeric_limits<std::int64_t>::min();
constexpr std::uint64_t signBoundary = std::uint64_t(1) << 63;

// The window as signed ranges over stored values. The index orders addresses as signed int8, so a
// window crossing 2^63 is two ranges: [A, 2^63-1] and [2^63, B].
struct StoredRange
{
    std::int64_t first;
    std::int64_t last;
};

struct Window
{
    StoredRange ranges[2];
    int count = 1;
};

Window storedWindow(Address first, Address last)
{
    Window window;
    if ((first.value < signBoundary) == (last.value < signBoundary)) {
        window.ranges[0] = { toStored(first.value), toStored(last.value) };
        window.ranges[1] = window.ranges[0];
    } else {
        window.ranges[0] = { toStored(first.value), storedMax };
        window.ranges[1] = { storedMin, toStored(last.value) };
        window.count = 2;
    }
    return window;
}

// Consecutive slices that share a boundary transition (another writer's; memhist's never do) are
// answered together, so that accesses at the shared transition merge in rowid order.
struct Unit
{
    std::vector<qint64> sliceIds;
    std::uint64_t firstTransition;
    std::uint64_t lastTransition;
    // The unit's rows: every access with a transition in [first, last]. Found by binary search the
    // first time a query needs to scan the unit, then kept.
    std::optional<std::pair<std::int64_t, std::int64_t>> rows;
};

struct ChunkRef
{
    qint64 id;
    const StoredRange *range;
};

Access readAccess(const sqlite::Statement &row)
{
    Access access;
    access.rowId = RowId { row.int64(0) };
    access.transition = Transition { fromStored(row.int64(1)) };
    access.operation = Operation(row.int64(2));
    access.physical = Address { fromStored(row.int64(3)) };
    if (!row.isNull(4))
        access.linear = Address { fromStored(row.int64(4)) };
    access.size = std::uint32_t(row.int64(5));
    return access;
}

// Walks the chunks of a unit that overlap the window, a few at a time: the spec's
// find_chunks_between for each (slice, operation, stored range), stopping at the first chunk that
// starts after the window, which is valid because chunks of one operation never overlap.
class ChunkCollector
{
public:
    ChunkCollector(sqlite::Statement &lookup, const Unit &unit, Operations operations, const Window &window)
        : m_lookup(lookup)
        , m_unit(unit)
        , m_window(window)
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

    bool isDone() const { return m_slice >= m_unit.sliceIds.size(); }
    bool failed() const { return m_failed; }

    // Appends up to `count` more chunks; returns false on a database error.
    bool collect(std::size_t count, std::vector<ChunkRef> *chunks)
    {
        while (count > 0 && !isDone()) {
            const StoredRange &range = m_window.ranges[m_range];
            if (!m_active) {
                m_lookup.bind(1, std::int64_t(m_operations[m_operation]));
                m_lookup.bind(2, m_unit.sliceIds[m_slice]);
                m_lookup.bind(3, range.first);
                m_active = true;
            }
            const int rc = m_lookup.step();
            if (rc == SQLITE_ROW && m_lookup.int64(1) <= range.last) {
                chunks->push_back({ m_lookup.int64(0), &range });
                --count;
                // Chunks of one operation do not overlap: the next starts after this one's last
                // byte, so after the window too. Skipping that row saves a step and a table read
                // per slice and operation, which is most of a narrow window's cost per slice.
                if (m_lookup.int64(2) >= range.last)
                    advance();
                continue;
            }
            if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
                m_failed = true;
                return false;
            }
            advance();
        }
        return true;
    }

private:
    void advance()
    {
        m_lookup.reset();
        m_active = false;
        if (++m_range < m_window.count)
            return;
        m_range = 0;
        if (++m_operation < m_operationCount)
            return;
        m_operation = 0;
        ++m_slice;
        if (m_operationCount == 0)
            m_slice = m_unit.sliceIds.size();
    }

    sqlite::Statement &m_lookup;
    const Unit &m_unit;
    const Window &m_window;
    // A fixed array: one collector is made per slice a query visits, so no allocation here.
    std::array<Operation, 3> m_operations {};
    std::size_t m_operationCount = 0;
    std::size_t m_slice = 0;
    std::size_t m_operation = 0;
    int m_range = 0;
    bool m_active = false;
    bool m_failed = false;
};

} // namespace

class HalfAxisQueryEngine::Private
{
public:
    Private(HistoryDatabase &database, QueryTuning tuning)
        : tuning(tuning)
        , db(database.connection())
        , rowids(db)
    {
    }

    bool load(QString *error);
    // The position a query starts from: transition bound `transition` and row bound `rowBound`
    // (forward: transition >= t and rowid >= r; backward: <= both). False when nothing lies there.
    bool startPoint(const HalfAxisQuery &query, std::int64_t *transition, std::int64_t *rowBound);
    // Appends the first matches (in the query's direction) among the given chunks' accesses, up to
    // the page's limit.
    bool gather(const std::vector<ChunkRef> &chunks, bool forward, std::int64_t transition, std::int64_t rowBound,
                quint64 limit, QList<Access> *out);
    // Appends the matches among rowids from..to (either order), in the query's direction, until
    // the page is full.
    bool scan(bool forward, std::int64_t from, std::int64_t to, Operations operations, const Window &window,
              quint64 limit, QList<Access> *out);
    std::pair<std::int64_t, std::int64_t> rowsOf(Unit &unit);
    // False + *error (SQLite's message) on a database error.
    bool answerUnit(Unit &unit, const HalfAxisQuery &query, const Window &window, std::int64_t transition,
        std::int64_t rowBound, QList<Access> *out, QString *error);

    QueryTuning tuning;
    sqlite::Connection &db;
    RowIdSearch rowids;
    bool loaded = false;
    std::vector<Unit> units;
    sqlite::Statement chunkLookup;
    sqlite::Statement scanForward;
    sqlite::Statement scanBackward;
    sqlite::Statement scanOneRangeForward;
    sqlite::Statement scanOneRangeBackward;
    sqlite::Statement chunkForward;
    sqlite::Statement chunkBackward;
};

bool HalfAxisQueryEngine::Private::load(QString *error)
{
    if (loaded)
        return true;
    sqlite::Statement slices = db.prepare(statements::slicesInOrder);
    chunkLookup = db.prepare(statements::chunksOverlapping);
    scanForward = db.prepare(statements::scanForward);
    scanBackward = db.prepare(statements::scanBackward);
    scanOneRangeForward = db.prepare(statements::scanOneRangeForward);
    scanOneRangeBackward = db.prepare(statements::scanOneRangeBackward);
    chunkForward = db.prepare(statements::chunkAccessesForward);
    chunkBackward = db.prepare(statements::chunkAccessesBackward);
    if (!slices.isValid() || !chunkLookup.isValid() || !scanForward.isValid() || !scanBackward.isValid()
        || !scanOneRangeForward.isValid() || !scanOneRangeBackward.isValid() || !chunkForward.isValid()
        || !chunkBackward.isValid()) {
        *error = QStringLiteral("cannot prepare queries: ") + db.lastError();
        return false;
    }
    // Slices are few (hundreds to thousands): kept in memory, searched with a binary search.
    int rc;
    while ((rc = slices.step()) == SQLITE_ROW) {
        const qint64 id = slices.int64(0);
        const auto first = fromStored(slices.int64(1));
        const auto last = fromStored(slices.int64(2));
        if (!units.empty() && first <= units.back().lastTransition) {
            units.back().sliceIds.push_back(id);
            units.back().lastTransition = std::max(units.back().lastTransition, last);
        } else {
            units.push_back({ { id }, first, last, std::nullopt });
        }
    }
    if (rc != SQLITE_DONE) {
        *error = QStringLiteral("cannot read slices: ") + db.lastError();
        return false;
    }
    if (!rowids.load()) {
        *error = QStringLiteral("cannot read the accesses' rowids: ") + rowids.errorString();
        return false;
    }
    loaded = true;
    return true;
}

bool HalfAxisQueryEngine::Private::startPoint(const HalfAxisQuery &query, std::int64_t *transition,
                                               std::int64_t *rowBound)
{
    const bool forward = query.direction == Direction::Forward;
    if (query.resumeAfter) {
        const std::int64_t resume = query.resumeAfter->value;
        // The row next to the resume point, in the query's direction, gives the transition to seek.
        const auto next = forward ? rowids.rowAtOrAfter(resume == storedMax ? resume : resume + 1)
                                  : rowids.rowAtOrBefore(resume == storedMin ? resume : resume - 1);
        if (!next || (forward ? next->rowId <= resume : next->rowId >= resume))
            return false;
        *transition = next->transition;
        *rowBound = next->rowId;
        return true;
    }
    if (forward) {
        *transition = std::int64_t(std::min<std::uint64_t>(query.at.value_or(Transition { 0 }).value, storedMax));
        *rowBound = storedMin;
    } else {
        *transition = query.at ? std::int64_t(std::min<std::uint64_t>(query.at->value, storedMax)) : storedMax;
        *rowBound = storedMax;
    }
    return true;
}

bool HalfAxisQueryEngine::Private::gather(const std::vector<ChunkRef> &chunks, bool forward, std::int64_t transition,
                                          std::int64_t rowBound, quint64 limit, QList<Access> *out)
{
    // The best `needed` rows so far, the worst (latest forward, earliest backward) on top. Chunks are
    // read one at a time: SQLite keeps a connection's open cursors in a list, so holding one cursor
    // per chunk open at once (a k-way merge) costs O(k^2) when they close.
    const auto needed = std::size_t(limit - quint64(out->size()));
    const auto worse = [forward](const Access &a, const Access &b) {
        return forward ? a.rowId < b.rowId : a.rowId > b.rowId;
    };
    std::vector<Access> best;
    best.reserve(std::min<std::size_t>(needed, 4096) + 1); // the limit may be huge (export: every match)
    sqlite::Statement &cursor = forward ? chunkForward : chunkBackward;
    for (const ChunkRef &chunk : chunks) {
        cursor.bind(1, chunk.id);
        cursor.bind(2, transition);
        cursor.bind(3, rowBound);
        cursor.bind(4, chunk.range->last);
        cursor.bind(5, chunk.range->first);
        // Once the page is full, rows past the worst kept one's transition cannot enter it.
        const bool full = best.size() == needed;
        cursor.bind(6, full ? std::int64_t(best.front().transition.value) : (forward ? storedMax : storedMin));
        int rc;
        while ((rc = cursor.step()) == SQLITE_ROW) {
            const std::int64_t rowId = cursor.int64(0);
            if (best.size() == needed && (forward ? rowId > best.front().rowId.value : rowId < best.front().rowId.value))
                break; // this chunk's later rows are later still
            best.push_back(readAccess(cursor));
            std::push_heap(best.begin(), best.end(), worse);
            if (best.size() > needed) {
                std::pop_heap(best.begin(), best.end(), worse);
                best.pop_back();
            }
        }
        cursor.reset();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return false;
    }
    std::sort_heap(best.begin(), best.end(), worse);
    for (Access &access : best)
        out->append(std::move(access));
    return true;
}

bool HalfAxisQueryEngine::Private::scan(bool forward, std::int64_t from, std::int64_t to, Operations operations,
                                        const Window &window, quint64 limit, QList<Access> *out)
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
    int rc;
    while ((rc = statement.step()) == SQLITE_ROW)
        out->append(readAccess(statement));
    statement.reset();
    return rc == SQLITE_DONE;
}

std::pair<std::int64_t, std::int64_t> HalfAxisQueryEngine::Private::rowsOf(Unit &unit)
{
    if (!unit.rows) {
        unit.rows = { rowids.firstRowIdAtOrAfter(std::int64_t(unit.firstTransition)),
                      rowids.lastRowIdAtOrBefore(std::int64_t(unit.lastTransition)) };
    }
    return *unit.rows;
}

bool HalfAxisQueryEngine::Private::answerUnit(Unit &unit, const HalfAxisQuery &query, const Window &window,
    std::int64_t transition, std::int64_t rowBound, QList<Access> *out, QString *error)
{
    const bool forward = query.direction == Direction::Forward;
    ChunkCollector collector(chunkLookup, unit, query.operations, window);
    // SQLite's message is read at the failure: resetting the collector's statement when it goes
    // out of scope clears it ("not an error").
    const auto failed = [&] {
        *error = db.lastError();
        return false;
    };
    std::vector<ChunkRef> chunks;
    const std::int64_t cursorCost = std::max<std::int64_t>(1, tuning.cursorCostInRows);
    const std::int64_t scanStep = std::max<std::int64_t>(1, tuning.scanStep);
    const auto collectStep = std::size_t(std::max<std::int64_t>(1, scanStep / cursorCost));

    // The rows still to scan, [position, end] in the query's direction; found only if scanning starts.
    std::optional<std::int64_t> position;
    std::int64_t end = 0;
    const auto startScanning = [&] {
        const auto [first, last] = rowsOf(unit);
        if (forward) {
            std::int64_t start = std::max(rowBound, first);
            if (transition > std::int64_t(unit.firstTransition))
                start = std::max(start, rowids.firstRowIdAtOrAfter(transition));
            position = start;
            end = last;
        } else {
            std::int64_t start = std::min(rowBound, last);
            if (transition < std::int64_t(unit.lastTransition))
                start = std::min(start, rowids.lastRowIdAtOrBefore(transition));
            position = start;
            end = first;
        }
    };
    const auto rowsLeft = [&] { return forward ? end - *position + 1 : *position - end + 1; };

    for (;;) {
        if (!collector.isDone() && !collector.collect(collectStep, &chunks))
            return failed();
        if (collector.isDone()) {
            if (chunks.empty())
                return true;
            if (!position || std::int64_t(chunks.size()) * cursorCost <= rowsLeft()) {
                // Rows already scanned are behind `position`; the cursors start there.
                const std::int64_t bound = position ? *position : rowBound;
                return gather(chunks, forward, transition, bound, query.limit, out) || failed();
            }
            return rowsLeft() <= 0 || scan(forward, *position, end, query.operations, window, query.limit, out)
                || failed();
        }
        // Many chunks so far: matches may be dense, so read the next rows too.
        if (!position)
            startScanning();
        if (rowsLeft() <= 0)
            return true;
        const std::int64_t stepEnd = forward ? (end - *position < scanStep ? end : *position + scanStep - 1)
                                             : (*position - end < scanStep ? end : *position - scanStep + 1);
        if (!scan(forward, *position, stepEnd, query.operations, window, query.limit, out))
            return failed();
        if (quint64(out->size()) >= query.limit || stepEnd == end)
            return true;
        position = forward ? stepEnd + 1 : stepEnd - 1;
    }
}

HalfAxisQueryEngine::HalfAxisQueryEngine(HistoryDatabase &database, QueryTuning tuning)
    : d(std::make_unique<Private>(database, tuning))
{
}

HalfAxisQueryEngine::~HalfAxisQueryEngine() = default;

bool HalfAxisQueryEngine::run(const HalfAxisQuery &query, QueryPage *page, QString *error)
{
    page->accesses.clear();
    page->exhausted = false;
    if (query.first > query.last) {
        *error = QStringLiteral("empty address range: from 0x%1 is above to 0x%2")
                     .arg(QString::number(query.first.value, 16), QString::number(query.last.value, 16));
        return false;
    }
    if (!(query.operations & allOperations())) {
        *error = QStringLiteral("no operation selected");
        return false;
    }
    // One read transaction for the whole query: otherwise SQLite takes and releases its file lock
    // (fcntl, fstat, a header read) around every one of the query's many small statements.
    sqlite::Transaction readTransaction(d->db);
    if (!d->load(error))
        return false;
    if (query.limit == 0)
        return true;

    const bool forward = query.direction == Direction::Forward;
    std::int64_t transition = 0;
    std::int64_t rowBound = 0;
    if (!d->startPoint(query, &transition, &rowBound)) {
        page->exhausted = true;
        return true;
    }
    const Window window = storedWindow(query.first, query.last);
    const auto &units = d->units;

    // Forward: the first unit that ends at or after the start. Backward: the last that begins at or
    // before it (the spec's backward find_slice is not exact when slices share a boundary).
    const auto t = std::uint64_t(transition);
    std::ptrdiff_t index;
    if (forward) {
        index = std::partition_point(units.begin(), units.end(), [t](const Unit &u) { return u.lastTransition < t; })
            - units.begin();
    } else {
        index = std::partition_point(units.begin(), units.end(), [t](const Unit &u) { return u.firstTransition <= t; })
            - units.begin() - 1;
    }
    for (; index >= 0 && index < std::ptrdiff_t(units.size()) && quint64(page->accesses.size()) < query.limit;
         index += forward ? 1 : -1) {
        QString reason;
        if (!d->answerUnit(
                d->units[std::size_t(index)], query, window, transition, rowBound, &page->accesses, &reason)) {
            *error = QStringLiteral("query failed: ") + reason;
            return false;
        }
    }
    page->exhausted = quint64(page->accesses.size()) < query.limit;
    return true;
}

} // namespace memhist
