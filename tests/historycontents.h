// SPDX-License-Identifier: MIT
// What an imported history holds, read back for the importer tests: its accesses in rowid order,
// the reads, writes and instructions of each thread (by its thread spans), and its thread spans.
#pragma once

#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"

#include <QList>
#include <QMap>
#include <QString>

namespace memhist::test {

// One stored access as its row holds it: transition, operation, phy_first, linear, size.
using AccessRow = QList<qint64>;

// Every access, in rowid order (which is transition order).
QList<AccessRow> allAccesses(HistoryDatabase &database);
// The accesses of `path` (a history) with transitions in [first, end), in rowid order; empty with a
// warning when it cannot be opened.
QList<AccessRow> accessesBetween(const QString &path, quint64 first, quint64 end);

struct ThreadCounts
{
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 instructions = 0;
};

// Per thread: the transitions its spans cover, and the reads and writes at those transitions (one
// pass over the accesses in rowid order, which is transition order, beside the spans in time order).
QMap<qint64, ThreadCounts> countsPerThread(HistoryDatabase &database);

// Per thread: its accesses as (operation, address, size), sorted: what it did, whatever the order
// the timeline put it in.
QMap<qint64, QList<AccessRow>> sortedAccessesPerThread(HistoryDatabase &database);

// Every thread span, in time order.
QList<ThreadSpan> allSpans(HistoryDatabase &database);

} // namespace memhist::test
