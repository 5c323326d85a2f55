// SPDX-License-Identifier: MIT
// ConnectionThread, the one base of the viewer's per-connection worker threads: work runs in the
// worker's own thread, the connection is opened once per path and closed in that thread, queued work
// of an overtaken request is skipped, a stale result never arrives, work posted without a ticket
// always answers, and the end interrupts the statement in progress. The worker is held at a
// semaphore to force each interleaving.
#include "core/storage/sqlite.h"
#include "widgets/common/connectionthread.h"

#include <QSemaphore>
#include <QTest>
#include <atomic>

using namespace memhist;

namespace {

// What the worker did, readable from the test's thread.
struct Log
{
    std::atomic<int> opens { 0 };
    std::atomic<int> closes { 0 };
    std::atomic<int> interrupts { 0 };
    std::atomic<int> ran { 0 };
    std::atomic<QThread *> openedOn { nullptr };
    std::atomic<QThread *> closedOn { nullptr };
    QSemaphore started;
    QSemaphore release;
};

// A "connection" that is only a path; "bad" cannot be opened.
class FakeWorker : public ConnectionWorker
{
public:
    explicit FakeWorker(Log *log)
        : m_log(log)
    { }
    void interrupt() override { ++m_log->interrupts; }
    Log &log() { return *m_log; }

protected:
    bool openConnection(const QString &path, QString *error) override
    {
        if (path == QLatin1String("bad")) {
            *error = QStringLiteral("bad: cannot be opened");
            return false;
        }
        ++m_log->opens;
        m_log->openedOn = QThread::currentThread();
        return true;
    }
    void closeConnection() override
    {
        ++m_log->closes;
        m_log->closedOn = QThread::currentThread();
    }

private:
    Log *m_log;
};

// Work that holds the worker's thread until the test releases it.
auto holdThread()
{
    return [](FakeWorker &worker, const JobTicket &) {
        worker.log().started.release();
        worker.log().release.acquire();
        return 0;
    };
}

// A real SQLite connection (in memory), interruptible through the base class.
class SqliteWorker : public ConnectionWorker
{
public:
    sqlite::Connection &connection() { return m_connection; }

protected:
    bool openConnection(const QString &, QString *) override
    {
        if (!m_connection.open(QStringLiteral(":memory:"), sqlite::Connection::Mode::ReadWriteCreate))
            return false;
        setInterruptible(m_connection.handle());
        return true;
    }
    void closeConnection() override
    {
        setInterruptible(nullptr);
        m_connection.close();
    }

private:
    sqlite::Connection m_connection;
};

} // namespace

class TestConnectionThread : public QObject
{
    Q_OBJECT

private slots:
    void runsInItsThreadAndOpensOncePerPath()
    {
        Log log;
        QObject owner;
        {
            ConnectionThread<FakeWorker> thread(&owner, QStringLiteral("test worker"), &log);
            QList<QString> answers;
            const auto open = [](const QString &path) {
                return [path](FakeWorker &worker, const JobTicket &) {
                    QString error;
                    return worker.ensureOpen(path, &error) ? worker.openPath() : error;
                };
            };
            const auto collect = [&answers](const QString &answer) { answers << answer; };
            const JobTicket ticket = thread.supersede();
            thread.post(ticket, open(QStringLiteral("a")), collect);
            thread.post(ticket, open(QStringLiteral("a")), collect);
            thread.post(ticket, open(QStringLiteral("bad")), collect);
            thread.post(ticket, open(QStringLiteral("b")), collect);
            QTRY_COMPARE(answers.size(), 4);
            QCOMPARE(answers,
                (QList<QString> { QStringLiteral("a"), QStringLiteral("a"), QStringLiteral("bad: cannot be opened"),
                    QStringLiteral("b") }));
            QCOMPARE(log.opens.load(), 2); // "a" once, then "b"
            QVERIFY(log.openedOn.load() != owner.thread());
            QCOMPARE(log.openedOn.load()->objectName(), QStringLiteral("test worker"));
        }
        // Closed in its own thread at the end (and before each other path).
        QVERIFY(log.closedOn.load() != owner.thread());
        QVERIFY(log.interrupts.load() >= 1);
    }

    void queuedWorkOfAnOvertakenRequestIsSkipped()
    {
        Log log;
        QObject owner;
        ConnectionThread<FakeWorker> thread(&owner, QStringLiteral("test worker"), &log);
        QList<int> answers;
        const auto count = [](int value) {
            return [value](FakeWorker &worker, const JobTicket &) {
                ++worker.log().ran;
                return value;
            };
        };
        const auto collect = [&answers](int value) { answers << value; };
        thread.post(thread.supersede(), holdThread(), [](int) {});
        log.started.acquire();
        thread.post(thread.current(), count(1), collect); // queued behind the held work
        thread.post(thread.supersede(), count(2), collect);
        log.release.release();
        QTRY_COMPARE(answers, QList<int> { 2 });
        QCOMPARE(log.ran.load(), 1); // the overtaken one never ran
    }

    void aResultOvertakenOnItsWayIsDropped()
    {
        Log log;
        QObject owner;
        ConnectionThread<FakeWorker> thread(&owner, QStringLiteral("test worker"), &log);
        QList<int> answers;
        int untracked = 0;
        thread.post(
            thread.supersede(),
            [](FakeWorker &worker, const JobTicket &ticket) {
                worker.log().started.release();
                worker.log().release.acquire();
                return ticket.cancelled() ? -1 : 1;
            },
            [&answers](int value) { answers << value; });
        log.started.acquire();
        thread.cancel();
        log.release.release();
        // Work without a ticket answers whatever the generation; queued behind, it arrives after.
        thread.post([](FakeWorker &) { return 5; }, [&untracked](int value) { untracked = value; });
        QTRY_COMPARE(untracked, 5);
        QVERIFY(answers.isEmpty());
    }

    void theEndInterruptsAnEndlessStatement()
    {
        // A statement that would never end (a recursive CTE without a bound, as a crafted view
        // could hold): the thread's end interrupts it, so closing a history or quitting the
        // viewer never waits for it.
        QObject owner;
        QSemaphore started;
        std::atomic<int> status { -1 };
        {
            ConnectionThread<SqliteWorker> thread(&owner, QStringLiteral("test worker"));
            thread.post(
                thread.supersede(),
                [&started, &status](SqliteWorker &worker, const JobTicket &) {
                    QString error;
                    if (!worker.ensureOpen(QStringLiteral("memory"), &error))
                        return 0;
                    sqlite::Statement endless = worker.connection().prepare(
                        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT max(x) FROM r");
                    started.release();
                    status = endless.step();
                    return 0;
                },
                [](int) {});
            QVERIFY(started.tryAcquire(1, 10000));
        } // without the interrupt, this would wait forever
        QCOMPARE(status.load(), SQLITE_INTERRUPT);
    }
};

QTEST_GUILESS_MAIN(TestConnectionThread)
#include "tst_connectionthread.moc"
