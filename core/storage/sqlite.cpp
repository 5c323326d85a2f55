// SPDX-License-Identifier: MIT
#include "core/storage/sqlite.h"

#include "core/storage/wholefilemap.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <algorithm>
#include <cstdint>
#include <mutex>

namespace memhist::sqlite {

// A VFS that forwards everything to the default one, except that a temporary file (opened with no
// name) gets a name in a chosen directory. SQLite's own choice (SQLITE_TMPDIR, TMPDIR, /var/tmp,
// /tmp) is read once per process, may be a small RAM-backed file system, and the sorter of a
// CREATE INDEX on a large history spills hundreds of MiB there. One instance per connection, so
// that connections with different directories never share state.
struct Connection::TemporaryDirectoryVfs
{
    sqlite3_vfs vfs {};
    sqlite3_vfs *base = nullptr;
    QByteArray name;
    QByteArray directory;

    static TemporaryDirectoryVfs *self(sqlite3_vfs *vfs) { return static_cast<TemporaryDirectoryVfs *>(vfs->pAppData); }
    static sqlite3_vfs *baseOf(sqlite3_vfs *vfs) { return self(vfs)->base; }

    static int open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags)
    {
        TemporaryDirectoryVfs *d = self(vfs);
        if (name || !(flags & SQLITE_OPEN_DELETEONCLOSE))
            return d->base->xOpen(d->base, name, file, flags, outFlags);
        // Unique per process and call; the base VFS creates it exclusively and unlinks it at once
        // (DELETEONCLOSE), so nothing is left behind even if the process dies.
        static QAtomicInteger<quint64> counter;
        std::uint64_t random = 0;
        sqlite3_randomness(sizeof random, &random);
        QByteArray path = d->directory + "/.memhist-temporary-" + QByteArray::number(QCoreApplication::applicationPid())
            + '-' + QByteArray::number(counter.fetchAndAddRelaxed(1)) + '-' + QByteArray::number(random, 16);
        path.append('\0'); // SQLite expects file names it did not make to be double-NUL terminated
        return d->base->xOpen(d->base, path.constData(), file, flags, outFlags);
    }

    explicit TemporaryDirectoryVfs(const QString &temporaryDirectory)
        : base(sqlite3_vfs_find(nullptr))
        , name("memhist-temporary-directory-" + QByteArray::number(quintptr(this), 16))
        , directory(QFile::encodeName(QDir(temporaryDirectory).absolutePath()))
    {
        vfs.iVersion = std::min(base->iVersion, 3);
        vfs.szOsFile = base->szOsFile;
        vfs.mxPathname = base->mxPathname;
        vfs.zName = name.constData();
        vfs.pAppData = this;
        vfs.xOpen = &open;
        // Everything else goes to the base VFS, called with itself (the unix VFS keeps its own
        // state in its pAppData).
        vfs.xDelete = [](sqlite3_vfs *v, const char *n, int sync) { return baseOf(v)->xDelete(baseOf(v), n, sync); };
        vfs.xAccess
            = [](sqlite3_vfs *v, const char *n, int f, int *r) { return baseOf(v)->xAccess(baseOf(v), n, f, r); };
        vfs.xFullPathname = [](sqlite3_vfs *v, const char *n, int size, char *out) {
            return baseOf(v)->xFullPathname(baseOf(v), n, size, out);
        };
        vfs.xDlOpen = [](sqlite3_vfs *v, const char *n) { return baseOf(v)->xDlOpen(baseOf(v), n); };
        vfs.xDlError = [](sqlite3_vfs *v, int size, char *out) { baseOf(v)->xDlError(baseOf(v), size, out); };
        vfs.xDlSym = [](sqlite3_vfs *v, void *h, const char *n) { return baseOf(v)->xDlSym(baseOf(v), h, n); };
        vfs.xDlClose = [](sqlite3_vfs *v, void *h) { baseOf(v)->xDlClose(baseOf(v), h); };
        vfs.xRandomness
            = [](sqlite3_vfs *v, int size, char *out) { return baseOf(v)->xRandomness(baseOf(v), size, out); };
        vfs.xSleep = [](sqlite3_vfs *v, int us) { return baseOf(v)->xSleep(baseOf(v), us); };
        vfs.xCurrentTime = [](sqlite3_vfs *v, double *out) { return baseOf(v)->xCurrentTime(baseOf(v), out); };
        vfs.xGetLastError
            = [](sqlite3_vfs *v, int size, char *out) { return baseOf(v)->xGetLastError(baseOf(v), size, out); };
        if (vfs.iVersion >= 2)
            vfs.xCurrentTimeInt64
                = [](sqlite3_vfs *v, sqlite3_int64 *out) { return baseOf(v)->xCurrentTimeInt64(baseOf(v), out); };
        if (vfs.iVersion >= 3) {
            vfs.xSetSystemCall = [](sqlite3_vfs *v, const char *n, sqlite3_syscall_ptr p) {
                return baseOf(v)->xSetSystemCall(baseOf(v), n, p);
            };
            vfs.xGetSystemCall = [](sqlite3_vfs *v, const char *n) { return baseOf(v)->xGetSystemCall(baseOf(v), n); };
            vfs.xNextSystemCall
                = [](sqlite3_vfs *v, const char *n) { return baseOf(v)->xNextSystemCall(baseOf(v), n); };
        }
    }
};

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
        m_vfs = std::exchange(other.m_vfs, nullptr);
    }
    return *this;
}

