// SPDX-License-Identifier: MIT
// Reads the blocks of the summary a view needs: those of one time level and one address level
// over a range of tiles and bins, each replaced, where it was not stored, by what the pyramid rule
// (tilepyramid.h) says replaces it: its halves at the next finer address level, recursively, and
// below the finest address level its halves in time. The blocks visited tile the requested area
// exactly once, each at its own levels.
#pragma once

#include "core/summary/summarystore.h"

#include <functional>
#include <memory>
#include <span>

namespace memhist::sqlite {
class Connection;
class Statement;
} // namespace memhist::sqlite

namespace memhist::summary {

struct TileWindow
{
    int timeLevel = 0;
    int addressLevel = 0;
    std::int64_t firstTile = 0; // inclusive, at timeLevel
    std::int64_t lastTile = -1;
    std::uint32_t firstBin = 0; // inclusive, at addressLevel
    std::uint32_t lastBin = 0;
};

class TileReader
{
public:
    TileReader(sqlite::Connection &db, const SummaryInfo &info);
    ~TileReader();

    // Calls visit(key, cells) for each block covering `window`, with all its cells (also those
    // outside the window's bins). False when `cancelled()` turned true (checked per block), on a
    // database error, or on a damaged block (errorString()).
    using Visitor = std::function<void(const TileKey &, std::span<const Cell>)>;
    bool read(const TileWindow &window, const std::function<bool()> &cancelled, const Visitor &visit);

    QString errorString() const { return m_error; }
    qint64 blocksRead() const { return m_blocks; }
    qint64 cellsRead() const { return m_cells; }
    qint64 queries() const { return m_queries; }

private:
    bool readBlock(int timeLevel, int addressLevel, std::int64_t block, std::vector<std::int64_t> tiles);

    sqlite::Connection &m_db;
    SummaryInfo m_info;
    std::unique_ptr<sqlite::Statement> m_select;
    // The request being read.
    TileWindow m_window;
    const std::function<bool()> *m_cancelled = nullptr;
    const Visitor *m_visit = nullptr;
    std::vector<Cell> m_cellBuffer;
    QString m_error;
    qint64 m_blocks = 0;
    qint64 m_cells = 0;
    qint64 m_queries = 0;
};

} // namespace memhist::summary
