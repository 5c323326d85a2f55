// SPDX-License-Identifier: MIT
#include "core/storage/historydatabase.h"

#include "core/storage/historystatements.h"
#include "core/storage/schema.h"
#include "core/storage/sqlitefileheader.h"

#include <QFileInfo>
#include <QSet>
#include <QStringList>

namespace memhist {

namespace {

QString describe(const QString &path, const QString &reason)
{
    return path + QStringLiteral(": ") + reason;
}

QStringList names(sqlite::Connection &db, const char *sql, const char *argument)
{
    QStringList result;
    sqlite::Statement stmt = db.prepare(sql);
    if (!stmt.isValid())
        return result;
    stmt.bind(1, QString::fromLatin1(argument));
    while (stmt.step() == SQLITE_ROW)
        result << stmt.text(0);
    return result;
}

// Whether a column declared `type` keeps an integer stored in it an integer (SQLite's affinity
// rules, section 3.1 of its datatype documentation): not TEXT affinity, which turns numbers into
// text that SQL compares as greater than every number, nor REAL, which turns them into doubles.
bool keepsIntegers(const QString &type)
{
    const QString upper = type.toUpper();
    if (upper.contains(QLatin1String("INT")))
        return true;
    for (const char *word : { "CHAR", "CLOB", "TEXT", "REAL", "FLOA", "DOUB" }) {
        if (upper.contains(QLatin1String(word)))
            return false;
    }
    return true;
}

QStringList indexColumns(sqlite::Connection &db, const char *table, const char *index)
{
    const QStringList owner = names(db, statements::indexTable, index);
    if (owner.size() != 1 || owner[0] != QLatin1String(table))
        return {};
    return names(db, statements::indexColumns, index);
}

bool tableExists(sqlite::Connection &db, const char *table)
{
    sqlite::Statement stmt = db.prepare(statements::tableExists);
    if (!stmt.isValid())
        return false;
    stmt.bind(1, QString::fromLatin1(table));
    return stmt.step() == SQLITE_ROW && stmt.int64(0) > 0;
}

// Runs a statement whose first row is wanted, if any. False and *reason (SQLite's, read where the
// step failed) on a database error.
bool firstRow(sqlite::Connection &db, sqlite::Statement &stmt, const char *sql, bool *found, QString *reason)
{
    stmt = db.prepare(sql);
    const int rc = stmt.isValid() ? stmt.step() : db.lastErrorCode();
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        *found = rc == SQLITE_ROW;
        return true;
    }
    *reason = stmt.isValid() ? db.errorFor(rc) : db.lastError();
    return false;
}

// The same, for the summary: *error "cannot read WHAT: REASON".
bool firstRow(
    sqlite::Connection &db, sqlite::Statement &stmt, const char *sql, const QString &what, bool *found, QString *error)
{
    QString reason;
    if (firstRow(db, stmt, sql, found, &reason))
        return true;
    *error = QStringLiteral("cannot read %1: %2").arg(what, reason);
    return false;
}

bool count(sqlite::Connection &db, const char *sql, const QString &what, qint64 *value, QString *error)
{
    sqlite::Statement stmt;
    bool found = false;
    if (!firstRow(db, stmt, sql, what, &found, error))
        return false;
    *value = found ? stmt.int64(0) : 0;
    return true;
}

// A failed first read caused by SQLite being unable to create a WAL-mode file's -shm (and -wal)
// beside it: the directory is read-only (or the files belong to another user).
bool isReadOnlyFailure(int rc)
{
    const int primary = rc & 0xff;
    return primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN;
}

} // namespace

