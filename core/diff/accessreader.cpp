// SPDX-License-Identifier: MIT
#include "accessreader.h"

#include "core/diff/diffstatements.h"
#include "core/values/valuestatements.h"

namespace memhist {

namespace {

sqlite::Statement prepareBatches(sqlite::Connection &connection, void *reader,
    void (*step)(sqlite3_context *, int, sqlite3_value **), void (*final)(sqlite3_context *))
{
    const int rc = sqlite3_create_function_v2(connection.handle(), diffstatements::collectAccess, 4,
        SQLITE_UTF8 | SQLITE_DIRECTONLY, reader, nullptr, step, final, nullptr);
    if (rc != SQLITE_OK)
        return {};
    return connection.prepare(diffstatements::accessBatchFrom);
}

} // namespace

AccessReader::AccessReader(sqlite::Connection &connection)
    : m_connection(connection)
    , m_batches(prepareBatches(connection, this, &AccessReader::collect, &AccessReader::finishCollecting))
    , m_blocks(connection.prepare(valueschema::blocksFrom))
    , m_values(connection)
{
    if (m_blocks.isValid())
        m_blocks.bind(1, 0);
}

void AccessReader::collect(sqlite3_context *context, int, sqlite3_value **argv)
{
    auto *reader = static_cast<AccessReader *>(sqlite3_user_data(context));
    ++reader->m_rowsCollected;
    const std::int64_t sizeAndOperation = sqlite3_value_int64(argv[3]);
    const int operation = int(sizeAndOperation & 7);
    reader->m_nextRowId = sqlite3_value_int64(argv[0]) + 1;
    if (operation == int(Operation::Execute))
        return;
    StreamedAccess &access = reader->m_filling->emplace_back();
    access.rowId = reader->m_nextRowId - 1;
    access.transition = fromStored(sqlite3_value_int64(argv[1]));
    access.address = fromStored(sqlite3_value_int64(argv[2]));
    access.size = std::uint32_t(sizeAndOperation >> 3);
    access.operation = operation;
}

void AccessReader::finishCollecting(sqlite3_context *context)
{
    sqlite3_result_null(context);
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
    if (m_ended || !isValid())
        return false;
    const std::size_t first = batch->size();
    m_filling = batch;
    m_rowsCollected = 0;
    m_batches.bind(1, m_nextRowId);
    m_batches.bind(2, std::int64_t(count));
    const int rc = m_batches.step();
    if (rc != SQLITE_ROW) {
        m_error = m_connection.errorFor(rc);
        m_ended = true;
    }
    m_batches.reset();
    m_filling = nullptr;
    // Fewer rows than asked for: the table has ended.
    if (m_rowsCollected < count)
        m_ended = true;
    for (std::size_t i = first; i < batch->size(); ++i)
        readValue((*batch)[i].rowId, &(*batch)[i].value);
    return !m_ended;
}

} // namespace memhist
