// SPDX-License-Identifier: MIT
// Runs valgrind on a program for a recorder (the Lackey one, lackeyrecorder.h, and memhist's own
// tool, toolrecorder.h), with a pipe whose write end valgrind inherits: the trace goes through it,
// nothing is written to disk, and the end of the pipe is the end of the trace. The program's stdin,
// stdout and stderr are memhist's own.
//
// The traced tree (valgrind, which runs the program in its own process, and the program's children)
// dies with memhist: valgrind runs in a session and process group of its own, which memhist kills
// whole when it stops the program (killProgram() does it from a signal handler), and the kernel
// kills valgrind if memhist dies without doing so (PR_SET_PDEATHSIG, e.g. after SIGKILL). Its own
// session also keeps the terminal's job control away from it: Ctrl-C reaches memhist alone, which
// decides, and a program reading the terminal is not stopped as a background job would be.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <functional>
#include <sys/types.h>

namespace memhist {

class ValgrindProcess
{
public:
    // The valgrind on PATH, or an empty string.
    static QString findValgrind();
    // Asks a running recording to stop the program and keep what was recorded. Async-signal-safe:
    // meant for a SIGINT handler. The request stays until clearStopRequest().
    static void requestStop();
    static void clearStopRequest();
    static bool stopRequested();
    // Kills the process group of the program being recorded, if any, at once (SIGKILL): valgrind,
    // the program and the children it started. Async-signal-safe: meant for a handler that then ends
    // memhist (SIGTERM, SIGHUP, a second Ctrl-C).
    static void killProgram() noexcept;

    ValgrindProcess();
    // Stops valgrind (stop()) if it still runs.
    ~ValgrindProcess();
    ValgrindProcess(const ValgrindProcess &) = delete;
    ValgrindProcess &operator=(const ValgrindProcess &) = delete;

    // Creates the pipe; valgrind gets its write end as file descriptor pipeFd(), to name in its
    // arguments. False + *error when it cannot.
    bool createPipe(QString *error);
    int pipeFd() const { return m_write; }
    // A larger pipe means fewer context switches between valgrind and us; the default is 64 KiB.
    void setPipeSize(int bytes);
    // Valgrind writes a text log one line per write(): read as soon as there is anything, the pipe
    // gives a line or two per read. With this set, a read that found the pipe nearly empty lets the
    // log gather for a moment before the next one.
    void setGatherShortReads(bool gather) { m_gatherShortReads = gather; }

    // Starts `valgrind arguments...` (the environment: the process's, with `environment` added).
    // False + *error when it cannot start.
    bool start(
        const QString &valgrind, const QStringList &arguments, const QProcessEnvironment &environment, QString *error);
    pid_t pid() const { return m_pid; }

    // Reads at most `size` bytes of the trace, waiting in short polls, between which it calls
    // `idle` (progress) and looks at the stop request. How many, 0 at the end (valgrind has ended and
    // the pipe is drained), -1 after setting errorString(), or `stop` when a stop was requested.
    static constexpr qint64 stop = -2;
    qint64 read(char *data, qsizetype size, const std::function<void()> &idle);

    // Kills the whole group and reaps valgrind.
    void stopProgram();
    // Waits for valgrind to end by itself (after the end of the trace).
    void waitForFinished();
    // Once it has ended: killed by a signal (exitCode() is then the signal number), or its status.
    bool crashed() const { return m_process.exitStatus() == QProcess::CrashExit; }
    int exitCode() const { return m_process.exitCode(); }

    const QString &errorString() const { return m_error; }

private:
    void closeRead();
    void closeWrite();

    QProcess m_process;
    int m_read = -1;
    int m_write = -1;
    pid_t m_pid = 0;
    bool m_finished = false;
    bool m_lastReadShort = false;
    bool m_gatherShortReads = false;
    QString m_error;
};

} // namespace memhist
