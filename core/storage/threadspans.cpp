// SPDX-License-Identifier: MIT
#include "core/storage/threadspans.h"

#include "core/storage/historydatabase.h"
#include "core/storage/threadspanstatements.h"

#include <algorithm>

namespace memhist {

ThreadSpans::ThreadSpans(HistoryDatabase &database)
    : m_database(database)
{
    sqlite::Statement exists = m_database.connection().prepare(statements::threadSpansTableExists);
    m_available = exists.isValid() && exists.step() == SQLITE_ROW;
}

std::optional<qint64> ThreadSpans::threadAt(Transition transition) const
{
    if (!m_available)
        return std::nullopt;
    sqlite::Statement span = m_database.connection().prepare(statements::threadSpanEndingAtOrAfter);
    span.bind(1, toStored(transition.value));
    if (!span.isValid() || span.step() != SQLITE_ROW)
        return std::nullopt;
    if (fromStored(span.int64(1)) > transition.value)
        return std::nullopt; // in a gap between spans
    return span.int64(0);
}

QList<std::optional<qint64>> ThreadSpans::threadsOf(const QList<Access> &accesses) const
{
    QList<std::optional<qint64>> threads;
    if (!m_available || accesses.isEmpty())
        return threads;
    const auto [lowest, highest] = std::minmax_element(accesses.cbegin(), accesses.cend(),
        [](const Access &a, const Access &b) { return a.transition < b.transition; });
    const QList<ThreadSpan> spans = spansBetween(lowest->transition, highest->transition);
    threads.reserve(accesses.size());
    for (const Access &access : accesses) {
        // Spans of one timeline never overlap: the first span ending at or after T is the only
        // candidate.
        const auto span = std::lower_bound(spans.cbegin(), spans.cend(), access.transition,
            [](const ThreadSpan &s, Transition t) { return s.last < t; });
        const bool covered = span != spans.cend() && span->first <= access.transition;
        threads.append(covered ? std::optional<qint64>(span->threadId) : std::nullopt);
    }
    return threads;
}

QList<ThreadSpan> ThreadSpans::spansBetween(Transition first, Transition last) const
{
    QList<ThreadSpan> spans;
    if (!m_available)
        return spans;
    sqlite::Statement rows = m_database.connection().prepare(statements::threadSpansOverlapping);
    rows.bind(1, toStored(first.value));
    rows.bind(2, toStored(last.value));
    while (rows.isValid() && rows.step() == SQLITE_ROW)
        spans.append(
            { rows.int64(0), Transition { fromStored(rows.int64(1)) }, Transition { fromStored(rows.int64(2)) } });
    return spans;
}

QList<ThreadSummary> ThreadSpans::threads() const
{
    QList<ThreadSummary> threads;
    if (!m_available)
        return threads;
    sqlite::Statement rows = m_database.connection().prepare(statements::threadSummaries);
    while (rows.isValid() && rows.step() == SQLITE_ROW) {
        ThreadSummary summary;
        summary.threadId = rows.int64(0);
        summary.spans = rows.int64(1);
        summary.transitions = rows.int64(2);
        summary.first = Transition { fromStored(rows.int64(3)) };
        summary.last = Transition { fromStored(rows.int64(4)) };
        threads.append(summary);
    }
    return threads;
}

std::optional<qint64> ThreadSpans::threadCount() const
{
    if (!m_available)
        return std::nullopt;
    sqlite::Statement count = m_database.connection().prepare(statements::threadCount);
    if (!count.isValid() || count.step() != SQLITE_ROW)
        return std::nullopt;
    return count.int64(0);
}

} // namespace memhist
