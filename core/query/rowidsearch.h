// SPDX-License-Identifier: MIT
// Finds rows by transition through the accesses table itself: transitions never decrease with
// rowid (DESIGN.md §1), so a binary search over rowids is a time index that every database of the
// format has, without an extra table.
#pragma once

#include "core/query/queryfailure.h"
#include "core/storage/sqlite.h"

#include <cstdint>
#include <optional>

namespace memhist {

struct RowPosition
{
    std::int64_t rowId;
    std::int64_t transition;
};

// Every row it reads is checked for what it can prove at O(1): a transition stored negative, and
// two rows it read whose transitions decrease with rowid. After such a violation or a database
// error, failed() is true and the values returned since then mean nothing: callers that must not
// answer wrong check it after each call.
class RowIdSearch
{
public:
    explicit RowIdSearch(sqlite::Connection &db);

    // Prepares statements and reads the rowid bounds. False on failure.
    bool load();

    std::optional<RowPosition> rowAtOrAfter(std::int64_t rowId);
    std::optional<RowPosition> rowAtOrBefore(std::int64_t rowId);

    // The smallest rowid whose transition is >= `transition`, or (last rowid + 1) when none is.
    // Transitions grow about evenly with rowid in a trace, so the first probe is where the ends'
    // transitions put it; probes from there, 64 rows away and four times further each time, find the
    // other side, and a binary search between the two ends it: about a dozen probes on a few pages
    // of a 10^8-row table, against 27 probes over as many pages for a binary search of the whole
    // table. Uneven histories cost at most about three times the probes of a binary search.
    std::int64_t firstRowIdAtOrAfter(std::int64_t transition);
    // An upper bound: every row with rowid <= the result has transition <= `transition`, and every
    // row with such a transition has rowid <= the result.
    std::int64_t lastRowIdAtOrBefore(std::int64_t transition);

    bool failed() const { return m_failure.failed(); }
    const QueryFailure &failure() const { return m_failure; }
    void clearFailure() { m_failure.clear(); }

private:
    std::optional<RowPosition> fetch(sqlite::Statement &statement, std::int64_t rowId);
    // The next row of a (rowid, transition) statement, checked; the statement is reset.
    std::optional<RowPosition> read(sqlite::Statement &statement);

    sqlite::Connection &m_db;
    QueryFailure m_failure;
    sqlite::Statement m_atOrAfter;
    sqlite::Statement m_atOrBefore;
    std::int64_t m_first = 1;
    std::int64_t m_last = 0;
    // The transitions of the first and last rows: where a search guesses its first probe.
    std::int64_t m_firstTransition = 0;
    std::int64_t m_lastTransition = 0;
};

} // namespace memhist
