// SPDX-License-Identifier: MIT
#include "core/summary/tilecodec.h"

#include "core/summary/varint.h"

#include <zlib.h>

namespace memhist::summary {

namespace {

// zlib's default trade-off: level 1 makes the pyramid ~10 % larger for little time saved.
constexpr int compressionLevel = 6;
// A block has at most 2^blockShift cells of at most 3 x 2 counts: anything claiming more raw bytes
// than this is damage, not a reason to allocate.
constexpr std::uint64_t maxRawBytes = (std::uint64_t(1) << blockShift) * 64 + 64;

QByteArray columns(std::span<const Cell> cells)
{
    QByteArray deltas;
    QByteArray masks;
    QByteArray counts;
    deltas.reserve(qsizetype(cells.size()) * 2);
    masks.reserve(qsizetype(cells.size()));
    counts.reserve(qsizetype(cells.size()) * 2);
    std::int64_t previous = -1;
    for (const Cell &cell : cells) {
        unsigned mask = 0;
        for (int op = 0; op < operationSlots; ++op) {
            if (cell.accesses[op] != 0 || cell.chunks[op] != 0)
                mask |= 1u << op;
        }
        appendVarint(deltas, std::uint64_t(std::int64_t(cell.bin) - previous - 1));
        previous = cell.bin;
        masks.append(char(mask));
        for (int op = 0; op < operationSlots; ++op) {
            if (!(mask & (1u << op)))
                continue;
            const std::uint64_t chunks = cell.chunks[op];
            appendVarint(counts, std::uint64_t(cell.accesses[op]) * 3 + std::min<std::uint64_t>(chunks, 2) - 1);
            if (chunks >= 2)
                appendVarint(counts, chunks - 2);
        }
    }
    QByteArray raw;
    raw.reserve(deltas.size() + masks.size() + counts.size() + 16);
    appendVarint(raw, cells.size());
    appendVarint(raw, std::uint64_t(deltas.size()));
    raw += deltas;
    raw += masks;
    raw += counts;
    return raw;
}

} // namespace

// Raw deflate streams (no zlib header, no checksum): the summary is in an SQLite file that has its
// own integrity checks, and a block is too small to pay six bytes for its own.
QByteArray encodeCells(std::span<const Cell> cells)
{
    const QByteArray raw = columns(cells);
    QByteArray out;
    appendVarint(out, std::uint64_t(raw.size()));
    const qsizetype header = out.size();
    z_stream stream {};
    deflateInit2(&stream, compressionLevel, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    out.resize(header + qsizetype(deflateBound(&stream, uLong(raw.size()))));
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.constData()));
    stream.avail_in = uInt(raw.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data() + header);
    stream.avail_out = uInt(out.size() - header);
    deflate(&stream, Z_FINISH);
    out.resize(header + qsizetype(stream.total_out));
    deflateEnd(&stream);
    return out;
}

namespace {

// Inflates `size` bytes at `data` into exactly `rawSize` bytes of `raw`.
bool inflateRaw(const char *data, qsizetype size, QByteArray &raw, std::uint64_t rawSize)
{
    raw.resize(qsizetype(rawSize));
    z_stream stream {};
    if (inflateInit2(&stream, -15) != Z_OK)
        return false;
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data));
    stream.avail_in = uInt(size);
    stream.next_out = reinterpret_cast<Bytef *>(raw.data());
    stream.avail_out = uInt(rawSize);
    const int rc = inflate(&stream, Z_FINISH);
    const bool ok = rc == Z_STREAM_END && stream.total_out == rawSize;
    inflateEnd(&stream);
    return ok;
}

// A varint at `p` (below `end`), or false.
inline bool nextVarint(const std::uint8_t *&p, const std::uint8_t *end, std::uint64_t &value)
{
    value = 0;
    for (int shift = 0; shift < 64 && p < end; shift += 7) {
        const std::uint8_t byte = *p++;
        value |= std::uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

} // namespace

bool decodeCells(const char *data, qsizetype size, std::uint32_t binCount, std::vector<Cell> *cells)
{
    VarintReader header(data, size);
    const std::uint64_t rawSize = header.next();
    if (!header.ok() || rawSize > maxRawBytes)
        return false;
    thread_local QByteArray raw;
    if (!inflateRaw(data + (size - header.remaining()), header.remaining(), raw, rawSize))
        return false;

    const auto *p = reinterpret_cast<const std::uint8_t *>(raw.constData());
    const auto *end = p + raw.size();
    std::uint64_t count = 0;
    std::uint64_t deltaBytes = 0;
    if (!nextVarint(p, end, count) || !nextVarint(p, end, deltaBytes) || count > std::uint64_t(end - p)
        || deltaBytes + count > std::uint64_t(end - p))
        return false;
    const std::uint8_t *deltas = p;
    const std::uint8_t *deltasEnd = p + deltaBytes;
    const std::uint8_t *masks = deltasEnd;
    const std::uint8_t *counts = masks + count;

    const std::size_t start = cells->size();
    cells->resize(start + std::size_t(count));
    Cell *out = cells->data() + start;
    std::uint64_t next = 0; // the lowest bin the next cell may have
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t delta = 0;
        const unsigned mask = masks[i];
        if (!nextVarint(deltas, deltasEnd, delta) || mask == 0 || mask > 7 || delta >= binCount
            || next + delta >= binCount) {
            cells->resize(start);
            return false;
        }
        Cell &cell = out[i];
        cell = Cell {};
        cell.bin = std::uint32_t(next + delta);
        next = std::uint64_t(cell.bin) + 1;
        for (int op = 0; op < operationSlots; ++op) {
            if (!(mask & (1u << op)))
                continue;
            std::uint64_t v = 0;
            if (!nextVarint(counts, end, v)) {
                cells->resize(start);
                return false;
            }
            ++v;
            const std::uint64_t chunkCode = v % 3;
            cell.accesses[op] = saturatingAdd(0, v / 3);
            if (chunkCode < 2) {
                cell.chunks[op] = std::uint32_t(chunkCode);
            } else {
                std::uint64_t chunks = 0;
                if (!nextVarint(counts, end, chunks)) {
                    cells->resize(start);
                    return false;
                }
                cell.chunks[op] = saturatingAdd(0, chunks + 2);
            }
        }
    }
    if (counts != end || deltas != deltasEnd) {
        cells->resize(start);
        return false;
    }
    return true;
}

} // namespace memhist::summary
