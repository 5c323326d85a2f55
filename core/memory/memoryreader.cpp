// SPDX-License-Identifier: MIT
#include "core/memory/memoryreader.h"

#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "core/values/accessvaluereader.h"

#include <algorithm>
#include <limits>

namespace memhist {

namespace {

// Rows per page of the walks. The engine fills a page whatever the reader needs of it, and on the
// 10^8 benchmark history each slice it crosses costs 25-100 us (chunk lookups, rows, database
// pages outside SQLite's cache): a 1024-row page for two bytes still unknown, accessed a few times
// per slice, crossed 243 slices (26 ms) for an answer its first row gave. So a walk starts with a small page and
// doubles it (the bytes near T are answered at once; a range of a few hot bytes still ends in a
// few pages), and never asks for more than a few rows per byte still unknown.
constexpr quint64 firstPageRows = 128;
constexpr quint64 maxPageRows = 1024;
constexpr quint64 pageRowsPerUnknownByte = 8;
// How a walk splits around bytes that fill its pages without deciding anything (see walk()).
constexpr std::size_t maxCuts = 8;
constexpr int maxSplitDepth = 4;

// The first and last bytes of [spanFirst, spanLast] not yet known, as offsets in the range; false
// when every byte of the span is.
bool unknownSpan(const std::vector<bool> &decided, std::uint64_t spanFirst, std::uint64_t spanLast,
    std::uint64_t *first, std::uint64_t *last)
{
    const auto spanBegin = decided.begin() + std::ptrdiff_t(spanFirst);
    const auto spanEnd = decided.begin() + std::ptrdiff_t(spanLast + 1);
    const auto begin = std::find(spanBegin, spanEnd, false);
    if (begin == spanEnd)
        return false;
    auto end = spanEnd;
    while (*(end - 1))
        --end;
    *first = std::uint64_t(begin - decided.begin());
    *last = std::uint64_t(end - 1 - decided.begin());
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

    // Walks `query` page by page over the bytes [spanFirst, spanLast] (offsets in the range); `visit`
    // decides the bytes of each access it is given, and the walk ends when every byte of the span
    // is decided or the query is exhausted. The window is the span's bytes still undecided, first
    // to last, and the query names those bytes (HalfAxisQuery::needed), so the engine skips the
    // chunks of the bytes already decided. A byte decided early but accessed all the time (a loop
    // counter) may still stay inside the window, between bytes nothing accesses, and bring its
    // accesses when they share chunks with undecided bytes or when the engine scans a slice's rows,
    // filling pages that decide nothing. When a full page decides almost nothing, the walk goes on
    // as one walk per stretch between the bytes those wasted accesses touched most, each from where
    // this one stopped: the bytes are disjoint and each walk keeps the query's order, so each byte
    // is still decided by its first access in that order.
    template<typename Visit>
    bool walk(HalfAxisQuery query, std::uint64_t rangeFirst, std::uint64_t spanFirst, std::uint64_t spanLast,
        std::vector<bool> &decided, QList<MemoryByte> &bytes, const Visit &visit, QString *error, int depth = 0)
    {
        quint64 pageRows = firstPageRows;
        std::vector<quint32> wasted; // per byte of the span: accesses of a page that found it decided
        for (;;) {
            std::uint64_t first = 0;
            std::uint64_t last = 0;
            if (!unknownSpan(decided, spanFirst, spanLast, &first, &last))
                return true;
            query.first = Address { rangeFirst + first };
            query.last = Address { rangeFirst + last };
            // The engine skips the chunks of bytes already decided (a hot byte's above all).
            quint64 unknown = 0;
            query.needed.clear();
            for (std::uint64_t index = first; index <= last; ++index) {
                if (decided[index])
                    continue;
                ++unknown;
                const Address address { rangeFirst + index };
                if (!query.needed.isEmpty() && query.needed.constLast().last.value + 1 == address.value)
                    query.needed.last().last = address;
                else
                    query.needed.append({ address, address });
            }
            query.limit = std::min(pageRows, unknown * pageRowsPerUnknownByte);
            pageRows = std::min(pageRows * 2, maxPageRows);
            QueryPage page;
            if (!engine.run(query, &page, error))
                return false;
            wasted.assign(std::size_t(spanLast - spanFirst + 1), 0);
            qsizetype deciding = 0;
            for (const Access &access : std::as_const(page.accesses)) {
                const std::uint64_t from = std::max(access.physical.value, query.first.value);
                const std::uint64_t to = std::min(access.lastByte().value, query.last.value);
                if (from > to)
                    continue;
                std::optional<AccessValue> value;
                bool read = false;
                for (std::uint64_t address = from; address <= to; ++address) {
                    const std::size_t index = std::size_t(address - rangeFirst);
                    if (decided[index]) {
                        ++wasted[index - spanFirst];
                        continue;
                    }
                    if (!read) {
                        // Only an access that decides a byte needs its value.
                        value = values.value(access.rowId);
                        read = true;
                        ++deciding;
                    }
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
            if (deciding * 16 < page.accesses.size() && depth < maxSplitDepth)
                return split(query, rangeFirst, first, last, wasted, spanFirst, decided, bytes, visit, error, depth);
        }
    }

    // Goes on with one walk per stretch of [first, last] between its most wasted bytes (at most
    // maxCuts of them, each wasted by at least 1/64 of the page `query` asked for).
    template<typename Visit>
    bool split(const HalfAxisQuery &query, std::uint64_t rangeFirst, std::uint64_t first, std::uint64_t last,
        const std::vector<quint32> &wasted, std::uint64_t spanFirst, std::vector<bool> &decided,
        QList<MemoryByte> &bytes, const Visit &visit, QString *error, int depth)
    {
        std::vector<std::uint64_t> hot;
        for (std::uint64_t index = first; index <= last; ++index) {
            if (wasted[index - spanFirst] * 64 >= query.limit)
                hot.push_back(index);
        }
        std::sort(hot.begin(), hot.end(),
            [&](std::uint64_t a, std::uint64_t b) { return wasted[a - spanFirst] > wasted[b - spanFirst]; });
        if (hot.size() > maxCuts)
            hot.resize(maxCuts);
        std::sort(hot.begin(), hot.end());
        std::uint64_t from = first;
        for (const std::uint64_t cut : hot) {
            if (cut > from && !walk(query, rangeFirst, from, cut - 1, decided, bytes, visit, error, depth + 1))
                return false;
            from = cut + 1;
        }
        return from > last || walk(query, rangeFirst, from, last, decided, bytes, visit, error, depth + 1);
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
    if (!d->walk(backward, first.value, 0, size - 1, decided, result, lastAccess, error))
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
        if (!d->walk(forward, first.value, 0, size - 1, decided, result, laterAccess, error))
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
