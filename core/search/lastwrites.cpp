// SPDX-License-Identifier: MIT
#include "core/search/lastwrites.h"

#include "core/storage/historydatabase.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace memhist {

namespace {

// The last writes before `access` of its bytes [first, first + count - 1], newest first: a byte
// walk of the writes backward from its row. `visit(write, address)` is called once per byte, with
// the last write of it, and returns false to stop the walk there. *decided tells which bytes a
// write covers. False on a database error (*error set).
template<typename Visit>
bool walkLastWrites(ByteWalk &walk, const Access &access, std::uint64_t count, std::vector<bool> *decided,
    QString *error, const Visit &visit)
{
    decided->assign(count, false);
    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.resumeAfter = access.rowId;
    query.operations = Operation::Write;
    return walk.run(
        query, access.physical.value, *decided,
        [&](const Access &write, std::uint64_t index) { return visit(write, access.physical.value + index); }, error);
}

} // namespace

LastWrites::LastWrites(HistoryDatabase &database)
    : m_engine(database)
    , m_walk(m_engine)
    , m_values(database.connection())
{ }

bool LastWrites::differs(const Access &read, const std::optional<AccessValue> &value)
{
    if (!value || value->bytes.isEmpty() || !m_error.isEmpty())
        return false;
    const std::uint64_t count
        = std::min<std::uint64_t>(read.size == 0 ? 1 : read.size, std::uint64_t(value->bytes.size()));
    std::vector<bool> decided;
    bool differ = false;
    std::optional<RowId> writtenRow; // the write whose value `written` holds
    std::optional<AccessValue> written;
    walkLastWrites(m_walk, read, count, &decided, &m_error, [&](const Access &write, std::uint64_t address) {
        if (writtenRow != write.rowId) {
            written = m_values.value(write.rowId);
            writtenRow = write.rowId;
        }
        const std::uint64_t offset = address - write.physical.value;
        differ = written && offset < std::uint64_t(written->bytes.size())
            && written->bytes[qsizetype(offset)] != value->bytes[qsizetype(address - read.physical.value)];
        return !differ;
    });
    return differ;
}

bool LastWrites::lastWritesOf(const Access &access, QList<LastWrite> *writes, QList<LastWrite> *unwritten)
{
    const std::uint64_t first = access.physical.value;
    const std::uint64_t count = access.lastByte().value - first + 1;
    std::vector<bool> decided;
    QList<LastWrite> found; // in the walk's order, a write once per run of bytes it decided
    const bool ok
        = walkLastWrites(m_walk, access, count, &decided, &m_error, [&](const Access &write, std::uint64_t address) {
              if (found.isEmpty() || found.constLast().write.rowId != write.rowId)
                  found.append(LastWrite { write, Address { address }, Address { address } });
              found.last().last = Address { address };
              return true;
          });
    if (!ok)
        return false;
    // Newest first, a write that explains several bytes listed once. The walk visits the writes
    // newest first, but after splitting around a hot byte it walks each stretch of bytes apart, so
    // an older write can come after a newer one, or the same write twice.
    std::stable_sort(found.begin(), found.end(),
        [](const LastWrite &a, const LastWrite &b) { return a.write.rowId.value > b.write.rowId.value; });
    for (const LastWrite &write : std::as_const(found)) {
        if (!writes->isEmpty() && writes->constLast().write.rowId == write.write.rowId) {
            LastWrite &listed = writes->last();
            listed.first = std::min(listed.first, write.first);
            listed.last = std::max(listed.last, write.last);
        } else {
            writes->append(write);
        }
    }
    // The bytes left undecided, as ranges.
    for (std::uint64_t index = 0; index < count;) {
        if (decided[std::size_t(index)]) {
            ++index;
            continue;
        }
        std::uint64_t end = index;
        while (end + 1 < count && !decided[std::size_t(end + 1)])
            ++end;
        LastWrite range;
        range.first = Address { first + index };
        range.last = Address { first + end };
        unwritten->append(range);
        index = end + 1;
    }
    return true;
}

bool LastWrites::failed(QString *error)
{
    if (m_error.isEmpty())
        return false;
    *error = m_error;
    m_error.clear();
    return true;
}

} // namespace memhist
