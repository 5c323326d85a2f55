// SPDX-License-Identifier: MIT
#include "core/summary/slicebinning.h"

#include "core/model/types.h"
#include "core/summary/slicefragment.h"

#include <bit>

namespace memhist::summary {

SliceBinning::SliceBinning(const AddressFold &fold, const SummaryLevels &levels)
    : m_levels(levels)
    , m_mapper(fold, levels.maxAddressLevel)
{
    for (int level = levels.minAddressLevel; level <= levels.maxAddressLevel; ++level) {
        Level l;
        l.shift = levels.maxAddressLevel - level;
        l.cells.resize(std::size_t(1) << level);
        l.touched.assign(std::max<std::size_t>((std::size_t(1) << level) / 64, 1), 0);
        m_byLevel.push_back(std::move(l));
    }
}

Cell &SliceBinning::cellAt(Level &level, std::uint32_t bin)
{
    level.touched[bin >> 6] |= quint64(1) << (bin & 63);
    return level.cells[bin];
}

bool SliceBinning::add(const QByteArray &fragment)
{
    return SliceFragment::read(
        fragment,
        [this](std::uint8_t code, std::uint64_t address, std::uint32_t size, std::uint64_t count) {
            const int slot = operationSlot(code);
            const BinRange finest = m_mapper(address, lastByteOf(address, size));
            for (Level &level : m_byLevel) {
                const BinRange bins = finest.at(level.shift);
                for (std::uint32_t bin = bins.first; bin <= bins.last; ++bin) {
                    Cell &cell = cellAt(level, bin);
                    cell.accesses[slot] = saturatingAdd(cell.accesses[slot], count);
                }
            }
        },
        [this](std::uint8_t code, std::uint64_t first, std::uint64_t count) {
            const int slot = operationSlot(code);
            const std::uint32_t finest = m_mapper(first, first).first;
            for (Level &level : m_byLevel) {
                Cell &cell = cellAt(level, finest >> level.shift);
                cell.chunks[slot] = saturatingAdd(cell.chunks[slot], count);
            }
        });
}

std::vector<std::vector<Cell>> SliceBinning::take()
{
    std::vector<std::vector<Cell>> result(m_byLevel.size());
    for (std::size_t i = 0; i < m_byLevel.size(); ++i) {
        Level &level = m_byLevel[i];
        std::vector<Cell> &out = result[i];
        std::size_t touched = 0;
        for (const quint64 bits : level.touched)
            touched += std::size_t(std::popcount(bits));
        out.reserve(touched); // exactly: these cells may wait in the pyramid for a long time
        for (std::size_t word = 0; word < level.touched.size(); ++word) {
            quint64 bits = level.touched[word];
            level.touched[word] = 0;
            while (bits) {
                const std::uint32_t bin = std::uint32_t(word * 64 + std::size_t(std::countr_zero(bits)));
                bits &= bits - 1;
                Cell &cell = level.cells[bin];
                cell.bin = bin;
                out.push_back(cell);
                cell = Cell {};
            }
        }
    }
    return result;
}

} // namespace memhist::summary
