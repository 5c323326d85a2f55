#include "sqlworker.h"

#include <QElapsedTimer>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <sqlite3.h>

namespace memhist {

namespace {

QString sqliteText(const QSqlError &error)
{
    return error.databaseText().isEmpty() ? error.text() : error.databaseText();
}

} // namespace

SqlWorker::SqlWorker(const QString &connectionName)
    : m_connectionName(connectionName)
{ }

SqlWorker::~SqlWorker()
{
    // Normally closed by the console before the thread ends; this is the last chance, and it runs
    // in the worker's thread when the object is deleted there.
    close();
}

void SqlWorker::interrupt()
{
    QMutexLocker locker(&m_handleMutex);
    if (m_handle)
        sqlite3_interrupt(m_handle);
}

void SqlWorker::close()
{
    finishQuery();
    {
        // No interrupt() may reach the handle once sqlite3_close() may have freed it.
        QMutexLocker locker(&m_handleMutex);
        m_handle = nullptr;
    }
    if (m_database.isValid()) {
        m_database.close();
        m_database = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

void SqlWorker::open(const QString &path)
{
    close();
    SqlOpenResult result;
    result.path = path;
    if (path.isEmpty()) {
        result.ok = true;
        emit opened(result);
        return;
    }
    m_database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    m_database.setDatabaseName(path);
    // Read-only at the SQLite level: no statement typed in the console can change the history.
    m_database.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
    if (!m_database.open()) {
        result.error = m_database.lastError().text();
        close();
        emit opened(result);
        return;
    }
    const QVariant handle = m_database.driver()->handle();
    if (handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0) {
        QMutexLocker locker(&m_handleMutex);
        m_handle = *static_cast<sqlite3 *const *>(handle.constData());
    }
    result.ok = true;
    emit opened(result);
}

void SqlWorker::finishQuery()
{
    // Finalizes the statement: it no longer holds a read snapshot of the history.
    m_query.reset();
    m_queryGeneration = 0;
    m_columnCount = 0;
}

void SqlWorker::run(quint64 generation, const QString &sql, int batchSize)
{
    finishQuery();
    QElapsedTimer timer;
    timer.start();
    SqlBatch batch;
    batch.generation = generation;
    batch.first = true;
    if (!m_database.isOpen()) {
        batch.error = tr("No history open");
        emit batchReady(batch);
        return;
    }
    m_query = std::make_unique<QSqlQuery>(m_database);
    // Rows are read once, in order, and handed over: no need for the driver to keep them.
    m_query->setForwardOnly(true);
    // The first step happens here: all the work of a GROUP BY, ORDER BY or aggregate.
    if (!m_query->exec(sql)) {
        batch.error = sqliteText(m_query->lastError());
        finishQuery();
        batch.milliseconds = timer.elapsed();
        emit batchReady(batch);
        return;
    }
    batch.ok = true;
    if (m_query->isSelect()) {
        const QSqlRecord record = m_query->record();
        m_columnCount = record.count();
        for (int column = 0; column < m_columnCount; ++column)
            batch.columns.append(record.fieldName(column));
        m_queryGeneration = generation;
        readRows(&batch, batchSize);
    } else {
        finishQuery();
    }
    batch.milliseconds = timer.elapsed();
    emit batchReady(batch);
}

void SqlWorker::fetch(quint64 generation, int batchSize)
{
    // A request for a statement that has since been replaced, finished or stopped.
    if (!m_query || generation != m_queryGeneration)
        return;
    QElapsedTimer timer;
    timer.start();
    SqlBatch batch;
    batch.generation = generation;
    batch.ok = true;
    readRows(&batch, batchSize);
    batch.milliseconds = timer.elapsed();
    emit batchReady(batch);
}

void SqlWorker::readRows(SqlBatch *batch, int batchSize)
{
    batch->rows.reserve(batchSize);
    while (batch->rows.size() < batchSize) {
        if (!m_query->next()) {
            // The end of the rows, or a failure while stepping to the next one (an interrupt).
            const QSqlError error = m_query->lastError();
            if (error.isValid()) {
                batch->ok = false;
                batch->error = sqliteText(error);
            }
            finishQuery();
            batch->more = false;
            return;
        }
        QVariantList row;
        row.reserve(m_columnCount);
        for (int column = 0; column < m_columnCount; ++column)
            row.append(m_query->value(column));
        batch->rows.append(std::move(row));
    }
    // A full batch: the statement stays open (paused between steps) for the next fetch().
    batch->more = true;
}

} // namespace memhist
