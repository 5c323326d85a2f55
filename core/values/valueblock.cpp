// SPDX-License-Identifier: MIT
#include "core/values/valueblock.h"

#include "core/summary/varint.h"

namespace memhist {

std::optional<ValueBlock> ValueBlockEncoder::add(qint64 accessId, const AccessValueView &value)
{
    std::optional<ValueBlock> finished;
    if (m_block
        && (accessId - m_block->first >= maxRowids || accessId - m_block->last > maxGap
            || m_block->bytes.size() >= maxBytes)) {
        finished = take();
    }
    if (!m_block) {
        m_block = ValueBlock { accessId, accessId - 1, {}, {}, {} };
    }
    for (qint64 missing = m_block->last + 1; missing < accessId; ++missing)
        m_block->layout.append('\0');
    const bool hasBefore = !value.before.isEmpty() && value.before.size() == value.bytes.size();
    summary::appendVarint(m_block->layout,
        (std::uint64_t(value.bytes.size()) << 2) | (hasBefore ? 2 : 0) | (value.kernelSyscall ? 1 : 0));
    if (value.kernelSyscall)
        summary::appendVarint(m_block->layout, *value.kernelSyscall);
    m_block->bytes.append(value.bytes);
    m_filter.add(value.bytes);
    if (hasBefore)
        m_block->bytes.append(value.before);
    m_block->last = accessId;
    return finished;
}

std::optional<ValueBlock> ValueBlockEncoder::take()
{
    std::optional<ValueBlock> block;
    block.swap(m_block);
    if (block)
        block->filter = m_filter.take();
    return block;
}

bool DecodedValueBlock::decode(qint64 first, qint64 last, QByteArrayView layout, QByteArray bytes)
{
    m_entries.clear();
    m_first = first;
    m_last = -1;
    if (last < first || last - first >= (1 << 20))
        return false;
    m_entries.reserve(std::size_t(last - first + 1));
    summary::VarintReader reader(layout.data(), layout.size());
    qsizetype offset = 0;
    for (qint64 id = first; id <= last; ++id) {
        const std::uint64_t head = reader.next();
        Entry entry;
        entry.offset = offset;
        entry.length = quint32(std::min<std::uint64_t>(head >> 2, 0xffffffffu));
        entry.hasBefore = (head & 2) != 0;
        if (head & 1)
            entry.syscall = quint32(reader.next());
        const std::uint64_t size = std::uint64_t(entry.length) * (entry.hasBefore ? 2 : 1);
        if (!reader.ok() || size > std::uint64_t(bytes.size() - offset))
            return false;
        offset += qsizetype(size);
        m_entries.push_back(entry);
    }
    if (!reader.atEnd() || offset != bytes.size()) {
        m_entries.clear();
        return false;
    }
    m_last = last;
    m_bytes = std::move(bytes);
    return true;
}

QByteArrayView DecodedValueBlock::bytesOf(qint64 accessId) const
{
    if (!contains(accessId))
        return {};
    const Entry &entry = m_entries[std::size_t(accessId - m_first)];
    return QByteArrayView(m_bytes).sliced(entry.offset, entry.length);
}

std::optional<AccessValue> DecodedValueBlock::at(qint64 accessId) const
{
    if (!contains(accessId))
        return std::nullopt;
    const Entry &entry = m_entries[std::size_t(accessId - m_first)];
    if (entry.length == 0)
        return std::nullopt;
    AccessValue value;
    value.bytes = m_bytes.sliced(entry.offset, entry.length);
    if (entry.hasBefore)
        value.before = m_bytes.sliced(entry.offset + entry.length, entry.length);
    value.kernelSyscall = entry.syscall;
    return value;
}

namespace {

// One entry's head: its value's length, and how many bytes it holds (the value, and as many
// before bytes when it has them). Advances `reader` past the head and any syscall number.
struct EntryHead
{
    std::uint64_t length = 0;
    std::uint64_t stored = 0;
};

EntryHead readHead(summary::VarintReader &reader)
{
    const std::uint64_t head = reader.next();
    if (head & 1)
        reader.next(); // the syscall
    const std::uint64_t length = std::min<std::uint64_t>(head >> 2, 0xffffffffu);
    return { length, (head & 2) ? 2 * length : length };
}

} // namespace

bool ValueBlockCursor::reset(qint64 first, qint64 last, QByteArrayView layout, QByteArrayView bytes)
{
    m_first = first;
    m_last = -1;
    if (last < first || last - first >= (1 << 20))
        return false;
    // The same checks as DecodedValueBlock::decode, without keeping the entries.
    summary::VarintReader reader(layout.data(), layout.size());
    std::uint64_t offset = 0;
    for (qint64 id = first; id <= last; ++id) {
        const EntryHead head = readHead(reader);
        if (!reader.ok() || head.stored > std::uint64_t(bytes.size()) - offset)
            return false;
        offset += head.stored;
    }
    if (!reader.atEnd() || offset != std::uint64_t(bytes.size()))
        return false;
    m_layout = layout;
    m_bytes = bytes;
    m_last = last;
    m_next = first;
    m_layoutAt = 0;
    m_bytesAt = 0;
    return true;
}

QByteArrayView ValueBlockCursor::bytesOf(qint64 accessId)
{
    if (!contains(accessId) || accessId < m_next)
        return {};
    // The layout was checked whole by reset(): every head is there and its bytes too.
    summary::VarintReader reader(m_layout.data() + m_layoutAt, m_layout.size() - m_layoutAt);
    qsizetype offset = m_bytesAt;
    EntryHead head;
    for (;;) {
        head = readHead(reader);
        if (m_next++ == accessId)
            break;
        offset += qsizetype(head.stored);
    }
    m_layoutAt = m_layout.size() - reader.remaining();
    m_bytesAt = offset + qsizetype(head.stored);
    return m_bytes.sliced(offset, qsizetype(head.length));
}

} // namespace memhist
