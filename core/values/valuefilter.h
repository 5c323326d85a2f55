// SPDX-License-Identifier: MIT
// The value index: one filter per value block (valueblock.h), written beside it, that says which
// values the block cannot contain, so that a value search over a whole history decodes only the
// blocks that may hold it (`memhist search`, core/search/valuesearch.h).
//
// A filter is the set of bytes the block's values hold (a 256-bit map, exact) and the set of their
// byte pairs (each two neighbouring bytes of one value): exact (a 65,536-bit map) when the block
// holds so many pairs that a Bloom filter would be as large, else a Bloom filter of 4 bits per
// distinct pair with two probes (about one false "maybe" in six per pair; a 4-byte value needs
// three pairs to pass, an 8-byte one seven). Sized by the block's distinct pairs, it costs about
// half a byte per value byte, at most 8 KiB per block of up to 256 accesses.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <cstdint>
#include <vector>

namespace memhist {

class ValueFilterBuilder
{
public:
    // Adds one access's value (its bytes as read or written; before bytes are not searched).
    void add(QByteArrayView value);
    // The filter of everything added since the last take(), and a fresh start.
    QByteArray take();

private:
    std::uint64_t m_bytes[4] = {};
    std::vector<std::uint16_t> m_pairs;
};

// A stored filter, read in place.
class ValueFilter
{
public:
    // False when `filter` is not a filter's shape (a damaged history): search then decodes the
    // block as if it had none.
    bool read(QByteArrayView filter);
    // False when no value of the block can contain `needle` (non-empty); true when one may.
    bool mayContain(QByteArrayView needle) const;

    // The filter's bytes: the byte map, then the pair map or Bloom filter.
    static constexpr qsizetype byteMapSize = 32;
    static constexpr qsizetype exactPairMapSize = 65536 / 8;

private:
    bool hasPair(std::uint16_t pair) const;

    QByteArrayView m_filter;
};

} // namespace memhist
