// SPDX-License-Identifier: MIT
#include "accessstream.h"

#include "core/diff/diffstatements.h"

namespace memhist {

AccessStream::AccessStream(sqlite::Connection &connection)
    : m_connection(connection)
    , m_accesses(connection.prepare(diffstatements::accessesFrom))
    , m_values(connection)
{
    if (m_accesses.isValid())
        m_accesses.bind(1, 1);
}

bool AccessStream::fill()
{
    while (!m_hasNext && !m_ended) {
        const int rc = m_accesses.step();
        if (rc != SQLITE_ROW) {
            if (rc != SQLITE_DONE)
                m_error = m_connection.errorFor(rc);
            m_ended = true;
            break;
        }
        const int operation = int(m_accesses.int64(4));
        if (operation == int(Operation::Execute))
            continue;
        m_next.rowId = m_accesses.int64(0);
        m_next.transition = fromStored(m_accesses.int64(1));
        m_next.address = fromStored(m_accesses.int64(2));
        m_next.size = std::uint32_t(m_accesses.int64(3));
        m_next.operation = operation;
        m_next.value.clear();
        if (m_values.available())
            if (const auto value = m_values.value(RowId { m_next.rowId }))
                m_next.value = value->bytes;
        m_hasNext = true;
        ++m_count;
    }
    return m_hasNext;
}

} // namespace memhist
