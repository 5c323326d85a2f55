// SPDX-License-Identifier: MIT
// A thread of its own that runs one function on queued jobs, one at a time and in the order they
// were queued. The queue is bounded: the producer waits while `capacity` jobs are waiting, which
// bounds the memory the jobs hold. The writer's store and summary threads are two of them: with a
// few slices queued, neither the thread that plans slices nor the one that inserts them waits for
// the other each time a slice takes longer than usual on one side.
#pragma once

#include <QMutex>
#include <QMutexLocker>
#include <QString>
#include <QThread>
#include <QWaitCondition>
#include <deque>
#include <functional>
#include <memory>

namespace memhist {

template<typename Job> class JobWorker
{
public:
    // `work` returns false to fail: the worker then drops the jobs queued after that one and
    // takes no more. What failed is for `work` to record.
    JobWorker(const QString &threadName, qsizetype capacity, std::function<bool(const Job &)> work)
        : m_capacity(capacity)
        , m_work(std::move(work))
        , m_thread(QThread::create([this] { run(); }))
    {
        m_thread->setObjectName(threadName);
        m_thread->start();
    }
    ~JobWorker() { stop(); }
    JobWorker(const JobWorker &) = delete;
    JobWorker &operator=(const JobWorker &) = delete;

    // Queues `job`, waiting while the queue is full. False, without queuing it, once a job has
    // failed or after stop().
    bool push(Job job)
    {
        QMutexLocker lock(&m_mutex);
        while (qsizetype(m_queue.size()) >= m_capacity && !m_failed && !m_stopping)
            m_changed.wait(&m_mutex);
        if (m_failed || m_stopping)
            return false;
        m_queue.push_back(std::move(job));
        m_changed.wakeAll();
        return true;
    }

    // Waits until every queued job has run. False when one failed.
    bool waitUntilIdle()
    {
        QMutexLocker lock(&m_mutex);
        while (!m_queue.empty() || m_running)
            m_changed.wait(&m_mutex);
        return !m_failed;
    }

    bool failed() const
    {
        QMutexLocker lock(&m_mutex);
        return m_failed;
    }

    // Drops the queued jobs, lets the running one end and ends the thread.
    void stop()
    {
        {
            QMutexLocker lock(&m_mutex);
            m_stopping = true;
            m_queue.clear();
            m_changed.wakeAll();
        }
        m_thread->wait();
    }

private:
    void run()
    {
        for (;;) {
            Job job;
            {
                QMutexLocker lock(&m_mutex);
                while (m_queue.empty() && !m_stopping)
                    m_changed.wait(&m_mutex);
                if (m_queue.empty())
                    return; // stopping
                job = std::move(m_queue.front());
                m_queue.pop_front();
                m_running = true;
                m_changed.wakeAll(); // room for the producer
            }
            const bool done = m_work(job);
            job = {}; // released before the producer can see the worker idle
            QMutexLocker lock(&m_mutex);
            m_running = false;
            if (!done) {
                m_failed = true;
                m_queue.clear();
            }
            m_changed.wakeAll();
        }
    }

    const qsizetype m_capacity;
    const std::function<bool(const Job &)> m_work;
    mutable QMutex m_mutex;
    QWaitCondition m_changed; // the queue, m_running, m_failed or m_stopping changed
    std::deque<Job> m_queue;
    bool m_running = false;
    bool m_failed = false;
    bool m_stopping = false;
    std::unique_ptr<QThread> m_thread;
};

} // namespace memhist
