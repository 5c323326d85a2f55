// SPDX-License-Identifier: MIT
#include "core/summary/summarylevels.h"

#include <cmath>

namespace memhist::summary {

namespace {

// floor(low) and ceil(high) - 1 as bins in [0, maxBin], the second at least the first.
BinRange toBins(double low, double high, std::uint32_t maxBin)
{
    const double firstBin = std::floor(low);
    const double lastBin = std::ceil(high) - 1;
    const std::uint32_t first = !(firstBin > 0) ? 0 : firstBin >= double(maxBin) ? maxBin : std::uint32_t(firstBin);
    const std::uint32_t last = !(lastBin > double(first)) ? first
        : lastBin >= double(maxBin)                       ? maxBin
                                                          : std::uint32_t(lastBin);
    return { first, last };
}

} // namespace

BinRange binsOf(const AddressFold &fold, std::uint64_t firstByte, std::uint64_t lastByte, int level)
{
    const double scale = std::ldexp(1.0, level) / fold.displayLength();
    return toBins(
        fold.toDisplay(firstByte) * scale, fold.toDisplayEnd(lastByte) * scale, (std::uint32_t(1) << level) - 1);
}

BinMapper::BinMapper(const AddressFold &fold, int level)
    : m_fold(fold)
    , m_scale(std::ldexp(1.0, level) / fold.displayLength())
    , m_maxBin((std::uint32_t(1) << level) - 1)
{ }

double BinMapper::displayOf(std::uint64_t address, bool end)
{
    address = std::clamp(address, m_fold.firstAddress(), m_fold.lastAddress());
    const auto &segments = m_fold.segments();
    if (!segments[std::size_t(m_segment)].contains(address))
        m_segment = m_fold.segmentIndexOf(address);
    const FoldSegment &segment = segments[std::size_t(m_segment)];
    return end ? segment.displayEndOf(address) : segment.displayOf(address);
}

BinRange BinMapper::operator()(std::uint64_t firstByte, std::uint64_t lastByte)
{
    const double low = displayOf(firstByte, false) * m_scale;
    const double high = displayOf(lastByte, true) * m_scale;
    return toBins(low, high, m_maxBin);
}

} // namespace memhist::summary
