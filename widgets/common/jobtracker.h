// SPDX-License-Identifier: MIT
// One-shot background jobs on the thread pool, for an owner on the GUI thread: a job receives a
// JobTicket (poll ticket.cancelled() to stop early, ticket.report() for progress) and returns its
// result; the result reaches `deliver` on the owner's thread only if the job is still the newest
// one by then (start() makes every older job stale, cancel() every job so far) and the owner still
// exists. Nothing a job captures may point into the owner: the owner may go while it runs.
//
// Owners keep a JobTracker as a member, constructed with `this`. Destroying it makes every job
// stale (each sees cancelled() at its next poll) without waiting for them, unless the owner calls
// waitForFinished() first.
#pragma once

#include "widgets/common/jobticket.h"

#include <QFuture>
#include <QList>
#include <QtConcurrent/QtConcurrentRun>
#include <type_traits>

namespace memhist {

class JobTracker
{
public:
    explicit JobTracker(QObject *receiver);
    ~JobTracker();
    JobTracker(const JobTracker &) = delete;
    JobTracker &operator=(const JobTracker &) = delete;

    // Runs `job(const JobTicket &)` on the thread pool; its result goes to `deliver(result)` on the
    // owner's thread if the job is still current when it arrives.
    template<typename Job, typename Deliver> void start(Job &&job, Deliver &&deliver);

    // Asks the current job to stop early (ticket.cancelled() turns true); its result is still
    // delivered, so that it can say how far it got.
    void stop() { m_generations.stop(); }
    // Makes every job started so far stale: they stop early and nothing of theirs is delivered.
    void cancel() { m_generations.cancel(); }
    // Whether a job started here has not finished yet (stale ones included, until they return).
    bool isRunning() const { return m_generations.state()->running > 0; }
    // Blocks until every job started here has returned (for owners whose jobs must not outlive
    // them, e.g. to remove their temporary files before the application exits).
    void waitForFinished();

    // Called on the owner's thread each time the last running job has finished (after its result,
    // if it was delivered): lets an owner that runs one job at a time start the next.
    void onIdle(std::function<void()> handler) { m_generations.state()->idleHandler = std::move(handler); }
    // Called on the owner's thread with the newest progress a current job reported: at most once per
    // `intervalMs` while the job runs, and once more, if there is anything new, right before its
    // result.
    void onProgress(std::function<void(const JobProgress &)> handler, int intervalMs = 100);

private:
    using State = detail::JobState;
    // On the owner's thread, after `ticket`'s job returned: its progress, its result, then onIdle.
    static void finish(
        const std::shared_ptr<State> &state, const JobTicket &ticket, const std::function<void()> &deliver);

    JobGenerations m_generations;
    QList<QFuture<void>> m_futures; // of the jobs that may still run, for waitForFinished()
};

template<typename Job, typename Deliver> void JobTracker::start(Job &&job, Deliver &&deliver)
{
    using Result = std::invoke_result_t<std::decay_t<Job> &, const JobTicket &>;
    m_futures.removeIf([](const QFuture<void> &future) { return future.isFinished(); });
    const JobTicket ticket = m_generations.next();
    const std::shared_ptr<State> state = m_generations.state();
    ++state->running;
    m_futures.append(QtConcurrent::run(
        [state, ticket, job = std::forward<Job>(job), deliver = std::forward<Deliver>(deliver)]() mutable {
            auto result = std::make_shared<Result>(job(ticket));
            state->post([state, ticket, result, deliver = std::move(deliver)]() mutable {
                finish(state, ticket, [&] { deliver(std::move(*result)); });
            });
        }));
}

} // namespace memhist
