// SPDX-License-Identifier: MIT
#include "core/recorder/valgrindprocess.h"

#include <QStandardPaths>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace memhist {

namespace {

// Set from a signal handler: a lock-free atomic is async-signal-safe.
std::atomic<bool> stopRequest { false };
static_assert(std::atomic<bool>::is_always_lock_free);
// The process group (and session) of the program being recorded, which is valgrind's PID; 0 when
// none. Read by killProgram() from a signal handler. Cleared before valgrind is reaped: once reaped
// and its group empty, the number may be given to an unrelated process.
std::atomic<pid_t> programGroup { 0 };
static_assert(std::atomic<pid_t>::is_always_lock_free);

// How long a poll() waits before looking at the stop request and the progress again.
constexpr int pollMilliseconds = 100;
// See setGatherShortReads(): a read shorter than this lets the log gather for a moment (the 1 MiB
// pipe holds ~50 ms of a Lackey log).
constexpr qsizetype shortReadBytes = 64 << 10;
constexpr timespec gatherPause { 0, 1'000'000 };

} // namespace

QString ValgrindProcess::findValgrind()
{
    return QStandardPaths::findExecutable(QStringLiteral("valgrind"));
}

void ValgrindProcess::requestStop()
{
    stopRequest.store(true, std::memory_order_relaxed);
}

void ValgrindProcess::clearStopRequest()
{
    stopRequest.store(false, std::memory_order_relaxed);
}

bool ValgrindProcess::stopRequested()
{
    return stopRequest.load(std::memory_order_relaxed);
}

void ValgrindProcess::killProgram() noexcept
{
    const pid_t group = programGroup.load();
    if (group > 0)
        ::kill(-group, SIGKILL);
}

ValgrindProcess::ValgrindProcess() = default;

ValgrindProcess::~ValgrindProcess()
{
    stopProgram();
    closeRead();
    closeWrite();
}

void ValgrindProcess::closeRead()
{
    if (m_read >= 0)
        ::close(m_read);
    m_read = -1;
}

void ValgrindProcess::closeWrite()
{
    if (m_write >= 0)
        ::close(m_write);
    m_write = -1;
}

bool ValgrindProcess::createPipe(QString *error)
{
    // Both ends are close-on-exec; only the child clears it on the write end, after fork, so no
    // other child inherits it.
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create a pipe: ") + QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    m_read = fds[0];
    m_write = fds[1];
    return true;
}

void ValgrindProcess::setPipeSize(int bytes)
{
#ifdef F_SETPIPE_SZ
    ::fcntl(m_write, F_SETPIPE_SZ, bytes);
#else
    Q_UNUSED(bytes);
#endif
}

bool ValgrindProcess::start(
    const QString &valgrind, const QStringList &arguments, const QProcessEnvironment &environment, QString *error)
{
    m_process.setProgram(valgrind);
    m_process.setArguments(arguments);
    m_process.setProcessChannelMode(QProcess::ForwardedChannels);
    m_process.setInputChannelMode(QProcess::ForwardedInputChannel);
    if (!environment.isEmpty()) {
        QProcessEnvironment whole = QProcessEnvironment::systemEnvironment();
        whole.insert(environment);
        m_process.setProcessEnvironment(whole);
    }
    const int childPipe = m_write;
    const pid_t recorder = ::getpid();
    // In the child, between fork and exec: async-signal-safe calls only.
    m_process.setChildProcessModifier([childPipe, recorder] {
        ::fcntl(childPipe, F_SETFD, 0);
        // Its own session and process group (see the header).
        ::setsid();
        // Killed when the thread that started it ends (it runs the recording until the program is
        // gone): memhist killed by SIGKILL, or crashed.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        // memhist may have died before prctl(), which would then never fire.
        if (::getppid() != recorder)
            ::_exit(127);
        // memhist ignores SIGXFSZ to report "File too large" itself; the program gets the default.
        ::signal(SIGXFSZ, SIG_DFL);
    });
    m_process.start();
    if (!m_process.waitForStarted(-1)) {
        *error = QStringLiteral("cannot run %1: %2").arg(valgrind, m_process.errorString());
        return false;
    }
    m_pid = pid_t(m_process.processId());
    programGroup.store(m_pid);
    // Our copy of the write end must go, or the pipe would never report the end of the trace.
    closeWrite();
    return true;
}

qint64 ValgrindProcess::read(char *data, qsizetype size, const std::function<void()> &idle)
{
    if (m_gatherShortReads && m_lastReadShort && !m_finished)
        ::nanosleep(&gatherPause, nullptr);
    for (;;) {
        if (stopRequested())
            return stop;
        if (idle)
            idle();
        pollfd pfd { m_read, POLLIN, 0 };
        const int ready = ::poll(&pfd, 1, pollMilliseconds);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0) {
            // A child of the program that valgrind does not trace may hold the pipe open after
            // valgrind has ended: once valgrind is gone, what the pipe holds now is all there is.
            if (m_finished)
                return 0;
            programGroup.store(0); // waitForFinished() reaps valgrind when it has ended
            m_finished = m_process.waitForFinished(0);
            if (m_finished)
                ::fcntl(m_read, F_SETFL, ::fcntl(m_read, F_GETFL) | O_NONBLOCK);
            else
                programGroup.store(m_pid);
            continue;
        }
        const ssize_t n = ::read(m_read, data, size_t(size));
        if (n >= 0) {
            m_lastReadShort = n < std::min(size, shortReadBytes);
            return n;
        }
        if (errno == EAGAIN && m_finished)
            return 0;
        if (errno != EINTR && errno != EAGAIN)
            break;
    }
    m_error = QStringLiteral("cannot read valgrind's output: ") + QString::fromLocal8Bit(std::strerror(errno));
    return -1;
}

void ValgrindProcess::stopProgram()
{
    if (m_process.state() != QProcess::NotRunning) {
        killProgram();
        programGroup.store(0);
        m_process.waitForFinished(-1);
    }
    programGroup.store(0);
}

void ValgrindProcess::waitForFinished()
{
    programGroup.store(0);
    m_process.waitForFinished(-1);
}

} // namespace memhist
