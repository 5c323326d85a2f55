// SPDX-License-Identifier: MIT
#include "core/summary/slicefragment.h"

#include "core/summary/summarylevels.h"
#include "core/summary/varint.h"

#include <algorithm>

namespace memhist::summary {

namespace {

// The three operation codes in the order records are kept: the order of the writer's chunks.
constexpr std::uint8_t codes[3] = { 1, 2, 4 };

} // namespace

bool SliceFragment::Item::operator<(const Item &other) const
{
    if (code != other.code)
        return code < other.code;
    return address != other.address ? address < other.address : size < other.size;
}

// Per operation code: the record count, then (address delta, [size], count) per record.
void SliceFragment::encodeItems(std::vector<Item> &items, bool withSize, QByteArray &out)
{
    // The writer hands its accesses over in this order already (chunk by chunk).
    if (!std::is_sorted(items.begin(), items.end()))
        std::sort(items.begin(), items.end());
    std::size_t i = 0;
    for (const std::uint8_t code : codes) {
        // Distinct records of this operation, counted, written after their number.
        QByteArray records;
        std::uint64_t distinct = 0;
        std::uint64_t previous = 0;
        while (i < items.size() && items[i].code == code) {
            std::size_t j = i + 1;
            while (j < items.size() && items[j].code == code && items[j].address == items[i].address
                && items[j].size == items[i].size)
                ++j;
            appendVarint(records, items[i].address - previous);
            previous = items[i].address;
            if (withSize)
                appendVarint(records, items[i].size);
            appendVarint(records, j - i);
            ++distinct;
            i = j;
        }
        appendVarint(out, distinct);
        out += records;
    }
}

QByteArray SliceFragment::take()
{
    QByteArray out;
    out.reserve(qsizetype(m_accesses.size() + m_chunks.size()) * 4 + 8);
    encodeItems(m_accesses, true, out);
    encodeItems(m_chunks, false, out);
    clear();
    return out;
}

bool SliceFragment::read(const QByteArray &encoded, const AccessRecord &accessRecord, const ChunkRecord &chunkRecord)
{
    VarintReader in(encoded.constData(), encoded.size());
    for (int part = 0; part < 2; ++part) {
        for (const std::uint8_t code : codes) {
            const std::uint64_t records = in.next();
            if (!in.ok() || records > std::uint64_t(encoded.size()))
                return false;
            std::uint64_t address = 0;
            for (std::uint64_t r = 0; r < records && in.ok(); ++r) {
                address += in.next();
                if (part == 0) {
                    const std::uint64_t size = in.next();
                    const std::uint64_t count = in.next();
                    if (size > 0xffffffffu)
                        return false;
                    if (in.ok())
                        accessRecord(code, address, std::uint32_t(size), count);
                } else {
                    const std::uint64_t count = in.next();
                    if (in.ok())
                        chunkRecord(code, address, count);
                }
            }
        }
    }
    return in.ok() && in.atEnd();
}

} // namespace memhist::summary
