// SPDX-License-Identifier: MIT
#include "historycontents.h"

#include <QtDebug>
#include <algorithm>
#include <limits>

namespace memhist::test {

QList<AccessRow> allAccesses(HistoryDatabase &database)
{
    QList<AccessRow> rows;
    sqlite::Statement statement = database.connection().prepare(
        "SELECT transition, operation, phy_first, linear, size FROM accesses ORDER BY rowid");
    while (statement.step() == SQLITE_ROW)
        rows.append(
            { statement.int64(0), statement.int64(1), statement.int64(2), statement.int64(3), statement.int64(4) });
    return rows;
}

QList<AccessRow> accessesBetween(const QString &path, quint64 first, quint64 end)
{
    QString error;
    const auto database = HistoryDatabase::open(path, &error);
    if (!database) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    QList<AccessRow> rows;
    for (const AccessRow &row : allAccesses(*database)) {
        const auto transition = fromStored(row[0]);
        if (transition >= first && transition < end)
            rows.append(row);
    }
    return rows;
}

QList<ThreadSpan> allSpans(HistoryDatabase &database)
{
    return ThreadSpans(database).spansBetween(
        Transition { 0 }, Transition { std::numeric_limits<std::int64_t>::max() });
}

namespace {

// Calls visit(threadId, row) for every access inside a thread span.
template<typename Visit> void forEachAccessOfAThread(HistoryDatabase &database, Visit visit)
{
    const QList<ThreadSpan> timeline = allSpans(database);
    qsizetype span = 0;
    for (const AccessRow &row : allAccesses(database)) {
        const auto transition = fromStored(row[0]);
        while (span < timeline.size() && timeline[span].last.value < transition)
            ++span;
        if (span == timeline.size() || timeline[span].first.value > transition)
            continue;
        visit(timeline[span].threadId, row);
    }
}

} // namespace

QMap<qint64, ThreadCounts> countsPerThread(HistoryDatabase &database)
{
    QMap<qint64, ThreadCounts> counts;
    const ThreadSpans spans(database);
    for (const ThreadSummary &thread : spans.threads())
        counts[thread.threadId].instructions = thread.transitions;
    forEachAccessOfAThread(database, [&](qint64 threadId, const AccessRow &row) {
        ThreadCounts &thread = counts[threadId];
        thread.reads += row[1] == int(Operation::Read);
        thread.writes += row[1] == int(Operation::Write);
    });
    return counts;
}

QMap<qint64, QList<AccessRow>> sortedAccessesPerThread(HistoryDatabase &database)
{
    QMap<qint64, QList<AccessRow>> accesses;
    forEachAccessOfAThread(database, [&](qint64 threadId, const AccessRow &row) {
        accesses[threadId].append({ row[1], row[2], row[4] });
    });
    for (QList<AccessRow> &rows : accesses)
        std::sort(rows.begin(), rows.end());
    return accesses;
}

} // namespace memhist::test
