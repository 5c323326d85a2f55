#include "core/recorder/lackeyrecorder.h"

#include "core/importers/accesssink.h"
#include "core/importers/lackeyparser.h"
#include "core/importers/textpiecereader.h"
#include "core/importers/valgrindverboselines.h"
#include "core/model/numbertext.h"
#include "core/recorder/clientstacksink.h"
#include "core/writer/historywriter.h"
#include "core/writer/partialfile.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QScopeGuard>
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
std::atomic<bool> stopRequested { false };
static_assert(std::atomic<bool>::is_always_lock_free);
// The process group (and session) of the program being recorded, which is valgrind's PID; 0 when
// none. Read by killProgram() from a signal handler. Cleared before valgrind is reaped: once reaped
// and its group empty, the number may be given to an unrelated process.
std::atomic<pid_t> programGroup { 0 };
static_assert(std::atomic<pid_t>::is_always_lock_free);

// How long a poll() waits before looking at the stop request and the progress again.
constexpr int pollMilliseconds = 100;
// Valgrind writes its log one line per write(). Read as soon as there is anything, the pipe gives
// a line or two per read: hundreds of thousands of wake-ups on both sides for a one-second run.
// After a read that found the pipe nearly empty, the reader lets the log gather for a moment
// (the 1 MiB pipe holds ~50 ms of it) and then takes it in one read.
constexpr qsizetype shortReadBytes = 64 << 10;
constexpr timespec gatherPause { 0, 1'000'000 };
constexpr qint64 progressIntervalNs = 250'000'000;
constexpr qsizetype keptValgrindMessages = 20;

// Both ends of a pipe, closed on scope exit unless released.
struct Pipe
{
    int read = -1;
    int write = -1;
    ~Pipe()
    {
        closeRead();
        closeWrite();
    }
    void closeRead()
    {
        if (read >= 0)
            ::close(read);
        read = -1;
    }
    void closeWrite()
    {
        if (write >= 0)
            ::close(write);
        write = -1;
    }
};

} // namespace

QStringList recordValgrindOptions(const RecordOptions &options)
{
    QStringList arguments { QStringLiteral("--tool=lackey"), QStringLiteral("--trace-mem=yes") };
    if (options.withContext) {
        // -v -v: "Reading syms from" with svma/avma per object loaded; --trace-syscalls: brk(),
        // mmap() and munmap() with their results. Both are a few hundred lines beside millions of trace lines, read off
        // the parser's fast path. The main stack size is the one valgrind would choose; given explicitly, it is known
        // to be the size of the client stack we name.
        arguments << QStringLiteral("-v") << QStringLiteral("-v") << QStringLiteral("--trace-syscalls=yes")
                  << QStringLiteral("--main-stacksize=%1").arg(ClientStackSink::mainStackSize());
    }
    return arguments;
}

QString LackeyRecorder::findValgrind()
{
    return QStandardPaths::findExecutable(QStringLiteral("valgrind"));
}

void LackeyRecorder::requestStop()
{
    stopRequested.store(true, std::memory_order_relaxed);
}

void LackeyRecorder::clearStopRequest()
{
    stopRequested.store(false, std::memory_order_relaxed);
}

void LackeyRecorder::killProgram() noexcept
{
    const pid_t group = programGroup.load();
    if (group > 0)
        ::kill(-group, SIGKILL);
}

