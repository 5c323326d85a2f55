// SPDX-License-Identifier: MIT
#include "core/memory/memoryreader.h"

#include "core/query/bytewalk.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "core/values/accessvaluereader.h"

#include <algorithm>
#include <limits>

namespace memhist {

class MemoryReader::Private
{
public:
    explicit Private(HistoryDatabase &database)
        : engine(database)
        , walk(engine)
        , values(database.connection())
    { }

    // Walks `query` over the range's bytes still undecided; `visit(access, value, byte)` fills the
    // byte of each, value being the byte the deciding access read or wrote, if its value is known.
    template<typename Visit>
    bool walkBytes(const HalfAxisQuery &query, std::uint64_t rangeFirst, std::vector<bool> &decided,
        QList<MemoryByte> &bytes, const Visit &visit, QString *error)
    {
        std::optional<RowId> valueRow; // the access whose value `value` holds
        std::optional<AccessValue> value;
        return walk.run(
            query, rangeFirst, decided,
            [&](const Access &access, std::uint64_t index) {
                if (valueRow != access.rowId) {
                    // Only an access that decides a byte needs its value.
                    value = values.value(access.rowId);
                    valueRow = access.rowId;
                }
                const std::size_t offset = std::size_t(rangeFirst + index - access.physical.value);
                visit(access,
                    value && offset < std::size_t(value->bytes.size())
                        ? std::optional<std::uint8_t>(std::uint8_t(value->bytes[qsizetype(offset)]))
                        : std::nullopt,
                    bytes[qsizetype(index)]);
                return true;
            },
            error);
    }

    HalfAxisQueryEngine engine;
    ByteWalk walk;
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
    if (!d->walkBytes(backward, first.value, decided, result, lastAccess, error))
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
        if (!d->walkBytes(forward, first.value, decided, result, laterAccess, error))
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
