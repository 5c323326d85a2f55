// SPDX-License-Identifier: MIT
#include "core/search/lastwrites.h"

#include "core/storage/historydatabase.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace memhist {

namespace {

// Writes per page of the backward walk: the bytes of one read are decided by a few.
constexpr quint64 pageRows = 64;

// The one backward walk of this class: the writes before `access` of its bytes
// [first, first + count - 1], newest first, the window narrowed to the bytes still undecided as it
// goes. `visit(write, address)` is called once per byte, with the last write of it, and returns
// false to stop the walk there. *decided tells which bytes a write covers. False on a database error
// (*error set).
template<typename Visit>
bool walkLastWrites(HalfAxisQueryEngine &engine, const Access &access, std::uint64_t count, std::vector<bool> *decided,
    QString *error, const Visit &visit)
{
    const std::uint64_t first = access.physical.value;
    decided->assign(count, false);
    std::uint64_t undecided = count;
    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.resumeAfter = access.rowId;
    query.operations = Operation::Write;
    query.limit = pageRows;
    query.first = Address { first };
    query.last = Address { first + count - 1 };
    while (undecided > 0) {
        QueryPage page;
        if (!engine.run(query, &page, error))
            return false;
        for (const Access &write : std::as_const(page.accesses)) {
            const std::uint64_t from = std::max(write.physical.value, first);
            const std::uint64_t to = std::min(write.lastByte().value, first + count - 1);
            for (std::uint64_t address = from; address <= to; ++address) {
                const std::size_t index = std::size_t(address - first);
                if ((*decided)[index])
                    continue;
                (*decided)[index] = true;
                --undecided;
                if (!visit(write, address))
                    return true;
            }
        }
        if (page.exhausted || undecided == 0)
            return true;
        // Narrow the window to the bytes still undecided.
        const auto firstOpen = std::find(decided->begin(), decided->end(), false);
        const auto lastOpen = std::find(decided->rbegin(), decided->rend(), false);
        query.first = Address { first + std::uint64_t(firstOpen - decided->begin()) };
        query.last = Address { first + count - 1 - std::uint64_t(lastOpen - decided->rbegin()) };
        query.resumeAfter = page.resumePoint();
    }
    return true;
}

} // namespace

LastWrites::LastWrites(HistoryDatabase &database)
    : m_engine(database)
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
    walkLastWrites(m_engine, read, count, &decided, &m_error, [&](const Access &write, std::uint64_t address) {
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
    // A write's bytes come one after another: a write that explains several is listed once.
    const bool ok
        = walkLastWrites(m_engine, access, count, &decided, &m_error, [&](const Access &write, std::uint64_t address) {
              if (writes->isEmpty() || writes->constLast().write.rowId != write.rowId)
                  writes->append(LastWrite { write, Address { address }, Address { address } });
              writes->last().last = Address { address };
              return true;
          });
    if (!ok)
        return false;
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
