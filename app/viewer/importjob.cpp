// SPDX-License-Identifier: MIT
#include "importjob.h"

namespace memhist::viewer {

ImportJob::ImportJob(QList<TraceInput> inputs, QString outputPath, ImportOptions options, QObject *parent)
    : QObject(parent)
    , m_inputs(std::move(inputs))
    , m_outputPath(std::move(outputPath))
    , m_options(std::move(options))
{
    // 10 Hz is smooth enough for a progress bar and a rate, and costs nothing.
    m_job.onProgress(
        [this](const JobProgress &progress) {
            // A negative fraction: the worker reports the finishing phase (see start()).
            if (progress.fraction < 0) {
                emit finishing(progress.count);
                return;
            }
            const double seconds = double(m_elapsed.nsecsElapsed()) / 1e9;
            emit progressChanged(
                progress.fraction, progress.count, seconds > 0 ? double(progress.count) / seconds : 0, progress.item);
        },
        100);
}

ImportJob::~ImportJob() = default;

void ImportJob::start()
{
    Q_ASSERT(!isRunning());
    m_elapsed.start();
    m_job.start(
        [inputs = m_inputs, outputPath = m_outputPath, options = m_options](const JobTicket &ticket) {
            ImportResult result;
            QElapsedTimer timer;
            timer.start();
            const auto progress = [&ticket](const ImportSessionProgress &p) {
                const double overall
                    = p.traceCount > 0 ? (double(p.traceIndex) + p.fraction) / double(p.traceCount) : 0;
                ticket.report({ p.finishing ? -1.0 : overall, p.accesses, p.path });
                return !ticket.cancelled();
            };
            result.ok = importTraces(inputs, outputPath, options, progress, &result.summary, &result.error);
            result.cancelled = !result.ok && ticket.cancelled();
            result.seconds = double(timer.nsecsElapsed()) / 1e9;
            return result;
        },
        [this](const ImportResult &result) { emit importFinished(result); });
}

void ImportJob::cancel()
{
    m_job.stop();
}

} // namespace memhist::viewer
