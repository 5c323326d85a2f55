// SPDX-License-Identifier: MIT
#include "pageprinter.h"

#include "core/context/contextcolumns.h"
#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"

#include <QString>
#include <algorithm>

namespace memhist::cli {

namespace {

QList<QByteArray> cells(const Access &access)
{
    return {
        QByteArray::number(qint64(access.rowId.value)),
        QByteArray::number(quint64(access.transition.value)),
        QByteArray(1, csv::operationLetter(access.operation)),
        hexBytes(access.physical.value),
        access.linear ? hexBytes(access.linear->value) : QByteArrayLiteral("-"),
        QByteArray::number(access.size),
    };
}

void appendTable(QByteArray *out, const QueryPage &page, ContextColumns *context)
{
    // Numbers right-aligned so that their digits line up; the operation letter and the context
    // (text) left-aligned under their titles.
    QList<QList<QByteArray>> rows;
    rows.reserve(page.accesses.size() + 1);
    rows.append({ "rowid", "transition", "op", "address", "linear", "size" });
    QList<bool> rightAligned { true, true, false, true, true, true };
    if (context) {
        rows.first() += context->names();
        rightAligned += QList<bool>(context->names().size(), false);
    }
    for (const Access &access : page.accesses) {
        rows.append(cells(access));
        if (context)
            rows.last() += context->cells(access);
    }
    appendAlignedRows(out, rows, rightAligned);

    out->append("-- " + QByteArray::number(page.accesses.size()) + (page.accesses.size() == 1 ? " row" : " rows"));
    if (const auto next = page.resumePoint())
        out->append("; next page: --resume " + QByteArray::number(qint64(next->value)));
    out->append('\n');
}

} // namespace

bool parseOutputFormat(const QString &text, OutputFormat *format)
{
    if (text == QLatin1String("table"))
        *format = OutputFormat::Table;
    else if (text == QLatin1String("csv"))
        *format = OutputFormat::Csv;
    else
        return false;
    return true;
}

void appendAlignedRows(QByteArray *out, const QList<QList<QByteArray>> &rows, const QList<bool> &rightAligned)
{
    QList<qsizetype> widths(rightAligned.size(), 0);
    for (const QList<QByteArray> &row : rows) {
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], qsizetype(QString::fromUtf8(row[c]).size()));
    }
    for (const QList<QByteArray> &row : rows) {
        QByteArray line;
        for (qsizetype c = 0; c < row.size(); ++c) {
            if (c > 0)
                line.append("  ");
            const QByteArray padding(widths[c] - QString::fromUtf8(row[c]).size(), ' ');
            if (rightAligned[c])
                line.append(padding);
            line.append(row[c]);
            if (!rightAligned[c])
                line.append(padding);
        }
        while (line.endsWith(' '))
            line.chop(1);
        out->append(line);
        out->append('\n');
    }
}

void appendPage(QByteArray *out, const QueryPage &page, OutputFormat format, ContextColumns *context)
{
    if (format == OutputFormat::Table) {
        appendTable(out, page, context);
        return;
    }
    out->append(csv::header());
    if (context)
        out->append(context->csvHeader());
    out->append('\n');
    for (const Access &access : page.accesses) {
        out->append(csv::formatRow(access));
        if (context)
            out->append(context->csvCells(access));
        out->append('\n');
    }
}

} // namespace memhist::cli
