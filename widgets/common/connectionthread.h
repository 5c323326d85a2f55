// SPDX-License-Identifier: MIT
// A worker object in a thread of its own, holding that thread's read-only connection to one history
// (one connection per thread: a connection is never shared between threads). The owner queues work
// to it in order with post(); work carries a JobTicket, so that work still queued for an overtaken
// request is skipped, work in progress can poll for staleness (or be interrupted), and a stale
// result never reaches the owner. Qt Core only.
//
// Used by the plane's renderer, the results model and the SQL console: each derives its worker from
// ConnectionWorker (what its connection is) and keeps a ConnectionThread<ItsWorker> as a member.
#pragma once

#include "widgets/common/jobticket.h"

#include <QMutex>
#include <QObject>
#include <QThread>
#include <type_traits>

struct sqlite3;

namespace memhist {

// The worker's side: lives in the thread, opens and closes its connection there.
class ConnectionWorker : public QObject
{
public:
    ConnectionWorker() = default;

    // In the worker's thread: opens `path` unless it is the one open (closing the previous history
    // first). False and *error when it cannot be opened; nothing is open then.
    bool ensureOpen(const QString &path, QString *error);
    // In the worker's thread: closes whatever is open.
    void close();
    const QString &openPath() const { return m_openPath; }

    // Any thread: makes a statement being stepped on the connection stop at its next step
    // (sqlite3_interrupt on the handle given to setInterruptible(); nothing without one).
    virtual void interrupt();

protected:
    virtual bool openConnection(const QString &path, QString *error) = 0;
    // Must also tolerate being called when nothing is open.
    virtual void closeConnection() = 0;
    // The connection interrupt() stops: set once it is open, cleared (nullptr) before it closes,
    // so that quitting never waits for a long read of a strange file.
    void setInterruptible(sqlite3 *handle);

private:
    QString m_openPath; // empty when nothing is open
    QMutex m_handleMutex; // guards m_handle against a close while another thread interrupts
    sqlite3 *m_handle = nullptr;
};

class ConnectionThreadBase
{
public:
    // A ticket for a new request: everything queued or running for older tickets is stale from now.
    JobTicket supersede() { return m_generations.next(); }
    // The newest ticket, for follow-up requests (the next page of the same query).
    JobTicket current() const { return m_generations.current(); }
    // Makes every request so far stale (e.g. before switching histories).
    void cancel() { m_generations.cancel(); }
    // Asks the current request to stop early (its ticket reads cancelled(), so later requests of
    // the same generation are skipped); the result of the one running still counts.
    void stop() { m_generations.stop(); }
    // `handler` gets what current requests report (JobTicket::report()), at most once per
    // `intervalMs`, on the owner's thread.
    void onProgress(std::function<void(const JobProgress &)> handler, int intervalMs = 100)
    {
        m_generations.state()->progressHandler = std::move(handler);
        m_generations.state()->progressIntervalMs = intervalMs;
    }

protected:
    ConnectionThreadBase(QObject *owner, const QString &threadName, ConnectionWorker *worker);
    // Makes every request stale, interrupts the statement in progress, closes the connection in
    // its own thread, then stops the thread; the worker is deleted in its thread.
    ~ConnectionThreadBase();
    ConnectionThreadBase(const ConnectionThreadBase &) = delete;
    ConnectionThreadBase &operator=(const ConnectionThreadBase &) = delete;

    QThread m_thread;
    ConnectionWorker *m_worker; // lives in m_thread
    JobGenerations m_generations;
};

template<typename Worker> class ConnectionThread : public ConnectionThreadBase
{
    static_assert(std::is_base_of_v<ConnectionWorker, Worker>);

public:
    // Starts the thread with a `Worker(args...)` in it; results go to `owner`'s thread.
    template<typename... Args>
    ConnectionThread(QObject *owner, const QString &threadName, Args &&...args)
        : ConnectionThreadBase(owner, threadName, new Worker(std::forward<Args>(args)...))
    { }

    // For the worker's thread-safe members only (interrupt()); everything else goes through post().
    Worker &worker() const { return static_cast<Worker &>(*m_worker); }

    // Queues `work(Worker &, const JobTicket &)` in the thread: skipped when `ticket` is stale by the
    // time it would start; its result goes to `deliver(result)` on the owner's thread if `ticket` is
    // still current when it arrives.
    template<typename Work, typename Deliver> void post(const JobTicket &ticket, Work &&work, Deliver &&deliver)
    {
        const std::shared_ptr<detail::JobState> state = m_generations.state();
        auto *worker = static_cast<Worker *>(m_worker);
        QMetaObject::invokeMethod(
            worker,
            [state, worker, ticket, work = std::forward<Work>(work),
                deliver = std::forward<Deliver>(deliver)]() mutable {
                if (ticket.cancelled())
                    return;
                auto result = work(*worker, ticket);
                state->post([state, ticket, result = std::move(result), deliver = std::move(deliver)]() mutable {
                    if (state->alive && ticket.isCurrent())
                        deliver(std::move(result));
                });
            },
            Qt::QueuedConnection);
    }

    // Queues `work(Worker &)` whatever the generation (opening a history); its result always goes to
    // `deliver(result)` on the owner's thread (while the owner exists).
    template<typename Work, typename Deliver> void post(Work &&work, Deliver &&deliver)
    {
        const std::shared_ptr<detail::JobState> state = m_generations.state();
        auto *worker = static_cast<Worker *>(m_worker);
        QMetaObject::invokeMethod(
            worker,
            [state, worker, work = std::forward<Work>(work), deliver = std::forward<Deliver>(deliver)]() mutable {
                auto result = work(*worker);
                state->post([state, result = std::move(result), deliver = std::move(deliver)]() mutable {
                    if (state->alive)
                        deliver(std::move(result));
                });
            },
            Qt::QueuedConnection);
    }
};

} // namespace memhist
