// SPDX-License-Identifier: MIT
// The display summary computed the slow, obvious way from a history's rows: every cell of every
// tile at every level, straight from the definition in core/summary/summarylevels.h. What the
// summary builder, the pyramid and the tile reader are checked against.
#pragma once

#include "core/model/types.h"
#include "core/storage/sqlite.h"
#include "core/summary/summarylevels.h"
#include "core/summary/summarystore.h"
#include "core/summary/tilecodec.h"

#include <QString>
#include <map>
#include <tuple>
#include <vector>

namespace memhist::test {

struct SummaryRows
{
    struct Slice
    {
        qint64 rowId;
        std::uint64_t first;
        std::uint64_t last;
    };
    struct Row
    {
        std::int64_t slice; // index in transition order
        std::uint8_t code;
        std::uint64_t first; // an access's address, a chunk's first byte
        std::uint64_t last; // its last byte
    };
    std::vector<Slice> slices; // in transition order
    std::vector<Row> accesses;
    std::vector<Row> chunks;
};

// The rows of the history at `path`. An access belongs to the first slice (in transition order)
// that ends at or after its transition, else to the last; a chunk to its slice_id's slice.
inline SummaryRows readSummaryRows(const QString &path)
{
    SummaryRows rows;
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return rows;
    sqlite::Statement slices
        = db.prepare("SELECT rowid, transition_first, transition_last FROM slices ORDER BY transition_first, rowid");
    while (slices.step() == SQLITE_ROW)
        rows.slices.push_back({ slices.int64(0), fromStored(slices.int64(1)), fromStored(slices.int64(2)) });
    sqlite::Statement chunks = db.prepare("SELECT slice_id, phy_first, phy_last, operation FROM chunks");
    while (chunks.step() == SQLITE_ROW) {
        for (std::size_t i = 0; i < rows.slices.size(); ++i) {
            if (rows.slices[i].rowId == chunks.int64(0))
                rows.chunks.push_back({ std::int64_t(i), std::uint8_t(chunks.int64(3)), fromStored(chunks.int64(1)),
                    fromStored(chunks.int64(2)) });
        }
    }
    sqlite::Statement accesses = db.prepare("SELECT transition, phy_first, size, operation FROM accesses");
    while (accesses.step() == SQLITE_ROW) {
        const std::uint64_t transition = fromStored(accesses.int64(0));
        std::int64_t slice = std::int64_t(rows.slices.size()) - 1;
        for (std::size_t i = 0; i < rows.slices.size(); ++i) {
            if (rows.slices[i].last >= transition) {
                slice = std::int64_t(i);
                break;
            }
        }
        const std::uint64_t address = fromStored(accesses.int64(1));
        rows.accesses.push_back(
            { slice, std::uint8_t(accesses.int64(3)), address, lastByteOf(address, std::uint32_t(accesses.int64(2))) });
    }
    return rows;
}

// (time level, address level, tile) -> bin -> cell.
using OracleTiles = std::map<std::tuple<int, int, std::int64_t>, std::map<std::uint32_t, summary::Cell>>;

// Every cell of every tile at every level, for `levels` over `fold`.
inline OracleTiles oracleTiles(
    const SummaryRows &rows, const summary::AddressFold &fold, const summary::SummaryLevels &levels)
{
    OracleTiles tiles;
    const auto add = [&](const SummaryRows::Row &row, bool chunk) {
        const summary::BinRange finest = chunk ? summary::binsOf(fold, row.first, row.first, levels.maxAddressLevel)
                                               : summary::binsOf(fold, row.first, row.last, levels.maxAddressLevel);
        const int op = summary::operationSlot(row.code);
        for (int t = 0; t <= levels.topTimeLevel(); ++t) {
            for (int a = levels.minAddressLevel; a <= levels.maxAddressLevel; ++a) {
                const summary::BinRange bins = finest.at(levels.maxAddressLevel - a);
                auto &tile = tiles[{ t, a, row.slice >> t }];
                for (std::uint32_t bin = bins.first; bin <= (chunk ? bins.first : bins.last); ++bin) {
                    summary::Cell &cell = tile[bin];
                    cell.bin = bin;
                    if (chunk)
                        ++cell.chunks[op];
                    else
                        ++cell.accesses[op];
                }
            }
        }
    };
    for (const SummaryRows::Row &row : rows.accesses)
        add(row, false);
    for (const SummaryRows::Row &row : rows.chunks)
        add(row, true);
    return tiles;
}

// The stored blocks of the summary on `db`: key -> cells.
inline std::map<std::int64_t, std::vector<summary::Cell>> storedBlocks(sqlite::Connection &db, bool *ok)
{
    std::map<std::int64_t, std::vector<summary::Cell>> blocks;
    *ok = true;
    sqlite::Statement select = db.prepare("SELECT key, data FROM summary_tiles ORDER BY key");
    while (select.step() == SQLITE_ROW) {
        const summary::TileKey key = summary::tileKeyOf(select.int64(0));
        std::vector<summary::Cell> cells;
        const auto *data = static_cast<const char *>(sqlite3_column_blob(select.handle(), 1));
        if (!summary::decodeCells(
                data, sqlite3_column_bytes(select.handle(), 1), std::uint32_t(1) << key.addressLevel, &cells))
            *ok = false;
        blocks[select.int64(0)] = std::move(cells);
    }
    return blocks;
}

} // namespace memhist::test
