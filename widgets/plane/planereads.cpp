// SPDX-License-Identifier: MIT
#include "widgets/plane/planereads.h"

#include "core/query/accessrow.h"
#include "core/query/querystatements.h"
#include "core/query/rowidsearch.h"
#include "core/storage/sqlite.h"
#include "widgets/plane/planestatements.h"

#include <limits>

namespace memhist::plane {

namespace {

// An access as the plane draws it: the plane does not check rows (`memhist check` does), so a size
// outside [1, 2^32 - 1] is clamped rather than refused.
Access toDrawnAccess(query::AccessRow row)
{
    row.size = std::clamp<std::int64_t>(row.size, 1, std::numeric_limits<std::uint32_t>::max());
    return query::toAccess(row);
}

} // namespace

std::optional<RowWindow> readRowWindow(sqlite::Connection &db, const TransitionWindow &transitions)
{
    RowIdSearch rows(db);
    if (!rows.load())
        return std::nullopt;
    return RowWindow { rows.firstRowIdAtOrAfter(toStored(transitions.first)),
        rows.lastRowIdAtOrBefore(toStored(transitions.last)) };
}

bool readChunks(sqlite::Connection &db, const HistoryOverview &overview, const DetailPlan &plan,
    const std::function<bool()> &cancelled, std::vector<ChunkRow> *chunks)
{
    if (plan.endSlice <= plan.firstSlice)
        return true;
    const StoredRanges windows = toStoredRanges(plan.addresses.first, plan.addresses.last);
    sqlite::Statement scan = db.prepare(memhist::statements::chunksOverlapping);
    if (!scan.isValid())
        return false;
    const bool coverage = hasCoverage(overview);
    for (int op = 0; op < 3; ++op) {
        for (std::size_t i = plan.firstSlice; i < plan.endSlice; ++i) {
            if (coverage && overview.summaries[i].ops[op].bits.empty())
                continue; // no chunk of this operation in this slice at all
            for (int w = 0; w < windows.count; ++w) {
                scan.reset();
                scan.bind(1, std::int64_t(drawnOperations[op]));
                scan.bind(2, overview.slices[i].rowId);
                scan.bind(3, windows.ranges[w].first);
                while (scan.step() == SQLITE_ROW) {
                    const std::int64_t storedFirst = scan.int64(1);
                    if (storedFirst > windows.ranges[w].last)
                        break; // chunks of one operation never overlap: none after this one can match
                    chunks->push_back({ scan.int64(0), std::uint32_t(i), std::uint8_t(op), fromStored(storedFirst),
                        fromStored(scan.int64(2)) });
                    if (chunks->size() % chunkRowsPerCancelCheck == 0 && cancelled())
                        return false;
                }
            }
        }
    }
    return true;
}

bool readSummaryBlocks(sqlite::Connection &summaryDb, const HistoryOverview &overview,
    const summary::TileWindow &window, const std::function<bool()> &cancelled,
    const summary::TileReader::Visitor &visit, QString *error)
{
    if (!overview.summaryInfo) {
        *error = overview.path + QStringLiteral(": no display summary");
        return false;
    }
    summary::TileReader reader(summaryDb, *overview.summaryInfo);
    if (reader.read(window, cancelled, visit))
        return true;
    *error = reader.errorString().isEmpty() ? QString()
                                            : overview.summaryPath + QStringLiteral(": ") + reader.errorString();
    return false;
}

bool readAccessesInRows(sqlite::Connection &db, const RowWindow &rows, const DetailPlan &plan,
    const std::function<bool()> &cancelled, AccessRows *out)
{
    sqlite::Statement scan = db.prepare(statements::accessesByRowId);
    if (!scan.isValid())
        return false;
    scan.bind(1, rows.first);
    scan.bind(2, rows.last);
    while (scan.step() == SQLITE_ROW) {
        if (++out->rowsRead % scannedRowsPerCancelCheck == 0 && cancelled())
            return false;
        const query::AccessRow row = query::readAccessRow(scan);
        if (!isValidOperationCode(row.operation))
            continue;
        const Access access = toDrawnAccess(row);
        if (access.transition.value < plan.transitions.first || access.transition.value > plan.transitions.last
            || access.physical.value > plan.addresses.last || access.lastByte().value < plan.addresses.first)
            continue;
        out->accesses.push_back(access);
    }
    return true;
}

bool readAccessesOfChunks(sqlite::Connection &db, const std::vector<ChunkRow> &chunks, const DetailPlan &plan,
    const std::function<bool()> &cancelled, AccessRows *out)
{
    sqlite::Statement select = db.prepare(statements::chunkAccesses);
    if (!select.isValid())
        return false;
    for (const ChunkRow &chunk : chunks) {
        select.reset();
        select.bind(1, chunk.rowId);
        select.bind(2, toStored(plan.transitions.first));
        select.bind(3, toStored(plan.transitions.last));
        while (select.step() == SQLITE_ROW) {
            // The chunk's operation: the access is drawn where its chunk was found.
            Access access = toDrawnAccess(query::readAccessRow(select));
            access.operation = drawnOperations[chunk.op];
            out->accesses.push_back(access);
            if (++out->rowsRead % chunkAccessesPerCancelCheck == 0 && cancelled())
                return false;
        }
    }
    return true;
}

} // namespace memhist::plane
