// SPDX-License-Identifier: MIT
// CRC-32C (Castagnoli), as the snappy framing format checks each chunk with, and its "masked"
// form (the format stores a rotated, offset CRC so that a CRC over data holding CRCs stays strong).
#pragma once

#include <QtGlobal>

namespace memhist::drmemtrace {

quint32 crc32c(const char *data, qsizetype size);

constexpr quint32 maskCrc32c(quint32 crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

} // namespace memhist::drmemtrace
