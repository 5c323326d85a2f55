// SPDX-License-Identifier: MIT
// How `memhist query` prints a page of accesses: the CSV of DESIGN.md §3, or an aligned table
// for people, closed by a line that tells how to fetch the next page.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QByteArray>
#include <QString>

namespace memhist {
class ContextColumns;
}

namespace memhist::cli {

enum class OutputFormat {
    Table,
    Csv,
};

// "table" or "csv".
bool parseOutputFormat(const QString &text, OutputFormat *format);

// CSV: the header, then one row per access. Table: a header line, one aligned line per access,
// then "-- N rows", with "; next page: --resume R" when the page is full. With `context`, its
// columns follow the six (--context).
void appendPage(QByteArray *out, const QueryPage &page, OutputFormat format, ContextColumns *context = nullptr);

// Lines of cells as an aligned table: `rightAligned[c]` for numbers (digits line up), text
// left-aligned; two spaces between columns, no trailing blanks.
void appendAlignedRows(QByteArray *out, const QList<QList<QByteArray>> &rows, const QList<bool> &rightAligned);

} // namespace memhist::cli
