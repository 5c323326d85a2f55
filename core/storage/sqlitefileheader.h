// SPDX-License-Identifier: MIT
// The first 100 bytes of a SQLite database file, read directly (SQLite's "Database File Format",
// section 1.3): what a reader can learn about a file at constant cost before SQLite opens it.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace memhist {

struct SqliteFileHeader
{
    std::uint32_t pageSize = 0; // bytes; the stored 1 means 65536
    // The in-header database size (offset 28), when the format says it is valid: non-zero and
    // written by the same transaction as the change counter (offset 92 equals offset 24). Older
    // writers leave it stale; SQLite then takes the size of the file instead.
    std::optional<std::uint32_t> pageCount;
    bool walMode = false; // file format read and write versions (offsets 18 and 19) are 2
};

// The header of the file at `path`, or nothing when it is not a SQLite database file (shorter
// than the header, wrong magic string, impossible page size) or cannot be read: SQLite then
// gives its own reason when it opens the file.
std::optional<SqliteFileHeader> readSqliteFileHeader(const QString &path);

// What a reader opening `path` must take into account beside the main file: the pages the
// main file may lack are in a WAL file holding frames, or are restored by a hot rollback
// journal. Both are judged by size only (a WAL header without frames holds no page; a
// journal left by journal_mode=PERSIST counts too, which only makes callers more careful).
bool hasWalFrames(const QString &databasePath);
bool hasRollbackJournal(const QString &databasePath);

// Compares the page count in the header with the size of the file: "truncated: the header says
// N pages of S bytes (X bytes), the file has Y bytes" when the file is shorter, else nothing.
// Constant cost. Callers skip it when the WAL or a journal holds pages (see above).
std::optional<QString> truncationProblem(const SqliteFileHeader &header, std::int64_t fileBytes);

} // namespace memhist
