// SPDX-License-Identifier: MIT
// Reading and writing the display summary's tables (summarystatements.h) on a connection: the
// writer's own, the viewer's read-only one, or a summary cache file's.
#pragma once

#include "core/summary/summarylevels.h"
#include "core/summary/tilepyramid.h"

#include <QByteArrayView>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace memhist::sqlite {
class Connection;
class Statement;
} // namespace memhist::sqlite

namespace memhist::summary {

// The shape of a history when it was summarised: a summary whose history no longer has this shape
// (rows added or removed by another tool) is not used.
struct HistoryShape
{
    qint64 slices = 0;
    qint64 lastChunkRowId = 0; // 0 when there is none
    qint64 lastAccessRowId = 0;
    friend bool operator==(const HistoryShape &, const HistoryShape &) = default;
};

// Reads the shape of the history on `db` (its base tables). Null on a database error.
std::optional<HistoryShape> readHistoryShape(sqlite::Connection &db);

// Everything about a summary but its tiles.
struct SummaryInfo
{
    SummaryLevels levels;
    PyramidRule rule;
    // The occupied regions and layout of the address fold the cells are binned on.
    std::vector<AddressInterval> regions;
    AddressFold::Layout layout;
    std::vector<AccessHotspot> hotspots; // sorted, disjoint; at most HotspotOptions::maxCount
    qint64 accesses = 0; // what was summarised
    qint64 chunks = 0;
    HistoryShape shape;
    // For a summary kept outside its history (a cache file): the history's FileIdentity when it was
    // summarised. Empty in a history's own summary.
    QString sourceIdentity;
    // The CPU time the builder took (the first pass over every slice and the second pass), in ms:
    // what the summary adds to an import. Informative only (0 when not recorded).
    qint64 buildCpuMilliseconds = 0;

    AddressFold fold() const { return AddressFold::fromRegions(regions, layout, hotspots); }
};

// Creates the two tables (on a connection with neither).
bool createSummaryTables(sqlite::Connection &db);
bool writeSummaryInfo(sqlite::Connection &db, const SummaryInfo &info);

// The summary on `db`: nullopt without one, or when it is of another version or damaged (then
// `why` says so; it stays empty when there is simply none).
std::optional<SummaryInfo> readSummaryInfo(sqlite::Connection &db, QString *why);

// Inserts tiles through one prepared statement.
class TileWriter
{
public:
    explicit TileWriter(sqlite::Connection &db);
    ~TileWriter();
    bool isValid() const;
    bool write(const TileKey &key, std::span<const Cell> cells);
    // One tile already encoded: its cell count and its cells as encodeCells() gives them.
    bool write(const TileKey &key, qint64 cellCount, QByteArrayView encodedCells);
    qint64 bytes() const { return m_bytes; }

private:
    std::unique_ptr<sqlite::Statement> m_insert;
    qint64 m_bytes = 0;
};

// The integer key of summary_tiles: time level << 58 | address level << 53 | block << 40 | tile,
// so that the tiles of one block of one level are one range of keys, in tile order.
std::int64_t storedTileKey(const TileKey &key);
TileKey tileKeyOf(std::int64_t stored);

// Calls `tile(number, cellCount, data, size)` for each stored block `block` of the tiles
// first..last of (timeLevel, addressLevel), in tile order; returning false from it stops. False on
// a database error.
using TileVisitor = std::function<bool(std::int64_t tile, qint64 cells, const char *data, qsizetype size)>;
bool readStoredTiles(sqlite::Statement &select, int timeLevel, int addressLevel, std::int64_t block, std::int64_t first,
    std::int64_t last, const TileVisitor &tile);

} // namespace memhist::summary
