// SPDX-License-Identifier: MIT
// The stored form of a block of a tile: its non-empty cells in bin order, in three columns of
// varints compressed together with zlib.
//
// Before compression: the cell count and the byte length of the first column, then
// - per cell, the bin's distance from the previous cell's bin minus one (the first: its bin);
// - per cell, a byte: which operations (bit 0 execute, 1 read, 2 write) the cell holds;
// - per operation held, v = accesses * 3 + min(chunks, 2) as v - 1, and chunks - 2 when chunks >= 2.
// Columns keep like with like (distances, then nearly constant masks, then mostly small counts),
// which is what lets zlib find the repeats: a cell of sparse pointer chasing takes about a byte.
#pragma once

#include "core/summary/summarylevels.h"

#include <QByteArray>
#include <span>
#include <vector>

namespace memhist::summary {

QByteArray encodeCells(std::span<const Cell> cells);
// Appends the cells of `data` to `cells`. False when `data` is damaged (truncated, not zlib, bins
// out of order or beyond `binCount`): then nothing is appended.
bool decodeCells(const char *data, qsizetype size, std::uint32_t binCount, std::vector<Cell> *cells);

} // namespace memhist::summary
