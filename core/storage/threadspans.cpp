#include "core/storage/threadspans.h"

#include "core/storage/historydatabase.h"
#include "core/storage/threadspanstatements.h"

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
