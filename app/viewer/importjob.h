// Imports traces into a new history on a worker thread (importTraces()), reporting progress to the
// GUI thread and cancelling on request. The GUI thread polls the worker's progress at a fixed rate
// rather than receiving a signal per callback: the importer reports every 0.1 %, far more often
// than a progress bar needs to move.
#pragma once

#include "importers/importsession.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

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
    ImportJob(QList<TraceInput> inputs, QString outputPath, QObject *parent = nullptr);
    ~ImportJob() override;

    const QList<TraceInput> &inputs() const { return m_inputs; }
    const QString &outputPath() const { return m_outputPath; }

    void start();
    // Asks the worker to stop at its next progress callback; importFinished() follows with
    // cancelled set, and nothing is left at the output path.
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    // `fraction` of all traces (0..1), accesses stored so far and the rate since the start.
    void progressChanged(double fraction, qint64 accesses, double accessesPerSecond, const QString &currentTrace);
    void importFinished(const memhist::viewer::ImportResult &result);

private:
    struct Shared;
    void pollProgress();

    QList<TraceInput> m_inputs;
    QString m_outputPath;
    std::shared_ptr<Shared> m_shared;
    QTimer m_pollTimer;
    QElapsedTimer m_elapsed;
    bool m_running = false;
};

} // namespace memhist::viewer

Q_DECLARE_METATYPE(memhist::viewer::ImportResult)
