// SPDX-License-Identifier: MIT
// The background half of MemoryPane: lives in the pane's ConnectionThread and owns that thread's
// connection, its MemoryReader and a half-axis engine (one of each per connection). Internal to
// widgets/memory.
#pragma once

#include "widgets/common/connectionthread.h"
#include "widgets/memory/memoryrows.h"

#include <memory>
#include <optional>

namespace memhist {

class HistoryDatabase;
class HalfAxisQueryEngine;

// A read's outcome: the snapshot, or why there is none.
struct MemoryRead
{
    MemorySnapshot snapshot;
    bool hasValues = false;
    QString error; // empty on success
};

// The access a clicked byte names, found again in full.
struct PickedAccess
{
    std::optional<Access> access;
    KnownBy knownBy = KnownBy::Unknown;
    QString error;
};

class MemoryWorker : public ConnectionWorker
{
public:
    MemoryWorker();
    ~MemoryWorker() override;

    // Run in the worker thread; each opens `historyPath` if it is not the open one.
    // Whether the history keeps values (nothing is read otherwise).
    MemoryRead probe(const QString &historyPath);
    // The whole rows [first, last] after transition `at` (none when the history has no values).
    MemoryRead read(const QString &historyPath, Transition at, Address first, Address last);
    // The access of row `rowId` that covers `address` (what MemoryByte::rowId names), read with the
    // half-axis engine: the first access over that byte after row rowId - 1 is that row's.
    PickedAccess accessOf(const QString &historyPath, RowId rowId, Address address, KnownBy knownBy);

protected:
    bool openConnection(const QString &path, QString *error) override;
    void closeConnection() override;

private:
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<MemoryReader> m_reader;
    std::unique_ptr<HalfAxisQueryEngine> m_engine;
};

} // namespace memhist
