// SPDX-License-Identifier: MIT
#include "jobcontroller.h"

#include "core/model/numbertext.h"
#include "importjob.h"
#include "importoutput.h"
#include "jobprogresswidget.h"
#include "recordjob.h"
#include "viewermessages.h"

#include <QDir>
#include <QFileInfo>
#include <cmath>

namespace memhist::viewer {

namespace {

// "826,213 accesses/s": a count per second, grouped as every count of the viewer (and whole, as
// `memhist import` prints it), not "826 k" beside "1.5 M".
QString rateText(double accessesPerSecond)
{
    const double rate = std::isfinite(accessesPerSecond) ? std::max(0.0, std::round(accessesPerSecond)) : 0.0;
    return JobController::tr("%1 accesses/s").arg(countText(rate < 0x1p64 ? std::uint64_t(rate) : ~std::uint64_t(0)));
}

// "41 ms" under a second (a small trace: "0.0 s" would say nothing), else "2.3 s".
QString durationText(double seconds)
{
    if (seconds < 1.0)
        return JobController::tr("%1 ms").arg(std::lround(std::max(0.0, seconds) * 1000.0));
    return JobController::tr("%1 s").arg(QString::number(seconds, 'f', 1));
}

// What a history's summary read gives.
struct InfoRead
{
    bool ok = false;
    HistoryInfo info;
    QString error;
};

} // namespace

JobController::JobController(JobProgressWidget *progress, QObject *parent)
    : QObject(parent)
    , m_progress(progress)
{
    connect(m_progress, &JobProgressWidget::cancelClicked, this, &JobController::cancel);
}

JobController::~JobController() = default;

QString JobController::memhistCli() const
{
    return m_memhistCli.isEmpty() ? findMemhistCli() : m_memhistCli;
}

bool JobController::isBusy() const
{
    return (m_importJob && m_importJob->isRunning()) || m_recordJob;
}

void JobController::cancel()
{
    if (m_importJob)
        m_importJob->cancel();
    if (m_recordJob)
        m_recordJob->cancel();
}

bool JobController::refusesToReplace(const QString &title, const QString &output, bool replaceConfirmed)
{
    // Only the user replaces a history, in the Import or Record dialog's question (see
    // replaceQuestion()): a caller that did not ask (or a file that appeared meanwhile) gets a
    // refusal, not a silent overwrite.
    if (!QFileInfo::exists(output) || replaceConfirmed)
        return false;
    emit failed(title,
        tr("%1 exists and was not replaced; choose another name, or confirm that it should be replaced.")
            .arg(QDir::toNativeSeparators(output)));
    return true;
}

// --- Opening -------------------------------------------------------------------------------------

void JobController::openPath(const QString &path)
{
    // A FIFO, device or socket would block whoever opens it (a FIFO waits for a writer).
    const QFileInfo info(path);
    if (info.exists() && !info.isFile() && !info.isDir()) {
        emit failed(tr("Cannot open"),
            tr("%1 is not a regular file (a FIFO, device or socket): histories and traces are read from regular "
               "files and directories.")
                .arg(QDir::toNativeSeparators(path)));
        return;
    }
    if (info.isFile() && isSqliteDatabase(path))
        openHistory(path);
    else
        importTraces({ path }, false); // refuses a .memhist that is no history (importTraces)
}

void JobController::openHistory(const QString &path, const QString &openedStatus)
{
    emit statusChanged(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
    // A foreign database without a meta table has its counts computed by a scan: off the GUI thread.
    m_opening.start(
        [path](const JobTicket &) {
            InfoRead read;
            read.ok = readHistoryInfo(path, &read.info, &read.error);
            return read;
        },
        [this, path, openedStatus](const InfoRead &read) {
            if (read.ok)
                emit historyReady(QFileInfo(path).absoluteFilePath(), read.info, openedStatus);
            else
                emit failed(tr("Cannot open the history"), openHistoryMessage(path, read.error));
        });
}

// --- Importing -----------------------------------------------------------------------------------

void JobController::importTraces(const QStringList &traces, bool askForOutput)
{
    if (traces.isEmpty())
        return;
    if (isBusy()) {
        emit failed(tr("Cannot import now"), tr("Another import or recording is running; wait for it or cancel it."));
        return;
    }
    // A file named like a history that does not start as one is no trace either: say so, rather
    // than that its trace format is unknown.
    for (const QString &trace : traces) {
        if (QFileInfo(trace).isFile() && trace.endsWith(QLatin1String(".memhist")) && !isSqliteDatabase(trace)) {
            emit failed(tr("Cannot open the history"), notAHistoryMessage(trace));
            return;
        }
    }
    // Reads at most the first 64 KiB of each trace: cheap enough here, and it lets us refuse an
    // unknown file before asking where its history should go.
    QList<TraceInput> inputs;
    QString error;
    if (!recogniseTraces(traces, std::nullopt, &inputs, &error)) {
        emit failed(tr("Cannot import"), importMessage(error));
        return;
    }
    // Never an existing history by default: "NAME-2.memhist" when NAME.memhist is there.
    ImportChoice choice { freeHistoryPath(defaultImportOutput(traces.constFirst())), {} };
    if (askForOutput && m_chooseImport) {
        const std::optional<ImportChoice> chosen = m_chooseImport(traces, choice.output);
        if (!chosen || chosen->output.isEmpty())
            return;
        choice = *chosen;
    }
    const QString &output = choice.output;
    for (const TraceInput &input : std::as_const(inputs)) {
        if (sameFile(input.path, output)) {
            emit failed(tr("Cannot import"), tr("%1 would replace the trace it is imported from").arg(output));
            return;
        }
    }
    if (refusesToReplace(tr("Cannot import"), output, choice.replaceConfirmed))
        return;

    auto *job = new ImportJob(inputs, output, choice.options, this);
    m_importJob = job;
    const QString what
        = inputs.size() == 1 ? QFileInfo(inputs.constFirst().path).fileName() : tr("%1 traces").arg(inputs.size());
    m_progress->begin(tr("Importing %1…").arg(what));
    connect(job, &ImportJob::progressChanged, this,
        [this, what](double fraction, qint64 accesses, double rate, const QString &) {
            m_progress->setProgress(
                fraction, tr("Importing %1: %2 accesses, %3").arg(what, countText(quint64(accesses)), rateText(rate)));
        });
    // Every trace read: the bar turns busy and says what the wait is for (indexes, summaries and
    // context: a third of the time at 10^8 accesses), instead of resting at 100 % with a stale rate.
    connect(job, &ImportJob::finishing, this, [this, what](qint64 accesses) {
        m_progress->setProgress(-1, tr("Finishing %1: writing indexes and summaries…").arg(what));
        m_progress->setToolTip(tr("Every trace is read (%1 accesses); the history's indexes, display summary and "
                                  "program context are being written. Cancel still leaves nothing behind.")
                                   .arg(countText(quint64(accesses))));
    });
    connect(job, &ImportJob::importFinished, this, &JobController::importDone);
    job->start();
}

void JobController::importDone(const ImportResult &result)
{
    ImportJob *job = m_importJob;
    const QString output = job ? job->outputPath() : QString();
    m_progress->end();
    if (job)
        job->deleteLater();
    m_importJob = nullptr;

    QString message;
    if (result.ok) {
        const WriterStats &stats = result.summary.stats;
        message = tr("Imported %1 accesses into %2 in %3 (%4)")
                      .arg(countText(quint64(stats.accesses)), QDir::toNativeSeparators(output),
                          durationText(result.seconds),
                          rateText(result.seconds > 0 ? double(stats.accesses) / result.seconds : 0));
        for (const QString &warning : result.summary.warnings)
            message += QStringLiteral("\nwarning: ") + warning;
        if (!result.summary.warnings.isEmpty()) {
            emit importWarned(output, result.summary.warnings);
            emit logged(tr("Import into %1: warnings").arg(QDir::toNativeSeparators(output)),
                result.summary.warnings.join(u'\n'));
        }
        // Shown once the history has opened, so that "Opened …" does not replace it.
        openHistory(output, message);
    } else if (result.cancelled) {
        message = tr("Import cancelled; nothing was written to %1").arg(QDir::toNativeSeparators(output));
        emit statusChanged(message);
    } else {
        message = result.error + u'\n' + tr("Nothing was written to %1.").arg(QDir::toNativeSeparators(output));
        emit failed(tr("Import failed"), message);
    }
    emit importFinished(result.ok, message);
}

// --- Recording -----------------------------------------------------------------------------------

void JobController::record(const RecordRequest &request)
{
    if (isBusy()) {
        emit failed(tr("Cannot record now"), tr("Another import or recording is running; wait for it or cancel it."));
        return;
    }
    const QString cli = memhistCli();
    if (cli.isEmpty()) {
        emit failed(tr("Cannot record"),
            tr("Recording runs the memhist command line, found neither beside memhist-viewer nor in PATH."));
        return;
    }
    if (refusesToReplace(tr("Cannot record"), request.outputPath, request.replaceConfirmed))
        return;
    auto *job = new RecordJob(cli, request, this);
    m_recordJob = job;
    const QString name = QFileInfo(request.program).fileName();
    m_progress->begin(tr("Recording %1…").arg(name));
    connect(job, &RecordJob::progressChanged, this, [this, name](double seconds, const QString &lastLine) {
        // memhist record prints its counts only to a terminal: the time spent is what we know. The
        // program's own last output line goes to the tooltip, where it is not taken for progress.
        m_progress->setProgress(-1, tr("Recording %1: %2 s").arg(name).arg(qint64(seconds)));
        m_progress->setToolTip(lastLine.isEmpty() ? QString() : tr("The program's last output: %1").arg(lastLine));
    });
    connect(job, &RecordJob::recordFinished, this, &JobController::recordDone);
    job->start();
}

void JobController::recordDone(bool ok, const QString &message)
{
    RecordJob *job = m_recordJob;
    m_progress->end();
    m_progress->setToolTip(QString());
    const QString output = job ? job->request().outputPath : QString();
    const bool cancelled = job && job->wasCancelled();
    if (job) {
        const QString printed = job->output().trimmed();
        emit logged(tr("Recording of %1: what the program and memhist record printed")
                        .arg(QDir::toNativeSeparators(job->request().program)),
            printed.isEmpty() ? tr("(nothing)") : printed);
        job->deleteLater();
    }
    m_recordJob = nullptr;
    if (ok) {
        const QString status = cancelled ? tr("Recording stopped; kept what was recorded: %1").arg(message) : message;
        emit statusChanged(status);
        openHistory(output, status);
    } else {
        emit failed(tr("Recording failed"), message);
    }
    emit recordFinished(ok, message);
}

} // namespace memhist::viewer