bool LackeyRecorder::record(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
    const RecordProgressCallback &progress)
{
    *report = {};
    QElapsedTimer timer;
    timer.start();

    // Written beside its path and renamed into place once complete, like the history.
    const bool keepingLog = !options.keepLogPath.isEmpty();
    PartialFile keptLog(options.keepLogPath, PartialFile::Target::RegularFileOrStream);
    if (keepingLog && !keptLog.create()) {
        *error = options.keepLogPath + QStringLiteral(": ") + keptLog.errorString();
        return false;
    }

    // The trace goes through a pipe whose write end valgrind inherits (--log-fd): nothing is
    // written to disk, and the end of the pipe is the end of the trace. Both ends are close-on-exec;
    // only the child clears it on the write end, after fork, so no other child inherits it.
    Pipe pipe;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create a pipe: ") + QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    pipe.read = fds[0];
    pipe.write = fds[1];
#ifdef F_SETPIPE_SZ
    // A larger pipe means fewer context switches between valgrind and us; the default is 64 KiB.
    ::fcntl(pipe.write, F_SETPIPE_SZ, 1 << 20);
#endif

    const QString logName = QStringLiteral("valgrind log of %1").arg(options.program);
    WriterSink writerSink(writer);
    ClientStackSink stackSink(writerSink, ClientStackSink::mainStackSize());
    AccessSink &sink = options.withContext ? static_cast<AccessSink &>(stackSink) : writerSink;
    ImportOptions importOptions;
    importOptions.withExecute = options.withExecute;
    LackeyParser parser(logName, sink, importOptions);
    parser.setInstructionLimit(options.maxInstructions);
    parser.setMessageHandler([report](QByteArrayView line) {
        // Valgrind's verbose lines ("--PID-- ...", -v) say what it loads, not why it failed.
        if (line.startsWith('-'))
            return;
        if (report->lastValgrindMessages.size() == keptValgrindMessages)
            report->lastValgrindMessages.removeFirst();
        report->lastValgrindMessages << QString::fromLocal8Bit(line);
    });

    QProcess valgrind;
    valgrind.setProgram(options.valgrind);
    valgrind.setArguments(recordValgrindOptions(options)
        + QStringList { QStringLiteral("--log-fd=%1").arg(pipe.write), options.program } + options.arguments);
    valgrind.setProcessChannelMode(QProcess::ForwardedChannels);
    valgrind.setInputChannelMode(QProcess::ForwardedInputChannel);
    const int childLogFd = pipe.write;
    const pid_t recorder = ::getpid();
    // In the child, between fork and exec: async-signal-safe calls only.
    valgrind.setChildProcessModifier([childLogFd, recorder] {
        ::fcntl(childLogFd, F_SETFD, 0);
        // Its own session and process group (see the header).
        ::setsid();
        // Killed when the thread that started it ends (it runs record() until the program is gone):
        // memhist killed by SIGKILL, or crashed.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        // memhist may have died before prctl(), which would then never fire.
        if (::getppid() != recorder)
            ::_exit(127);
        // memhist ignores SIGXFSZ to report "File too large" itself; the program gets the default.
        ::signal(SIGXFSZ, SIG_DFL);
    });
    const auto forgetProgramGroup = qScopeGuard([] { programGroup.store(0); });
    valgrind.start();
    if (!valgrind.waitForStarted(-1)) {
        *error = QStringLiteral("cannot run %1: %2").arg(options.valgrind, valgrind.errorString());
        return false;
    }
    const pid_t valgrindPid = pid_t(valgrind.processId());
    programGroup.store(valgrindPid);
    stackSink.setProcess(valgrindPid);
    // Our copy of the write end must go, or the pipe would never report the end of the trace.
    pipe.closeWrite();

    // The whole group: valgrind, the program and the children the program started.
    const auto stopValgrind = [&] {
        if (valgrind.state() != QProcess::NotRunning) {
            killProgram();
            programGroup.store(0);
            valgrind.waitForFinished(-1);
        }
        programGroup.store(0);
    };
    const auto fail = [&](const QString &message) {
        stopValgrind();
        parser.fillReport(&report->import);
        *error = message;
        return false;
    };
    const auto keep = [&](QByteArrayView bytes) { return !keepingLog || bytes.isEmpty() || keptLog.write(bytes); };
    const QString keepError = QStringLiteral("%1: cannot write: %2");
    // The kept log gets the client stack as a line of its own, just before the line of the
    // program's first access (valgrindverboselines.h): its import then names the stack as this
    // recording does. The line numbers are the parser's, which counts every line it was given.
    QByteArray stackLine; // waiting to be kept
    qint64 stackLineNumber = 0; // the line it goes before
    qint64 linesBeforePiece = 0;
    if (keepingLog && options.withContext) {
        stackSink.setStackNamedHandler([&](const Mapping &stack) {
            stackLine = QStringLiteral("--%1-- %2%3-%4\n")
                            .arg(valgrindPid)
                            .arg(QLatin1StringView(clientStackLinePrefix), hexText(stack.first.value),
                                hexText(stack.last.value))
                            .toLatin1();
            stackLineNumber = parser.lineNumber();
        });
    }
    const auto keepParsed = [&](QByteArrayView parsed) {
        if (!stackLine.isEmpty() && stackLineNumber > linesBeforePiece) {
            qsizetype at = 0;
            for (qint64 line = linesBeforePiece + 1; line < stackLineNumber && at >= 0; ++line) {
                at = parsed.indexOf('\n', at);
                if (at >= 0)
                    ++at;
            }
            if (at < 0)
                at = parsed.size();
            if (!keep(parsed.first(at)) || !keep(stackLine))
                return false;
            stackLine.clear();
            parsed = parsed.sliced(at);
        }
        return keep(parsed);
    };

    // Valgrind's log goes through the importers' read loop; reading the pipe waits for valgrind in
    // short polls, between which it looks at the stop request and reports progress.
    QString pieceError;
    qint64 lastProgress = 0;
    bool valgrindFinished = false;
    bool lastReadShort = false;
    const auto readPipe = [&](char *data, qsizetype size) -> qint64 {
        if (lastReadShort && !valgrindFinished)
            ::nanosleep(&gatherPause, nullptr);
        for (;;) {
            if (stopRequested.load(std::memory_order_relaxed))
                return TextPieceInput::stop;
            if (progress && timer.nsecsElapsed() - lastProgress >= progressIntervalNs) {
                lastProgress = timer.nsecsElapsed();
                progress({ parser.instructions(), parser.accesses(), double(lastProgress) / 1e9 });
            }
            pollfd pfd { pipe.read, POLLIN, 0 };
            const int ready = ::poll(&pfd, 1, pollMilliseconds);
            if (ready < 0 && errno != EINTR)
                break;
            if (ready <= 0) {
                // A child of the program that valgrind does not trace may hold the pipe open after
                // valgrind has ended: once valgrind is gone, what the pipe holds now is all there is.
                if (valgrindFinished)
                    return 0;
                programGroup.store(0); // waitForFinished() reaps valgrind when it has ended
                valgrindFinished = valgrind.waitForFinished(0);
                if (valgrindFinished)
                    ::fcntl(pipe.read, F_SETFL, ::fcntl(pipe.read, F_GETFL) | O_NONBLOCK);
                else
                    programGroup.store(valgrindPid);
                continue;
            }
            const ssize_t n = ::read(pipe.read, data, size_t(size));
            if (n >= 0) {
                lastReadShort = n < std::min(size, shortReadBytes);
                return n;
            }
            if (errno != EINTR && errno != EAGAIN)
                break;
        }
        pieceError = QStringLiteral("cannot read the valgrind log: ") + QString::fromLocal8Bit(std::strerror(errno));
        return -1;
    };
    const TextPieceInput input {
        readPipe,
        [&](QByteArrayView parsed) {
            if (keepParsed(parsed))
                return true;
            pieceError = keepError.arg(options.keepLogPath, keptLog.reason());
            return false;
        },
    };
    const TextPieceParser pieces {
        [&](const char *data, qsizetype size) {
            linesBeforePiece = parser.lineNumber();
            const qsizetype consumed = parser.parse(data, size);
            if (consumed < 0)
                pieceError = parser.errorString();
            return consumed;
        },
        [&] { return parser.lineNumber(); },
        [&] { return parser.stopped(); },
    };
    QByteArray buffer;
    QByteArrayView rest;
    switch (readInPieces(input, LackeyParser::maxLineLength, pieces, &buffer, &rest)) {
    case TextPieceEnd::Failed:
        return fail(pieceError);
    case TextPieceEnd::Stopped:
        report->end = RecordEnd::Interrupted;
        break;
    case TextPieceEnd::ParserDone:
        report->end = RecordEnd::InstructionLimit;
        break;
    case TextPieceEnd::InputEnd:
        // The log's last line, if valgrind was cut off before its newline, is treated as an import
        // of the kept log would treat it, and kept too, so that both agree.
        if (!keep(rest))
            return fail(keepError.arg(options.keepLogPath, keptLog.reason()));
        if (!parser.finish(rest, false))
            return fail(parser.errorString());
        if (parser.stopped())
            report->end = RecordEnd::InstructionLimit;
        break;
    }
    if (report->end != RecordEnd::ProgramExited) {
        stopValgrind();
    } else {
        programGroup.store(0);
        valgrind.waitForFinished(-1);
    }
    parser.flushVerboseLines();
    parser.fillReport(&report->import);
    if (options.withContext && !stackSink.problem().isEmpty())
        report->contextNotes << stackSink.problem();
    if (report->end != RecordEnd::ProgramExited) {
        // The early end is the user's choice, not a cut trace: drop the parser's guesses about it.
        report->import.warnings.clear();
    }
    report->programCrashed = valgrind.exitStatus() == QProcess::CrashExit;
    // For a crash, QProcess's exit code on Unix is the number of the signal that ended the process.
    report->exitStatus = valgrind.exitCode();

    if (report->end == RecordEnd::ProgramExited && parser.instructions() == 0) {
        QString message = report->programCrashed
            ? QStringLiteral("valgrind could not run %1 (valgrind was killed by signal %2 before the first "
                             "instruction)")
                  .arg(options.program)
                  .arg(report->exitStatus)
            : QStringLiteral("valgrind could not run %1 (valgrind exited with status %2 before the first "
                             "instruction)")
                  .arg(options.program)
                  .arg(report->exitStatus);
        for (const QString &line : std::as_const(report->lastValgrindMessages))
            message += u'\n' + line;
        *error = message;
        return false;
    }
    if (keepingLog && !keptLog.commit())
        return fail(options.keepLogPath + QStringLiteral(": ") + keptLog.errorString());
    return true;
}

} // namespace memhist
