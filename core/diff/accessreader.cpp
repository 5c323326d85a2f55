// SPDX-License-Identifier: MIT
#include "accessreader.h"

#include "core/diff/diffstatements.h"
#include "core/values/valuestatements.h"

namespace memhist {

AccessReader::AccessReader(sqlite::Connection &connection)
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

void AccessReader::readValue(std::int64_t rowId, AccessBytes *value)
{
    if (!m_blocks.isValid()) {
        const auto known = m_values.available() ? m_values.value(RowId { rowId }) : std::nullopt;
        *value = known ? QByteArrayView(known->bytes) : QByteArrayView();
        return;
    }
    // Accesses come in rowid order: the blocks are read forward alongside them, each once.
    while (!m_blocksEnded && !m_block.contains(rowId) && m_block.last() < rowId) {
        if (m_blocks.step() != SQLITE_ROW) {
            m_blocksEnded = true;
            break;
        }
        m_block.reset(m_blocks.int64(0), m_blocks.int64(1), m_blocks.blobView(2), m_blocks.blobView(3));
    }
    *value = m_block.bytesOf(rowId);
}

bool AccessReader::read(std::vector<StreamedAccess> *batch, std::size_t count)
{
    for (std::size_t added = 0; added < count && !m_ended;) {
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
        StreamedAccess &access = batch->emplace_back();
        access.rowId = m_accesses.int64(0);
        access.transition = fromStored(m_accesses.int64(1));
        access.address = fromStored(m_accesses.int64(2));
        access.size = std::uint32_t(sizeAndOperation >> 3);
        access.operation = operation;
        readValue(access.rowId, &access.value);
        ++added;
    }
    return !m_ended;
}

} // namespace memhist
