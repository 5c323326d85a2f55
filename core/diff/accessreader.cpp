// SPDX-License-Identifier: MIT
#include "accessreader.h"

#include "core/diff/diffstatements.h"
#include "core/values/valuestatements.h"

#include <optional>

namespace memhist {

namespace {

sqlite::Statement prepareBatches(sqlite::Connection &connection, void *reader,
    void (*step)(sqlite3_context *, int, sqlite3_value **), void (*final)(sqlite3_context *))
{
    const int rc = sqlite3_create_function_v2(connection.handle(), diffstatements::collectAccess, 5,
        SQLITE_UTF8 | SQLITE_DIRECTONLY, reader, nullptr, step, final, nullptr);
    if (rc != SQLITE_OK)
        return {};
    return connection.prepare(diffstatements::accessBatch);
}

// The single integer of `statement`'s one row, with ?1 bound to `parameter` when there is one;
// null when it is null (an empty table, no row after ?1). On an error, *error says why.
std::optional<std::int64_t> integerOf(
    sqlite::Connection &connection, sqlite::Statement &statement, std::optional<std::int64_t> parameter, QString *error)
{
    if (parameter)
        statement.bind(1, *parameter);
    const int rc = statement.step();
    std::optional<std::int64_t> value;
    if (rc == SQLITE_ROW && !statement.isNull(0))
        value = statement.int64(0);
    else if (rc != SQLITE_ROW)
        *error = connection.errorFor(rc);
    statement.reset();
    return value;
}

} // namespace

AccessReader::AccessReader(sqlite::Connection &connection)
    : m_connection(connection)
    , m_batches(prepareBatches(connection, this, &AccessReader::collect, &AccessReader::finishCollecting))
    , m_firstFrom(connection.prepare(diffstatements::firstAccessFrom))
    , m_blocks(connection.prepare(valueschema::blocksFrom))
    , m_values(connection)
{
    if (m_blocks.isValid())
        m_blocks.bind(1, 0);
    sqlite::Statement last = connection.prepare(diffstatements::lastAccess);
    if (!last.isValid() || !m_firstFrom.isValid()) {
        m_batches = {};
        return;
    }
    const std::optional<std::int64_t> lastRowId = integerOf(connection, last, std::nullopt, &m_error);
    m_ended = !lastRowId;
    m_lastRowId = lastRowId.value_or(0);
}

AccessReader::~AccessReader()
{
    m_batches = {};
    sqlite3_create_function_v2(m_connection.handle(), diffstatements::collectAccess, 5, SQLITE_UTF8, nullptr, nullptr,
        nullptr, nullptr, nullptr);
}

void AccessReader::collect(sqlite3_context *context, int, sqlite3_value **argv)
{
    auto *reader = static_cast<AccessReader *>(sqlite3_user_data(context));
    const int operation = int(sqlite3_value_int64(argv[4]));
    if (operation == int(Operation::Execute))
        return;
    StreamedAccess &access = reader->m_filling->emplace_back();
    access.rowId = sqlite3_value_int64(argv[0]);
    access.transition = fromStored(sqlite3_value_int64(argv[1]));
    access.address = fromStored(sqlite3_value_int64(argv[2]));
    access.size = std::uint32_t(sqlite3_value_int64(argv[3]));
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
    // From the next row on: a gap of rowids without rows is passed over in one search.
    const std::optional<std::int64_t> start = integerOf(m_connection, m_firstFrom, m_nextRowId, &m_error);
    if (start) {
        const std::int64_t end
            = *start >= m_lastRowId - std::int64_t(count) ? m_lastRowId + 1 : *start + std::int64_t(count);
        m_filling = batch;
        m_batches.bind(1, *start);
        m_batches.bind(2, end);
        const int rc = m_batches.step();
        if (rc != SQLITE_ROW)
            m_error = m_connection.errorFor(rc);
        m_batches.reset();
        m_filling = nullptr;
        m_nextRowId = end;
    }
    if (!start || !m_error.isEmpty() || m_nextRowId > m_lastRowId)
        m_ended = true;
    for (std::size_t i = first; i < batch->size(); ++i)
        readValue((*batch)[i].rowId, &(*batch)[i].value);
    return !m_ended;
}

} // namespace memhist
