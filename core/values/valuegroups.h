// SPDX-License-Identifier: MIT
// The value index's second level, over the per-block filters (valuefilter.h): for each byte pair
// (exact), each 4-byte and each 8-byte window (hashed to 16 bits each) a value may hold, which
// groups of 2^14 rowids hold a value with it. (Pairs and 4-byte windows alone let through 8-byte
// values made of common parts, two small integers side by side, in every group.) Stored transposed, a row per key (the
// pair or window, and a span of 512 groups) with one bit per group, so that a search over a whole history reads a few
// rows per span for its value's pairs and windows, not every block's filter: at 10^8 accesses the filters are 110 MB,
// the rows a value needs a few KiB. A value that none of the group's values could contain skips its 2^14 rowids at
// once; the blocks of the other groups are tested against their filters as before. A group holds about 7,000 distinct
// pairs and 10,000 4-byte windows; a span of 2^23 rowids touches nearly every key, so the rows cost about 2 bytes per
// access.
//
// Optional (histories written before it have none, and are searched through their filters alone).
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <array>
#include <cstdint>
#include <vector>

namespace memhist::valuegroups {

// Rowids per group: 2^groupShift. Stored in the table (the row infoKey), so that tests can write
// histories with small groups (setGroupShiftForTests) and searches read what was written.
inline constexpr int defaultGroupShift = 14;
// Groups per span (a row's bits): 512, 64 bytes.
inline constexpr int spanShift = 9;
inline constexpr qsizetype spanBytes = (1 << spanShift) / 8;
// Keys: a pair's is the pair (0..65535), a 4-byte window's 65536 + its hash, an 8-byte window's
// 131072 + its hash; then the span.
inline constexpr std::uint32_t slotCount = 3u << 16;
inline constexpr std::int64_t infoKey = -1; // one byte: the group shift

inline std::int64_t keyOf(std::uint32_t slot, std::int64_t span)
{
    return (std::int64_t(slot) << 32) | span;
}

// The slots a value (or a needle) holds: its byte pairs, 4-byte and 8-byte windows, sorted and
// once each. Empty for one byte (a needle of one byte is not ruled out by groups).
std::vector<std::uint32_t> slotsOf(QByteArrayView value);

// The group shift the writer uses: defaultGroupShift, unless a test set another (0: the default).
int writerGroupShift();
void setGroupShiftForTests(int shift);

// Collects the values of a history being written, in rowid order, into the rows of its spans.
class Builder
{
public:
    explicit Builder(int groupShift = writerGroupShift());

    struct Row
    {
        std::int64_t key = 0;
        // A span's bits (spanBytes; the info row: its first byte), in place: a span has a row for
        // nearly every key, and a QByteArray each would add 60 bytes of overhead to each of them.
        std::array<char, spanBytes> bits {};
        std::uint8_t size = spanBytes;

        QByteArrayView bytes() const { return QByteArrayView(bits.data(), size); }
    };
    // Adds the value of rowid `rowId` (increasing; equal allowed).
    void add(std::int64_t rowId, QByteArrayView value);
    // The rows of the spans finished so far; with `last`, of every span (after the last value),
    // and the info row.
    std::vector<Row> takeRows(bool last);

    int groupShift() const { return m_groupShift; }

private:
    void flushGroup();
    void flushSpan();

    int m_groupShift;
    std::int64_t m_span = -1;
    std::vector<std::uint64_t> m_bits; // slotCount × 8 words, for the current span
    std::vector<std::uint32_t> m_touched; // the slots with a bit in the current span
    std::int64_t m_group = -1;
    std::vector<std::uint64_t> m_inGroup; // slotCount bits: the keys of the current group
    std::vector<std::uint32_t> m_groupSlots; // the same, listed
    std::vector<Row> m_rows;
};

} // namespace memhist::valuegroups
