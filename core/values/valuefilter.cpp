// SPDX-License-Identifier: MIT
#include "core/values/valuefilter.h"

#include <algorithm>
#include <bit>

namespace memhist {

namespace {

// The two Bloom probes of a pair in a filter of 2^bits bits: multiplicative hashes with odd
// constants, taking the top bits (the pair plus one, so that the pair 0 does not hash to 0).
std::uint32_t probe(std::uint16_t pair, std::uint32_t multiplier, int bits)
{
    return ((std::uint32_t(pair) + 1u) * multiplier) >> (32 - bits);
}
constexpr std::uint32_t firstMultiplier = 0x9e3779b1u;
constexpr std::uint32_t secondMultiplier = 0x85ebca6bu;

void setBit(QByteArray &filter, qsizetype offset, std::uint32_t bit)
{
    filter[offset + qsizetype(bit >> 3)] = char(std::uint8_t(filter[offset + qsizetype(bit >> 3)]) | (1u << (bit & 7)));
}

bool testBit(QByteArrayView filter, qsizetype offset, std::uint32_t bit)
{
    return (std::uint8_t(filter[offset + qsizetype(bit >> 3)]) >> (bit & 7)) & 1u;
}

// Smallest and largest Bloom filters, in bytes (powers of two).
constexpr qsizetype smallestBloom = 8;
constexpr qsizetype largestBloom = ValueFilter::exactPairMapSize / 2;

} // namespace

void ValueFilterBuilder::add(QByteArrayView value)
{
    for (qsizetype i = 0; i < value.size(); ++i) {
        const std::uint8_t byte = std::uint8_t(value[i]);
        m_bytes[byte >> 6] |= std::uint64_t(1) << (byte & 63);
        if (i > 0)
            m_pairs.push_back(std::uint16_t((std::uint8_t(value[i - 1]) << 8) | byte));
    }
}

QByteArray ValueFilterBuilder::take()
{
    std::sort(m_pairs.begin(), m_pairs.end());
    m_pairs.erase(std::unique(m_pairs.begin(), m_pairs.end()), m_pairs.end());

    QByteArray filter(ValueFilter::byteMapSize, '\0');
    for (int word = 0; word < 4; ++word) {
        for (int bit = 0; bit < 64; ++bit) {
            if ((m_bytes[word] >> bit) & 1u)
                setBit(filter, 0, std::uint32_t(word * 64 + bit));
        }
    }
    if (!m_pairs.empty()) {
        // 4 bits per pair, rounded up to a power of two; past the largest Bloom filter the exact
        // map is no larger.
        const qsizetype wanted = qsizetype(std::bit_ceil(std::max<std::size_t>(m_pairs.size() / 2, smallestBloom)));
        if (wanted > largestBloom) {
            filter.append(ValueFilter::exactPairMapSize, '\0');
            for (const std::uint16_t pair : m_pairs)
                setBit(filter, ValueFilter::byteMapSize, pair);
        } else {
            filter.append(wanted, '\0');
            const int bits = std::countr_zero(std::uint32_t(wanted * 8));
            for (const std::uint16_t pair : m_pairs) {
                setBit(filter, ValueFilter::byteMapSize, probe(pair, firstMultiplier, bits));
                setBit(filter, ValueFilter::byteMapSize, probe(pair, secondMultiplier, bits));
            }
        }
    }
    std::fill(std::begin(m_bytes), std::end(m_bytes), 0);
    m_pairs.clear();
    return filter;
}

bool ValueFilter::read(QByteArrayView filter)
{
    m_filter = {};
    if (filter.size() < byteMapSize)
        return false;
    const qsizetype pairs = filter.size() - byteMapSize;
    if (pairs != 0 && pairs != exactPairMapSize
        && (pairs < smallestBloom || pairs > largestBloom || !std::has_single_bit(std::size_t(pairs))))
        return false;
    m_filter = filter;
    return true;
}

bool ValueFilter::hasPair(std::uint16_t pair) const
{
    const qsizetype size = m_filter.size() - byteMapSize;
    if (size == 0)
        return false;
    if (size == exactPairMapSize)
        return testBit(m_filter, byteMapSize, pair);
    const int bits = std::countr_zero(std::uint32_t(size * 8));
    return testBit(m_filter, byteMapSize, probe(pair, firstMultiplier, bits))
        && testBit(m_filter, byteMapSize, probe(pair, secondMultiplier, bits));
}

bool ValueFilter::mayContain(QByteArrayView needle) const
{
    if (m_filter.isEmpty())
        return true;
    for (qsizetype i = 0; i < needle.size(); ++i) {
        if (!testBit(m_filter, 0, std::uint8_t(needle[i])))
            return false;
        if (i > 0 && !hasPair(std::uint16_t((std::uint8_t(needle[i - 1]) << 8) | std::uint8_t(needle[i]))))
            return false;
    }
    return true;
}

} // namespace memhist
