// SPDX-License-Identifier: MIT
#include "core/storage/addresssummaryformat.h"

namespace memhist::addresssummary {

namespace {

int varintBytes(std::uint64_t value)
{
    int bytes = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++bytes;
    }
    return bytes;
}

constexpr std::uint64_t fnvOffset = 0xcbf29ce484222325ull;
constexpr std::uint64_t fnvPrime = 0x100000001b3ull;

void hashBytes(std::uint64_t *hash, const char *data, qsizetype size)
{
    for (qsizetype i = 0; i < size; ++i) {
        *hash ^= uchar(data[i]);
        *hash *= fnvPrime;
    }
}

void hashNumber(std::uint64_t *hash, std::int64_t value)
{
    const auto bits = std::uint64_t(value);
    for (int byte = 0; byte < 8; ++byte) {
        *hash ^= (bits >> (8 * byte)) & 0xff;
        *hash *= fnvPrime;
    }
}

} // namespace

std::int64_t rowChecksum(int shift, std::int64_t block, std::int64_t next, const QByteArray &postings)
{
    std::uint64_t hash = fnvOffset;
    hashNumber(&hash, shift);
    hashNumber(&hash, block);
    hashNumber(&hash, next);
    hashBytes(&hash, postings.constData(), postings.size());
    return std::int64_t(hash);
}

std::int64_t infoChecksum(int version, const Parameters &parameters, std::int64_t slices, std::int64_t lastChunk,
    const QByteArray &widePostings)
{
    std::uint64_t hash = fnvOffset;
    for (const std::int64_t number : { std::int64_t(version), std::int64_t(parameters.finestShift),
             std::int64_t(parameters.levelStep), std::int64_t(parameters.levels), std::int64_t(parameters.rowBytes),
             std::int64_t(parameters.maxSpan), slices, lastChunk })
        hashNumber(&hash, number);
    hashBytes(&hash, widePostings.constData(), widePostings.size());
    return std::int64_t(hash);
}

void appendVarint(QByteArray *out, std::uint64_t value)
{
    while (value >= 0x80) {
        out->append(char(0x80 | (value & 0x7f)));
        value >>= 7;
    }
    out->append(char(value));
}

bool readVarint(const uchar *data, qsizetype size, qsizetype *position, std::uint64_t *value)
{
    std::uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*position >= size)
            return false;
        const uchar byte = data[(*position)++];
        // The tenth byte may only hold the top bit of a 64-bit value.
        if (shift == 63 && byte > 1)
            return false;
        result |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return true;
        }
    }
    return false;
}

QString Parameters::problem() const
{
    if (finestShift < 2 || finestShift > 63)
        return QStringLiteral("finest_shift %1 is not in [2, 63]").arg(finestShift);
    if (levelStep < 1 || levelStep > 62)
        return QStringLiteral("level_step %1 is not in [1, 62]").arg(levelStep);
    if (levels < 1 || shift(levels - 1) > 63)
        return QStringLiteral("%1 levels from shift %2 in steps of %3 pass shift 63")
            .arg(levels)
            .arg(finestShift)
            .arg(levelStep);
    if (rowBytes < 1 || rowBytes > 65536)
        return QStringLiteral("row_bytes %1 is not in [1, 65536]").arg(rowBytes);
    if (maxSpan < 0 || maxSpan > 65535)
        return QStringLiteral("max_span %1 is not in [0, 65535]").arg(maxSpan);
    return {};
}

void appendEntry(QByteArray *postings, std::int64_t previousBlock, std::int64_t block, int operation,
    std::span<const std::int64_t> ids)
{
    const auto first = std::uint64_t(ids.front());
    const std::uint64_t range = std::uint64_t(ids.back()) - first; // ids ascend: the last is the largest
    qsizetype listBytes = varintBytes(first);
    for (std::size_t i = 1; i < ids.size(); ++i)
        listBytes += varintBytes(std::uint64_t(ids[i]) - std::uint64_t(ids[i - 1]) - 1);
    const bool bitmap = range / 8 + 1 < std::uint64_t(listBytes - varintBytes(first));
    const auto kind = bitmap ? PostingKind::Bitmap : PostingKind::List;
    appendVarint(
        postings, std::uint64_t(block - previousBlock) << 3 | std::uint64_t(operation) << 1 | std::uint64_t(kind));
    if (!bitmap) {
        appendVarint(postings, std::uint64_t(listBytes));
        appendVarint(postings, first);
        for (std::size_t i = 1; i < ids.size(); ++i)
            appendVarint(postings, std::uint64_t(ids[i]) - std::uint64_t(ids[i - 1]) - 1);
        return;
    }
    const auto bitmapBytes = qsizetype(range / 8 + 1);
    appendVarint(postings, std::uint64_t(varintBytes(first) + bitmapBytes));
    appendVarint(postings, first);
    const qsizetype start = postings->size();
    postings->append(bitmapBytes, '\0');
    char *bits = postings->data() + start;
    for (const std::int64_t id : ids) {
        const std::uint64_t bit = std::uint64_t(id) - first;
        bits[bit / 8] = char(bits[bit / 8] | (1 << (bit % 8)));
    }
}

PostingsReader::PostingsReader(const QByteArray &postings, std::int64_t rowBlock, std::uint64_t endBlock)
    : m_postings(postings)
    , m_data(reinterpret_cast<const uchar *>(m_postings.constData()))
    , m_size(m_postings.size())
    , m_endBlock(endBlock)
    , m_block(rowBlock)
{ }

bool PostingsReader::fail(const QString &problem, qsizetype at)
{
    m_error = QStringLiteral("%1 (byte %2 of %3)").arg(problem).arg(at).arg(m_size);
    return false;
}

bool PostingsReader::readNumber(qsizetype *position, qsizetype end, std::uint64_t *value)
{
    const qsizetype start = *position;
    if (readVarint(m_data, end, position, value))
        return true;
    return fail(
        *position >= end ? QStringLiteral("a number is cut short") : QStringLiteral("a number passes 64 bits"), start);
}

bool PostingsReader::next()
{
    if (m_position >= m_size)
        return false;
    const qsizetype start = m_position;
    std::uint64_t header = 0;
    if (!readNumber(&m_position, m_size, &header))
        return false;
    const std::uint64_t gap = header >> 3;
    const int operation = int(header >> 1 & 3);
    if (operation >= operationCount)
        return fail(QStringLiteral("operation index 3 is none of 0, 1, 2"), start);
    // Entries ascend by (block, operation), from the row's own block and below the end.
    if (gap == 0 && operation <= m_operation && start > 0)
        return fail(QStringLiteral("an entry does not come after the one before it"), start);
    if (start == 0 && gap != 0)
        return fail(QStringLiteral("the first entry is not of the row's block"), start);
    if (gap >= m_endBlock - std::uint64_t(m_block))
        return fail(QStringLiteral("an entry passes the row's end, block %1").arg(m_endBlock), start);
    m_block += std::int64_t(gap);
    m_operation = operation;
    m_kind = PostingKind(header & 1);
    std::uint64_t length = 0;
    const qsizetype lengthAt = m_position;
    if (!readNumber(&m_position, m_size, &length))
        return false;
    if (length == 0 || length > std::uint64_t(m_size - m_position))
        return fail(QStringLiteral("a posting of %1 bytes does not fit").arg(length), lengthAt);
    m_payload = m_position;
    m_payloadEnd = m_position + qsizetype(length);
    m_position = m_payloadEnd;
    return true;
}

} // namespace memhist::addresssummary
