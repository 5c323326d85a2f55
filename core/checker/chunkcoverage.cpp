// SPDX-License-Identifier: MIT
#include "core/checker/chunkcoverage.h"

#include <algorithm>

namespace memhist {

void ChunkCoverage::add(std::uint64_t first, std::uint64_t last)
{
    m_ranges.push_back({ first, last });
    if (m_ranges.size() >= m_compactAt) {
        compact();
        m_compactAt = std::max<std::size_t>(8, 2 * m_ranges.size());
    }
}

void ChunkCoverage::compact()
{
    if (m_ranges.empty())
        return;
    std::sort(
        m_ranges.begin(), m_ranges.end(), [](const ByteRange &a, const ByteRange &b) { return a.first < b.first; });
    std::size_t kept = 0;
    for (std::size_t i = 1; i < m_ranges.size(); ++i) {
        ByteRange &run = m_ranges[kept];
        const ByteRange &next = m_ranges[i];
        // Touching ranges merge too (next.first == run.last + 1), written so that a run ending at
        // 2^64-1 cannot overflow: next.first - 1 is only evaluated when next.first > run.last >= 0.
        if (next.first <= run.last || next.first - 1 == run.last)
            run.last = std::max(run.last, next.last);
        else
            m_ranges[++kept] = next;
    }
    m_ranges.resize(kept + 1);
}

std::optional<ByteRange> ChunkCoverage::firstHole(std::uint64_t first, std::uint64_t last)
{
    compact();
    // cursor: the lowest byte of [first, last] not yet known to be covered; cursor <= last holds
    // throughout, so cursor + 1 and run.first - 1 below cannot wrap.
    std::uint64_t cursor = first;
    for (const ByteRange &run : m_ranges) {
        if (run.last < cursor)
            continue;
        if (run.first > cursor)
            return ByteRange { cursor, std::min(run.first - 1, last) };
        if (run.last >= last)
            return std::nullopt;
        cursor = run.last + 1;
    }
    return ByteRange { cursor, last };
}

} // namespace memhist
