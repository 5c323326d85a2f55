// SPDX-License-Identifier: MIT
#include "core/query/resultsize.h"

#include "core/query/rowidsearch.h"
#include "core/storage/historydatabase.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace memhist {

namespace {

// Transitions are stored as signed 64-bit integers: one beyond that range is beyond every row.
std::int64_t storedTransition(Transition transition)
{
    return std::int64_t(std::min<std::uint64_t>(transition.value, std::numeric_limits<std::int64_t>::max()));
}

} // namespace

qint64 ResultSize::rowIdAt(qint64 position, Direction direction) const
{
    if (lastRowId < firstRowId)
        return firstRowId;
    const qint64 span = lastRowId - firstRowId;
    const qint64 offset = exact ? position : qint64(std::llround(double(position) / std::max(rowsPerRowId, 1e-12)));
    const qint64 clamped = std::clamp<qint64>(offset, 0, span);
    return direction == Direction::Forward ? firstRowId + clamped : lastRowId - clamped;
}

bool withinStart(const HalfAxisQuery &query, const Access &access)
{
    if (query.direction == Direction::Forward)
        return (!query.at || access.transition >= *query.at)
            && (!query.resumeAfter || access.rowId > *query.resumeAfter);
    return (!query.at || access.transition <= *query.at) && (!query.resumeAfter || access.rowId < *query.resumeAfter);
}

HalfAxisQuery reversedFromEnd(const HalfAxisQuery &query)
{
    HalfAxisQuery reversed = query;
    reversed.direction = query.direction == Direction::Forward ? Direction::Backward : Direction::Forward;
    reversed.at.reset();
    reversed.resumeAfter.reset();
    return reversed;
}

bool estimateResultSize(HistoryDatabase &database, HalfAxisQueryEngine &engine, const HalfAxisQuery &query,
    const QueryPage &firstPage, ResultSize *size, QString *error)
{
    // Probes of an estimate: how many, and the rows each reads at most.
    constexpr int probes = 8;
    constexpr quint64 probeRows = 64;
    *size = ResultSize {};
    RowIdSearch search(database.connection());
    const auto failed = [&] {
        *error = search.failure().message(database.path());
        return false;
    };
    if (!search.load())
        return failed();
    const auto firstRow = search.rowAtOrAfter(std::numeric_limits<std::int64_t>::min());
    const auto lastRow = search.rowAtOrBefore(std::numeric_limits<std::int64_t>::max());
    if (search.failed())
        return failed();
    if (!firstRow || !lastRow) {
        size->exact = true; // an empty history
        return true;
    }

    // The rowid range the start point leaves: forward from the transition's first row (and after
    // the resume point), backward up to its last row (and before the resume point).
    qint64 low = firstRow->rowId;
    qint64 high = lastRow->rowId;
    if (query.direction == Direction::Forward) {
        if (query.at)
            low = std::max<qint64>(low, search.firstRowIdAtOrAfter(storedTransition(*query.at)));
        if (query.resumeAfter)
            low = std::max<qint64>(low, query.resumeAfter->value + 1);
    } else {
        if (query.at)
            high = std::min<qint64>(high, search.lastRowIdAtOrBefore(storedTransition(*query.at)));
        if (query.resumeAfter)
            high = std::min<qint64>(high, query.resumeAfter->value - 1);
    }
    if (search.failed())
        return failed();
    size->firstRowId = low;
    size->lastRowId = high;
    const qint64 span = std::max<qint64>(0, high - low + 1);

    if (firstPage.exhausted) {
        size->rows = firstPage.accesses.size();
        size->exact = true;
        size->rowsPerRowId = span > 0 ? double(size->rows) / double(span) : 1;
        return true;
    }

    // Every address, thread and function: the operations asked for are a share of the history's accesses,
    // all of them when the query asks for every operation the history records.
    const HistorySummary &summary = database.summary();
    if (query.coversEveryPlace() && summary.error.isEmpty() && summary.accesses > 0) {
        qint64 matching = 0;
        if (query.operations.testFlag(Operation::Read))
            matching += summary.reads;
        if (query.operations.testFlag(Operation::Write))
            matching += summary.writes;
        if (query.operations.testFlag(Operation::Execute))
            matching += summary.executes;
        const bool denseRowIds = lastRow->rowId - firstRow->rowId + 1 == summary.accesses;
        size->exact = matching == summary.accesses && denseRowIds;
        size->rowsPerRowId = double(matching) / double(lastRow->rowId - firstRow->rowId + 1);
    } else {
        // As dense as the first page and a few probes spread over the result's rowid range, each
        // counted over its own stretch of rowids (1/9 of the range): its rows there over the rowids
        // it walked there. A probe that walks a long gap to find its rows counts the gap as empty
        // instead of taking the rows beyond it for the gap's (a window's accesses come in bursts).
        const qint64 stretch = std::max<qint64>(1, span / (probes + 1));
        qint64 sampled = 0;
        qint64 walked = 0;
        const auto count = [&](const QList<Access> &rows, qint64 start, bool forward, quint64 limit) {
            const qint64 stretchEnd
                = forward ? std::min(high, start + stretch - 1) : std::max(low, start - stretch + 1);
            qint64 inStretch = 0;
            qint64 last = start;
            for (const Access &access : rows) {
                const qint64 rowId = access.rowId.value;
                if (forward ? rowId > stretchEnd : rowId < stretchEnd)
                    break;
                ++inStretch;
                last = rowId;
            }
            // Every row asked for lay in the stretch: the density up to the last; else the whole stretch.
            const qint64 end = quint64(inStretch) == limit ? last : stretchEnd;
            sampled += inStretch;
            walked += std::max<qint64>(1, (forward ? end - start : start - end) + 1);
        };
        count(firstPage.accesses, query.direction == Direction::Forward ? low : high,
            query.direction == Direction::Forward, quint64(firstPage.accesses.size()));
        for (int i = 1; i <= probes; ++i) {
            const qint64 start = low + qint64((long double)(span)*i / (probes + 1));
            HalfAxisQuery probe = query;
            probe.direction = Direction::Forward;
            probe.at.reset();
            probe.resumeAfter = RowId { start - 1 };
            probe.limit = probeRows;
            QueryPage page;
            if (!engine.run(probe, &page, error))
                return false;
            count(page.accesses, start, true, probeRows);
        }
        size->rowsPerRowId = double(sampled) / double(walked);
    }
    const qint64 estimate = size->exact ? span : qint64(std::llround(size->rowsPerRowId * double(span)));
    // The page was not the last: there is at least one row more.
    size->rows = std::max<qint64>(estimate, firstPage.accesses.size() + 1);
    if (size->exact && size->rows != span)
        size->exact = false;
    return true;
}

} // namespace memhist
