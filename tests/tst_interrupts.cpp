// SPDX-License-Identifier: MIT
// Real signals sent to real `memhist import` and `memhist record` processes (app/memhist/signalguard,
// core/recorder/lackeyrecorder), each at a known point reached by an event, never by a clock: an
// import blocked reading a FIFO with its temporary file open, a recording whose program has printed
// that it runs. Afterwards the test looks at the exit status, the message, the directory (no
// temporary file, the previous output byte for byte) and /proc (no process of the traced tree).
#include "testsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace memhist::test;

namespace {

constexpr int waitMilliseconds = 120'000;

QString tenetTrace()
{
    return QFINDTESTDATA("data/tenet/boombox.trace.0.log");
}

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

QStringList partials(const QString &dir)
{
    return QDir(dir).entryList({ QStringLiteral("*.partial") }, QDir::Files | QDir::Hidden, QDir::Name);
}

// True once no process has this PID, or only its zombie is left (dead, not yet reaped by init).
bool isGone(qint64 pid)
{
    const QByteArray stat = readFile(QStringLiteral("/proc/%1/stat").arg(pid));
    if (stat.isEmpty())
        return true;
    const qsizetype end = stat.lastIndexOf(')'); // the state follows the command name in parentheses
    return end < 0 || end + 2 >= stat.size() || stat[end + 2] == 'Z' || stat[end + 2] == 'X';
}

// Waits until `signal`, sent to the process, is no longer pending: its handler has run or runs.
// Signals of one kind do not queue: a second one sent before the first is delivered is lost.
bool waitUntilDelivered(qint64 pid, int signal)
{
    const QDeadlineTimer deadline(waitMilliseconds);
    while (!deadline.hasExpired()) {
        bool pending = false;
        for (const QByteArray &line : readFile(QStringLiteral("/proc/%1/status").arg(pid)).split('\n')) {
            if (line.startsWith("ShdPnd:"))
                pending = line.mid(7).trimmed().toULongLong(nullptr, 16) & (1ull << (signal - 1));
        }
        if (!pending)
            return true;
        QThread::yieldCurrentThread();
    }
    return false;
}

QList<qint64> childrenOf(qint64 pid)
{
    QList<qint64> children;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &task : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray list = readFile(tasks.filePath(task + QStringLiteral("/children")));
        for (const QByteArray &child : list.split(' ')) {
            if (!child.trimmed().isEmpty())
                children << child.trimmed().toLongLong();
        }
    }
    return children;
}

