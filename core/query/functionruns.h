// SPDX-License-Identifier: MIT
// The transitions a function filter (functionfilter.h) keeps, as runs of consecutive transitions
// walked from a start point forward or backward: what the half-axis engine answers one bounded
// query per run for, as it does for a thread filter's spans.
//
// - Without callees: the transitions whose PC lies in one of the functions of that name. The code
//   trace is walked stretch by stretch (codetracewalk.h) from the start point; which instructions of
//   each distinct code run lie in the functions is worked out once per run and kept.
// - With callees: the executions of the functions, each from a call (the entry instruction, after
//   the call instruction at C of size S) to the return to C + S, exclusive; a call from C again
//   while one runs (recursion through the same call site) nests, its return does not end the outer
//   execution. Calls made while an execution runs are inside it. Found once, by one walk of the
//   whole code trace at load, and kept: a function that ran from the start of the trace (main)
//   costs one walk, not one per page. An execution whose return never runs (a tail call through a
//   jump, longjmp, an exception, the end of the trace) lasts to the end of the trace, and so does
//   one whose call instruction is unknown (the entry is the trace's first transition).
//
// One object per engine and filter; not thread-safe.
#pragma once

#include "core/context/codetracewalk.h"
#include "core/context/contextreader.h"
#include "core/query/functionfilter.h"

#include <QHash>
#include <QList>
#include <QString>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace memhist {

class HistoryDatabase;

class FunctionRuns
{
public:
    // With callees, the executions are kept in memory (16 bytes each): a function that ran more
    // often than this is refused rather than growing without bound.
    static constexpr std::size_t maxExecutions = std::size_t(1) << 22;

    FunctionRuns(HistoryDatabase &database, FunctionFilter filter);
    ~FunctionRuns();

    const FunctionFilter &filter() const { return m_filter; }
    // Lowers the cap (tests), before load().
    void setMaxExecutions(std::size_t cap) { m_maxExecutions = cap; }

    // Resolves the name and, with callees, finds the executions; once (later calls return the first
    // answer). False + *error: the history has no PCs or no symbols, no function of that name
    // ran, with callees it ran more than maxExecutions times, or the code trace cannot be read ("no function named
    // 'fil' ran (the history names only the functions that ran; did you mean fill, fill_rows?)").
    bool load(QString *error);
    // The functions of that name (after load()).
    const QList<FunctionInfo> &functions() const { return m_functions; }
    // With callees, the executions found (after load()), in time order, inclusive.
    const std::vector<std::pair<std::int64_t, std::int64_t>> &executions() const { return m_executions; }

    // Starts a walk at transition `start` (inclusive), forward or backward.
    void start(bool forward, std::int64_t start);
    // The next run [*first, *last] (inclusive, clipped to the start's side, runs that touch merged)
    // in the walk's order, or *found false when none is left. False when the code trace could not
    // be read (error() says why): the runs would stop short, a silently wrong answer.
    bool next(std::int64_t *first, std::int64_t *last, bool *found);
    const QString &error() const;

private:
    using Interval = std::pair<std::int64_t, std::int64_t>;
    // Which instructions of run `id` lie in the functions: [begin, end) index intervals.
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> &insideOf(std::uint64_t id, const CodeRun &run);
    bool inFunctions(std::uint64_t pc) const;
    // Places the code walk at the stretch holding `transition`, or the nearest on the walk's side.
    bool seekStretch(std::int64_t transition, CodeStretch *stretch);
    // Appends the stretch's runs (clipped to the start) to m_pending in the walk's order.
    void queueStretch(const CodeStretch &stretch);
    void findExecutions();
    // Steps a statement of the walk's own; a read error is kept in m_readError.
    bool stepped(sqlite::Statement &statement);

    HistoryDatabase &m_database;
    FunctionFilter m_filter;
    bool m_loaded = false;
    QString m_loadError;
    QString m_readError; // of the statements seekStretch() runs (the walk keeps its own)
    QList<FunctionInfo> m_functions;
    std::vector<AddressRange> m_ranges; // sorted
    std::vector<Interval> m_executions;
    std::size_t m_maxExecutions = maxExecutions;

    std::unique_ptr<CodeTraceWalk> m_walk;
    QHash<std::uint64_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> m_inside;
    bool m_forward = true;
    std::int64_t m_start = 0;
    bool m_started = false; // the first stretch was queued
    bool m_ended = false; // the code walk has no more stretches
    std::deque<Interval> m_pending;
    std::size_t m_nextExecution = 0; // with callees
};

} // namespace memhist
