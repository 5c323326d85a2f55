// SPDX-License-Identifier: MIT
#include "widgets/sql/sqlworker.h"

#include "core/storage/sqlitefileheader.h"
#include "widgets/sql/consoleguard.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QUrl>
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
    // Normally closed by the ConnectionThread before the thread ends; this is the last chance, and
    // it runs in the worker's thread when the object is deleted there.
    closeConnection();
}

void SqlWorker::closeConnection()
{
    finishQuery();
    // No interrupt() may reach the handle once sqlite3_close() may have freed it.
    setInterruptible(nullptr);
    m_handle = nullptr;
    if (m_database.isValid()) {
        m_database.close();
        m_database = QSqlDatabase();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

SqlOpenResult SqlWorker::open(const QString &path)
{
    // Always a fresh connection, even to the same history: no statement of the previous one stays
    // open, holding a read snapshot.
    close();
    SqlOpenResult result;
    result.path = path;
    result.ok = path.isEmpty() || ensureOpen(path, &result.error);
    return result;
}

bool SqlWorker::openConnection(const QString &path, QString *error)
{
    m_database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    // Read-only at the SQLite level: no statement typed in the console can change the history. A
    // WAL-mode history without its -wal file is read immutable, as the command line reads it, so
    // that no -wal and -shm files appear beside it.
    const auto header = readSqliteFileHeader(path);
    if (header && header->walMode && !QFileInfo::exists(path + QStringLiteral("-wal"))) {
        m_database.setDatabaseName(
            QString::fromUtf8(QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toEncoded())
            + QStringLiteral("?immutable=1"));
        m_database.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI"));
    } else {
        m_database.setDatabaseName(path);
        m_database.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
    }
    if (!m_database.open()) {
        *error = m_database.lastError().text();
        return false;
    }
    const QVariant handle = m_database.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0) {
        *error = QCoreApplication::translate("memhist::SqlWorker", "The SQL driver gives no SQLite handle");
        m_database.close();
        return false;
    }
    m_handle = *static_cast<sqlite3 *const *>(handle.constData());
    guardConsoleConnection(m_handle);
    setInterruptible(m_handle);
    return true;
}

void SqlWorker::finishQuery()
{
    // Finalizes the statement: it no longer holds a read snapshot of the history.
    m_query.reset();
    m_queryGeneration = 0;
    m_columnCount = 0;
}

SqlBatch SqlWorker::run(quint64 generation, const QString &sql, int batchSize)
{
    finishQuery();
    QElapsedTimer timer;
    timer.start();
    SqlBatch batch;
    batch.first = true;
    if (!m_database.isOpen()) {
        batch.error = QCoreApplication::translate("memhist::SqlWorker", "No history open");
        return batch;
    }
    if (const QString refusal = consoleRefusal(m_handle, sql); !refusal.isEmpty()) {
        batch.error = refusal;
        batch.milliseconds = timer.elapsed();
        return batch;
    }
    m_query = std::make_unique<QSqlQuery>(m_database);
    // Rows are read once, in order, and handed over: no need for the driver to keep them.
    m_query->setForwardOnly(true);
    // The first step happens here: all the work of a GROUP BY, ORDER BY or aggregate.
    if (!m_query->exec(sql)) {
        batch.error = sqliteText(m_query->lastError());
        finishQuery();
        batch.milliseconds = timer.elapsed();
        return batch;
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
    return batch;
}

std::optional<SqlBatch> SqlWorker::fetch(quint64 generation, int batchSize)
{
    // A request for a statement that has since been replaced, finished or stopped.
    if (!m_query || generation != m_queryGeneration)
        return std::nullopt;
    QElapsedTimer timer;
    timer.start();
    SqlBatch batch;
    batch.ok = true;
    readRows(&batch, batchSize);
    batch.milliseconds = timer.elapsed();
    return batch;
}

void SqlWorker::readRows(SqlBatch *batch, int batchSize)
{
    batch->rows.reserve(batchSize);
    // Bounded by bytes too: a few rows of large blobs are a full batch.
    constexpr qint64 maxBatchBytes = 16 << 20;
    qint64 bytes = 0;
    while (batch->rows.size() < batchSize && bytes < maxBatchBytes) {
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
        for (int column = 0; column < m_columnCount; ++column) {
            row.append(m_query->value(column));
            const QVariant &value = row.constLast();
            if (value.typeId() == QMetaType::QByteArray)
                bytes += value.toByteArray().size();
            else if (value.typeId() == QMetaType::QString)
                bytes += 2 * value.toString().size();
            else
                bytes += 8;
        }
        batch->rows.append(std::move(row));
    }
    // A full batch: the statement stays open (paused between steps) for the next fetch().
    batch->more = true;
}

} // namespace memhist