// A `memhist import` of a FIFO: once it has opened the FIFO (its temporary file is then created) the
// test writes two lines and keeps the FIFO open, so the import waits for more, mid-way.
class BlockedImport
{
public:
    // With ignoreHangup, memhist starts with SIGHUP ignored, as under nohup.
    BlockedImport(const QString &directory, const QString &output, bool ignoreHangup = false)
        : m_fifo(directory + QStringLiteral("/trace.fifo"))
    {
        if (!QFile::exists(m_fifo) && ::mkfifo(QFile::encodeName(m_fifo).constData(), 0600) != 0)
            qFatal("cannot create %s", qPrintable(m_fifo));
        if (ignoreHangup)
            m_process.setChildProcessModifier([] { ::signal(SIGHUP, SIG_IGN); });
        m_process.start(QStringLiteral(MEMHIST_CLI_PATH),
            { QStringLiteral("import"), m_fifo, QStringLiteral("--format"), QStringLiteral("lackey"),
                QStringLiteral("-o"), output });
    }
    ~BlockedImport()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    // Opening a FIFO for writing without blocking fails with ENXIO until a reader has it open.
    bool waitUntilReading()
    {
        if (!m_process.waitForStarted())
            return false;
        const QDeadlineTimer deadline(waitMilliseconds);
        const QByteArray fifo = QFile::encodeName(m_fifo);
        while ((m_fd = ::open(fifo.constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
            if (errno != ENXIO || deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
                return false;
            QThread::msleep(10);
        }
        const QByteArray lines("I  00001000,3\n L 2000,8\n");
        return ::write(m_fd, lines.constData(), size_t(lines.size())) == lines.size();
    }

    QProcess &process() { return m_process; }
    qint64 pid() const { return m_process.processId(); }

private:
    QString m_fifo;
    QProcess m_process;
    int m_fd = -1;
};

// `memhist record` of a shell that starts `sleep` in the background, prints its PID and waits on
// its standard input, which the test keeps open.
class Recording
{
public:
    Recording(const QString &output, const QString &script)
    {
        m_process.start(QStringLiteral(MEMHIST_CLI_PATH),
            { QStringLiteral("record"), QStringLiteral("-o"), output, QStringLiteral("--"), QStringLiteral("/bin/sh"),
                QStringLiteral("-c"), script });
    }
    ~Recording()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    // The program's first line, once it has printed one: it runs, under valgrind.
    QByteArray waitForFirstLine()
    {
        const QDeadlineTimer deadline(waitMilliseconds);
        while (!m_process.canReadLine()) {
            if (deadline.hasExpired() || !m_process.waitForReadyRead(int(deadline.remainingTime())))
                return {};
        }
        return m_process.readLine().trimmed();
    }

    QProcess &process() { return m_process; }
    qint64 pid() const { return m_process.processId(); }

private:
    QProcess m_process;
};

} // namespace

class TestInterrupts : public QObject
{
    Q_OBJECT

private slots:
    void importSignal_data();
    void importSignal();
    void killedImportLeavesATemporaryTheNextImportRemoves();
    void importKeepsALiveWritersTemporary();
    void signalIgnoredOnEntryStaysIgnored();
    void recordSignal_data();
    void recordSignal();
    void killedRecordTakesValgrindWithIt();
};

void TestInterrupts::importSignal_data()
{
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("name");

    QTest::newRow("SIGINT exits 130") << int(SIGINT) << 130 << QStringLiteral("SIGINT");
    QTest::newRow("SIGTERM exits 143") << int(SIGTERM) << 143 << QStringLiteral("SIGTERM");
    QTest::newRow("SIGHUP exits 129") << int(SIGHUP) << 129 << QStringLiteral("SIGHUP");
}

void TestInterrupts::importSignal()
{
    QFETCH(int, signal);
    QFETCH(int, exitCode);
    QFETCH(QString, name);

    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    QCOMPARE(runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output }).exitCode, 0);
    const QByteArray previous = readFile(output);

    BlockedImport import(dir.path(), output);
    QVERIFY(import.waitUntilReading());
    QCOMPARE(partials(dir.path()).size(), 1);
    QVERIFY(partials(dir.path()).constFirst().startsWith(QStringLiteral("out.memhist.%1.").arg(import.pid())));

    QCOMPARE(::kill(pid_t(import.pid()), signal), 0);
    QVERIFY(import.process().waitForFinished(waitMilliseconds));
    QCOMPARE(import.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(import.process().exitCode(), exitCode);
    QCOMPARE(QString::fromUtf8(import.process().readAllStandardError()),
        QStringLiteral("memhist import: interrupted by %1; %2 left as it was\n").arg(name, output));
    QCOMPARE(import.process().readAllStandardOutput(), QByteArray());
    QCOMPARE(entries(dir.path()), (QStringList { QStringLiteral("out.memhist"), QStringLiteral("trace.fifo") }));
    QVERIFY(readFile(output) == previous);
}

void TestInterrupts::killedImportLeavesATemporaryTheNextImportRemoves()
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    QCOMPARE(runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output }).exitCode, 0);
    const QByteArray previous = readFile(output);

    BlockedImport import(dir.path(), output);
    QVERIFY(import.waitUntilReading());
    const QStringList temporaries = partials(dir.path());
    QCOMPARE(temporaries.size(), 1);
    QCOMPARE(::kill(pid_t(import.pid()), SIGKILL), 0);
    QVERIFY(import.process().waitForFinished(waitMilliseconds));
    QCOMPARE(import.process().exitStatus(), QProcess::CrashExit);
    // SIGKILL cannot be handled: the temporary stays, but SQLite's own temporary files, unlinked as
    // soon as they are created, do not; the output is untouched.
    QCOMPARE(entries(dir.path()),
        (QStringList { QStringLiteral("out.memhist"), temporaries.constFirst(), QStringLiteral("trace.fifo") }));
    QVERIFY(readFile(output) == previous);

    // Its writer no longer exists: the next write to the same output removes it.
    const CliResult next = runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output });
    QVERIFY2(next.exitCode == 0, next.err.constData());
    QCOMPARE(entries(dir.path()), (QStringList { QStringLiteral("out.memhist"), QStringLiteral("trace.fifo") }));
}

