// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/crc32c.h"

#include <array>

namespace memhist::drmemtrace {

namespace {

// The reflected Castagnoli polynomial.
constexpr quint32 polynomial = 0x82f63b78u;

// Eight tables so that the loop consumes eight bytes per step ("slicing by 8"): a chunk of the
// framing format is at most 64 KiB and every decompressed byte is checked, so this runs often.
using Tables = std::array<std::array<quint32, 256>, 8>;

constexpr Tables makeTables()
{
    Tables tables {};
    for (quint32 byte = 0; byte < 256; ++byte) {
        quint32 crc = byte;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? (crc >> 1) ^ polynomial : crc >> 1;
        tables[0][byte] = crc;
    }
    for (quint32 byte = 0; byte < 256; ++byte) {
        for (int t = 1; t < 8; ++t)
            tables[t][byte] = (tables[t - 1][byte] >> 8) ^ tables[0][tables[t - 1][byte] & 0xff];
    }
    return tables;
}

constexpr Tables tables = makeTables();

} // namespace

quint32 crc32c(const char *data, qsizetype size)
{
    const auto *bytes = reinterpret_cast<const uchar *>(data);
    quint32 crc = 0xffffffffu;
    while (size >= 8) {
        const quint32 low
            = crc ^ (quint32(bytes[0]) | quint32(bytes[1]) << 8 | quint32(bytes[2]) << 16 | quint32(bytes[3]) << 24);
        crc = tables[7][low & 0xff] ^ tables[6][(low >> 8) & 0xff] ^ tables[5][(low >> 16) & 0xff]
            ^ tables[4][low >> 24] ^ tables[3][bytes[4]] ^ tables[2][bytes[5]] ^ tables[1][bytes[6]]
            ^ tables[0][bytes[7]];
        bytes += 8;
        size -= 8;
    }
    while (size-- > 0)
        crc = (crc >> 8) ^ tables[0][(crc ^ *bytes++) & 0xff];
    return crc ^ 0xffffffffu;
}

} // namespace memhist::drmemtrace
