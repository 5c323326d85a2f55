// SPDX-License-Identifier: MIT
// How many rows a half-axis query has, found without walking them all, and where its row N lies:
// what a results table needs for a scroll bar over the whole result and a jump to any row.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QString>
#include <optional>

namespace memhist {

class HistoryDatabase;

// The rows of a query's result lie in the rowid range [firstRowId, lastRowId], at `rowsPerRowId`
// on average. Exact when every row of that range matches (a query of every address and thread
// whose operations are all the history records, its rowids without gaps): then row N is rowid
// firstRowId + N forward. Otherwise an estimate from the density of the first page.
struct ResultSize
{
    qint64 rows = 0;
    bool exact = false;
    qint64 firstRowId = 1; // the rowid bounds of the result (in rowid order, whatever the direction)
    qint64 lastRowId = 0;
    double rowsPerRowId = 1;

    // The rowid where the row at `position` (0-based, in the query's direction) lies, about (exactly
    // when `exact`), within [firstRowId, lastRowId].
    qint64 rowIdAt(qint64 position, Direction direction) const;
};

// Whether `access` belongs to `query`'s result by its start point: at or after the query's
// transition and after its resume point, in its direction (its addresses, operations and threads
// are not checked). What bounds a walk of the result run the other way, from its end.
bool withinStart(const HalfAxisQuery &query, const Access &access);

// `query` run the other way from the end of its result: the walk that finds its last rows. Its
// pages go past the result's first row: keep the rows withinStart(query).
HalfAxisQuery reversedFromEnd(const HalfAxisQuery &query);

// The size of `query`'s result, given its first page (as the engine returned it for `query` with
// `limit` rows). An exhausted first page is the whole result; a query of every address, thread and
// function is counted from the history's access counts; any other is estimated from the density of
// its first page and of eight probes of 64 rows spread over its rowid range (run on `engine`). False
// + *error on a database error.
bool estimateResultSize(HistoryDatabase &database, HalfAxisQueryEngine &engine, const HalfAxisQuery &query,
    const QueryPage &firstPage, ResultSize *size, QString *error);

} // namespace memhist
