// SPDX-License-Identifier: MIT
#include "recordjob.h"

#include "core/model/numbertext.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <csignal>
#include <signal.h>
#include <sys/types.h>

namespace memhist::viewer {

namespace {

// Enough for memhist record's error (valgrind's last messages and its own line) after whatever the
// program wrote to stderr before.
constexpr qsizetype maxStderrChars = 64 * 1024;

// Whether process `pid` catches SIGINT now. memhist record installs its handler only once it is
// about to record: a SIGINT before that (a Cancel clicked at once) would kill it, with nothing
// recorded and possibly a temporary file left beside the output. Linux says which signals a
// process catches in /proc/PID/status ("SigCgt", a hexadecimal mask); elsewhere we cannot tell
// and say yes.
bool catchesSigint(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return true;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("SigCgt:")) {
            bool ok = false;
            const quint64 mask = line.mid(7).trimmed().toULongLong(&ok, 16);
            return !ok || (mask & (quint64(1) << (SIGINT - 1))) != 0;
        }
    }
    return true;
}

// Groups the stand-alone counts of `text`: a run of four digits or more with no letter, digit,
// '_', '/' or '-' beside it, no single '.' before it (a decimal's fraction; "1..306084", a range,
// is grouped) and no fraction after it.
QString groupCounts(const QString &text)
{
    static const QRegularExpression count(
        QStringLiteral(R"((?<![\w/\-])(?<![^.]\.)(?<!^\.)(\d{4,})(?![\w/\-])(?!\.\d))"));
    QString grouped;
    qsizetype done = 0;
    for (QRegularExpressionMatchIterator it = count.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        bool ok = false;
        const quint64 value = match.captured(1).toULongLong(&ok);
        grouped += text.mid(done, match.capturedStart(1) - done);
        grouped += ok ? countText(value) : match.captured(1);
        done = match.capturedEnd(1);
    }
    return grouped + text.mid(done);
}

} // namespace

QString viewerRecordSummary(const QString &line, const QString &outputPath)
{
    const qsizetype at = outputPath.isEmpty() ? -1 : line.indexOf(outputPath);
    // "recorded 132813 instructions, ... transitions 1..132807": the instructions run are transitions
    // 0..132812, the range is that of the accesses (the first instruction and the last few touched no
    // memory). Said so, since the status line and Go to Transition name the accesses' range.
    const auto explained = [](QString text) {
        return groupCounts(
            text.replace(QStringLiteral("; transitions "), QStringLiteral("; accesses at transitions ")));
    };
    if (at < 0)
        return explained(line);
    return explained(line.left(at)) + outputPath + groupCounts(line.mid(at + outputPath.size()));
}

QString findMemhistCli()
{
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString &candidate :
        { here.filePath(QStringLiteral("memhist")), here.filePath(QStringLiteral("../memhist/memhist")) }) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("memhist"));
}

QStringList recordArguments(const RecordRequest &request)
{
    QStringList arguments { QStringLiteral("record"), QStringLiteral("-o"), request.outputPath };
    if (request.maxInstructions)
        arguments << QStringLiteral("--max-instructions") << QString::number(*request.maxInstructions);
    if (request.withExecute)
        arguments << QStringLiteral("--with-exec");
    arguments << QStringLiteral("--") << request.program << request.arguments;
    return arguments;
}

RecordJob::RecordJob(QString memhistCli, RecordRequest request, QObject *parent)
    : QObject(parent)
    , m_cli(std::move(memhistCli))
    , m_request(std::move(request))
{
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this,
        [this] { emit progressChanged(double(m_elapsed.elapsed()) / 1000.0, m_lastLine); });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &RecordJob::readOutput);
    connect(&m_process, &QProcess::readyReadStandardError, this, &RecordJob::readOutput);
    connect(&m_process, &QProcess::finished, this, &RecordJob::onFinished);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            m_tick.stop();
            emit recordFinished(false, tr("%1: cannot start: %2").arg(m_cli, m_process.errorString()));
        }
    });
}

RecordJob::~RecordJob()
{
    // The window is closing: stop the recording the way Cancel does and give it a moment to save.
    if (m_process.state() == QProcess::NotRunning)
        return;
    QElapsedTimer waited;
    waited.start();
    while (!catchesSigint(m_process.processId()) && waited.elapsed() < 3000) {
        if (m_process.waitForFinished(50))
            return;
    }
    ::kill(pid_t(m_process.processId()), SIGINT);
    if (!m_process.waitForFinished(5000))
        m_process.kill();
}

