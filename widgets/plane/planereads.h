// SPDX-License-Identifier: MIT
// The renderer's read passes: SQL in, plain rows out, nothing drawn. Each reads only what a
// DetailPlan asks for, from the render thread's own connection, and checks `cancelled` every few
// hundred or thousand rows (a newer view has been requested: the rows would be wasted).
#pragma once

#include "core/model/types.h"
#include "widgets/plane/planedetail.h"

#include <functional>
#include <optional>
#include <vector>

namespace memhist::sqlite {
class Connection;
}

namespace memhist::plane {

// Rows between two cancellation checks, per pass: a check is an atomic load, the rows are index
// reads, so a check every few hundred rows costs nothing and stops a stale render within ~1 ms.
inline constexpr std::size_t chunkRowsPerCancelCheck = 512;
inline constexpr qint64 scannedRowsPerCancelCheck = 4096;
inline constexpr qint64 chunkAccessesPerCancelCheck = 1024;

// The rows of the visible transitions: accesses are stored in time order, so they are one rowid
// range. Empty (last < first) when no access falls in the transitions.
struct RowWindow
{
    std::int64_t first = 1;
    std::int64_t last = 0;

    double count() const { return std::max<double>(0, double(last - first + 1)); }
};

// Null on a database error.
std::optional<RowWindow> readRowWindow(sqlite::Connection &db, const TransitionWindow &transitions);

// One chunk row of a visible slice.
struct ChunkRow
{
    qint64 rowId;
    std::uint32_t slice; // index into the overview's slices
    std::uint8_t op; // operationIndex()
    std::uint64_t first;
    std::uint64_t last;
};

// The visible chunks, one index scan per operation and visible slice (the spec's
// find_chunks_between), each stopping at the first chunk past the address window. In drawing order:
// grouped by operation (drawnOperations), then by slice. Slices whose coverage says they have no
// chunk of an operation are skipped without a query. False when cancelled or on a database error.
bool readChunks(sqlite::Connection &db, const HistoryOverview &overview, const DetailPlan &plan,
    const std::function<bool()> &cancelled, std::vector<ChunkRow> *chunks);

// The display summary's blocks of a view (summaryView()), from `summaryDb`, the connection to the
// overview's summaryPath: each block once, to `visit`. False when cancelled (checked per block) or
// on a database error or a damaged block (then *error names the summary file and the reason).
bool readSummaryBlocks(sqlite::Connection &summaryDb, const HistoryOverview &overview,
    const summary::TileWindow &window, const std::function<bool()> &cancelled,
    const summary::TileReader::Visitor &visit, QString *error);

// The accesses read by a pass, and how many rows it read to find them.
struct AccessRows
{
    std::vector<Access> accesses;
    qint64 rowsRead = 0;
};

// AccessSource::RowScan: every row of `rows` in rowid order (a sequential read of the table),
// keeping the valid ones inside the plan's transition and address windows. In rowid order.
bool readAccessesInRows(sqlite::Connection &db, const RowWindow &rows, const DetailPlan &plan,
    const std::function<bool()> &cancelled, AccessRows *out);

// AccessSource::ChunkQueries: the accesses of each chunk within the plan's transitions, through
// (chunk_id, transition), in the order of `chunks` (by operation: writes last, drawn on top).
bool readAccessesOfChunks(sqlite::Connection &db, const std::vector<ChunkRow> &chunks, const DetailPlan &plan,
    const std::function<bool()> &cancelled, AccessRows *out);

} // namespace memhist::plane
