// SPDX-License-Identifier: MIT
// Which thread ran which transitions, from the optional thread_spans table (drmemtrace imports
// write it): the thread at a transition for the viewer's status line, the spans in a window for a
// timeline band, and a per-thread summary for `memhist info`. A database without the table (another
// writer, a single-threaded format) answers "unknown": every call is valid, the answers are empty.
#pragma once

#include "core/model/types.h"

#include <QList>
#include <optional>

namespace memhist {

class HistoryDatabase;

struct ThreadSpan
{
    qint64 threadId = 0;
    Transition first;
    Transition last; // inclusive
};

struct ThreadSummary
{
    qint64 threadId = 0;
    qint64 spans = 0; // how many times the thread was scheduled
    qint64 transitions = 0; // the instructions it ran
    Transition first;
    Transition last;
};

// Reads through the database's connection: use it on the thread that uses the database.
class ThreadSpans
{
public:
    explicit ThreadSpans(HistoryDatabase &database);

    // True when the database has a thread_spans table.
    bool available() const { return m_available; }

    // The thread that ran transition `transition`, when known.
    std::optional<qint64> threadAt(Transition transition) const;
    // The spans overlapping [first, last], in time order.
    QList<ThreadSpan> spansBetween(Transition first, Transition last) const;
    // The thread of each access, in order (none where no span covers its transition): one read of
    // the spans under the accesses' transitions, then a binary search per access. Empty without the
    // table.
    QList<std::optional<qint64>> threadsOf(const QList<Access> &accesses) const;
    // One entry per thread, by thread id.
    QList<ThreadSummary> threads() const;
    // How many threads ran (without summarising each); null without the table or on a read error.
    std::optional<qint64> threadCount() const;

private:
    HistoryDatabase &m_database;
    bool m_available = false;
};

} // namespace memhist
