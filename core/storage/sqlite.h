// SPDX-License-Identifier: MIT
// Thin RAII wrappers over SQLite's C API: a connection, a prepared statement and a transaction
// guard that rolls back unless committed. The hot paths (writer, query engine) use these.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <cstdint>
#include <memory>
#include <sqlite3.h>
#include <utility>

namespace memhist::sqlite {

// Process-wide settings that make bulk writes cheaper; must run before the first connection.
// Idempotent. Turns off SQLite's memory statistics (a global mutex on every malloc).
void configureProcess();

class Statement;

class Connection
{
public:
    enum class Mode {
        ReadOnly,
        // Read-only, and SQLite may assume that nobody changes the file while it is open: no locks,
        // no -wal or -shm file (the `immutable=1` URI parameter). Exact only for a file whose
        // pages are all in the main file (no WAL holding frames).
        ReadOnlyImmutable,
        ReadWriteCreate,
    };

    Connection() = default;
    ~Connection();
    Connection(Connection &&other) noexcept
        : m_db(std::exchange(other.m_db, nullptr))
        , m_openError(std::move(other.m_openError))
        , m_vfs(std::exchange(other.m_vfs, nullptr))
    { }
    Connection &operator=(Connection &&other) noexcept;
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    // Opens without SQLite's per-connection mutex: a connection is only ever used by one thread
    // at a time (one connection per thread). With a temporaryDirectory, SQLite's temporary files
    // (the sorter's spills during CREATE INDEX, temporary tables) are created there instead of in
    // the system's temporary directory: a writer keeps them beside its output, on the file system
    // that must hold the result anyway. They are unlinked as soon as they are opened.
    bool open(const QString &path, Mode mode, const QString &temporaryDirectory = {});
    void close();
    bool isOpen() const { return m_db != nullptr; }
    sqlite3 *handle() const { return m_db; }

    // Runs one or more statements without results. Returns false and fills lastError() on failure.
    bool execute(const char *sql);
    QString lastError() const;
    // SQLite's extended result code of the last call on this connection (SQLITE_OK when none).
    int lastErrorCode() const;
    // The reason for result code `rc` of the call that just failed: SQLite's message when it is
    // still the one of that call, else the generic text of the code. Read it where the call fails:
    // any later call (a reset, another statement) replaces the message, often by "not an error".
    QString errorFor(int rc) const;

    Statement prepare(const char *sql);

private:
    sqlite3 *m_db = nullptr;
    QString m_openError;
    struct TemporaryDirectoryVfs;
    TemporaryDirectoryVfs *m_vfs = nullptr; // registered for this connection only, when used
};

class Statement
{
public:
    Statement() = default;
    Statement(sqlite3 *db, const char *sql);
    ~Statement();
    Statement(Statement &&other) noexcept
        : m_stmt(std::exchange(other.m_stmt, nullptr))
        , m_db(other.m_db)
    { }
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    sqlite3_stmt *handle() const { return m_stmt; }

    // Parameter indexes are 1-based, as in SQLite.
    void bind(int index, std::int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
    void bindNull(int index) { sqlite3_bind_null(m_stmt, index); }
    void bind(int index, const QString &text);
    // A blob (copied by SQLite); an empty view binds an empty blob, not NULL.
    void bindBlob(int index, QByteArrayView bytes)
    {
        sqlite3_bind_blob64(
            m_stmt, index, bytes.isEmpty() ? "" : bytes.data(), sqlite3_uint64(bytes.size()), SQLITE_TRANSIENT);
    }

    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return sqlite3_step(m_stmt); }
    // Runs a statement without results to completion; false on error.
    bool run();
    void reset() { sqlite3_reset(m_stmt); }

    std::int64_t int64(int column) const { return sqlite3_column_int64(m_stmt, column); }
    bool isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
    bool isInteger(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_INTEGER; }
    QString text(int column) const;
    // The column's bytes without a copy: valid until the next step(), reset() or column call.
    QByteArrayView blobView(int column) const
    {
        const void *data = sqlite3_column_blob(m_stmt, column);
        return QByteArrayView(static_cast<const char *>(data), sqlite3_column_bytes(m_stmt, column));
    }
    QByteArray blob(int column) const { return blobView(column).toByteArray(); }
    bool isBlob(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_BLOB; }

private:
    sqlite3_stmt *m_stmt = nullptr;
    sqlite3 *m_db = nullptr;
};

// BEGIN on construction, ROLLBACK on destruction unless commit() succeeded.
class Transaction
{
public:
    explicit Transaction(Connection &connection);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    bool isActive() const { return m_active; }
    bool commit();

private:
    Connection &m_connection;
    bool m_active = false;
};

} // namespace memhist::sqlite
