// SPDX-License-Identifier: MIT
#include "core/storage/batchinsert.h"

#include <QByteArray>

namespace memhist::sqlite {

namespace {

// "INSERT INTO t(a, b) VALUES" -> 2.
int columnCount(QByteArrayView head)
{
    const qsizetype open = head.indexOf('(');
    const qsizetype close = head.indexOf(')', open);
    if (open < 0 || close < 0)
        return 0;
    return int(head.sliced(open, close - open).count(',')) + 1;
}

QByteArray statementFor(const char *head, int columns, int rows)
{
    QByteArray row = "(?";
    for (int column = 1; column < columns; ++column)
        row += ",?";
    row += ')';
    QByteArray sql = head;
    for (int i = 0; i < rows; ++i)
        sql += (i ? "," : "") + row;
    return sql;
}

} // namespace

BatchInsert::BatchInsert(Connection &connection, const char *head)
    : m_columns(columnCount(head))
{
    if (m_columns == 0)
        return;
    m_batch = connection.prepare(statementFor(head, m_columns, rowsPerStatement).constData());
    m_single = connection.prepare(statementFor(head, m_columns, 1).constData());
}

} // namespace memhist::sqlite
