// SPDX-License-Identifier: MIT
// Value search (`memhist search`, the viewer's Find Value): the accesses whose bytes contain a
// value, or the reads whose bytes differ from the last write of them ("unexplained": memory that
// changed behind the trace's back), in the half-axis order of a query (rowid order forward,
// reverse backward) with its window, operations, threads and resumption, a page at a time.
//
// Two ways to walk a history, both in rowid order, so that one can take over where the other
// stopped and the answer stays exact:
// - through the window: the half-axis query's pages of the window's accesses, each tested against
//   its value. Cheap when the window is narrow, whatever the value;
// - through the values: the value blocks in rowid order, skipping those whose filter (the value
//   index, core/values/valuefilter.h) rules the value out, testing each value of the others and
//   reading the accesses of a block only when one of its values matches. Cheap when the value is
//   rare, whatever the window; without the index it decodes every block.
// The search takes steps of both, measures what each step cost per rowid it passed, and keeps to
// the cheaper way, trying the other again now and then (the query engine chooses between its
// merge and its scan the same way). Unexplained reads and thread filters walk through the window.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QByteArray>
#include <functional>
#include <memory>

namespace memhist {

struct ValueSearch
{
    // Where and when: direction, at, resumeAfter, window, operations, threads and limit, as a query.
    HalfAxisQuery query;
    // The bytes to find, in memory order: an access matches when its bytes contain them. Empty
    // with `unexplained`.
    QByteArray value;
    // Instead of a value: the reads (of the query's window and time) whose bytes differ from the
    // bytes the last earlier write of them left. Bytes never written before are not compared.
    bool unexplained = false;
};

// How the search steps, and which ways it may take: the defaults suit every history; tests make the
// steps small and force each way, so that every path and every switch is driven on small data.
struct ValueSearchTuning
{
    enum class Ways : std::uint8_t {
        Cheaper, // measure both, keep to the cheaper
        WindowOnly,
        ValuesOnly, // where it can (a thread filter or unexplained reads walk the window anyway)
    };
    Ways ways = Ways::Cheaper;
    // Rows of the window per step through it; value blocks per step through the values: steps of
    // a few milliseconds, so that the cost of each way is measured often and a cancel seen soon.
    quint64 windowStepRows = 1024;
    int valueStepBlocks = 64;
    // After this many steps the way not taken is tried again (what a step costs changes along a
    // history); each try that loses doubles the wait, up to 1,024 steps.
    int stepsBeforeRetry = 16;
};

// What the last run() did, for benchmarks and tests: how much of the index and of the values it read.
struct ValueSearchStats
{
    quint64 windowSteps = 0;
    quint64 valueSteps = 0;
    quint64 filtersRead = 0; // value index filters tested
    quint64 blocksRead = 0; // value blocks read (a filter said "maybe", or no index)
    quint64 blocksDecoded = 0; // of those, blocks whose bytes hold the value (perhaps across two values)
    quint64 blocksMatched = 0; // of those, blocks with a value that matched (the others were false positives)
    quint64 groupRowsRead = 0; // rows of the index's second level (valuegroups.h) read
    quint64 groupsSkipped = 0; // groups of rowids it ruled out
};

class ValueSearchEngine
{
public:
    // Called after each step with the share of the walk done (0..1); returning false cancels the
    // search (run() then fails with cancelledMessage()).
    using Progress = std::function<bool(double done)>;

    // Reads through `database`, which must outlive this object. One engine per thread.
    explicit ValueSearchEngine(HistoryDatabase &database, ValueSearchTuning tuning = {});
    ~ValueSearchEngine();
    ValueSearchEngine(const ValueSearchEngine &) = delete;
    ValueSearchEngine &operator=(const ValueSearchEngine &) = delete;

    // The history keeps values (value blocks: the accesses' bytes as recorded).
    bool hasValues() const;
    // It also has the value index (histories written before it are searched without).
    bool hasIndex() const;

    // The next page of matches. False + *error on a history without values, an invalid search (an
    // empty value, unexplained without reads, what HalfAxisQueryEngine refuses), a database error,
    // or a cancel.
    bool run(const ValueSearch &search, QueryPage *page, QString *error, const Progress &progress = {});

    static QString cancelledMessage();
    // What the last run() read.
    const ValueSearchStats &lastStats() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace memhist
