// The SQL console's worker: the console's read-only Qt SQL connection and its statement, in a
// thread of their own. The GUI thread never touches the connection; it asks for work with queued
// calls and gets rows back as plain values in queued signals.
#pragma once

#include <QMetaType>
#include <QMutex>
#include <QObject>
#include <QSqlDatabase>
#include <QStringList>
#include <QVariantList>
#include <memory>

struct sqlite3;
class QSqlQuery;

namespace memhist {

// One delivery from the worker: the outcome of a statement with its first rows, or the next rows
// of the same statement. Every request carries the generation of the statement it is for, and so
// does its answer, so the console can drop answers for a statement it no longer shows.
struct SqlBatch
{
    quint64 generation = 0;
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

class SqlWorker : public QObject
{
    Q_OBJECT

public:
    explicit SqlWorker(const QString &connectionName);
    ~SqlWorker() override;

    // Thread-safe: interrupts whatever statement the connection is stepping (sqlite3_interrupt()
    // is documented as safe from any thread while the connection is open; the mutex makes sure it
    // is). The statement ends with SQLite's "interrupted".
    void interrupt();

    // The slots below run in the worker's thread (call them queued).

    // Closes the current connection, if any, and opens `path` read-only (an empty path only closes).
    void open(const QString &path);
    void close();
    // Runs `sql` and delivers its first `batchSize` rows (batchReady with first set).
    void run(quint64 generation, const QString &sql, int batchSize);
    // Delivers the next `batchSize` rows of the statement of `generation`; ignored for any other.
    void fetch(quint64 generation, int batchSize);

signals:
    void opened(const memhist::SqlOpenResult &result);
    void batchReady(const memhist::SqlBatch &batch);

private:
    // Steps the open statement for up to `batchSize` rows into `batch`.
    void readRows(SqlBatch *batch, int batchSize);
    void finishQuery();

    const QString m_connectionName;
    QSqlDatabase m_database;
    std::unique_ptr<QSqlQuery> m_query; // the statement whose rows are being read, forward only
    quint64 m_queryGeneration = 0;
    int m_columnCount = 0;

    QMutex m_handleMutex; // guards m_handle against a close while another thread interrupts
    sqlite3 *m_handle = nullptr;
};

} // namespace memhist

Q_DECLARE_METATYPE(memhist::SqlBatch)
Q_DECLARE_METATYPE(memhist::SqlOpenResult)
