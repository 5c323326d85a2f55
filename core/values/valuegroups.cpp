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
{ }

void Builder::add(std::int64_t rowId, QByteArrayView value)
{
    if (value.size() < 2)
        return;
    const std::int64_t group = rowId >> m_groupShift;
    const std::int64_t span = group >> spanShift;
    if (span != m_span) {
        flushSpan();
        m_span = span;
    }
    const unsigned bit = unsigned(group & ((1 << spanShift) - 1));
    const std::size_t word = bit >> 6;
    const std::uint64_t mask = std::uint64_t(1) << (bit & 63);
    std::uint64_t window = 0;
    const auto set = [&](std::uint32_t slot) {
        std::uint64_t *words = &m_bits[std::size_t(slot) * 8];
        if (words[word] & mask)
            return;
        if (std::all_of(words, words + 8, [](std::uint64_t w) { return w == 0; }))
            m_touched.push_back(slot);
        words[word] |= mask;
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

void Builder::flushSpan()
{
    std::sort(m_touched.begin(), m_touched.end());
    for (const std::uint32_t slot : m_touched) {
        std::uint64_t *words = &m_bits[std::size_t(slot) * 8];
        QByteArray bits(spanBytes, Qt::Uninitialized);
        for (int w = 0; w < 8; ++w) {
            for (int b = 0; b < 8; ++b)
                bits[w * 8 + b] = char(std::uint8_t(words[w] >> (8 * b))); // little-endian words
            words[w] = 0;
        }
        m_rows.push_back({ keyOf(slot, m_span), bits });
    }
    m_touched.clear();
}

std::vector<Builder::Row> Builder::takeRows(bool last)
{
    if (last) {
        flushSpan();
        m_rows.push_back({ infoKey, QByteArray(1, char(m_groupShift)) });
    }
    std::vector<Row> rows;
    rows.swap(m_rows);
    return rows;
}

} // namespace memhist::valuegroups
