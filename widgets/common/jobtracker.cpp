// SPDX-License-Identifier: MIT
#include "widgets/common/jobtracker.h"

namespace memhist {

JobTracker::JobTracker(QObject *receiver)
    : m_generations(receiver)
{ }

JobTracker::~JobTracker() = default;

void JobTracker::waitForFinished()
{
    for (QFuture<void> &future : m_futures)
        future.waitForFinished();
    m_futures.clear();
}

void JobTracker::onProgress(std::function<void(const JobProgress &)> handler, int intervalMs)
{
    m_generations.state()->progressHandler = std::move(handler);
    m_generations.state()->progressIntervalMs = intervalMs;
}

void JobTracker::finish(
    const std::shared_ptr<State> &state, const JobTicket &ticket, const std::function<void()> &deliver)
{
    if (!state->alive)
        return; // the tracker is gone; its owner may still be there, but wants nothing more
    --state->running;
    state->flushProgress(ticket.generation());
    if (ticket.isCurrent())
        deliver();
    // `deliver` may have started another job, or destroyed the tracker.
    if (state->alive && state->running == 0 && state->idleHandler) {
        const std::function<void()> idle = state->idleHandler;
        idle();
    }
}

} // namespace memhist
