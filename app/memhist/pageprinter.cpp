#include "pageprinter.h"

#include "csv/csvaccessformat.h"

#include <array>

namespace memhist::cli {

namespace {

constexpr int columnCount = 6;
using Cells = std::array<QByteArray, columnCount>;

QByteArray hex(std::uint64_t value)
{
    return "0x" + QByteArray::number(quint64(value), 16);
}

Cells cells(const Access &access)
{
    return {
        QByteArray::number(qint64(access.rowId.value)),
        QByteArray::number(quint64(access.transition.value)),
        QByteArray(1, csv::operationLetter(access.operation)),
        hex(access.physical.value),
        access.linear ? hex(access.linear->value) : QByteArrayLiteral("-"),
        QByteArray::number(access.size),
    };
}

void appendTable(QByteArray *out, const QueryPage &page)
{
    const Cells titles = { "rowid", "transition", "op", "address", "linear", "size" };
    QList<Cells> rows;
    rows.reserve(page.accesses.size());
    std::array<qsizetype, columnCount> widths {};
    for (int c = 0; c < columnCount; ++c)
        widths[c] = titles[c].size();
    for (const Access &access : page.accesses) {
        rows.append(cells(access));
        for (int c = 0; c < columnCount; ++c)
            widths[c] = std::max(widths[c], rows.constLast()[c].size());
    }

    // Numbers right-aligned so that their digits line up; the operation letter left-aligned
    // under its title.
    const auto appendLine = [&](const Cells &line) {
        for (int c = 0; c < columnCount; ++c) {
            if (c > 0)
                out->append("  ");
            const QByteArray padding(widths[c] - line[c].size(), ' ');
            const bool last = c == columnCount - 1;
            if (c == 2) {
                out->append(line[c]);
                if (!last)
                    out->append(padding);
            } else {
                out->append(padding);
                out->append(line[c]);
            }
        }
        out->append('\n');
    };
    appendLine(titles);
    for (const Cells &row : std::as_const(rows))
        appendLine(row);

    out->append("-- " + QByteArray::number(page.accesses.size()) + " rows");
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

void appendPage(QByteArray *out, const QueryPage &page, OutputFormat format)
{
    if (format == OutputFormat::Table) {
        appendTable(out, page);
        return;
    }
    out->append(csv::header());
    out->append('\n');
    for (const Access &access : page.accesses) {
        out->append(csv::formatRow(access));
        out->append('\n');
    }
}

} // namespace memhist::cli
