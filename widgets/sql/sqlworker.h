// SPDX-License-Identifier: MIT
// The SQL console's worker: the console's read-only Qt SQL connection and its statement, in a
// thread of their own (the console's ConnectionThread). The GUI thread never touches the
// connection; it posts work to the thread and gets rows back as plain values.
#pragma once

#include "widgets/common/connectionthread.h"

#include <QSqlDatabase>
#include <QStringList>
#include <QVariantList>
#include <memory>
#include <optional>

struct sqlite3;
class QSqlQuery;

namespace memhist {

// One delivery from the worker: the outcome of a statement with its first rows, or the next rows
// of the same statement. Every request carries the ticket of the statement it is for, so answers
// for a statement the console no longer shows are dropped.
struct SqlBatch
{
    bool first = false; // the answer to run(), as opposed to fetch()
    bool ok = false;
    QString error; // SQLite's own words when !ok ("interrupted", "no such table: x")
    QStringList columns; // with the first batch only
    QList<QVariantList> rows;
    bool more = false; // the statement has rows left: fetch() gets the next ones
    qint64 milliseconds = 0; // the time the worker spent on this batch
};

struct SqlOpenResult
{
    QString path;
    bool ok = false;
    QString error;
};

class SqlWorker : public ConnectionWorker
{
public:
    explicit SqlWorker(const QString &connectionName);
    ~SqlWorker() override;

    // interrupt() (ConnectionWorker, thread-safe) stops the statement being stepped: it ends with
    // SQLite's "interrupted".

    // The members below run in the worker's thread (post them).

    // Closes the current connection, if any, and opens `path` read-only (an empty path only closes).
    SqlOpenResult open(const QString &path);
    // Runs `sql` (the statement of `generation`) and returns its first `batchSize` rows (first set).
    SqlBatch run(quint64 generation, const QString &sql, int batchSize);
    // The next `batchSize` rows of the statement of `generation`; nothing for any other.
    std::optional<SqlBatch> fetch(quint64 generation, int batchSize);

protected:
    bool openConnection(const QString &path, QString *error) override;
    void closeConnection() override;

private:
    // Steps the open statement for up to `batchSize` rows into `batch`.
    void readRows(SqlBatch *batch, int batchSize);
    void finishQuery();

    const QString m_connectionName;
    QSqlDatabase m_database;
    std::unique_ptr<QSqlQuery> m_query; // the statement whose rows are being read, forward only
    quint64 m_queryGeneration = 0;
    int m_columnCount = 0;

    sqlite3 *m_handle = nullptr; // the driver's, while open (used in the worker's thread only)
};

} // namespace memhist
