// SPDX-License-Identifier: MIT
// The summary's time aggregation: takes each slice's cells at every address level, in slice
// order, sums them into the tiles of every time level, and decides which blocks of which tiles are
// worth storing.
//
// Which blocks are stored (each block of each tile on its own). Every non-empty block of a slice's
// finest address level is. Any other block is stored only when it is compact next to what a
// reader would read in its place, and what it replaces is worth replacing:
// - in its place a reader reads the same slices at the next finer address level (its two halves
//   there), recursively, and below the finest address level the block's two halves in time;
// - it is compact when it has at most `compactness` times as many cells as that replacement;
// - the replacement is worth replacing when it has more than `cellsPerBin` cells per bin of the
//   block (0 by default: any replacement is).
// The bound this gives a reader: a block that is not stored has more than `compactness` times the
// cells of its replacement, so reading a block of any levels costs at most 1 / compactness times
// its own cells (or cellsPerBin cells a bin): a view of any shape reads at most four times the
// cells of the blocks of its levels it covers. Levels that would summarise little (sparse data,
// where merging slices or bins barely merges cells) are still not stored at all, and each level
// stored costs at most a quarter of what it replaces.
#pragma once

#include "core/summary/summarylevels.h"

#include <QtGlobal>
#include <functional>
#include <span>
#include <vector>

namespace memhist::summary {

// The defaults keep the pyramid under a byte per access on the benchmark stream while a view reads
// at most four times the cells of its tiles. (Before format 1's rule was tightened, cellsPerBin was
// 8: a view of a narrow region over all transitions read up to 16 cells per bin of its blocks.)
struct PyramidRule
{
    double compactness = 0.25;
    double cellsPerBin = 0;
};

class TilePyramid
{
public:
    // Receives each stored block once. Returning false stops the pyramid.
    using Sink = std::function<bool(const TileKey &, std::span<const Cell>)>;

    TilePyramid(const SummaryLevels &levels, PyramidRule rule, Sink sink);

    // The cells of the next slice (0, 1, 2, ... levels.slices - 1), one vector per address level
    // from levels.minAddressLevel to levels.maxAddressLevel, each in bin order.
    bool addSlice(std::vector<std::vector<Cell>> cellsByLevel);
    // After the last slice: completes the tiles still waiting for their second half.
    bool finish();

    qint64 storedBlocks() const { return m_storedBlocks; }
    qint64 storedCells() const { return m_storedCells; }

private:
    struct Node
    {
        std::int64_t tile = 0;
        std::vector<std::vector<Cell>> cells; // by address level, the whole axis
        // Per block of the finest address level: what reading it costs (its cells if stored, else
        // its halves' costs), what the block of the parent in time is weighed against.
        std::vector<double> finestCosts;
    };

    // Decides which blocks of the node are stored and emits them. `halvesCosts` (per finest block)
    // is what reading the node's finest level costs without it; empty for a slice.
    bool decide(int timeLevel, Node &node, const std::vector<double> &halvesCosts);
    // A completed node of `timeLevel`: waits for its sibling or makes the parent with it.
    bool complete(int timeLevel, Node node);

    SummaryLevels m_levels;
    PyramidRule m_rule;
    Sink m_sink;
    int m_top;
    std::int64_t m_nextSlice = 0;
    std::vector<std::vector<Node>> m_waiting; // per time level: at most one left half
    qint64 m_storedBlocks = 0;
    qint64 m_storedCells = 0;
};

// Merges two cell lists in bin order, adding the counts of equal bins.
std::vector<Cell> mergeCells(const std::vector<Cell> &a, const std::vector<Cell> &b);

} // namespace memhist::summary
