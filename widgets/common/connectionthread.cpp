// SPDX-License-Identifier: MIT
#include "widgets/common/connectionthread.h"

#include <QSemaphore>
#include <sqlite3.h>

namespace memhist {

bool ConnectionWorker::ensureOpen(const QString &path, QString *error)
{
    if (!m_openPath.isEmpty() && m_openPath == path)
        return true;
    close();
    if (!openConnection(path, error)) {
        closeConnection();
        return false;
    }
    m_openPath = path;
    return true;
}

void ConnectionWorker::close()
{
    closeConnection();
    m_openPath.clear();
}

void ConnectionWorker::interrupt()
{
    QMutexLocker locker(&m_handleMutex);
    if (m_handle)
        sqlite3_interrupt(m_handle);
}

void ConnectionWorker::setInterruptible(sqlite3 *handle)
{
    QMutexLocker locker(&m_handleMutex);
    m_handle = handle;
}

ConnectionThreadBase::ConnectionThreadBase(QObject *owner, const QString &threadName, ConnectionWorker *worker)
    : m_worker(worker)
    , m_generations(owner)
{
    m_thread.setObjectName(threadName);
    m_worker->moveToThread(&m_thread);
    // Deleted in its own thread, where its connection was used, once the thread's loop has ended.
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

ConnectionThreadBase::~ConnectionThreadBase()
{
    m_generations.cancel();
    // Blocks until the work in progress has ended (it sees itself stale, or is interrupted) and the
    // connection is closed in the thread that used it. The interrupt is repeated until then:
    // sqlite3_interrupt() stops only the statements running when it is called, so one sent just
    // before the work steps its statement would be lost.
    ConnectionWorker *worker = m_worker;
    QSemaphore closed;
    QMetaObject::invokeMethod(
        worker,
        [worker, &closed] {
            worker->close();
            closed.release();
        },
        Qt::QueuedConnection);
    do {
        m_worker->interrupt();
    } while (!closed.tryAcquire(1, 50));
    m_thread.quit();
    m_thread.wait();
}

} // namespace memhist
