// Finds rows by transition through the accesses table itself: transitions never decrease with
// rowid (DESIGN.md §1), so a binary search over rowids is a time index that every database of the
// format has, without an extra table.
#pragma once

#include "storage/sqlite.h"

#include <QString>
#include <cstdint>
#include <optional>

namespace memhist {

struct RowPosition
{
    std::int64_t rowId;
    std::int64_t transition;
};

class RowIdSearch
{
public:
    explicit RowIdSearch(sqlite::Connection &db);

    // Prepares statements and reads the rowid bounds. False on a database error, whose SQLite
    // message errorString() keeps.
    bool load();
    const QString &errorString() const { return m_error; }

    std::optional<RowPosition> rowAtOrAfter(std::int64_t rowId);
    std::optional<RowPosition> rowAtOrBefore(std::int64_t rowId);

    // The smallest rowid whose transition is >= `transition`, or (last rowid + 1) when none is.
    std::int64_t firstRowIdAtOrAfter(std::int64_t transition);
    // An upper bound: every row with rowid <= the result has transition <= `transition`, and every
    // row with such a transition has rowid <= the result.
    std::int64_t lastRowIdAtOrBefore(std::int64_t transition);

private:
    std::optional<RowPosition> fetch(sqlite::Statement &statement, std::int64_t rowId);

    sqlite::Connection &m_db;
    sqlite::Statement m_atOrAfter;
    sqlite::Statement m_atOrBefore;
    std::int64_t m_first = 1;
    std::int64_t m_last = 0;
    QString m_error;
};

} // namespace memhist
