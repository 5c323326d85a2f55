// SPDX-License-Identifier: MIT
#include "core/memory/memoryreader.h"

#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "core/values/accessvaluereader.h"

#include <algorithm>
#include <limits>

namespace memhist {

namespace {

// Rows per page of the walks: enough that a range of a few hot bytes is one page.
constexpr quint64 pageRows = 1024;

// The first and last bytes not yet known, as offsets in the range; false when every byte is.
bool unknownSpan(const std::vector<bool> &decided, std::uint64_t *first, std::uint64_t *last)
{
    const auto begin = std::find(decided.begin(), decided.end(), false);
    if (begin == decided.end())
        return false;
    const auto end = std::find(decided.rbegin(), decided.rend(), false);
    *first = std::uint64_t(begin - decided.begin());
    *last = std::uint64_t(decided.size() - 1 - std::size_t(end - decided.rbegin()));
    return true;
}

} // namespace

class MemoryReader::Private
{
public:
    explicit Private(HistoryDatabase &database)
        : engine(database)
        , values(database.connection())
    { }

    // Walks `query` page by page; `visit` decides the bytes of each access it is given, and the
    // walk ends when every byte is decided or the query is exhausted.
    template<typename Visit>
    bool walk(HalfAxisQuery query, std::uint64_t rangeFirst, std::vector<bool> &decided, QList<MemoryByte> &bytes,
        const Visit &visit, QString *error)
    {
        query.limit = pageRows;
        for (;;) {
            std::uint64_t first = 0;
            std::uint64_t last = 0;
            if (!unknownSpan(decided, &first, &last))
                return true;
            query.first = Address { rangeFirst + first };
            query.last = Address { rangeFirst + last };
            QueryPage page;
            if (!engine.run(query, &page, error))
                return false;
            for (const Access &access : std::as_const(page.accesses)) {
                const std::uint64_t from = std::max(access.physical.value, query.first.value);
                const std::uint64_t to = std::min(access.lastByte().value, query.last.value);
                if (from > to)
                    continue;
                const std::optional<AccessValue> value = values.value(access.rowId);
                for (std::uint64_t address = from; address <= to; ++address) {
                    const std::size_t index = std::size_t(address - rangeFirst);
                    if (decided[index])
                        continue;
                    decided[index] = true;
                    MemoryByte &byte = bytes[qsizetype(index)];
                    const std::size_t offset = std::size_t(address - access.physical.value);
                    visit(access,
                        value && offset < std::size_t(value->bytes.size())
                            ? std::optional<std::uint8_t>(std::uint8_t(value->bytes[qsizetype(offset)]))
                            : std::nullopt,
                        byte);
                }
            }
            if (page.exhausted)
                return true;
            query.resumeAfter = page.resumePoint();
        }
    }

    HalfAxisQueryEngine engine;
    AccessValueReader values;
};

MemoryReader::MemoryReader(HistoryDatabase &database)
    : d(std::make_unique<Private>(database))
{ }

MemoryReader::~MemoryReader() = default;

bool MemoryReader::hasValues() const
{
    return d->values.available();
}

bool MemoryReader::read(Transition at, Address first, Address last, QList<MemoryByte> *bytes, QString *error)
{
    if (first > last) {
        *error = QStringLiteral("the range's first address is after its last");
        return false;
    }
    if (last.value - first.value >= maxBytes) {
        *error = QStringLiteral("%1 bytes asked for; memory is read at most %2 bytes at a time")
                     .arg(last.value - first.value + 1)
                     .arg(maxBytes);
        return false;
    }
    const std::size_t size = std::size_t(last.value - first.value + 1);
    QList<MemoryByte> result;
    result.resize(qsizetype(size));
    std::vector<bool> decided(size, false);

    HalfAxisQuery backward;
    backward.direction = Direction::Backward;
    backward.at = at;
    backward.operations = Operations(Operation::Read) | Operation::Write;
    const auto lastAccess = [](const Access &access, std::optional<std::uint8_t> value, MemoryByte &byte) {
        byte.transition = access.transition;
        byte.rowId = access.rowId;
        if (!value)
            return; // the access that decides has no value: unknown
        byte.value = *value;
        byte.knownBy = access.operation == Operation::Write ? KnownBy::Write : KnownBy::Read;
    };
    if (!d->walk(backward, first.value, decided, result, lastAccess, error))
        return false;

    if (at.value < std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
        HalfAxisQuery forward;
        forward.at = Transition { at.value + 1 };
        forward.operations = backward.operations;
        const auto laterAccess = [](const Access &access, std::optional<std::uint8_t> value, MemoryByte &byte) {
            if (access.operation != Operation::Read || !value)
                return; // written first, or no value: unknown
            byte.value = *value;
            byte.knownBy = KnownBy::LaterRead;
            byte.transition = access.transition;
            byte.rowId = access.rowId;
        };
        if (!d->walk(forward, first.value, decided, result, laterAccess, error))
            return false;
    }
    // What neither walk decided, and what was decided unknown, carries no access.
    for (MemoryByte &byte : result) {
        if (byte.knownBy == KnownBy::Unknown) {
            byte.transition = Transition {};
            byte.rowId = RowId {};
        }
    }
    *bytes = std::move(result);
    return true;
}

} // namespace memhist
