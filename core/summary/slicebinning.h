// SPDX-License-Identifier: MIT
// The summary's second pass for one slice: its fragment records binned on the fold at every
// address level, as the cells the pyramid takes. Accumulates in dense per-level arrays (a few MiB,
// reused from slice to slice) with a bitmap of the bins touched, so that a slice costs time in
// proportion to its records and cells, not to the bin count.
#pragma once

#include "core/summary/summarylevels.h"

#include <QByteArray>
#include <vector>

namespace memhist::summary {

class SliceBinning
{
public:
    SliceBinning(const AddressFold &fold, const SummaryLevels &levels);

    // Adds the records of one encoded fragment. False when it is damaged.
    bool add(const QByteArray &fragment);
    // The cells of everything added since the last take(), one vector per address level (coarse
    // to fine), in bin order; starts the next slice.
    std::vector<std::vector<Cell>> take();

private:
    struct Level
    {
        int shift; // finest bin >> shift = this level's bin
        std::vector<Cell> cells; // dense, by bin
        std::vector<quint64> touched; // a bit per bin
    };
    Cell &cellAt(Level &level, std::uint32_t bin);

    SummaryLevels m_levels;
    BinMapper m_mapper;
    std::vector<Level> m_byLevel;
};

} // namespace memhist::summary
