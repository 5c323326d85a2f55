// SPDX-License-Identifier: MIT
// Runs `memhist record -o OUT [--max-instructions N] [--with-exec] -- PROGRAM ARGS...` in the
// background and reports when it ends, keeping what the program and memhist record printed. Cancelling sends SIGINT, on
// which memhist record stops the program and keeps what it recorded so far.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>
#include <optional>

namespace memhist::viewer {

struct RecordRequest
{
    QString program;
    QStringList arguments;
    std::optional<quint64> maxInstructions;
    // Also store instruction fetches as executes (--with-exec).
    bool withExecute = false;
    QString outputPath;
    // The user was told that `outputPath` exists and chose to replace it (as
    // ImportChoice::replaceConfirmed). Without it a recording never replaces a file (JobController
    // refuses).
    bool replaceConfirmed = false;
};

// The `memhist` command line the viewer runs: beside memhist-viewer (an installed package), in the
// build tree's app/memhist/, or in PATH. Empty when none is found.
QString findMemhistCli();

// The arguments of `memhist record` for `request`.
QStringList recordArguments(const RecordRequest &request);

// memhist record's summary line as the viewer shows it: its counts of four digits or more grouped
// as everywhere in the viewer ("recorded 309,033 instructions, 104,680 accesses"); `outputPath`
// (where the line names it), decimals ("1.702 s") and digits inside words are left as they are.
// Its "transitions 1..132807", the range of the accesses, reads "accesses at transitions …": the
// instructions recorded (132,813: transitions 0..132,812) include some that touched no memory.
QString viewerRecordSummary(const QString &line, const QString &outputPath);

class RecordJob : public QObject
{
    Q_OBJECT
public:
    RecordJob(QString memhistCli, RecordRequest request, QObject *parent = nullptr);
    ~RecordJob() override;

    const RecordRequest &request() const { return m_request; }
    void start();
    void cancel();
    bool wasCancelled() const { return m_cancelled; }
    // Everything the program and memhist record printed (stdout and stderr, in the order read), its
    // last maxOutputChars characters when it printed more.
    QString output() const { return m_output; }
    static constexpr qsizetype maxOutputChars = 1024 * 1024;

signals:
    // Every second while it runs: the time spent and the last line memhist record printed.
    void progressChanged(double seconds, const QString &lastLine);
    // `ok` when memhist record exited with status 0 and the history exists; `message` is its
    // summary line or its error.
    void recordFinished(bool ok, const QString &message);

private:
    void readOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    // Sends SIGINT once memhist record has installed its handler for it (see the .cpp).
    void interruptWhenHandled();

    QString m_cli;
    RecordRequest m_request;
    QProcess m_process;
    QTimer m_tick;
    QElapsedTimer m_elapsed;
    QString m_lastLine;
    // The end of stderr, where memhist record's summary or error is; bounded, since the
    // recorded program writes there too.
    QString m_stderr;
    QString m_output;
    bool m_cancelled = false;
};

} // namespace memhist::viewer