void RecordJob::start()
{
    m_elapsed.start();
    m_tick.start();
    // The recorded program must not wait on a terminal that is not there.
    m_process.setStandardInputFile(QProcess::nullDevice());
    // A viewer started as a script's background job has SIGINT (and SIGQUIT) ignored, as bash sets
    // them, and a child inherits ignored signals across exec: memhist record would then never see
    // Cancel's SIGINT, nor valgrind and the program. The child starts with the default dispositions
    // of the signals that stop a recording, none of them blocked (only async-signal-safe calls here,
    // between fork and exec).
    m_process.setChildProcessModifier([] {
        sigset_t stopSignals;
        sigemptyset(&stopSignals);
        for (const int signal : { SIGINT, SIGTERM, SIGHUP }) {
            ::signal(signal, SIG_DFL);
            sigaddset(&stopSignals, signal);
        }
        sigprocmask(SIG_UNBLOCK, &stopSignals, nullptr);
    });
    m_process.start(m_cli, recordArguments(m_request));
}

void RecordJob::cancel()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    if (m_cancelled)
        return;
    m_cancelled = true;
    interruptWhenHandled();
}

void RecordJob::interruptWhenHandled()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    if (m_process.state() == QProcess::Starting || !catchesSigint(m_process.processId())) {
        QTimer::singleShot(50, this, &RecordJob::interruptWhenHandled);
        return;
    }
    // SIGINT, not QProcess::terminate(): memhist record treats it as "stop here and keep what
    // was recorded", as it does for Ctrl+C in a terminal.
    ::kill(pid_t(m_process.processId()), SIGINT);
}

void RecordJob::readOutput()
{
    const QString out = QString::fromLocal8Bit(m_process.readAllStandardOutput());
    const QString err = QString::fromLocal8Bit(m_process.readAllStandardError());
    m_stderr += err;
    if (m_stderr.size() > maxStderrChars)
        m_stderr.remove(0, m_stderr.size() - maxStderrChars);
    // Kept for the log the window shows after the recording (the program's output is the user's).
    m_output += out + err;
    if (m_output.size() > maxOutputChars)
        m_output.remove(0, m_output.size() - maxOutputChars);
    // Progress lines end in \r on a terminal; memhist record prints them only to a TTY, so what
    // arrives here are whole lines: the program's output, warnings and the final summary.
    const QStringList lines
        = QString(out + err).split(QRegularExpression(QStringLiteral("[\r\n]")), Qt::SkipEmptyParts);
    if (!lines.isEmpty())
        m_lastLine = lines.constLast().trimmed();
}

void RecordJob::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_tick.stop();
    readOutput();
    const bool ok = status == QProcess::NormalExit && exitCode == 0 && QFileInfo::exists(m_request.outputPath);
    QString message;
    if (ok) {
        // memhist record ends with its summary on stderr ("memhist record: program exited with
        // status 0; recorded N instructions, ..."); the program's own output is on stdout.
        // Then a line saying what context the history holds ("memhist record: context: ..."), and
        // maybe one per module without symbols: the message is the summary and the first of those.
        const QLatin1String prefix("memhist record: ");
        const QLatin1String contextPrefix("memhist record: context: ");
        const QStringList lines = m_stderr.split(u'\n', Qt::SkipEmptyParts);
        message = tr("recorded %1").arg(m_request.outputPath);
        QString context;
        for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
            if (it->startsWith(contextPrefix)) {
                context = it->mid(prefix.size()).trimmed();
            } else if (it->startsWith(prefix) && !it->startsWith(QLatin1String("memhist record: warning: "))) {
                message = viewerRecordSummary(it->mid(prefix.size()).trimmed(), m_request.outputPath);
                break;
            }
        }
        if (!context.isEmpty())
            message += QStringLiteral("; ") + context;
    } else if (status != QProcess::NormalExit) {
        // On Unix, QProcess's exit code after a crash is the number of the signal that ended it.
        message = tr("memhist record was killed by signal %1").arg(exitCode);
    } else {
        message = m_stderr.trimmed().isEmpty() ? tr("memhist record failed with exit status %1").arg(exitCode)
                                               : m_stderr.trimmed();
    }
    emit recordFinished(ok, message);
}

} // namespace memhist::viewer
