// SPDX-License-Identifier: MIT
// Reads one history's accesses in rowid (time) order, with their values where the history has them,
// a batch at a time: the SQLite side of AccessStream, which runs it on a thread of its own. One
// forward pass over the accesses and one cursor over the value blocks.
#pragma once

#include "core/diff/accessbytes.h"
#include "core/storage/sqlite.h"
#include "core/values/accessvaluereader.h"
#include "core/values/valueblock.h"

#include <vector>

namespace memhist {

struct StreamedAccess
{
    std::int64_t rowId = 0;
    std::uint64_t transition = 0;
    std::uint64_t address = 0;
    std::uint32_t size = 0;
    int operation = 0; // 2 write, 4 read (1 execute: skipped)
    AccessBytes value; // empty when unknown
};

class AccessReader
{
public:
    // Reads through `connection`, which must outlive this object and be used by no other thread
    // while read() runs. Registers diffstatements::collectAccess on it.
    explicit AccessReader(sqlite::Connection &connection);
    // Removes the function again: it points to this object.
    ~AccessReader();
    AccessReader(const AccessReader &) = delete;
    AccessReader &operator=(const AccessReader &) = delete;

    bool isValid() const { return m_batches.isValid(); }
    // Appends the accesses (executes skipped) of the next rows to `batch`: of the next `count`
    // rowids, or where none of them has a row, of the `count` from the next row on. False once the
    // accesses have ended: at the end of the table, or on a database error (error()).
    bool read(std::vector<StreamedAccess> *batch, std::size_t count);
    // A database error ended the reading early (its message), or empty.
    const QString &error() const { return m_error; }

private:
    // collectAccess's step: one row of the batch (its arguments: rowid, transition, phy_first,
    // size, operation) into m_filling.
    static void collect(sqlite3_context *context, int argc, sqlite3_value **argv);
    static void finishCollecting(sqlite3_context *context);
    // Sets `value` to the bytes of access `rowId` (empty when unknown).
    void readValue(std::int64_t rowId, AccessBytes *value);

    sqlite::Connection &m_connection;
    sqlite::Statement m_batches; // diffstatements::accessBatch
    sqlite::Statement m_firstFrom; // diffstatements::firstAccessFrom
    sqlite::Statement m_blocks; // the value blocks in rowid order, one forward cursor
    ValueBlockCursor m_block; // the last block read from it, in place in m_blocks' row
    bool m_blocksEnded = false;
    AccessValueReader m_values; // histories of the table before the blocks
    std::int64_t m_nextRowId = 1; // where the next batch starts
    std::int64_t m_lastRowId = 0; // the table's last row
    std::vector<StreamedAccess> *m_filling = nullptr; // the batch collect() appends to
    bool m_ended = false;
    QString m_error;
};

} // namespace memhist
