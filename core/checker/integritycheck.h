// SPDX-License-Identifier: MIT
// SQLite's own integrity check (PRAGMA integrity_check) of a history file, run with the checker's
// progress and cancel. It finds what the property checks cannot: damaged b-tree pages and index
// entries that disagree with their table (a reader using the index would silently miss rows).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <utility>

namespace memhist::sqlite {
class Connection;
}

namespace memhist::check {

struct IntegrityResult
{
    // SQLite's messages in its order ("Page 7: btreeInitPage() returns error code 11", "row 17
    // missing from index idx_accesses_1", ...); empty when the file is intact.
    QStringList problems;
    // Set when the check itself stopped on an error (after `problems`, when there are some).
    QString error;
    bool cancelled = false;
};

// About how many virtual-machine operations the check takes on these tables (name, rows), from
// the shape of each table and its indexes. Measured on SQLite 3.40: each row costs
// 3 + columns + NOT NULL columns, plus 3 + its columns per index; other tables are small.
qint64 estimateIntegrityOperations(sqlite::Connection &db, const QList<std::pair<const char *, qint64>> &rowsByTable);

// Runs the check. `tick` is called about every `operationsPerTick` operations (through
// sqlite3_progress_handler); returning false stops the check, which is then cancelled.
IntegrityResult runIntegrityCheck(sqlite::Connection &db, qint64 operationsPerTick, const std::function<bool()> &tick);

} // namespace memhist::check
