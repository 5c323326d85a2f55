#include "sqlite.h"

#include <mutex>

namespace memhist::sqlite {

void configureProcess()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Must precede sqlite3_initialize(); harmless if another library initialised first
        // (the call then fails and SQLite keeps its defaults).
        sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
        sqlite3_initialize();
    });
}

Connection::~Connection()
{
    close();
}

Connection &Connection::operator=(Connection &&other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_openError = std::move(other.m_openError);
    }
    return *this;
}

bool Connection::open(const QString &path, Mode mode)
{
    configureProcess();
    close();
    const int flags = SQLITE_OPEN_NOMUTEX
        | (mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
    const QByteArray encoded = path.toUtf8();
    sqlite3 *db = nullptr;
    const int rc = sqlite3_open_v2(encoded.constData(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
        m_openError = db ? QString::fromUtf8(sqlite3_errmsg(db)) : QString::fromUtf8(sqlite3_errstr(rc));
        sqlite3_close(db);
        return false;
    }
    m_db = db;
    m_openError.clear();
    sqlite3_extended_result_codes(m_db, 1);
    return true;
}

void Connection::close()
{
    if (m_db) {
        // Statements must have been finalised by their owners; close_v2 defers until they are.
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

bool Connection::execute(const char *sql)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &message);
    sqlite3_free(message);
    return rc == SQLITE_OK;
}

QString Connection::lastError() const
{
    if (!m_db)
        return m_openError;
    return QString::fromUtf8(sqlite3_errmsg(m_db));
}

Statement Connection::prepare(const char *sql)
{
    return Statement(m_db, sql);
}

Statement::Statement(sqlite3 *db, const char *sql)
    : m_db(db)
{
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

void Statement::bind(int index, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

bool Statement::run()
{
    const int rc = sqlite3_step(m_stmt);
    sqlite3_reset(m_stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW;
}

QString Statement::text(int column) const
{
    const auto *data = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return QString::fromUtf8(data, sqlite3_column_bytes(m_stmt, column));
}

Transaction::Transaction(Connection &connection)
    : m_connection(connection)
{
    m_active = m_connection.execute("BEGIN");
}

Transaction::~Transaction()
{
    if (m_active)
        m_connection.execute("ROLLBACK");
}

bool Transaction::commit()
{
    if (!m_active)
        return false;
    m_active = false;
    return m_connection.execute("COMMIT");
}

} // namespace memhist::sqlite