void TestInterrupts::importKeepsALiveWritersTemporary()
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    BlockedImport running(dir.path(), output);
    QVERIFY(running.waitUntilReading());
    const QStringList temporaries = partials(dir.path());
    QCOMPARE(temporaries.size(), 1);

    // Another import of the same output, while the first still writes: its temporary is left alone.
    const CliResult other = runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output });
    QVERIFY2(other.exitCode == 0, other.err.constData());
    QCOMPARE(partials(dir.path()), temporaries);
    const QByteArray written = readFile(output);
    QVERIFY(written.startsWith("SQLite format 3"));

    QCOMPARE(::kill(pid_t(running.pid()), SIGTERM), 0);
    QVERIFY(running.process().waitForFinished(waitMilliseconds));
    QCOMPARE(running.process().exitCode(), 143);
    QCOMPARE(entries(dir.path()), (QStringList { QStringLiteral("out.memhist"), QStringLiteral("trace.fifo") }));
    QVERIFY(readFile(output) == written);
}

void TestInterrupts::signalIgnoredOnEntryStaysIgnored()
{
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    BlockedImport import(dir.path(), output, true);
    QVERIFY(import.waitUntilReading());
    // An ignored signal is discarded when sent. Were SIGHUP handled, it would be delivered before
    // SIGTERM (lower numbers first) and the import would end with 129.
    QCOMPARE(::kill(pid_t(import.pid()), SIGHUP), 0);
    QCOMPARE(::kill(pid_t(import.pid()), SIGTERM), 0);
    QVERIFY(import.process().waitForFinished(waitMilliseconds));
    QCOMPARE(import.process().exitCode(), 143);
    QCOMPARE(QString::fromUtf8(import.process().readAllStandardError()),
        QStringLiteral("memhist import: interrupted by SIGTERM; %1 left as it was\n").arg(output));
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("trace.fifo") });
}

void TestInterrupts::recordSignal_data()
{
    QTest::addColumn<QList<int>>("sent");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // stderr; empty: the recording is kept

    QTest::newRow("SIGTERM kills the program and keeps nothing")
        << QList<int> { SIGTERM } << 143
        << QStringLiteral("memhist record: interrupted by SIGTERM; OUT left as it was\n");
    QTest::newRow("SIGHUP kills the program and keeps nothing")
        << QList<int> { SIGHUP } << 129
        << QStringLiteral("memhist record: interrupted by SIGHUP; OUT left as it was\n");
    QTest::newRow("a second SIGINT kills the program and keeps nothing") << QList<int> { SIGINT,
        SIGINT } << 130 << QStringLiteral("memhist record: interrupted by SIGINT; OUT left as it was\n");
    QTest::newRow("one SIGINT stops the program and keeps what was recorded")
        << QList<int> { SIGINT } << 0 << QString();
}

