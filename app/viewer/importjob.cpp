#include "importjob.h"

#include <QFuture>
#include <QMutex>
#include <QtConcurrent>
#include <atomic>

namespace memhist::viewer {

// What the worker and the GUI thread share. The job may be destroyed while the worker runs (the
// window closes): the worker then keeps this alive, sees the cancel flag and finishes alone.
struct ImportJob::Shared
{
    std::atomic_bool cancelRequested { false };
    std::atomic<double> fraction { 0 };
    std::atomic<qint64> accesses { 0 };
    QMutex mutex;
    QString currentTrace; // guarded by mutex
};

ImportJob::ImportJob(QList<TraceInput> inputs, QString outputPath, QObject *parent)
    : QObject(parent)
    , m_inputs(std::move(inputs))
    , m_outputPath(std::move(outputPath))
    , m_shared(std::make_shared<Shared>())
{
    // 10 Hz is smooth enough for a progress bar and a rate, and costs nothing.
    m_pollTimer.setInterval(100);
    connect(&m_pollTimer, &QTimer::timeout, this, &ImportJob::pollProgress);
}

ImportJob::~ImportJob()
{
    m_shared->cancelRequested = true;
}

void ImportJob::start()
{
    Q_ASSERT(!m_running);
    m_running = true;
    m_elapsed.start();
    m_pollTimer.start();
    const std::shared_ptr<Shared> shared = m_shared;
    const QList<TraceInput> inputs = m_inputs;
    const QString outputPath = m_outputPath;
    QFuture<ImportResult> future = QtConcurrent::run([shared, inputs, outputPath] {
        ImportResult result;
        QElapsedTimer timer;
        timer.start();
        const auto progress = [&shared](const ImportSessionProgress &p) {
            const double overall = p.traceCount > 0 ? (double(p.traceIndex) + p.fraction) / double(p.traceCount) : 0;
            shared->fraction = overall;
            shared->accesses = p.accesses;
            {
                QMutexLocker locker(&shared->mutex);
                if (shared->currentTrace != p.path)
                    shared->currentTrace = p.path;
            }
            return !shared->cancelRequested.load();
        };
        result.ok = importTraces(inputs, outputPath, ImportOptions {}, progress, &result.summary, &result.error);
        result.cancelled = !result.ok && shared->cancelRequested.load();
        result.seconds = double(timer.nsecsElapsed()) / 1e9;
        return result;
    });
    future.then(this, [this](const ImportResult &result) {
        m_pollTimer.stop();
        m_running = false;
        pollProgress();
        emit importFinished(result);
    });
}

void ImportJob::cancel()
{
    m_shared->cancelRequested = true;
}

void ImportJob::pollProgress()
{
    const double seconds = double(m_elapsed.nsecsElapsed()) / 1e9;
    const qint64 accesses = m_shared->accesses.load();
    QString trace;
    {
        QMutexLocker locker(&m_shared->mutex);
        trace = m_shared->currentTrace;
    }
    emit progressChanged(m_shared->fraction.load(), accesses, seconds > 0 ? double(accesses) / seconds : 0, trace);
}

} // namespace memhist::viewer
