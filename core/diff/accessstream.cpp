// SPDX-License-Identifier: MIT
#include "accessstream.h"

#include "core/diff/diffstatements.h"
#include "core/values/valuestatements.h"

namespace memhist {

AccessStream::AccessStream(sqlite::Connection &connection)
    : m_connection(connection)
    , m_accesses(connection.prepare(diffstatements::accessesFrom))
    , m_blocks(connection.prepare(valueschema::blocksFrom))
    , m_values(connection)
{
    if (m_accesses.isValid())
        m_accesses.bind(1, 1);
    if (m_blocks.isValid())
        m_blocks.bind(1, 0);
}

void AccessStream::readValue(std::int64_t rowId, AccessBytes *value)
{
    if (!m_blocks.isValid()) {
        const auto known = m_values.available() ? m_values.value(RowId { rowId }) : std::nullopt;
        *value = known ? QByteArrayView(known->bytes) : QByteArrayView();
        return;
    }
    // Accesses come in rowid order: the blocks are read forward alongside them, each decoded once.
    while (!m_blocksEnded && !m_block.contains(rowId) && m_block.last() < rowId) {
        if (m_blocks.step() != SQLITE_ROW) {
            m_blocksEnded = true;
            break;
        }
        m_block.reset(m_blocks.int64(0), m_blocks.int64(1), m_blocks.blobView(2), m_blocks.blobView(3));
    }
    *value = m_block.bytesOf(rowId);
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
        const std::int64_t sizeAndOperation = m_accesses.int64(3);
        const int operation = int(sizeAndOperation & 7);
        if (operation == int(Operation::Execute))
            continue;
        m_next.rowId = m_accesses.int64(0);
        m_next.transition = fromStored(m_accesses.int64(1));
        m_next.address = fromStored(m_accesses.int64(2));
        m_next.size = std::uint32_t(sizeAndOperation >> 3);
        m_next.operation = operation;
        readValue(m_next.rowId, &m_next.value);
        m_hasNext = true;
        ++m_count;
    }
    return m_hasNext;
}

} // namespace memhist
