// SPDX-License-Identifier: MIT
// Imports traces into a new history on a worker thread (importTraces() in a JobTracker job),
// reporting progress to the GUI thread and stopping on request. The importer reports every 0.1 %,
// far more often than a progress bar needs to move: the tracker hands the newest figures over at
// most ten times a second.
#pragma once

#include "core/importers/importsession.h"
#include "widgets/common/jobtracker.h"

#include <QElapsedTimer>
#include <QObject>

namespace memhist::viewer {

struct ImportResult
{
    bool ok = false;
    bool cancelled = false;
    QString error; // the importer's or the writer's message
    ImportSummary summary;
    double seconds = 0;
};

class ImportJob : public QObject
{
    Q_OBJECT
public:
    ImportJob(QList<TraceInput> inputs, QString outputPath, ImportOptions options, QObject *parent = nullptr);
    // A job still running stops at its next progress callback and leaves nothing at the output.
    ~ImportJob() override;

    const QList<TraceInput> &inputs() const { return m_inputs; }
    const QString &outputPath() const { return m_outputPath; }

    void start();
    // Asks the worker to stop at its next progress callback; importFinished() follows with
    // cancelled set, and nothing is left at the output path.
    void cancel();
    bool isRunning() const { return m_job.isRunning(); }

signals:
    // `fraction` of all traces (0..1), accesses stored so far and the rate since the start.
    void progressChanged(double fraction, qint64 accesses, double accessesPerSecond, const QString &currentTrace);
    // Every trace is read (`accesses` of them) and the history is being finished: its indexes,
    // summaries and context. No fraction or rate to show until importFinished(); still cancellable.
    void finishing(qint64 accesses);
    void importFinished(const memhist::viewer::ImportResult &result);

private:
    QList<TraceInput> m_inputs;
    QString m_outputPath;
    ImportOptions m_options;
    QElapsedTimer m_elapsed;
    JobTracker m_job { this };
};

} // namespace memhist::viewer

Q_DECLARE_METATYPE(memhist::viewer::ImportResult)
