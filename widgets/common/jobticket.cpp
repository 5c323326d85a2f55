// SPDX-License-Identifier: MIT
#include "widgets/common/jobticket.h"

#include <QMetaObject>
#include <QTimer>
#include <limits>

namespace memhist {

namespace detail {

void JobState::post(std::function<void()> function)
{
    // Under the mutex: the owner's destructor clears `receiver` under it too, so no event is ever
    // posted to a receiver being destroyed.
    QMutexLocker locker(&mutex);
    if (receiver)
        QMetaObject::invokeMethod(receiver.data(), std::move(function), Qt::QueuedConnection);
}

void JobState::deliverProgress(const std::shared_ptr<JobState> &self)
{
    if (!alive)
        return;
    if (sinceProgress.isValid() && sinceProgress.elapsed() < progressIntervalMs) {
        if (!progressTimerRunning && receiver) {
            progressTimerRunning = true;
            QTimer::singleShot(progressIntervalMs - int(sinceProgress.elapsed()), receiver.data(), [self] {
                self->progressTimerRunning = false;
                self->deliverProgress(self);
            });
        }
        return;
    }
    JobProgress newest;
    quint64 generation = 0;
    {
        QMutexLocker locker(&mutex);
        if (!progressPending)
            return;
        progressPending = false;
        newest = progress;
        generation = progressGeneration;
    }
    sinceProgress.restart();
    if (generation == latest.load() && progressHandler)
        progressHandler(newest);
}

void JobState::flushProgress(quint64 generation)
{
    JobProgress newest;
    {
        QMutexLocker locker(&mutex);
        if (!progressPending || progressGeneration != generation)
            return;
        progressPending = false;
        newest = progress;
    }
    sinceProgress.restart();
    if (generation == latest.load() && progressHandler)
        progressHandler(newest);
}

} // namespace detail

bool JobTicket::cancelled() const
{
    return !m_state || m_state->latest.load() != m_generation || m_state->stoppedUpTo.load() >= m_generation;
}

bool JobTicket::isCurrent() const
{
    return m_state && m_state->latest.load() == m_generation;
}

std::function<bool()> JobTicket::cancelPredicate() const
{
    return [ticket = *this] { return ticket.cancelled(); };
}

void JobTicket::report(const JobProgress &progress) const
{
    if (!isCurrent())
        return;
    const std::shared_ptr<detail::JobState> state = m_state;
    {
        QMutexLocker locker(&state->mutex);
        state->progress = progress;
        state->progressGeneration = m_generation;
        if (state->progressPending)
            return; // a delivery is on its way and takes the newest value
        state->progressPending = true;
    }
    state->post([state] { state->deliverProgress(state); });
}

JobGenerations::JobGenerations(QObject *receiver)
    : m_state(std::make_shared<detail::JobState>())
{
    m_state->receiver = receiver;
}

JobGenerations::~JobGenerations()
{
    m_state->latest.store(std::numeric_limits<quint64>::max());
    m_state->alive = false;
    m_state->idleHandler = nullptr;
    m_state->progressHandler = nullptr;
    QMutexLocker locker(&m_state->mutex);
    m_state->receiver.clear();
}

JobTicket JobGenerations::next()
{
    m_state->latest.store(++m_counter);
    return JobTicket(m_state, m_counter);
}

JobTicket JobGenerations::current() const
{
    return JobTicket(m_state, m_state->latest.load());
}

void JobGenerations::stop()
{
    m_state->stoppedUpTo.store(m_state->latest.load());
}

void JobGenerations::cancel()
{
    m_state->latest.store(++m_counter);
}

} // namespace memhist
