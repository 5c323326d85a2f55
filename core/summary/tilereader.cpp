// SPDX-License-Identifier: MIT
#include "core/summary/tilereader.h"

#include "core/storage/sqlite.h"
#include "core/summary/summarystatements.h"
#include "core/summary/tilecodec.h"

namespace memhist::summary {

TileReader::TileReader(sqlite::Connection &db, const SummaryInfo &info)
    : m_db(db)
    , m_info(info)
    , m_select(std::make_unique<sqlite::Statement>(db.prepare(statements::selectTiles)))
{ }

TileReader::~TileReader() = default;

bool TileReader::read(const TileWindow &window, const std::function<bool()> &cancelled, const Visitor &visit)
{
    m_error.clear();
    if (!m_select->isValid()) {
        m_error = m_db.lastError();
        return false;
    }
    const SummaryLevels &levels = m_info.levels;
    if (window.lastTile < window.firstTile || window.addressLevel < levels.minAddressLevel
        || window.addressLevel > levels.maxAddressLevel || window.timeLevel < 0
        || window.timeLevel > levels.topTimeLevel())
        return true;
    m_window = window;
    m_window.firstTile = std::max<std::int64_t>(0, window.firstTile);
    m_window.lastTile = std::min(window.lastTile, levels.tilesAt(window.timeLevel) - 1);
    m_cancelled = &cancelled;
    m_visit = &visit;
    std::vector<std::int64_t> tiles;
    for (std::int64_t tile = m_window.firstTile; tile <= m_window.lastTile; ++tile)
        tiles.push_back(tile);
    for (std::int64_t block = blockOf(window.firstBin); block <= blockOf(window.lastBin); ++block) {
        if (!readBlock(window.timeLevel, window.addressLevel, block, tiles))
            return false;
    }
    return true;
}

bool TileReader::readBlock(int timeLevel, int addressLevel, std::int64_t block, std::vector<std::int64_t> tiles)
{
    if (tiles.empty())
        return true;
    ++m_queries;
    std::vector<std::int64_t> missing;
    std::size_t next = 0; // tiles are sorted: walk them along the rows
    bool ok = true;
    const std::uint32_t bins = std::uint32_t(1) << addressLevel;
    const bool read = readStoredTiles(*m_select, timeLevel, addressLevel, block, tiles.front(), tiles.back(),
        [&](std::int64_t tile, qint64, const char *data, qsizetype size) {
            while (next < tiles.size() && tiles[next] < tile)
                missing.push_back(tiles[next++]);
            if (next == tiles.size() || tiles[next] != tile)
                return true; // a stored tile this request does not need
            ++next;
            if ((*m_cancelled)()) {
                ok = false;
                return false;
            }
            m_cellBuffer.clear();
            if (!decodeCells(data, size, bins, &m_cellBuffer)) {
                m_error = QStringLiteral("damaged summary block (time level %1, address level %2, block %3, tile %4)")
                              .arg(timeLevel)
                              .arg(addressLevel)
                              .arg(block)
                              .arg(tile);
                ok = false;
                return false;
            }
            ++m_blocks;
            m_cells += qint64(m_cellBuffer.size());
            (*m_visit)({ timeLevel, addressLevel, block, tile }, m_cellBuffer);
            return true;
        });
    if (!read) {
        m_error = m_db.lastError();
        return false;
    }
    if (!ok)
        return false;
    missing.insert(missing.end(), tiles.begin() + std::ptrdiff_t(next), tiles.end());
    if (missing.empty())
        return true;

    const SummaryLevels &levels = m_info.levels;
    if (addressLevel < levels.maxAddressLevel) {
        // The same tiles at the next finer address level: the block's halves there (one block
        // while a level has at most one), those the window touches.
        const int finer = addressLevel + 1;
        const int shift = finer - m_window.addressLevel;
        const std::int64_t firstBlock = blockOf(std::uint32_t(std::uint64_t(m_window.firstBin) << shift));
        const std::int64_t lastBlock = blockOf(std::uint32_t(((std::uint64_t(m_window.lastBin) + 1) << shift) - 1));
        const std::int64_t perBlock = blocksAt(finer) / blocksAt(addressLevel);
        for (std::int64_t child = block * perBlock; child < (block + 1) * perBlock; ++child) {
            if (child >= firstBlock && child <= lastBlock && !readBlock(timeLevel, finer, child, missing))
                return false;
        }
        return true;
    }
    if (timeLevel > 0) {
        // Below the finest address level: the tiles' halves in time.
        std::vector<std::int64_t> halves;
        const std::int64_t tilesBelow = levels.tilesAt(timeLevel - 1);
        for (const std::int64_t tile : missing) {
            for (std::int64_t half = 2 * tile; half <= 2 * tile + 1 && half < tilesBelow; ++half)
                halves.push_back(half);
        }
        return readBlock(timeLevel - 1, addressLevel, block, std::move(halves));
    }
    return true; // a slice's finest block not stored: it holds nothing
}

} // namespace memhist::summary
