// SPDX-License-Identifier: MIT
// LEB128 variable-length integers: the summary's spool records and tile cells are mostly small
// numbers (address deltas, counts of 1), one byte each this way. Decoding is bounds-checked: a
// damaged blob in a history is reported, never read past.
#pragma once

#include <QByteArray>
#include <cstdint>

namespace memhist::summary {

inline void appendVarint(QByteArray &out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.append(char(std::uint8_t(value) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

// Reads varints from a byte range; after a read past the end or an over-long number every later
// read returns 0 and ok() is false.
class VarintReader
{
public:
    VarintReader(const char *data, qsizetype size)
        : m_data(reinterpret_cast<const std::uint8_t *>(data))
        , m_end(m_data + size)
    { }

    std::uint64_t next()
    {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_data == m_end) {
                m_ok = false;
                return 0;
            }
            const std::uint8_t byte = *m_data++;
            value |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return value;
        }
        m_ok = false;
        m_data = m_end;
        return 0;
    }

    bool ok() const { return m_ok; }
    bool atEnd() const { return m_data == m_end; }
    qsizetype remaining() const { return qsizetype(m_end - m_data); }

private:
    const std::uint8_t *m_data;
    const std::uint8_t *m_end;
    bool m_ok = true;
};

} // namespace memhist::summary
