#include "rowidsearch.h"

#include "query/querystatements.h"

#include <algorithm>
#include <limits>

namespace memhist {

RowIdSearch::RowIdSearch(sqlite::Connection &db)
    : m_db(db)
{ }

bool RowIdSearch::load()
{
    // SQLite's message is read where the failure happens: finalizing the statements at the end of
    // this function resets it to "not an error".
    const auto failed = [&] {
        m_error = m_db.lastError();
        return false;
    };
    m_atOrAfter = m_db.prepare(statements::rowAtOrAfter);
    m_atOrBefore = m_db.prepare(statements::rowAtOrBefore);
    sqlite::Statement first = m_db.prepare(statements::firstRowId);
    sqlite::Statement last = m_db.prepare(statements::lastRowId);
    if (!m_atOrAfter.isValid() || !m_atOrBefore.isValid() || !first.isValid() || !last.isValid())
        return failed();
    const int rc = first.step();
    if (rc == SQLITE_DONE)
        return true; // an empty history keeps first > last
    if (rc != SQLITE_ROW || last.step() != SQLITE_ROW)
        return failed();
    m_first = first.int64(0);
    m_last = last.int64(0);
    return true;
}

std::optional<RowPosition> RowIdSearch::fetch(sqlite::Statement &statement, std::int64_t rowId)
{
    statement.bind(1, rowId);
    std::optional<RowPosition> position;
    if (statement.step() == SQLITE_ROW)
        position = RowPosition { statement.int64(0), statement.int64(1) };
    statement.reset();
    return position;
}

std::optional<RowPosition> RowIdSearch::rowAtOrAfter(std::int64_t rowId)
{
    return fetch(m_atOrAfter, rowId);
}

std::optional<RowPosition> RowIdSearch::rowAtOrBefore(std::int64_t rowId)
{
    return fetch(m_atOrBefore, rowId);
}

std::int64_t RowIdSearch::firstRowIdAtOrAfter(std::int64_t transition)
{
    // The predicate "the first row at or after x is missing or has transition >= t" is monotone in
    // x; find the smallest such x in [first, last + 1]. Rowid gaps are harmless.
    std::int64_t low = m_first;
    std::int64_t high = m_last + 1;
    while (low < high) {
        const std::int64_t middle = low + (high - low) / 2;
        const auto row = rowAtOrAfter(middle);
        if (!row || row->transition >= transition)
            high = middle;
        else // a damaged file may answer a row before `middle`: the search must still move on
            low = std::max(row->rowId, middle) + 1;
    }
    const auto row = rowAtOrAfter(low);
    return row ? row->rowId : m_last + 1;
}

std::int64_t RowIdSearch::lastRowIdAtOrBefore(std::int64_t transition)
{
    if (transition == std::numeric_limits<std::int64_t>::max())
        return m_last;
    return firstRowIdAtOrAfter(transition + 1) - 1;
}

} // namespace memhist
