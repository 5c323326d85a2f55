#include "halfaxisquery.h"

#include "query/querystatements.h"
#include "query/rowidsearch.h"
#include "storage/historydatabase.h"
#include "storage/sqlite.h"

#include <algorithm>
#include <limits>
#include <queue>
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
    bool collectChunks(const Unit &unit, Operations operations, const Window &window, std::size_t limit,
                       std::vector<ChunkRef> *chunks);
    bool merge(const std::vector<ChunkRef> &chunks, bool forward, std::int64_t transition, std::int64_t rowBound,
               quint64 limit, QList<Access> *out);
    // Appends the matches among rowids from..to (either order), in the query's direction, until
    // the page is full.
    bool scan(bool forward, std::int64_t from, std::int64_t to, Operations operations, const Window &window,
              quint64 limit, QList<Access> *out);
    bool answerUnit(const Unit &unit, const HalfAxisQuery &query, const Window &window, std::int64_t transition,
                    std::int64_t rowBound, QList<Access> *out);

    QueryTuning tuning;
    sqlite::Connection &db;
    RowIdSearch rowids;
    bool loaded = false;
    std::vector<Unit> units;
    sqlite::Statement chunkLookup;
    sqlite::Statement scanForward;
    sqlite::Statement scanBackward;
    std::vector<sqlite::Statement> forwardCursors;
    std::vector<sqlite::Statement> backwardCursors;
};

bool HalfAxisQueryEngine::Private::load(QString *error)
{
    if (loaded)
        return true;
    sqlite::Statement slices = db.prepare(statements::slicesInOrder);
    chunkLookup = db.prepare(statements::chunksOverlapping);
    scanForward = db.prepare(statements::scanForward);
    scanBackward = db.prepare(statements::scanBackward);
    if (!slices.isValid() || !chunkLookup.isValid() || !scanForward.isValid() || !scanBackward.isValid()) {
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
            units.push_back({ { id }, first, last });
        }
    }
    if (rc != SQLITE_DONE || !rowids.load()) {
        *error = QStringLiteral("cannot read slices: ") + db.lastError();
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

bool HalfAxisQueryEngine::Private::collectChunks(const Unit &unit, Operations operations, const Window &window,
                                                 std::size_t limit, std::vector<ChunkRef> *chunks)
{
    // One index walk per (slice, operation, range), stopping at the first chunk past the window: this
    // is the spec's find_chunks_between, valid because chunks of one operation never overlap.
    for (const qint64 sliceId : unit.sliceIds) {
        for (const Operation operation : { Operation::Execute, Operation::Write, Operation::Read }) {
            if (!operations.testFlag(operation))
                continue;
            for (int r = 0; r < window.count; ++r) {
                const StoredRange &range = window.ranges[r];
                chunkLookup.bind(1, std::int64_t(operation));
                chunkLookup.bind(2, sliceId);
                chunkLookup.bind(3, range.first);
                int rc;
                while ((rc = chunkLookup.step()) == SQLITE_ROW) {
                    if (chunkLookup.int64(1) > range.last)
                        break;
                    chunks->push_back({ chunkLookup.int64(0), &range });
                    if (chunks->size() > limit)
                        break;
                }
                chunkLookup.reset();
                if (rc != SQLITE_ROW && rc != SQLITE_DONE)
                    return false;
                if (chunks->size() > limit)
                    return true;
            }
        }
    }
    return true;
}

bool HalfAxisQueryEngine::Private::merge(const std::vector<ChunkRef> &chunks, bool forward, std::int64_t transition,
                                         std::int64_t rowBound, quint64 limit, QList<Access> *out)
{
    std::vector<sqlite::Statement> &pool = forward ? forwardCursors : backwardCursors;
    while (pool.size() < chunks.size()) {
        pool.push_back(db.prepare(forward ? statements::chunkAccessesForward : statements::chunkAccessesBackward));
        if (!pool.back().isValid())
            return false;
    }

    // A k-way merge by rowid: every cursor yields its chunk's matches in rowid order, so only the
    // head row of each is needed at any time, and at most limit + k rows are read.
    struct Head
    {
        std::int64_t rowId;
        std::size_t cursor;
    };
    const auto later = [forward](const Head &a, const Head &b) { return forward ? a.rowId > b.rowId : a.rowId < b.rowId; };
    std::priority_queue<Head, std::vector<Head>, decltype(later)> heads(later);
    bool ok = true;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        sqlite::Statement &cursor = pool[i];
        cursor.bind(1, chunks[i].id);
        cursor.bind(2, transition);
        cursor.bind(3, rowBound);
        cursor.bind(4, chunks[i].range->last);
        cursor.bind(5, chunks[i].range->first);
        const int rc = cursor.step();
        if (rc == SQLITE_ROW)
            heads.push({ cursor.int64(0), i });
        else if (rc != SQLITE_DONE)
            ok = false;
    }
    while (ok && !heads.empty() && quint64(out->size()) < limit) {
        const std::size_t index = heads.top().cursor;
        heads.pop();
        sqlite::Statement &cursor = pool[index];
        out->append(readAccess(cursor));
        const int rc = cursor.step();
        if (rc == SQLITE_ROW)
            heads.push({ cursor.int64(0), index });
        else if (rc != SQLITE_DONE)
            ok = false;
    }
    for (std::size_t i = 0; i < chunks.size(); ++i)
        pool[i].reset();
    return ok;
}