std::unique_ptr<HistoryDatabase> HistoryDatabase::open(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = describe(path, QStringLiteral("no such file"));
        return nullptr;
    }
    if (info.isDir()) {
        *error = describe(path, QStringLiteral("is a directory, not a memhist database"));
        return nullptr;
    }
    // A FIFO, a device or a socket: opening it may block forever (a FIFO waits for a writer).
    if (!info.isFile()) {
        *error
            = describe(path, QStringLiteral("not a regular file (a FIFO, device or socket), not a memhist database"));
        return nullptr;
    }
    // SQLite takes an empty file for an empty database, which then lacks every table.
    if (info.isFile() && info.size() == 0) {
        *error = describe(path, QStringLiteral("empty file (0 bytes), not a memhist database"));
        return nullptr;
    }
    // A copy cut short (an interrupted transfer, a full disk) loses rows without SQLite noticing
    // until a query reads past the end, and then only for that query: compare the header's page
    // count with the size, at constant cost. Not when a WAL holding frames or a rollback journal
    // is beside the file: those hold pages the main file may lack, and SQLite reads them too.
    if (const auto header = readSqliteFileHeader(path); header && !hasWalFrames(path) && !hasRollbackJournal(path)) {
        if (const auto problem = truncationProblem(*header, info.size())) {
            *error = describe(path, *problem);
            return nullptr;
        }
    }

    std::unique_ptr<HistoryDatabase> db(new HistoryDatabase);
    db->m_path = path;
    if (!db->openConnection(error) || !db->checkShape(error))
        return nullptr;
    db->readMetadata();
    return db;
}

bool HistoryDatabase::openConnection(QString *error)
{
    // A WAL-mode database without a -wal file beside it has every page in the main file and nobody
    // connected to it (a connection keeps the -wal file while it is open): read it immutable from
    // the start, or SQLite would create -wal and -shm files beside a history we only read.
    const auto header = readSqliteFileHeader(m_path);
    const bool idleWal = header && header->walMode && !QFileInfo::exists(m_path + QStringLiteral("-wal"));
    for (const auto mode : { sqlite::Connection::Mode::ReadOnly, sqlite::Connection::Mode::ReadOnlyImmutable }) {
        if (idleWal && mode == sqlite::Connection::Mode::ReadOnly)
            continue;
        if (!m_connection.open(m_path, mode)) {
            *error = describe(m_path, QStringLiteral("cannot open: ") + m_connection.lastError());
            return false;
        }
        // Queries touch pages all over the file: map it instead of copying each 64 KiB page
        // through read(2) into a small cache (measured: the copies were over half of a sparse
        // query's time).
        m_connection.execute(schema::readerPragmas);

        sqlite::Statement probe = m_connection.prepare(statements::schemaObjectCount);
        const int rc = probe.isValid() ? probe.step() : m_connection.lastErrorCode();
        if (rc == SQLITE_ROW)
            return true;
        const QString reason = probe.isValid() ? m_connection.errorFor(rc) : m_connection.lastError();
        if ((rc & 0xff) == SQLITE_NOTADB) {
            *error = describe(m_path, QStringLiteral("not a SQLite database (") + reason + u')');
            return false;
        }
        // Even a reader of a WAL-mode database needs its -shm file, and creates it (and the -wal)
        // when missing. In a read-only directory it cannot: the file is still a valid database.
        // When no -wal holds frames, every page is in the main file and nobody can be writing
        // (a writer would have made both files), so reading it immutable is exact.
        const bool walReader = header && header->walMode && isReadOnlyFailure(rc);
        if (mode == sqlite::Connection::Mode::ReadOnly && walReader && !hasWalFrames(m_path))
            continue;
        if (walReader) {
            *error = describe(m_path,
                QStringLiteral("cannot read: a WAL-mode database whose %1-wal file holds changes not yet in "
                               "the database file, and SQLite cannot open the %1-shm file it needs to read them "
                               "(%2); open it once where its directory is writable, which moves the changes "
                               "into the database file")
                    .arg(QFileInfo(m_path).fileName(), reason));
            return false;
        }
        *error = describe(m_path, QStringLiteral("cannot read: ") + reason);
        return false;
    }
    return false; // not reached: the immutable attempt returns
}