bool Connection::open(const QString &path, Mode mode, const QString &temporaryDirectory)
{
    configureProcess();
    close();
    int flags = SQLITE_OPEN_NOMUTEX;
    switch (mode) {
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::ReadOnlyImmutable:
        flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
        break;
    case Mode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    if (!temporaryDirectory.isEmpty()) {
        m_vfs = new TemporaryDirectoryVfs(temporaryDirectory);
        if (!m_vfs->base || sqlite3_vfs_register(&m_vfs->vfs, 0) != SQLITE_OK) {
            m_openError = QStringLiteral("cannot register a VFS for temporary files in %1").arg(temporaryDirectory);
            delete std::exchange(m_vfs, nullptr);
            return false;
        }
    }
    // A URI names the file percent-encoded, so that any path (with '?', '#' or '%') stays exact.
    const QByteArray encoded = mode == Mode::ReadOnlyImmutable
        ? QUrl::fromLocalFile(QFileInfo(path).absoluteFilePath()).toEncoded() + "?immutable=1"
        : path.toUtf8();
    // A reader's pages come from one map of the whole file (wholefilemap.h), not only its first 2 GiB.
    const char *vfs = m_vfs ? m_vfs->vfs.zName : mode == Mode::ReadWriteCreate ? nullptr : wholeFileMapVfs();
    sqlite3 *db = nullptr;
    const int rc = sqlite3_open_v2(encoded.constData(), &db, flags, vfs);
    if (rc != SQLITE_OK) {
        m_openError = db ? QString::fromUtf8(sqlite3_errmsg(db)) : QString::fromUtf8(sqlite3_errstr(rc));
        sqlite3_close(db);
        close();
        return false;
    }
    m_db = db;
    m_openError.clear();
    sqlite3_extended_result_codes(m_db, 1);
    if (mode != Mode::ReadWriteCreate) {
        // A file to read is a stranger's: SQL in its schema (views, triggers, defaults) may call
        // no function with side effects, ordinary SQL may not corrupt it, and the two-argument
        // fts3_tokenizer() (Debian's SQLite enables it) cannot hand SQLite a pointer.
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, nullptr);
    } else {
        // A file of our own, being written: the writer's finish() edits sqlite_schema to adopt
        // the accesses' index (schema::adoptAccessKeysAsIndex), which a SQLite built with
        // defensive mode on by default (SQLITE_DEFAULT_DEFENSIVE) would refuse.
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 0, nullptr);
    }
    return true;
}

void Connection::close()
{
    if (m_db) {
        // Statements must have been finalised by their owners; close_v2 defers until they are.
        const int rc = m_vfs ? sqlite3_close(m_db) : sqlite3_close_v2(m_db);
        if (rc != SQLITE_OK) {
            // A statement outlives the connection: let close_v2 finish later and keep the VFS it
            // still needs registered for good (a small leak on a path that is a bug anyway).
            sqlite3_close_v2(m_db);
            m_vfs = nullptr;
        }
        m_db = nullptr;
    }
    if (m_vfs) {
        sqlite3_vfs_unregister(&m_vfs->vfs);
        delete std::exchange(m_vfs, nullptr);
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

int Connection::lastErrorCode() const
{
    return m_db ? sqlite3_extended_errcode(m_db) : SQLITE_OK;
}

QString Connection::errorFor(int rc) const
{
    if (m_db && sqlite3_extended_errcode(m_db) == rc)
        return QString::fromUtf8(sqlite3_errmsg(m_db));
    return QString::fromUtf8(sqlite3_errstr(rc));
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
