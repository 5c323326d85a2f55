// SPDX-License-Identifier: MIT
// How many accesses each thread's transitions hold, for a thread filter's choices ("thread 10506
// (2,203 accesses)"). Cheap whatever the history's size: per span of thread_spans, two binary
// searches over rowids (RowIdSearch), O(spans × log accesses) point reads, no access row scanned.
#pragma once

#include <QList>
#include <QString>

namespace memhist {

class HistoryDatabase;

struct ThreadAccessCount
{
    qint64 threadId = 0;
    // The accesses at transitions the thread ran: every operation, counted as the rowid span of each
    // thread span (rowids are consecutive in a history written in one go, as every writer of the
    // format writes them).
    qint64 accesses = 0;
    qint64 transitions = 0; // the instructions it ran
};

// One entry per thread, by thread id; empty for a history without threads. False + *error on a
// database error or a damaged accesses table (transitions decreasing with rowid).
bool threadAccessCounts(HistoryDatabase &database, QList<ThreadAccessCount> *counts, QString *error);

} // namespace memhist
