// SPDX-License-Identifier: MIT
#include "core/values/valuegroups.h"

#include <algorithm>
#include <atomic>

namespace memhist::valuegroups {

namespace {

std::atomic<int> testGroupShift { 0 };

constexpr std::uint32_t windowSlot(std::uint32_t window)
{
    return 65536u + ((window * 0x9e3779b1u) >> 16);
}

constexpr std::uint32_t longWindowSlot(std::uint64_t window)
{
    return 131072u + std::uint32_t((window * 0x9e3779b97f4a7c15ull) >> 48);
}

} // namespace

std::vector<std::uint32_t> slotsOf(QByteArrayView value)
{
    std::vector<std::uint32_t> found;
    std::uint64_t window = 0;
    for (qsizetype i = 0; i < value.size(); ++i) {
        window = (window << 8) | std::uint8_t(value[i]);
        if (i >= 1)
            found.push_back(std::uint32_t(window & 0xffffu));
        if (i >= 3)
            found.push_back(windowSlot(std::uint32_t(window)));
        if (i >= 7)
            found.push_back(longWindowSlot(window));
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
}

int writerGroupShift()
{
    const int shift = testGroupShift.load();
    return shift > 0 ? shift : defaultGroupShift;
}

void setGroupShiftForTests(int shift)
{
    testGroupShift.store(shift);
}

Builder::Builder(int groupShift)
    : m_groupShift(groupShift)
    , m_bits(std::size_t(slotCount) * 8, 0)
    , m_inGroup(slotCount / 64, 0)
{ }

void Builder::add(std::int64_t rowId, QByteArrayView value)
{
    if (value.size() < 2)
        return;
    const std::int64_t group = rowId >> m_groupShift;
    if (group != m_group) {
        flushGroup();
        m_group = group;
    }
    // The group's keys first go to a bitmap of 24 KiB, which stays in the processor's cache: a
    // value sets a dozen keys, a group of 16,384 values about 25,000 distinct ones.
    std::uint64_t window = 0;
    const auto set = [this](std::uint32_t slot) {
        std::uint64_t &word = m_inGroup[slot >> 6];
        const std::uint64_t mask = std::uint64_t(1) << (slot & 63);
        if (!(word & mask)) {
            word |= mask;
            m_groupSlots.push_back(slot);
        }
    };
    for (qsizetype i = 0; i < value.size(); ++i) {
        window = (window << 8) | std::uint8_t(value[i]);
        if (i >= 1)
            set(std::uint32_t(window & 0xffffu));
        if (i >= 3)
            set(windowSlot(std::uint32_t(window)));
        if (i >= 7)
            set(longWindowSlot(window));
    }
}

void Builder::flushGroup()
{
    if (m_group < 0)
        return;
    const std::int64_t span = m_group >> spanShift;
    if (span != m_span) {
        flushSpan();
        m_span = span;
    }
    const unsigned bit = unsigned(m_group & ((1 << spanShift) - 1));
    const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
    for (const std::uint32_t slot : m_groupSlots) {
        std::uint64_t *words = &m_bits[std::size_t(slot) * 8];
        if (std::all_of(words, words + 8, [](std::uint64_t w) { return w == 0; }))
            m_touched.push_back(slot);
        words[bit >> 6] |= mask;
        m_inGroup[slot >> 6] = 0;
    }
    m_groupSlots.clear();
}

void Builder::flushSpan()
{
    std::sort(m_touched.begin(), m_touched.end());
    m_rows.reserve(m_rows.size() + m_touched.size() + 1);
    for (const std::uint32_t slot : m_touched) {
        std::uint64_t *words = &m_bits[std::size_t(slot) * 8];
        Row &row = m_rows.emplace_back();
        row.key = keyOf(slot, m_span);
        for (int w = 0; w < 8; ++w) {
            for (int b = 0; b < 8; ++b)
                row.bits[std::size_t(w * 8 + b)] = char(std::uint8_t(words[w] >> (8 * b))); // little-endian words
            words[w] = 0;
        }
    }
    m_touched.clear();
}

std::vector<Builder::Row> Builder::takeRows(bool last)
{
    if (last) {
        flushGroup();
        m_group = -1;
        flushSpan();
        Row &info = m_rows.emplace_back();
        info.key = infoKey;
        info.bits[0] = char(m_groupShift);
        info.size = 1;
    }
    std::vector<Row> rows;
    rows.swap(m_rows);
    return rows;
}

} // namespace memhist::valuegroups
