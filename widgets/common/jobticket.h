// SPDX-License-Identifier: MIT
// Generations of background jobs, the one way the viewer tells a job whose result still counts from
// one that has been overtaken (in the spirit of KDAB hotspot's JobTracker): every job is started
// with a ticket of a new generation; a newer job, a cancel or the owner's end makes every older
// ticket stale; a job polls its ticket to stop early, and its result reaches the owner's thread
// only while its ticket is still current there. Qt Core only: JobTracker (one-shot jobs on the
// thread pool) and ConnectionThread (a worker thread with its own connection) are built on it.
#pragma once

#include <QElapsedTimer>
#include <QMutex>
#include <QPointer>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace memhist {

// What a job reports while it runs: how far it is (0..1, or < 0 when it cannot tell), a count of
// what it has done (rows, accesses) and what it is working on (a trace's path).
struct JobProgress
{
    double fraction = -1;
    qint64 count = 0;
    QString item;
};

namespace detail {

// What the owner and its jobs share. Outlives both: the owner may go while a job still runs.
struct JobState
{
    std::atomic<quint64> latest { 0 }; // the current generation; max() once the owner is gone
    std::atomic<quint64> stoppedUpTo { 0 }; // generations up to this one are asked to stop

    // Guards `receiver` and the progress slot below (written by jobs, read by the owner).
    QMutex mutex;
    // Where results and progress go. Cleared by the owner's destructor: nothing is posted after it.
    QPointer<QObject> receiver;
    JobProgress progress;
    quint64 progressGeneration = 0;
    bool progressPending = false;

    // The owner's thread only.
    bool alive = true;
    int running = 0; // jobs started whose completion has not reached the owner yet
    std::function<void()> idleHandler;
    std::function<void(const JobProgress &)> progressHandler;
    int progressIntervalMs = 100;
    QElapsedTimer sinceProgress;
    bool progressTimerRunning = false;

    // Any thread: runs `function` on the receiver's thread, unless the owner is gone by then.
    void post(std::function<void()> function);
    // The owner's thread: hands the newest pending progress of a current job to progressHandler, at
    // most once per progressIntervalMs (later ones wait for the interval to pass).
    void deliverProgress(const std::shared_ptr<JobState> &self);
    // The owner's thread: hands a pending progress of `generation` over now (before its result).
    void flushProgress(quint64 generation);
};

} // namespace detail

// What a job holds while it runs: its generation and, through it, whether it still counts.
class JobTicket
{
public:
    JobTicket() = default;

    quint64 generation() const { return m_generation; }
    // True once the job should stop early: a newer job overtook it, its owner cancelled or stopped
    // it, or the owner is gone. An atomic load: cheap enough to call every few hundred rows.
    bool cancelled() const;
    // True while no newer job overtook it and its owner has not cancelled it: its result counts (the
    // result of a job asked to stop still counts: it says how far it got).
    bool isCurrent() const;
    // The predicate form of cancelled(), for functions that take one.
    std::function<bool()> cancelPredicate() const;
    // Any thread: the owner's progress handler gets `progress`, coalesced with later reports to at
    // most one call per interval (see JobTracker::onProgress). Dropped when the job is stale.
    void report(const JobProgress &progress) const;

private:
    friend class JobGenerations;
    JobTicket(std::shared_ptr<detail::JobState> state, quint64 generation)
        : m_state(std::move(state))
        , m_generation(generation)
    { }

    std::shared_ptr<detail::JobState> m_state;
    quint64 m_generation = 0;
};

// The owner's side: hands out tickets and makes them stale. Lives in (and is used from) the
// receiver's thread; its destructor makes every ticket stale and stops all posting to the receiver.
class JobGenerations
{
public:
    explicit JobGenerations(QObject *receiver);
    ~JobGenerations();
    JobGenerations(const JobGenerations &) = delete;
    JobGenerations &operator=(const JobGenerations &) = delete;

    // A ticket for a new job: every ticket handed out before is stale from now on.
    JobTicket next();
    // The newest ticket, for follow-up requests of the same job (the next page of a query).
    JobTicket current() const;
    // Asks the current job to stop early; its result still counts.
    void stop();
    // Makes every ticket handed out so far stale: their jobs stop and their results are dropped.
    void cancel();

    const std::shared_ptr<detail::JobState> &state() const { return m_state; }

private:
    std::shared_ptr<detail::JobState> m_state;
    quint64 m_counter = 0;
};

} // namespace memhist
