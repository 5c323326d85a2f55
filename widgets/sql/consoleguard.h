// SPDX-License-Identifier: MIT
// What keeps the SQL console read-only in fact, not only at the file level (SQLITE_OPEN_READONLY
// still lets a statement write elsewhere: VACUUM INTO a path, ATTACH a file or a FIFO, temporary
// tables, the two-argument fts3_tokenizer() that hands SQLite a pointer). Installed on the
// console's connection when it opens; every statement is checked before it runs.
#pragma once

#include <QString>

struct sqlite3;

namespace memhist {

// Defensive mode, no trusted schema, no fts3_tokenizer(), a 64 MiB limit on strings and blobs, no
// attached databases, and an authorizer that allows
// reading only: no writes, schema changes, ATTACH/DETACH, transactions, extension loading or
// pragmas other than the ones that only report.
void guardConsoleConnection(sqlite3 *db);

// Why `sql` may not run in the console (empty when it may): more than one statement (the console
// runs one, and would otherwise run the first and drop the others silently), a statement that
// writes, or one the authorizer refuses (SQLite's message then says so).
QString consoleRefusal(sqlite3 *db, const QString &sql);

} // namespace memhist
