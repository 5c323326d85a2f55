// SPDX-License-Identifier: MIT
#include "core/query/threadaccesscounts.h"

#include "core/query/rowidsearch.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"

#include <QMap>
#include <limits>

namespace memhist {

bool threadAccessCounts(HistoryDatabase &database, QList<ThreadAccessCount> *counts, QString *error)
{
    counts->clear();
    const ThreadSpans spans(database);
    if (!spans.available())
        return true;
    RowIdSearch rowids(database.connection());
    if (!rowids.load()) {
        *error = rowids.failure().message(database.path());
        return false;
    }
    constexpr auto storedMax = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    QMap<qint64, ThreadAccessCount> byThread;
    for (const ThreadSpan &span : spans.spansBetween(Transition { 0 }, Transition { storedMax })) {
        // [first row at or after the span's first transition, first row after its last one).
        const std::int64_t begin = rowids.firstRowIdAtOrAfter(std::int64_t(span.first.value));
        std::int64_t end = begin;
        if (span.last.value < storedMax) {
            end = rowids.firstRowIdAtOrAfter(std::int64_t(span.last.value + 1));
        } else if (const auto last = rowids.rowAtOrBefore(std::numeric_limits<std::int64_t>::max())) {
            end = last->rowId + 1; // a span to the end of time holds every row from `begin` on
        }
        if (rowids.failed()) {
            *error = rowids.failure().message(database.path());
            return false;
        }
        ThreadAccessCount &count = byThread[span.threadId];
        count.threadId = span.threadId;
        count.accesses += std::max<std::int64_t>(0, end - begin);
        count.transitions += qint64(span.last.value - span.first.value + 1);
    }
    *counts = byThread.values();
    return true;
}

} // namespace memhist