bool HalfAxisQueryEngine::Private::scan(bool forward, std::int64_t from, std::int64_t to, Operations operations,
                                        const Window &window, quint64 limit, QList<Access> *out)
{
    sqlite::Statement &statement = forward ? scanForward : scanBackward;
    statement.bind(1, std::min(from, to));
    statement.bind(2, std::max(from, to));
    statement.bind(3, std::int64_t(operations.toInt()));
    statement.bind(4, window.ranges[0].last);
    statement.bind(5, window.ranges[0].first);
    statement.bind(6, window.ranges[1].last);
    statement.bind(7, window.ranges[1].first);
    statement.bind(8, std::int64_t(std::min<quint64>(limit - quint64(out->size()), quint64(storedMax))));
    int rc;
    while ((rc = statement.step()) == SQLITE_ROW)
        out->append(readAccess(statement));
    statement.reset();
    return rc == SQLITE_DONE;
}

bool HalfAxisQueryEngine::Private::answerUnit(const Unit &unit, const HalfAxisQuery &query, const Window &window,
                                              std::int64_t transition, std::int64_t rowBound, QList<Access> *out)
{
    const bool forward = query.direction == Direction::Forward;
    std::vector<ChunkRef> chunks;
    if (!collectChunks(unit, query.operations, window, tuning.maxMergedChunks, &chunks))
        return false;
    if (chunks.empty())
        return true;
    if (chunks.size() <= tuning.maxMergedChunks)
        return merge(chunks, forward, transition, rowBound, query.limit, out);

    // Many chunks overlap the window: matches are dense, so read the unit's rows in rowid order,
    // within a budget. The unit's rows are those whose transitions lie in its range.
    const std::int64_t unitFirst = std::int64_t(unit.firstTransition);
    const std::int64_t unitLast = std::int64_t(unit.lastTransition);
    std::int64_t from, to, stop;
    if (forward) {
        from = std::max(rowBound, rowids.firstRowIdAtOrAfter(std::max(transition, unitFirst)));
        to = rowids.lastRowIdAtOrBefore(unitLast);
        stop = from > to - tuning.scanBudget ? to : from + tuning.scanBudget - 1;
    } else {
        from = std::min(rowBound, rowids.lastRowIdAtOrBefore(std::min(transition, unitLast)));
        to = rowids.firstRowIdAtOrAfter(unitFirst);
        stop = from < to + tuning.scanBudget ? to : from - tuning.scanBudget + 1;
    }
    if (forward ? from > to : from < to)
        return true;
    if (!scan(forward, from, stop, query.operations, window, query.limit, out))
        return false;
    if (quint64(out->size()) >= query.limit || stop == to)
        return true;

    // The budget ran out, so matches are sparse after all: merge the chunks from where the scan
    // stopped, unless there are so many that one cursor each would cost more than scanning on.
    chunks.clear();
    if (!collectChunks(unit, query.operations, window, tuning.maxFallbackChunks, &chunks))
        return false;
    const std::int64_t resumeRow = forward ? stop + 1 : stop - 1;
    if (chunks.size() <= tuning.maxFallbackChunks)
        return merge(chunks, forward, transition, resumeRow, query.limit, out);
    return scan(forward, resumeRow, to, query.operations, window, query.limit, out);
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
        if (!d->answerUnit(units[std::size_t(index)], query, window, transition, rowBound, &page->accesses)) {
            *error = QStringLiteral("query failed: ") + d->db.lastError();
            return false;
        }
    }
    page->exhausted = quint64(page->accesses.size()) < query.limit;
    return true;
}

} // namespace memhist
