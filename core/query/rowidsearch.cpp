// SPDX-License-Identifier: MIT
#include "core/query/rowidsearch.h"

#include "core/query/querystatements.h"
#include "core/query/rowchecks.h"
#include "core/storage/historystatements.h"

#include <algorithm>
#include <limits>

namespace memhist {

namespace {

// Rows between the guessed probe and the first probe of the gallop away from it: a few rows per
// page of the accesses table, so that a good guess is bracketed within a page or two.
constexpr std::int64_t gallopStart = 64;

} // namespace

RowIdSearch::RowIdSearch(sqlite::Connection &db)
    : m_db(db)
{ }

bool RowIdSearch::load()
{
    m_atOrAfter = m_db.prepare(statements::rowAtOrAfter);
    m_atOrBefore = m_db.prepare(statements::rowAtOrBefore);
    sqlite::Statement first = m_db.prepare(statements::firstAccess);
    sqlite::Statement last = m_db.prepare(statements::lastAccess);
    if (!m_atOrAfter.isValid() || !m_atOrBefore.isValid() || !first.isValid() || !last.isValid())
        return m_failure.preparation(QStringLiteral("cannot prepare queries"), m_db);
    // The two ends are read and checked like every other row: a writer that stored transitions of
    // 2^63 or more stored them last, so a negative one shows here, whatever the query.
    const auto firstRow = read(first);
    const auto lastRow = firstRow ? read(last) : std::nullopt;
    if (failed())
        return false;
    if (!firstRow)
        return true; // an empty history keeps first > last
    if (!lastRow)
        return m_failure.database(QStringLiteral("cannot read accesses"), m_db, SQLITE_CORRUPT);
    if (const QString problem
        = query::orderProblem(firstRow->rowId, firstRow->transition, lastRow->rowId, lastRow->transition);
        !problem.isEmpty())
        return m_failure.violation(problem);
    m_first = firstRow->rowId;
    m_last = lastRow->rowId;
    m_firstTransition = firstRow->transition;
    m_lastTransition = lastRow->transition;
    return true;
}

std::optional<RowPosition> RowIdSearch::fetch(sqlite::Statement &statement, std::int64_t rowId)
{
    statement.bind(1, rowId);
    return read(statement);
}

std::optional<RowPosition> RowIdSearch::read(sqlite::Statement &statement)
{
    const int rc = statement.step();
    std::optional<RowPosition> row;
    if (rc == SQLITE_ROW)
        row = RowPosition { statement.int64(0), statement.int64(1) };
    else if (rc != SQLITE_DONE)
        m_failure.database(QStringLiteral("cannot read accesses"), m_db, rc); // before the reset
    statement.reset();
    if (row) {
        if (const QString problem = query::negativeTransitionProblem(row->rowId, row->transition); !problem.isEmpty())
            m_failure.violation(problem);
    }
    return row;
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
    // x; find the smallest such x in [first, last + 1]. Rowid gaps are harmless. Every probe lies
    // between the nearest probe below the target and the nearest at or above it: a probe whose
    // transition is not between theirs proves that transitions decrease with rowid.
    std::int64_t low = m_first;
    std::int64_t high = m_last + 1;
    std::optional<RowPosition> below;
    std::optional<RowPosition> above;
    const auto checkOrder = [&](const RowPosition &row) {
        QString problem;
        if (below && row.rowId > below->rowId)
            problem = query::orderProblem(below->rowId, below->transition, row.rowId, row.transition);
        if (problem.isEmpty() && above && row.rowId < above->rowId)
            problem = query::orderProblem(row.rowId, row.transition, above->rowId, above->transition);
        if (!problem.isEmpty())
            m_failure.violation(problem);
    };
    // First the guess, then galloping away from it until a probe lands on the other side of the
    // target, then bisection (step 0).
    bool guessed = false;
    std::int64_t step = 0;
    bool lastBelow = false; // the last probe moved `low` up
    while (low < high && !failed()) {
        std::int64_t middle = low + (high - low) / 2;
        if (!guessed) {
            guessed = true;
            if (m_lastTransition > m_firstTransition && transition > m_firstTransition
                && transition <= m_lastTransition) {
                const long double share = (static_cast<long double>(transition) - m_firstTransition)
                    / (static_cast<long double>(m_lastTransition) - m_firstTransition);
                middle = std::clamp(
                    m_first + std::int64_t(share * static_cast<long double>(m_last - m_first)), low, high - 1);
                step = gallopStart;
            } else if (transition <= m_firstTransition) {
                middle = low; // the first row already: one probe
            } else if (transition > m_lastTransition) {
                middle = high - 1; // past the last row: one probe
            }
        } else if (step > 0) {
            middle = lastBelow ? std::min(high - 1, low + step - 1) : std::max(low, high - step);
            step = step > (high - low) / 4 ? 0 : step * 4; // past the interval's size, bisect what is left
        }
        const auto row = rowAtOrAfter(middle);
        if (row)
            checkOrder(*row);
        const bool wasBelow = lastBelow;
        if (!row || row->transition >= transition) {
            high = middle;
            if (row)
                above = row;
            lastBelow = false;
        } else {
            // a damaged file may answer a row before `middle`: the search must still move on
            low = std::max(row->rowId, middle) + 1;
            below = row;
            lastBelow = true;
        }
        if (step > 0 && lastBelow != wasBelow && below && above)
            step = 0; // the target lies between the last two probes
    }
    const auto row = failed() ? std::nullopt : rowAtOrAfter(low);
    if (row)
        checkOrder(*row);
    return row ? row->rowId : m_last + 1;
}

std::int64_t RowIdSearch::lastRowIdAtOrBefore(std::int64_t transition)
{
    if (transition == std::numeric_limits<std::int64_t>::max())
        return m_last;
    return firstRowIdAtOrAfter(transition + 1) - 1;
}

} // namespace memhist