void TestInterrupts::recordSignal()
{
    QFETCH(QList<int>, sent);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
        QSKIP("valgrind is not installed");

    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    QCOMPARE(runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output }).exitCode, 0);
    const QByteArray previous = readFile(output);

    // The program starts a child valgrind does not trace (sleep runs natively after exec): the
    // whole tree must go, not only valgrind.
    Recording recording(output, QStringLiteral("sleep 300 & echo started $!; read line"));
    const QByteArray started = recording.waitForFirstLine();
    QVERIFY2(started.startsWith("started "), started.constData());
    const qint64 sleepPid = started.mid(8).toLongLong();
    const QList<qint64> children = childrenOf(recording.pid());
    QCOMPARE(children.size(), 1); // valgrind, running the shell
    const qint64 valgrindPid = children.constFirst();
    QVERIFY(sleepPid > 0 && !isGone(sleepPid) && !isGone(valgrindPid));
    QCOMPARE(partials(dir.path()).size(), 1);

    for (const int signal : std::as_const(sent)) {
        QCOMPARE(::kill(pid_t(recording.pid()), signal), 0);
        QVERIFY(waitUntilDelivered(recording.pid(), signal));
    }
    QVERIFY(recording.process().waitForFinished(waitMilliseconds));
    const QByteArray err = recording.process().readAllStandardError();
    QCOMPARE(recording.process().exitStatus(), QProcess::NormalExit);
    QVERIFY2(recording.process().exitCode() == exitCode, err.constData());
    // Both are killed at once; init reaps them.
    QTRY_VERIFY_WITH_TIMEOUT(isGone(valgrindPid), waitMilliseconds);
    QTRY_VERIFY_WITH_TIMEOUT(isGone(sleepPid), waitMilliseconds);
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("out.memhist") });

    if (!message.isEmpty()) {
        QCOMPARE(QString::fromUtf8(err), QString(message).replace(QStringLiteral("OUT"), output));
        QVERIFY(readFile(output) == previous);
    } else {
        QVERIFY2(err.contains("memhist record: interrupted: stopped the program after "), err.constData());
        QVERIFY(readFile(output) != previous);
        const CliResult check = runCli({ QStringLiteral("check"), output });
        QVERIFY2(check.exitCode == 0, check.err.constData());
    }
}

void TestInterrupts::killedRecordTakesValgrindWithIt()
{
    if (QStandardPaths::findExecutable(QStringLiteral("valgrind")).isEmpty())
        QSKIP("valgrind is not installed");
    QTemporaryDir dir;
    const QString output = dir.filePath(QStringLiteral("out.memhist"));
    QCOMPARE(runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output }).exitCode, 0);
    const QByteArray previous = readFile(output);

    Recording recording(output, QStringLiteral("echo started; read line"));
    QCOMPARE(recording.waitForFirstLine(), QByteArray("started"));
    const QList<qint64> children = childrenOf(recording.pid());
    QCOMPARE(children.size(), 1);
    const QStringList temporaries = partials(dir.path());
    QCOMPARE(temporaries.size(), 1);

    // No handler runs: the kernel kills valgrind, and the program it runs, when memhist dies.
    QCOMPARE(::kill(pid_t(recording.pid()), SIGKILL), 0);
    QVERIFY(recording.process().waitForFinished(waitMilliseconds));
    QCOMPARE(recording.process().exitStatus(), QProcess::CrashExit);
    QTRY_VERIFY_WITH_TIMEOUT(isGone(children.constFirst()), waitMilliseconds);
    QCOMPARE(entries(dir.path()), (QStringList { QStringLiteral("out.memhist"), temporaries.constFirst() }));
    QVERIFY(readFile(output) == previous);

    const CliResult next = runCli({ QStringLiteral("import"), tenetTrace(), QStringLiteral("-o"), output });
    QVERIFY2(next.exitCode == 0, next.err.constData());
    QCOMPARE(entries(dir.path()), QStringList { QStringLiteral("out.memhist") });
}

QTEST_GUILESS_MAIN(TestInterrupts)
#include "tst_interrupts.moc"
