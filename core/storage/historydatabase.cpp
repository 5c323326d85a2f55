#include "historydatabase.h"

#include "storage/schema.h"

#include <QFileInfo>
#include <QStringList>

namespace memhist {

namespace {

QString describe(const QString &path, const QString &reason)
{
    return path + QStringLiteral(": ") + reason;
}

QStringList tableColumns(sqlite::Connection &db, const char *table)
{
    QStringList columns;
    const QByteArray sql = QByteArrayLiteral("SELECT name FROM pragma_table_info('") + table + "')";
    sqlite::Statement stmt = db.prepare(sql.constData());
    while (stmt.isValid() && stmt.step() == SQLITE_ROW)
        columns << stmt.text(0);
    return columns;
}

QStringList indexColumns(sqlite::Connection &db, const char *table, const char *index)
{
    // The index must belong to the table: pragma_index_info alone would accept a same-named index
    // on another table.
    sqlite::Statement owner = db.prepare("SELECT tbl_name FROM sqlite_schema WHERE type = 'index' AND name = ?1");
    owner.bind(1, QString::fromLatin1(index));
    if (owner.step() != SQLITE_ROW || owner.text(0) != QLatin1String(table))
        return {};
    QStringList columns;
    const QByteArray sql = QByteArrayLiteral("SELECT name FROM pragma_index_info('") + index + "') ORDER BY seqno";
    sqlite::Statement stmt = db.prepare(sql.constData());
    while (stmt.isValid() && stmt.step() == SQLITE_ROW)
        columns << stmt.text(0);
    return columns;
}

qint64 singleInteger(sqlite::Connection &db, const char *sql, qint64 fallback = 0)
{
    sqlite::Statement stmt = db.prepare(sql);
    if (stmt.isValid() && stmt.step() == SQLITE_ROW && !stmt.isNull(0))
        return stmt.int64(0);
    return fallback;
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

    std::unique_ptr<HistoryDatabase> db(new HistoryDatabase);
    db->m_path = path;
    if (!db->m_connection.open(path, sqlite::Connection::Mode::ReadOnly)) {
        *error = describe(path, QStringLiteral("cannot open: ") + db->m_connection.lastError());
        return nullptr;
    }

    // Queries touch pages all over the file: map it instead of copying each 64 KiB page through
    // read(2) into a small cache (measured: the copies were over half of a sparse query's time).
    db->m_connection.execute(schema::readerPragmas);

    // SQLite reads the header lazily: the first query is where a non-SQLite file shows.
    sqlite::Statement probe = db->m_connection.prepare("SELECT count(*) FROM sqlite_schema");
    if (!probe.isValid() || probe.step() != SQLITE_ROW) {
        *error = describe(path, QStringLiteral("not a SQLite database (") + db->m_connection.lastError() + u')');
        return nullptr;
    }

    for (const auto &table : schema::requiredTables) {
        const QStringList columns = tableColumns(db->m_connection, table.name);
        if (columns.isEmpty()) {
            *error = describe(path,
                              QStringLiteral("not a memhist database: table '%1' is missing").arg(QLatin1String(table.name)));
            return nullptr;
        }
        for (const char *column : table.columns) {
            if (column && !columns.contains(QLatin1String(column))) {
                *error = describe(path,
                                  QStringLiteral("not a memhist database: table '%1' has no column '%2'")
                                      .arg(QLatin1String(table.name), QLatin1String(column)));
                return nullptr;
            }
        }
    }
    for (const auto &index : schema::requiredIndexes) {
        QStringList expected;
        for (const char *column : index.columns) {
            if (column)
                expected << QLatin1String(column);
        }
        const QStringList actual = indexColumns(db->m_connection, index.table, index.name);
        if (actual.mid(0, expected.size()) != expected) {
            *error = describe(path,
                              QStringLiteral("not a usable memhist database: index %1 on %2(%3) is missing")
                                  .arg(QLatin1String(index.name), QLatin1String(index.table),
                                       expected.join(QStringLiteral(", "))));
            return nullptr;
        }
    }

    if (singleInteger(db->m_connection, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'")) {
        sqlite::Statement meta = db->m_connection.prepare("SELECT key, value FROM meta");
        while (meta.isValid() && meta.step() == SQLITE_ROW)
            db->m_meta.insert(meta.text(0), meta.text(1));
    }
    return db;
}

std::optional<Transition> HistoryDatabase::lastTransition()
{
    sqlite::Statement stmt = m_connection.prepare("SELECT transition FROM accesses ORDER BY rowid DESC LIMIT 1");
    if (stmt.isValid() && stmt.step() == SQLITE_ROW)
        return Transition { fromStored(stmt.int64(0)) };
    return std::nullopt;
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

    const auto accesses = metaNumber(schema::meta::accesses);
    const auto reads = metaNumber(schema::meta::reads);
    const auto writes = metaNumber(schema::meta::writes);
    const auto executes = metaNumber(schema::meta::executes);
    if (accesses && reads && writes && executes) {
        summary.accesses = *accesses;
        summary.reads = *reads;
        summary.writes = *writes;
        summary.executes = *executes;
    } else {
        // Another writer: count once (a full scan, but only on first use).
        sqlite::Statement stmt = m_connection.prepare("SELECT operation, count(*) FROM accesses GROUP BY operation");
        while (stmt.isValid() && stmt.step() == SQLITE_ROW) {
            const qint64 count = stmt.int64(1);
            summary.accesses += count;
            switch (stmt.int64(0)) {
            case qint64(Operation::Read):
                summary.reads = count;
                break;
            case qint64(Operation::Write):
                summary.writes = count;
                break;
            case qint64(Operation::Execute):
                summary.executes = count;
                break;
            default:
                break;
            }
        }
    }
    summary.slices = metaNumber(schema::meta::slices).value_or(singleInteger(m_connection, "SELECT count(*) FROM slices"));
    summary.chunks = metaNumber(schema::meta::chunks).value_or(singleInteger(m_connection, "SELECT count(*) FROM chunks"));

    sqlite::Statement first = m_connection.prepare("SELECT transition FROM accesses ORDER BY rowid LIMIT 1");
    if (first.isValid() && first.step() == SQLITE_ROW)
        summary.firstTransition = Transition { fromStored(first.int64(0)) };
    summary.lastTransition = lastTransition();
    m_summary = summary;
    return *m_summary;
}

} // namespace memhist
