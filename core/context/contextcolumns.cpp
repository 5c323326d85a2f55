// SPDX-License-Identifier: MIT
#include "core/context/contextcolumns.h"

#include "core/context/contextreader.h"
#include "core/context/contextschema.h"
#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"

namespace memhist {

ContextColumns::ContextColumns(ContextReader &reader)
    : m_reader(reader)
    , m_names { "pc", "function", "source", "instruction", "region" }
    , m_values(reader.has(contextschema::part::values))
{
    if (m_values)
        m_names << "value"
                << "before";
}

QList<QByteArray> ContextColumns::cells(const Access &access)
{
    QList<QByteArray> cells;
    cells.reserve(m_names.size());
    if (const auto pc = m_reader.pcAt(access.transition)) {
        const CodeDescription code = m_reader.describeCode(*pc, access.transition);
        cells << hexBytes(pc->value) << code.functionText().toUtf8() << code.sourceText().toUtf8()
              << code.instruction.toUtf8();
    } else {
        cells << QByteArray() << QByteArray() << QByteArray() << QByteArray();
    }
    cells << m_reader.describeAddress(access.physical, access.transition).text().toUtf8();
    if (m_values) {
        const AccessValue value = m_reader.value(access.rowId).value_or(AccessValue());
        cells << value.bytes.toHex() << value.before.toHex();
    }
    return cells;
}

QByteArray ContextColumns::csvHeader() const
{
    return ',' + m_names.join(',');
}

QByteArray ContextColumns::csvCells(const Access &access)
{
    QByteArray line;
    for (const QByteArray &cell : cells(access)) {
        line += ',';
        line += csv::quoteField(cell);
    }
    return line;
}

} // namespace memhist
