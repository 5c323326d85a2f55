// SPDX-License-Identifier: MIT
// The address summary: two optional tables a memhist writer adds so that a query over a narrow
// address window visits only the slices that hold a chunk near the window instead of every slice
// (docs/database-format.md, "The address summary"). A database without them is answered by visiting every slice.
//
// address_summary(shift, block, next, checksum, postings), keyed by idx_address_summary_1 on
// (shift, block): the address space cut into blocks of 2^shift bytes, at `levels` sizes (shift =
// finest_shift + k * level_step). Block b holds addresses [b << shift, ((b + 1) << shift) - 1]
// (unsigned). Only blocks that hold a chunk appear, each with, per operation, the ids of the slices
// that have a chunk of that operation overlapping it (chunks of an operation code other than 1, 2
// and 4 are left out: no query reaches them). Consecutive blocks share a row, from the row's
// `block` up to (not including) the next row's: the writer ends a row after the block that brings
// it to row_bytes bytes, so that rows stay small next to a 16 KiB page and pack it well.
// Readers skip every slice a summary does not list, so they must notice a row changed, added or
// removed rather than answer without it. Each level therefore starts with a header row (block -1,
// no postings), each row's `next` is the block of the level's next row (levelEnd(shift) for the
// last), and `checksum` is rowChecksum() of the row's shift, block, next and postings. A reader
// walking rows down from a window's last block meets the header at the latest, and checks each
// row's checksum and that its `next` is the row it met before (for the first row it meets: past
// the window).
// address_summary_info: one row: the format version, the parameters, what the summary was built
// from (the number of slices, the largest chunk rowid), wide_postings: per operation, the slices
// with a chunk over more than max_span + 1 blocks at the finest level (such a chunk is in no
// block's posting: its slice is a candidate for that operation in every window), and checksum,
// infoChecksum() of the other columns.
//
// A row's postings: one entry per (block, operation) that holds slices, ascending:
//   varint((block - previous block) << 3 | operation index << 1 | kind)
//   varint(payload bytes) payload
// The previous block of a row's first entry is the row's block (its gap is 0); an entry of the
// same block as the one before has a larger operation index. Operation index: 0 execute (1),
// 1 write (2), 2 read (4).
// kind 0, a list: varint(first id), then varint(id - previous id - 1) for each further id.
// kind 1, a bitmap: varint(first id), then bytes: bit j of byte i is slice first + 8i + j (bit 0 of
// byte 0 and the last byte are never zero).
// Ids are slice rowids as unsigned 64-bit varints (LEB128), in ascending signed order. The builder
// writes the shorter kind (the list on a tie); wide_postings is a row of block 0, or empty.
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace memhist::addresssummary {

// The version this code writes and reads. A reader ignores a summary of any other version (it
// answers every query by visiting every slice, as without a summary).
inline constexpr int formatVersion = 1;

// The block of each level's header row.
inline constexpr std::int64_t headerBlock = -1;
// The `next` of a level's last row: 2^(64 - shift), one past its last block.
constexpr std::int64_t levelEnd(int shift)
{
    return std::int64_t(std::uint64_t(1) << (64 - shift));
}

struct Parameters
{
    // The writer's choice: 512-byte blocks (a narrow window in sparse data meets few slices), and
    // levels of 32 KiB, 2 MiB, ... so that a window up to 2^63 bytes spans at most 2^level_step
    // blocks of some level (a reader takes the finest such level).
    int finestShift = 9;
    int levelStep = 6;
    int levels = 10;
    int rowBytes = 1024;
    int maxSpan = 63;

    int shift(int level) const { return finestShift + level * levelStep; }
    // Why these parameters cannot describe a summary, or an empty string.
    QString problem() const;
    friend bool operator==(const Parameters &, const Parameters &) = default;
};

// The slice ids of one block's posting, ascending, as the codec reads them.
enum class PostingKind : std::uint8_t {
    List = 0,
    Bitmap = 1,
};

// FNV-1a (64 bits) of a row's shift, block, next (each as 8 little-endian bytes) and postings,
// stored as the signed value of the same bits.
std::int64_t rowChecksum(int shift, std::int64_t block, std::int64_t next, const QByteArray &postings);
// The same over the info row's numbers (version, the parameters, slices, last_chunk, in column
// order) and wide_postings.
std::int64_t infoChecksum(int version, const Parameters &parameters, std::int64_t slices, std::int64_t lastChunk,
    const QByteArray &widePostings);

// LEB128, as the postings store every number.
void appendVarint(QByteArray *out, std::uint64_t value);
// Reads one from data[*position, size), advancing *position; false when cut short or past 64 bits.
bool readVarint(const uchar *data, qsizetype size, qsizetype *position, std::uint64_t *value);

// The operation of an entry: index 0, 1, 2 for codes 1, 2, 4 (-1 for any other code).
constexpr int operationIndex(std::int64_t code)
{
    return code == 1 ? 0 : code == 2 ? 1 : code == 4 ? 2 : -1;
}
constexpr std::int64_t operationCode(int index)
{
    return std::int64_t(1) << index;
}
inline constexpr int operationCount = 3;

// Appends one entry (a block after the row's previous entry's block, or the row's block for the
// first; an operation index; its slice ids, strictly ascending, at least one) to a row's postings.
void appendEntry(QByteArray *postings, std::int64_t previousBlock, std::int64_t block, int operation,
    std::span<const std::int64_t> ids);

// Reads a row's postings entry by entry. Every method that can meet malformed bytes returns false
// and sets error() (what is wrong and at which byte).
class PostingsReader
{
public:
    // rowBlock: the row's key. Blocks must stay below endBlock (the next row's key, or the number
    // of blocks of the level).
    PostingsReader(const QByteArray &postings, std::int64_t rowBlock, std::uint64_t endBlock);

    // The next entry; false at the end (error() empty) or when malformed.
    bool next();
    std::int64_t block() const { return m_block; }
    int operation() const { return m_operation; } // an index: 0, 1 or 2
    PostingKind kind() const { return m_kind; }

    // Calls visit(id) for each slice id of the current entry, ascending. visit returns false to stop
    // early (forEachSlice then returns true).
    template<typename Visit> bool forEachSlice(Visit &&visit);
    // The current entry's ids, appended to *ids.
    bool slices(std::vector<std::int64_t> *ids)
    {
        return forEachSlice([ids](std::int64_t id) {
            ids->push_back(id);
            return true;
        });
    }

    const QString &error() const { return m_error; }

private:
    bool fail(const QString &problem, qsizetype at);
    bool readNumber(qsizetype *position, qsizetype end, std::uint64_t *value);

    QByteArray m_postings; // shared, not copied: keeps m_data valid
    const uchar *m_data;
    qsizetype m_size;
    std::uint64_t m_endBlock;
    qsizetype m_position = 0;
    std::int64_t m_block;
    int m_operation = operationCount; // before the first entry: any operation may follow
    PostingKind m_kind = PostingKind::List;
    qsizetype m_payload = 0;
    qsizetype m_payloadEnd = 0;
    QString m_error;
};

template<typename Visit> bool PostingsReader::forEachSlice(Visit &&visit)
{
    qsizetype position = m_payload;
    std::uint64_t first = 0;
    if (!readNumber(&position, m_payloadEnd, &first))
        return false;
    auto id = static_cast<std::int64_t>(first);
    if (m_kind == PostingKind::List) {
        if (!visit(id))
            return true;
        while (position < m_payloadEnd) {
            std::uint64_t gap = 0;
            const qsizetype at = position;
            if (!readNumber(&position, m_payloadEnd, &gap))
                return false;
            // Ids ascend in signed order: the next one must stay at or below 2^63-1.
            if (gap >= std::uint64_t(std::numeric_limits<std::int64_t>::max() - id))
                return fail(QStringLiteral("a slice id passes 2^63-1"), at);
            id += std::int64_t(gap) + 1;
            if (!visit(id))
                return true;
        }
        return true;
    }
    const qsizetype bytes = m_payloadEnd - position;
    if (bytes == 0 || !(m_data[position] & 1) || m_data[m_payloadEnd - 1] == 0)
        return fail(QStringLiteral("a bitmap must start and end with a set bit"), position);
    if (std::uint64_t(bytes) * 8 - 1 > std::uint64_t(std::numeric_limits<std::int64_t>::max() - id))
        return fail(QStringLiteral("a slice id passes 2^63-1"), position);
    for (qsizetype i = 0; i < bytes; ++i) {
        unsigned bits = m_data[position + i];
        while (bits) {
            const int bit = __builtin_ctz(bits);
            bits &= bits - 1;
            if (!visit(id + std::int64_t(i) * 8 + bit))
                return true;
        }
    }
    return true;
}

} // namespace memhist::addresssummary
