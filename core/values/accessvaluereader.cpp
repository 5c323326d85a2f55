// SPDX-License-Identifier: MIT
#include "core/values/accessvaluereader.h"

#include "core/values/valuestatements.h"

namespace memhist {

AccessValueReader::AccessValueReader(sqlite::Connection &connection)
    : m_block(connection.prepare(valueschema::blockAtOrBefore))
    , m_legacy(connection.prepare(valueschema::legacyValue))
{ }

std::optional<AccessValue> AccessValueReader::value(RowId access)
{
    if (m_decoded.contains(access.value))
        return m_decoded.at(access.value);
    if (m_block.isValid()) {
        m_block.bind(1, access.value);
        if (m_block.step() == SQLITE_ROW && m_block.int64(1) >= access.value)
            m_decoded.decode(m_block.int64(0), m_block.int64(1), m_block.blobView(2), m_block.blob(3));
        m_block.reset();
        return m_decoded.at(access.value);
    }
    if (!m_legacy.isValid())
        return std::nullopt;
    std::optional<AccessValue> value;
    m_legacy.bind(1, access.value);
    if (m_legacy.step() == SQLITE_ROW)
        value = AccessValue { m_legacy.blob(0), {}, std::nullopt };
    m_legacy.reset();
    return value;
}

} // namespace memhist
