// SPDX-License-Identifier: MIT
// Packs the values of consecutive accesses into the rows of access_value_blocks, a few bytes of
// overhead per access rather than a table row each (about 15 bytes): a recording keeps a value for
// every access, and the history must not grow by more than the values themselves.
//
// A block covers the rowids [first, last]. Its layout holds, per rowid in order, a varint head:
// 0 for an access without a value, else (value length << 2) | 2 when before bytes follow the value
// | 1 when the kernel made the access, and after a kernel head a second varint, the syscall
// number. Its bytes are each access's value, then its before bytes (as many), in the same order.
#pragma once

#include "core/values/accessvalue.h"
#include "core/values/valuefilter.h"

#include <QByteArray>
#include <optional>
#include <vector>

namespace memhist {

struct ValueBlock
{
    qint64 first = 0;
    qint64 last = 0;
    QByteArray layout;
    QByteArray bytes;
    QByteArray filter; // the value index's filter of the block (valuefilter.h)
};

class ValueBlockEncoder
{
public:
    // Adds the value of access `accessId` (rowids increasing). A block is full when it covers 256
    // rowids or holds 16 KiB; a gap of more than 64 rowids without values also starts a new one.
    // Returns the finished block, if adding this value finished one.
    std::optional<ValueBlock> add(qint64 accessId, const AccessValueView &value);
    // The block being filled, if any, finished.
    std::optional<ValueBlock> take();

private:
    static constexpr qint64 maxRowids = 256;
    static constexpr qsizetype maxBytes = 16 << 10;
    static constexpr qint64 maxGap = 64;

    std::optional<ValueBlock> m_block;
    ValueFilterBuilder m_filter;
};

// A block read back, its entries located once so that each lookup is an index.
class DecodedValueBlock
{
public:
    // False when the layout does not describe the bytes (a damaged history).
    bool decode(qint64 first, qint64 last, QByteArrayView layout, QByteArray bytes);

    qint64 first() const { return m_first; }
    qint64 last() const { return m_last; }
    bool contains(qint64 accessId) const { return accessId >= m_first && accessId <= m_last && !m_entries.empty(); }
    // The value of `accessId`, when the block holds one.
    std::optional<AccessValue> at(qint64 accessId) const;
    // The bytes `accessId` read or wrote, in place (empty when it has no value): what a value
    // search looks through, entry after entry, without copying.
    QByteArrayView bytesOf(qint64 accessId) const;

private:
    struct Entry
    {
        qsizetype offset = 0;
        quint32 length = 0; // 0: no value
        bool hasBefore = false;
        std::optional<quint32> syscall;
    };
    qint64 m_first = 0;
    qint64 m_last = -1;
    std::vector<Entry> m_entries;
    QByteArray m_bytes;
};

// A block read forward, access after access: what a pass over a whole history in rowid order
// (memhist diff) asks of it, without locating every entry of the block first.
class ValueBlockCursor
{
public:
    // False when the layout does not describe the bytes (a damaged history): then no access of
    // the block has a value, as with DecodedValueBlock. Not copied: `layout` and `bytes` must stay
    // valid until the next reset() (a row of a statement that is not stepped meanwhile).
    bool reset(qint64 first, qint64 last, QByteArrayView layout, QByteArrayView bytes);

    qint64 last() const { return m_last; } // -1 when the block is damaged
    bool contains(qint64 accessId) const { return accessId >= m_first && accessId <= m_last; }
    // The bytes `accessId` read or wrote, in place (empty when it has no value). Each call must
    // ask for a higher access than the one before.
    QByteArrayView bytesOf(qint64 accessId);

private:
    qint64 m_first = 0;
    qint64 m_last = -1;
    QByteArrayView m_layout;
    QByteArrayView m_bytes;
    qint64 m_next = 0; // the access whose head the cursor stands at
    qsizetype m_layoutAt = 0;
    qsizetype m_bytesAt = 0;
};

} // namespace memhist
