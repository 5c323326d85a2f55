// SPDX-License-Identifier: MIT
// JobTracker, the viewer's one way to run a one-shot job off the GUI thread: results on the owner's
// thread, stale results dropped (a newer job, cancel(), the owner gone), stop() still delivering,
// the cancel predicate the job polls, progress before the result, and waiting for the jobs. Jobs
// are held at semaphores, so every interleaving is forced rather than left to timing.
#include "widgets/common/jobtracker.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <atomic>
#include <memory>

using namespace memhist;

namespace {

// A job that waits until the test lets it go, then says whether it saw itself cancelled.
struct HeldJob
{
    std::shared_ptr<QSemaphore> started = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> release = std::make_shared<QSemaphore>();
    std::shared_ptr<std::atomic<bool>> sawCancelled = std::make_shared<std::atomic<bool>>(false);

    auto job(int value) const
    {
        return [started = started, release = release, sawCancelled = sawCancelled, value](const JobTicket &ticket) {
            started->release();
            release->acquire();
            sawCancelled->store(ticket.cancelled());
            return value;
        };
    }
};

} // namespace

class TestJobTracker : public QObject
{
    Q_OBJECT

private slots:
    void resultReachesTheOwnersThread()
    {
        QObject owner;
        JobTracker tracker(&owner);
        QList<int> delivered;
        int idle = 0;
        QThread *deliveredOn = nullptr;
        QThread *ranOn = nullptr;
        tracker.onIdle([&] { ++idle; });
        tracker.start(
            [&ranOn](const JobTicket &ticket) {
                ranOn = QThread::currentThread();
                return ticket.isCurrent() ? 42 : -1;
            },
            [&](int value) {
                delivered << value;
                deliveredOn = QThread::currentThread();
            });
        QVERIFY(tracker.isRunning());
        QTRY_COMPARE(delivered, QList<int> { 42 });
        QCOMPARE(deliveredOn, owner.thread());
        QVERIFY(ranOn != owner.thread());
        QCOMPARE(idle, 1);
        QVERIFY(!tracker.isRunning());
    }

    void aNewerJobMakesTheOlderOneStale()
    {
        QObject owner;
        JobTracker tracker(&owner);
        HeldJob first;
        QList<int> delivered;
        int idle = 0;
        tracker.onIdle([&] { ++idle; });
        tracker.start(first.job(1), [&](int value) { delivered << value; });
        first.started->acquire();
        tracker.start([](const JobTicket &) { return 2; }, [&](int value) { delivered << value; });
        QTRY_COMPARE(delivered, QList<int> { 2 });
        QVERIFY(tracker.isRunning()); // the first still runs
        QCOMPARE(idle, 0);
        first.release->release();
        QTRY_COMPARE(idle, 1);
        QVERIFY(first.sawCancelled->load());
        QCOMPARE(delivered, QList<int> { 2 }); // its 1 was dropped
        QVERIFY(!tracker.isRunning());
    }

    void cancelDropsEveryResult()
    {
        QObject owner;
        JobTracker tracker(&owner);
        HeldJob held;
        QList<int> delivered;
        int idle = 0;
        tracker.onIdle([&] { ++idle; });
        tracker.start(held.job(1), [&](int value) { delivered << value; });
        held.started->acquire();
        tracker.cancel();
        held.release->release();
        QTRY_COMPARE(idle, 1);
        QVERIFY(held.sawCancelled->load());
        QVERIFY(delivered.isEmpty());
    }

    void stopAsksToStopButDelivers()
    {
        QObject owner;
        JobTracker tracker(&owner);
        auto started = std::make_shared<QSemaphore>();
        QList<int> delivered;
        tracker.start(
            [started](const JobTicket &ticket) {
                started->release();
                int rounds = 0;
                while (!ticket.cancelled())
                    ++rounds;
                return rounds > 0 ? 1 : 0;
            },
            [&](int value) { delivered << value; });
        started->acquire();
        tracker.stop();
        QTRY_COMPARE(delivered.size(), 1);
        // A later job is not stopped by the earlier stop().
        tracker.start([](const JobTicket &ticket) { return ticket.cancelled() ? -1 : 7; },
            [&](int value) { delivered << value; });
        QTRY_COMPARE(delivered.size(), 2);
        QCOMPARE(delivered.last(), 7);
    }

    void progressComesInOrderAndLastBeforeTheResult()
    {
        QObject owner;
        JobTracker tracker(&owner);
        QList<qint64> counts;
        QStringList events;
        tracker.onProgress([&](const JobProgress &progress) {
            counts << progress.count;
            events << QStringLiteral("progress");
        });
        tracker.start(
            [](const JobTicket &ticket) {
                for (qint64 i = 1; i <= 1000; ++i)
                    ticket.report({ double(i) / 1000, i, QStringLiteral("item") });
                return 1000;
            },
            [&](int) { events << QStringLiteral("result"); });
        QTRY_VERIFY(events.contains(QStringLiteral("result")));
        QVERIFY(!counts.isEmpty());
        QVERIFY(counts.size() <= 1000);
        QCOMPARE(counts.last(), 1000); // the newest value, however many were coalesced
        QVERIFY(std::is_sorted(counts.begin(), counts.end()));
        QCOMPARE(events.last(), QStringLiteral("result"));
    }

    void progressOfAStaleJobIsDropped()
    {
        QObject owner;
        JobTracker tracker(&owner);
        HeldJob held;
        QList<qint64> counts;
        tracker.onProgress([&](const JobProgress &progress) { counts << progress.count; });
        int idle = 0;
        tracker.onIdle([&] { ++idle; });
        tracker.start(
            [started = held.started, release = held.release](const JobTicket &ticket) {
                started->release();
                release->acquire();
                ticket.report({ 1, 5, QString() });
                return 0;
            },
            [](int) {});
        held.started->acquire();
        tracker.cancel();
        held.release->release();
        QTRY_COMPARE(idle, 1);
        QVERIFY(counts.isEmpty());
    }

    void anOwnerGoneGetsNothing()
    {
        HeldJob held;
        auto delivered = std::make_shared<std::atomic<int>>(0);
        {
            QObject owner;
            JobTracker tracker(&owner);
            tracker.start(held.job(1), [delivered](int) { ++*delivered; });
            held.started->acquire();
        }
        held.release->release();
        // The job ends on its own; its result has nowhere to go.
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(held.sawCancelled->load());
        QCOMPARE(delivered->load(), 0);
    }

    void waitForFinishedWaitsForStaleJobsToo()
    {
        QObject owner;
        JobTracker tracker(&owner);
        HeldJob held;
        auto returned = std::make_shared<std::atomic<bool>>(false);
        tracker.start(
            [job = held.job(1), returned](const JobTicket &ticket) {
                const int value = job(ticket);
                returned->store(true);
                return value;
            },
            [](int) {});
        held.started->acquire();
        tracker.cancel();
        held.release->release();
        tracker.waitForFinished();
        QVERIFY(returned->load());
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