bool HistoryDatabase::checkSchemaObjects(QString *error)
{
    QSet<QString> ours;
    for (const char *name : schema::memhistTableNames)
        ours.insert(QLatin1String(name));
    QSet<QString> requiredIndexes;
    for (const auto &index : schema::requiredIndexes)
        requiredIndexes.insert(QLatin1String(index.name));
    sqlite::Statement objects = m_connection.prepare(statements::schemaObjects);
    int rc = objects.isValid() ? SQLITE_ROW : SQLITE_ERROR;
    while (objects.isValid() && (rc = objects.step()) == SQLITE_ROW) {
        const QString type = objects.text(0);
        const QString name = objects.text(1).toLower(); // SQLite's names ignore ASCII case
        const QString sql = objects.text(2).simplified();
        if (ours.contains(name)
            && (type != QLatin1String("table")
                || sql.startsWith(QLatin1String("CREATE VIRTUAL"), Qt::CaseInsensitive))) {
            *error = describe(m_path,
                QStringLiteral("not a usable memhist database: '%1' is a %2, not a table (memhist reads only "
                               "tables under its names)")
                    .arg(objects.text(1), type == QLatin1String("table") ? QStringLiteral("virtual table") : type));
            return false;
        }
        if (type == QLatin1String("index") && requiredIndexes.contains(name)
            && sql.contains(QLatin1String(" WHERE "), Qt::CaseInsensitive)) {
            *error = describe(m_path,
                QStringLiteral("not a usable memhist database: index %1 is partial (it has a WHERE clause), so it "
                               "does not hold every row")
                    .arg(objects.text(1)));
            return false;
        }
    }
    if (rc != SQLITE_DONE) {
        *error = describe(m_path, QStringLiteral("cannot read the schema: ") + m_connection.lastError());
        return false;
    }
    return true;
}

bool HistoryDatabase::checkShape(QString *error)
{
    if (!checkSchemaObjects(error))
        return false;
    for (const auto &table : schema::requiredTables) {
        // One read of the table's columns: their names, and the declared type of those memhist reads.
        QStringList columns;
        sqlite::Statement declared = m_connection.prepare(statements::tableColumns);
        declared.bind(1, QString::fromLatin1(table.name));
        while (declared.isValid() && declared.step() == SQLITE_ROW) {
            const QString column = declared.text(0);
            columns << column;
            const bool read = std::any_of(std::begin(table.columns), std::end(table.columns),
                [&](const char *name) { return name && column == QLatin1String(name); });
            if (read && !keepsIntegers(declared.text(1))) {
                *error = describe(m_path,
                    QStringLiteral("not a usable memhist database: column %1.%2 is declared %3, which does not keep "
                                   "numbers as integers")
                        .arg(QLatin1String(table.name), column, declared.text(1)));
                return false;
            }
        }
        if (columns.isEmpty()) {
            *error = describe(
                m_path, QStringLiteral("not a memhist database: table '%1' is missing").arg(QLatin1String(table.name)));
            return false;
        }
        for (const char *column : table.columns) {
            if (column && !columns.contains(QLatin1String(column))) {
                *error = describe(m_path,
                    QStringLiteral("not a memhist database: table '%1' has no column '%2'")
                        .arg(QLatin1String(table.name), QLatin1String(column)));
                return false;
            }
        }
    }
    for (const auto &index : schema::requiredIndexes) {
        QStringList expected;
        for (const char *column : index.columns) {
            if (column)
                expected << QLatin1String(column);
        }
        const QStringList actual = indexColumns(m_connection, index.table, index.name);
        if (actual.mid(0, expected.size()) != expected) {
            *error = describe(m_path,
                QStringLiteral("not a usable memhist database: index %1 on %2(%3) is missing")
                    .arg(QLatin1String(index.name), QLatin1String(index.table), expected.join(QStringLiteral(", "))));
            return false;
        }
    }
    return true;
}

void HistoryDatabase::readMetadata()
{
    if (tableExists(m_connection, "meta")) {
        sqlite::Statement meta = m_connection.prepare(statements::metaRows);
        while (meta.isValid() && meta.step() == SQLITE_ROW)
            m_meta.insert(meta.text(0), meta.text(1));
    }
    if (tableExists(m_connection, "_metadata")) {
        ReferenceMetadata reference;
        sqlite::Statement row;
        bool found = false;
        QString reason;
        const bool read = firstRow(m_connection, row, statements::referenceMetadata, &found, &reason);
        if (!read) {
            reference.error = QStringLiteral("cannot be read (%1)").arg(reason);
        } else if (!found) {
            reference.error = QStringLiteral("has no row");
        } else {
            reference.metadataVersion = row.text(0);
            reference.type = row.text(1);
            reference.formatVersion = row.text(2);
            reference.toolName = row.text(3);
            reference.toolVersion = row.text(4);
            reference.toolInfo = row.text(5);
            if (sqlite3_column_type(row.handle(), 6) == SQLITE_INTEGER)
                reference.generationDate = row.int64(6);
        }
        m_referenceMetadata = reference;
    }
}

