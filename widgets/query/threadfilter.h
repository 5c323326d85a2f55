// SPDX-License-Identifier: MIT
// The thread filter of the query panel: a combo box "All threads" / "Thread N (k accesses)", filled
// in the background from the history's thread_spans (core threadAccessCounts: a few point reads
// per span, no access scanned), whose choice becomes HalfAxisQuery::threads. A history without
// threads keeps "All threads" alone, disabled, and the tooltip says why.
#pragma once

#include "core/query/halfaxisquery.h"
#include "widgets/common/jobtracker.h"

#include <QComboBox>
#include <QList>

namespace memhist {

class ThreadFilter : public QComboBox
{
    Q_OBJECT

public:
    explicit ThreadFilter(QWidget *parent = nullptr);

    // Reads `path`'s threads in the background (its own read-only connection); an empty path
    // clears the list. The choice goes back to "All threads".
    void setHistory(const QString &path);
    // Until the list arrives, only "All threads" is there.
    bool isLoading() const { return m_loading; }

    // The chosen threads; empty for "All threads".
    QList<qint64> threads() const;
    // Shows `threads` as the choice (a query being shown): "All threads" when empty, the thread's
    // entry when there is one, else an entry of its own ("Threads 3, 7"). Chosen before the list
    // arrives, it is applied when it does. Emits nothing.
    void setThreads(const QList<qint64> &threads);
    // `query` with this filter (what the panel builds its queries through).
    HalfAxisQuery applyTo(HalfAxisQuery query) const
    {
        query.setThreads(threads());
        return query;
    }

signals:
    // The user chose another entry.
    void threadsChanged(const QList<qint64> &threads);
    // The history's threads arrived (`count` threads; 0 for a history without threads), or could
    // not be read (`error`).
    void threadsLoaded(int count, const QString &error);

private:
    struct Loaded;
    void showLoaded(const Loaded &loaded);
    int indexOfThreads(const QList<qint64> &threads) const;

    JobTracker m_job { this };
    bool m_loading = false;
    QList<qint64> m_wanted; // the choice to show once the list arrives
};

} // namespace memhist
