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

} // namespace

LastWrites::LastWrites(HistoryDatabase &database)
    : m_engine(database)
    , m_values(database.connection())
{ }

bool LastWrites::differs(const Access &read, const std::optional<AccessValue> &value)
{
    if (!value || value->bytes.isEmpty() || !m_error.isEmpty())
        return false;
    const std::uint64_t first = read.physical.value;
    const std::uint64_t count
        = std::min<std::uint64_t>(read.size == 0 ? 1 : read.size, std::uint64_t(value->bytes.size()));
    std::vector<bool> decided(count, false);
    std::uint64_t undecided = count;

    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.resumeAfter = read.rowId;
    query.operations = Operation::Write;
    query.limit = pageRows;
    query.first = Address { first };
    query.last = Address { first + count - 1 };
    while (undecided > 0) {
        QueryPage page;
        if (!m_engine.run(query, &page, &m_error))
            return false;
        for (const Access &write : std::as_const(page.accesses)) {
            const std::optional<AccessValue> written = m_values.value(write.rowId);
            const std::uint64_t from = std::max(write.physical.value, first);
            const std::uint64_t to = std::min(write.lastByte().value, first + count - 1);
            for (std::uint64_t address = from; address <= to; ++address) {
                const std::size_t index = std::size_t(address - first);
                if (decided[index])
                    continue;
                decided[index] = true;
                --undecided;
                const std::uint64_t offset = address - write.physical.value;
                if (written && offset < std::uint64_t(written->bytes.size())
                    && written->bytes[qsizetype(offset)] != value->bytes[qsizetype(index)])
                    return true;
            }
        }
        if (page.exhausted || undecided == 0)
            return false;
        // Narrow the window to the bytes still undecided.
        const auto firstOpen = std::find(decided.begin(), decided.end(), false);
        const auto lastOpen = std::find(decided.rbegin(), decided.rend(), false);
        query.first = Address { first + std::uint64_t(firstOpen - decided.begin()) };
        query.last = Address { first + count - 1 - std::uint64_t(lastOpen - decided.rbegin()) };
        query.resumeAfter = page.resumePoint();
    }
    return false;
}

bool LastWrites::lastWritesOf(const Access &access, QList<LastWrite> *writes, QList<LastWrite> *unwritten)
{
    const std::uint64_t first = access.physical.value;
    const std::uint64_t count = access.lastByte().value - first + 1;
    std::vector<bool> decided(count, false);
    std::uint64_t undecided = count;

    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.resumeAfter = access.rowId;
    query.operations = Operation::Write;
    query.limit = pageRows;
    query.first = access.physical;
    query.last = access.lastByte();
    while (undecided > 0) {
        QueryPage page;
        if (!m_engine.run(query, &page, &m_error))
            return false;
        for (const Access &write : std::as_const(page.accesses)) {
            const std::uint64_t from = std::max(write.physical.value, first);
            const std::uint64_t to = std::min(write.lastByte().value, first + count - 1);
            std::optional<LastWrite> found;
            for (std::uint64_t address = from; address <= to; ++address) {
                const std::size_t index = std::size_t(address - first);
                if (decided[index])
                    continue;
                decided[index] = true;
                --undecided;
                if (!found)
                    found = LastWrite { write, Address { address }, Address { address } };
                found->first = std::min(found->first, Address { address });
                found->last = std::max(found->last, Address { address });
            }
            if (found)
                writes->append(*found);
        }
        if (page.exhausted || undecided == 0)
            break;
        const auto firstOpen = std::find(decided.begin(), decided.end(), false);
        const auto lastOpen = std::find(decided.rbegin(), decided.rend(), false);
        query.first = Address { first + std::uint64_t(firstOpen - decided.begin()) };
        query.last = Address { first + count - 1 - std::uint64_t(lastOpen - decided.rbegin()) };
        query.resumeAfter = page.resumePoint();
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
