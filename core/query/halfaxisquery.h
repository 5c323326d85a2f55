// SPDX-License-Identifier: MIT
// The half-axis query of the storage model spec: "the first N accesses from transition T, forward
// or backward, whose bytes overlap [A, B], for these operations", resumable by rowid.
#pragma once

#include "core/context/contexttypes.h"
#include "core/model/types.h"
#include "core/query/functionfilter.h"

#include <QList>
#include <QString>
#include <memory>

namespace memhist {

class HistoryDatabase;

struct HalfAxisQuery
{
    Direction direction = Direction::Forward;
    // Forward: matches with transition >= at (default 0). Backward: transition <= at (default: the
    // last transition of the history).
    std::optional<Transition> at;
    // Continue after this row in the query's own direction (forward: rowid > R, backward: < R). With
    // `at` too, a match satisfies both (so a page's resume point added to the query that gave it
    // fetches the next page).
    std::optional<RowId> resumeAfter;
    // Inclusive byte range; an access matches when any of its bytes lies in it. first <= last.
    Address first { 0 };
    Address last { ~std::uint64_t(0) };
    Operations operations = Operations(Operation::Read) | Operation::Write;
    quint64 limit = 100;
    // Only the accesses of transitions these threads ran (the thread_spans table); empty: every
    // access, whatever ran it. Accesses at transitions no span covers belong to no thread and never
    // match a filter. A history without thread_spans refuses a filter ("this history records no
    // threads"); an id the history does not know matches nothing.
    //
    // What it costs: the engine walks the filter's spans from the start point in the query's
    // direction (reading the thread_spans index in batches, other threads' spans included, so
    // O(spans passed over)), merges spans that touch, and answers each run of the filter's
    // transitions as a query bounded to it: the accesses of other threads' transitions are never
    // read, but each run repeats the chunk lookups of the slices it meets. A filter whose thread ran
    // in many short runs costs about one bounded query per run that the page walks through.
    QList<qint64> threads;
    // Only the accesses made by the instructions of the functions of that name, or while they ran
    // (with callees): core/query/functionfilter.h. A history without PCs or symbols, or without a
    // function of that name, refuses it. Answered as the thread filter is, one bounded query per
    // run of the function's transitions (core/query/functionruns.h); both filters together keep
    // the transitions both keep.
    FunctionFilter function;

    // For a caller that needs only some bytes of the window (the memory reader, once it knows the
    // others): sorted, disjoint ranges inside [first, last]. A chunk that overlaps none of them is
    // not read, so the page holds, in order, every match that overlaps them, and only some of the
    // other matches (those of the chunks read and of the rows scanned); `exhausted` means that no
    // match overlapping them is left. Empty: every match. Chunks of a hot byte the caller already
    // knows are then skipped instead of filling its pages.
    QList<AddressRange> needed;

    // Keeps only the accesses of `threadIds` (see `threads`); an empty list lifts the filter.
    void setThreads(QList<qint64> threadIds) { threads = std::move(threadIds); }

    // Whether the query keeps every address, thread and function: its rows are then all the
    // accesses of its operations (from its start), which the history's counts give.
    bool coversEveryPlace() const
    {
        return first.value == 0 && last.value == ~std::uint64_t(0) && threads.isEmpty() && !function.isSet();
    }
};

// The accesses (reads and writes) to the bytes of `access`, `access` itself the first row in
// `direction`: the query resumes next to its row, so forward the accesses its instruction made
// before it are left out, backward those made after it. What the viewer asks about a picked or a
// found access.
inline HalfAxisQuery queryFromAccess(const Access &access, Direction direction)
{
    HalfAxisQuery query;
    query.direction = direction;
    query.resumeAfter = RowId { direction == Direction::Forward ? access.rowId.value - 1 : access.rowId.value + 1 };
    query.first = access.physical;
    query.last = access.lastByte();
    return query;
}

struct QueryPage
{
    // In rowid order for a forward query, reverse rowid order for a backward one.
    QList<Access> accesses;
    // True when fewer than `limit` rows matched: no further page exists.
    bool exhausted = false;

    // Where the next page starts (pass as HalfAxisQuery::resumeAfter), or nothing when exhausted.
    std::optional<RowId> resumePoint() const
    {
        if (exhausted || accesses.isEmpty())
            return std::nullopt;
        return accesses.constLast().rowId;
    }
};

// How the engine weighs its two ways of answering a slice: merging one index cursor per chunk that
// overlaps the window, or scanning the slice's rows in rowid order. It alternates between finding
// chunks and scanning rows, and merges as soon as the chunk list is complete and merging is cheaper
// than scanning what is left, so a slice never costs much more than the cheaper way. The defaults are
// measured with memhist-bench (docs/benchmarks.md); tests change them to drive every path on small data.
struct QueryTuning
{
    // Rows scanned per step.
    std::int64_t scanStep = 512;
    // What opening one chunk cursor costs, in rows scanned.
    std::int64_t cursorCostInRows = 16;
    // Visit only the slices the optional address summary lists for the window (when the database
    // has one); false answers as without it, visiting every slice (the plain path).
    bool useAddressSummary = true;
};

// How the last query went: what a benchmark prints and a test asserts (never the answer itself).
struct QueryStats
{
    // The address summary chose the slices to visit (false: every slice was a candidate).
    bool usedAddressSummary = false;
    // Slices whose chunks were looked up (slices sharing a boundary transition count together).
    qint64 slicesVisited = 0;
    // Chunks whose accesses were read through a cursor (each of its rows from the start point on is
    // a table read, matching or not: most of a narrow window's cost).
    qint64 chunksRead = 0;
    // Chunks in the window left unread because they overlap none of HalfAxisQuery::needed.
    qint64 chunksSkipped = 0;
    // Pages SQLite did not find in its own cache, read from the file or its memory map.
    qint64 pageCacheMisses = 0;
};

// Runs half-axis queries on one open database. Not thread-safe: one engine per thread (it owns
// prepared statements on the database's connection).
class HalfAxisQueryEngine
{
public:
    explicit HalfAxisQueryEngine(HistoryDatabase &database, QueryTuning tuning = {});
    ~HalfAxisQueryEngine();
    HalfAxisQueryEngine(const HalfAxisQueryEngine &) = delete;
    HalfAxisQueryEngine &operator=(const HalfAxisQueryEngine &) = delete;

    // False + *error on an invalid query (first > last, empty operations, needed ranges out of
    // order, overlapping or outside the window, a thread filter on a history without threads, a
    // function filter the history cannot answer) or a database error.
    bool run(const HalfAxisQuery &query, QueryPage *page, QString *error);
    const QueryStats &lastStats() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace memhist
