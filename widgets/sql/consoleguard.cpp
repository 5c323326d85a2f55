// SPDX-License-Identifier: MIT
#include "widgets/sql/consoleguard.h"

#include <QByteArray>
#include <QCoreApplication>
#include <cstring>
#include <sqlite3.h>

namespace memhist {

namespace {

// Pragmas that only report on the schema or the connection, called without a value.
bool isReportingPragma(const char *name)
{
    static const char *const reporting[] = { "table_info", "table_xinfo", "table_list", "index_info", "index_xinfo",
        "index_list", "foreign_key_list", "database_list", "collation_list", "function_list", "page_count", "page_size",
        "freelist_count", "schema_version", "user_version", "application_id", "encoding", "compile_options",
        "integrity_check", "quick_check", "journal_mode" };
    for (const char *pragma : reporting) {
        if (name && std::strcmp(name, pragma) == 0)
            return true;
    }
    return false;
}

bool isDeniedFunction(const char *name)
{
    static const char *const denied[] = { "fts3_tokenizer", "load_extension", "readfile", "writefile", "edit" };
    for (const char *function : denied) {
        if (name && sqlite3_stricmp(name, function) == 0)
            return true;
    }
    return false;
}

int authorize(void *, int action, const char *first, const char *second, const char *, const char *)
{
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        return isDeniedFunction(second) ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_PRAGMA:
        return isReportingPragma(first) && second == nullptr ? SQLITE_OK : SQLITE_DENY;
    default:
        // Writes, schema changes (temporary ones too), ATTACH and DETACH, transactions,
        // savepoints, ANALYZE, REINDEX, virtual tables.
        return SQLITE_DENY;
    }
}

QString translated(const char *text)
{
    return QCoreApplication::translate("memhist::SqlConsole", text);
}

} // namespace

void guardConsoleConnection(sqlite3 *db)
{
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 64 << 20);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(db, &authorize, nullptr);
}

QString consoleRefusal(sqlite3 *db, const QString &sql)
{
    const QByteArray text = sql.toUtf8();
    sqlite3_stmt *statement = nullptr;
    const char *tail = nullptr;
    if (sqlite3_prepare_v2(db, text.constData(), int(text.size()), &statement, &tail) != SQLITE_OK) {
        const QString message = QString::fromUtf8(sqlite3_errmsg(db));
        return message == QLatin1String("not authorized")
            ? translated("The console only reads the history (not authorized: writes, schema changes, ATTACH, "
                         "transactions, extension functions and pragmas that set are refused)")
            : message;
    }
    const bool writes = statement && !sqlite3_stmt_readonly(statement);
    sqlite3_finalize(statement);
    if (writes)
        return translated("The console only reads the history: this statement would write");
    // What follows the first statement: only blanks and comments may.
    sqlite3_stmt *next = nullptr;
    const char *rest = tail;
    while (rest && *rest) {
        const char *after = nullptr;
        if (sqlite3_prepare_v2(db, rest, -1, &next, &after) != SQLITE_OK || next) {
            sqlite3_finalize(next);
            return translated("Run one statement at a time: the text after the first statement's ';' would not run");
        }
        if (after == rest)
            break;
        rest = after;
    }
    return {};
}

} // namespace memhist
