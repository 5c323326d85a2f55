// SPDX-License-Identifier: MIT
#include "core/summary/tilepyramid.h"

namespace memhist::summary {

std::vector<Cell> mergeCells(const std::vector<Cell> &a, const std::vector<Cell> &b)
{
    // The exact size first: the waiting halves of every time level are the builder's largest
    // memory, and a vector grown by doubling would hold up to twice what it needs.
    std::size_t size = a.size() + b.size();
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i].bin < b[j].bin) {
            ++i;
        } else if (b[j].bin < a[i].bin) {
            ++j;
        } else {
            --size;
            ++i;
            ++j;
        }
    }
    std::vector<Cell> out;
    out.reserve(size);
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].bin < b[j].bin) {
            out.push_back(a[i++]);
        } else if (b[j].bin < a[i].bin) {
            out.push_back(b[j++]);
        } else {
            out.push_back(a[i++]);
            addCounts(out.back(), b[j++]);
        }
    }
    out.insert(out.end(), a.begin() + std::ptrdiff_t(i), a.end());
    out.insert(out.end(), b.begin() + std::ptrdiff_t(j), b.end());
    return out;
}

TilePyramid::TilePyramid(const SummaryLevels &levels, PyramidRule rule, Sink sink)
    : m_levels(levels)
    , m_rule(rule)
    , m_sink(std::move(sink))
    , m_top(levels.topTimeLevel())
    , m_waiting(std::size_t(m_top + 1))
{ }

bool TilePyramid::decide(int timeLevel, Node &node, const std::vector<double> &halvesCosts)
{
    const bool isSlice = timeLevel == 0;
    const int levelCount = m_levels.maxAddressLevel - m_levels.minAddressLevel + 1;
    std::vector<double> finerCosts;
    for (int i = levelCount - 1; i >= 0; --i) {
        const int addressLevel = m_levels.minAddressLevel + i;
        const bool finest = i == levelCount - 1;
        const std::int64_t blocks = blocksAt(addressLevel);
        const double blockBins = double(std::min<std::int64_t>(std::int64_t(1) << addressLevel, 1 << blockShift));
        // Blocks of the finer level (or halves in time) each block of this level replaces.
        const std::int64_t perBlock = finest ? 1 : std::int64_t(finerCosts.size()) / blocks;
        const std::vector<Cell> &cells = node.cells[std::size_t(i)];
        std::vector<double> costs(std::size_t(blocks), 0.0);
        std::size_t begin = 0;
        for (std::int64_t block = 0; block < blocks; ++block) {
            std::size_t end = begin;
            while (end < cells.size() && blockOf(cells[end].bin) == block)
                ++end;
            const double count = double(end - begin);
            double replacement = 0;
            if (finest) {
                replacement = isSlice ? 0 : halvesCosts[std::size_t(block)];
            } else {
                for (std::int64_t j = 0; j < perBlock; ++j)
                    replacement += finerCosts[std::size_t(block * perBlock + j)];
            }
            const bool store = count > 0
                && ((finest && isSlice)
                    || (count <= m_rule.compactness * replacement && replacement > m_rule.cellsPerBin * blockBins));
            if (store) {
                const TileKey key { timeLevel, addressLevel, block, node.tile };
                if (!m_sink(key, std::span<const Cell>(cells.data() + begin, end - begin)))
                    return false;
                ++m_storedBlocks;
                m_storedCells += qint64(count);
            }
            costs[std::size_t(block)] = store ? count : replacement;
            begin = end;
        }
        if (finest)
            node.finestCosts = costs;
        finerCosts = std::move(costs);
    }
    return true;
}

bool TilePyramid::complete(int timeLevel, Node node)
{
    if (timeLevel >= m_top)
        return true;
    std::vector<Node> &waiting = m_waiting[std::size_t(timeLevel)];
    if (node.tile % 2 == 0) {
        waiting.push_back(std::move(node));
        return true;
    }
    Node left = std::move(waiting.back());
    waiting.clear();
    Node parent;
    parent.tile = node.tile / 2;
    parent.cells.resize(node.cells.size());
    for (std::size_t i = 0; i < node.cells.size(); ++i)
        parent.cells[i] = mergeCells(left.cells[i], node.cells[i]);
    std::vector<double> halves = left.finestCosts;
    for (std::size_t b = 0; b < halves.size(); ++b)
        halves[b] += node.finestCosts[b];
    left = {};
    node = {};
    if (!decide(timeLevel + 1, parent, halves))
        return false;
    return complete(timeLevel + 1, std::move(parent));
}

bool TilePyramid::addSlice(std::vector<std::vector<Cell>> cellsByLevel)
{
    Node node;
    node.tile = m_nextSlice++;
    node.cells = std::move(cellsByLevel);
    node.cells.resize(std::size_t(m_levels.maxAddressLevel - m_levels.minAddressLevel + 1));
    if (!decide(0, node, {}))
        return false;
    return complete(0, std::move(node));
}

bool TilePyramid::finish()
{
    // A left half without a right one (the last tile of a level when the slices are not a power of
    // two) is its parent's only half: the parent has the same cells and is weighed against it.
    for (int level = 0; level < m_top; ++level) {
        std::vector<Node> &waiting = m_waiting[std::size_t(level)];
        if (waiting.empty())
            continue;
        Node only = std::move(waiting.back());
        waiting.clear();
        Node parent;
        parent.tile = only.tile / 2;
        parent.cells = std::move(only.cells);
        if (!decide(level + 1, parent, only.finestCosts))
            return false;
        if (!complete(level + 1, std::move(parent)))
            return false;
    }
    return true;
}

} // namespace memhist::summary
