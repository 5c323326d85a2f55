// SPDX-License-Identifier: MIT
// JobWorker (core/writer/jobworker.h), the thread the writer stores and summarises slices on: it
// runs the jobs in the order they were pushed, the producer waits while the queue is full, a failed
// job drops the ones queued after it and refuses new ones, and stop() drops what is queued.
#include "core/writer/jobworker.h"

#include <QScopeGuard>
#include <QSemaphore>
#include <QTest>
#include <atomic>
#include <vector>

using namespace memhist;

class tst_JobWorker : public QObject
{
    Q_OBJECT

private slots:
    void runsJobsInPushOrder();
    void pushWaitsWhileTheQueueIsFull();
    void aFailedJobDropsTheJobsAfterIt();
    void stopDropsTheQueuedJobs();
};

void tst_JobWorker::runsJobsInPushOrder()
{
    std::vector<int> ran; // written by the worker only, read once it is idle
    JobWorker<int> worker(QStringLiteral("test"), 2, [&](const int &job) {
        ran.push_back(job);
        return true;
    });
    std::vector<int> pushed;
    for (int job = 0; job < 1000; ++job) {
        QVERIFY(worker.push(job));
        pushed.push_back(job);
    }
    QVERIFY(worker.waitUntilIdle());
    QCOMPARE(ran, pushed);
    QVERIFY(!worker.failed());
}

void tst_JobWorker::pushWaitsWhileTheQueueIsFull()
{
    QSemaphore started;
    QSemaphore release;
    JobWorker<int> worker(QStringLiteral("test"), 2, [&](const int &) {
        started.release();
        release.acquire();
        return true;
    });
    std::atomic<bool> fourthQueued = false;
    std::unique_ptr<QThread> producer(QThread::create([&] {
        if (worker.push(4))
            fourthQueued = true;
    }));
    // A failed check returns early: let every job and the producer end rather than hang.
    const auto endAll = qScopeGuard([&] {
        release.release(100);
        producer->wait();
    });
    QVERIFY(worker.push(1));
    QVERIFY(started.tryAcquire(1, 5000)); // job 1 runs: the queue is empty again
    QVERIFY(worker.push(2));
    QVERIFY(worker.push(3)); // the queue holds 2 and 3: full

    producer->start();
    QVERIFY(!producer->wait(200));
    QVERIFY(!fourthQueued);

    release.release(); // job 1 ends, job 2 leaves the queue: room for job 4
    QVERIFY(producer->wait(5000));
    QVERIFY(fourthQueued);
    release.release(3);
    QVERIFY(worker.waitUntilIdle());
    QCOMPARE(started.available(), 3); // jobs 2, 3 and 4 ran too
}

void tst_JobWorker::aFailedJobDropsTheJobsAfterIt()
{
    QSemaphore release;
    std::vector<int> ran;
    JobWorker<int> worker(QStringLiteral("test"), 4, [&](const int &job) {
        release.acquire();
        ran.push_back(job);
        return job != 2;
    });
    for (int job = 1; job <= 4; ++job)
        QVERIFY(worker.push(job));
    release.release(4);
    QVERIFY(!worker.waitUntilIdle());
    QVERIFY(worker.failed());
    QCOMPARE(ran, (std::vector<int> { 1, 2 }));
    QVERIFY(!worker.push(5));
    QVERIFY(!worker.waitUntilIdle());
    QCOMPARE(ran, (std::vector<int> { 1, 2 }));
}

void tst_JobWorker::stopDropsTheQueuedJobs()
{
    QSemaphore started;
    QSemaphore release;
    std::vector<int> ran;
    JobWorker<int> worker(QStringLiteral("test"), 4, [&](const int &job) {
        started.release();
        release.acquire();
        ran.push_back(job);
        return true;
    });
    for (int job = 1; job <= 3; ++job)
        QVERIFY(worker.push(job));
    QVERIFY(started.tryAcquire(1, 5000)); // job 1 runs until released
    std::unique_ptr<QThread> stopper(QThread::create([&] { worker.stop(); }));
    stopper->start();
    QTRY_VERIFY(!worker.push(4)); // stop() has begun: the queue is empty and stays so
    release.release(3);
    QVERIFY(stopper->wait(5000)); // job 1 ended; 2 and 3 never ran
    QCOMPARE(ran, (std::vector<int> { 1 }));
    QVERIFY(!worker.failed());
}

QTEST_GUILESS_MAIN(tst_JobWorker)
#include "tst_jobworker.moc"