void HistoryDatabase::countAccesses(HistorySummary *summary)
{
    // Another writer, or meta counts the database contradicts: count once (a full scan).
    sqlite::Statement stmt = m_connection.prepare(statements::accessCountsByOperation);
    int rc = stmt.isValid() ? SQLITE_ROW : m_connection.lastErrorCode();
    while (stmt.isValid() && (rc = stmt.step()) == SQLITE_ROW) {
        const qint64 count = stmt.int64(1);
        summary->accesses += count;
        switch (stmt.int64(0)) {
        case qint64(Operation::Read):
            summary->reads = count;
            break;
        case qint64(Operation::Write):
            summary->writes = count;
            break;
        case qint64(Operation::Execute):
            summary->executes = count;
            break;
        default:
            break;
        }
    }
    if (rc != SQLITE_DONE) {
        summary->error = QStringLiteral("cannot count accesses: ")
            + (stmt.isValid() ? m_connection.errorFor(rc) : m_connection.lastError());
    }
}

const HistorySummary &HistoryDatabase::summary()
{
    if (m_summary)
        return *m_summary;

    HistorySummary summary;
    summary.fileBytes = QFileInfo(m_path).size();
    const auto metaNumber = [this](const char *key) -> std::optional<qint64> {
        bool ok = false;
        const qint64 value = m_meta.value(QLatin1String(key)).toLongLong(&ok);
        return ok ? std::optional<qint64>(value) : std::nullopt;
    };
    // A meta value present but not used is shown beside the computed count.
    const auto noteIgnored = [&](const char *key, qint64 computed) {
        const auto it = m_meta.constFind(QLatin1String(key));
        if (it != m_meta.cend() && metaNumber(key) != computed)
            summary.ignoredMeta.insert(it.key(), it.value());
    };

    // The first and last rows: the time span, and the rowid range every access lies in.
    sqlite::Statement first;
    sqlite::Statement last;
    bool hasFirst = false;
    bool hasLast = false;
    if (!firstRow(
            m_connection, first, statements::firstAccess, QStringLiteral("the first access"), &hasFirst, &summary.error)
        || !firstRow(
            m_connection, last, statements::lastAccess, QStringLiteral("the last access"), &hasLast, &summary.error)) {
        m_summary = summary;
        return *m_summary;
    }
    qint64 rowSpan = 0;
    if (hasFirst && hasLast) {
        summary.firstTransition = Transition { fromStored(first.int64(1)) };
        summary.lastTransition = Transition { fromStored(last.int64(1)) };
        rowSpan = last.int64(0) - first.int64(0) + 1;
    }

    const auto accesses = metaNumber(schema::meta::accesses);
    const auto reads = metaNumber(schema::meta::reads);
    const auto writes = metaNumber(schema::meta::writes);
    const auto executes = metaNumber(schema::meta::executes);
    // Constant-cost consistency: the three add up to the total, which the rowid range can hold,
    // and is zero exactly when the table is empty.
    if (accesses && reads && writes && executes && *reads >= 0 && *writes >= 0 && *executes >= 0
        && *reads + *writes + *executes == *accesses && *accesses <= rowSpan && (*accesses == 0) == (rowSpan == 0)) {
        summary.accesses = *accesses;
        summary.reads = *reads;
        summary.writes = *writes;
        summary.executes = *executes;
        summary.accessCountsFromMeta = true;
    } else {
        countAccesses(&summary);
        noteIgnored(schema::meta::accesses, summary.accesses);
        noteIgnored(schema::meta::reads, summary.reads);
        noteIgnored(schema::meta::writes, summary.writes);
        noteIgnored(schema::meta::executes, summary.executes);
    }

    // Slices are few by design: always counted, so that meta's figure is checked.
    if (summary.error.isEmpty()
        && count(m_connection, statements::sliceCount, QStringLiteral("slices"), &summary.slices, &summary.error)) {
        summary.slicesFromMeta = metaNumber(schema::meta::slices) == summary.slices;
        noteIgnored(schema::meta::slices, summary.slices);
    }
    if (const auto chunks = metaNumber(schema::meta::chunks); chunks && *chunks >= 0) {
        summary.chunks = *chunks;
        summary.chunksFromMeta = true;
    } else if (summary.error.isEmpty()
        && count(m_connection, statements::chunkCount, QStringLiteral("chunks"), &summary.chunks, &summary.error)) {
        noteIgnored(schema::meta::chunks, summary.chunks);
    }
    m_summary = summary;
    return *m_summary;
}

} // namespace memhist
