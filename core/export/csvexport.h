// SPDX-License-Identifier: MIT
// Streams the complete result set of a half-axis query (every page, not only a loaded one) to a CSV
// file, atomically: the output path receives the file only when it is complete and synced to disk.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QString>
#include <functional>

namespace memhist {

struct ExportReport
{
    qint64 rows = 0;
};

// The columns after the six of DESIGN.md §3, in this order.
struct ExportColumns
{
    // "thread": the thread that ran the access's transition (decimal), empty where unknown (and on
    // every row of a history without threads).
    bool threads = false;
    // The context columns (ContextColumns: pc, function, source, instruction, region, and value
    // when the history has values).
    bool context = false;
};

// Honours query.limit as the total number of rows when limitRows is true; otherwise exports every
// match. progress(rows written so far) returns false to cancel (nothing is then left at outputPath).
// `columns` adds columns after the six.
bool exportQueryToCsv(HistoryDatabase &database, HalfAxisQuery query, bool limitRows, const QString &outputPath,
    ExportReport *report, QString *error, const std::function<bool(qint64)> &progress = {}, ExportColumns columns = {});

} // namespace memhist
