// SPDX-License-Identifier: MIT
// The properties of the storage model that the query engine relies on, checked on the rows it
// reads anyway, at O(1) each. Each function returns the violation as checkmessages.h words it
// (object, problem, property), or an empty string when the row keeps every property checked.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace memhist::query {

// Rows as stored: signed int8 values, operation codes as they are (maybe invalid).
struct SliceRow
{
    qint64 id = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
};

struct ChunkRow
{
    qint64 id = 0;
    qint64 sliceId = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
    std::int64_t operation = 0;
};

struct AccessRow
{
    qint64 rowId = 0;
    std::int64_t transition = 0;
    std::int64_t operation = 0;
    std::int64_t first = 0;
    std::int64_t size = 0;
    std::optional<std::int64_t> linear; // NULL when the writer only knew physical addresses
    // The name of the first column not stored as an integer (a TEXT or BLOB value, which SQL
    // compares as greater than every number: queries would pass it by), or null.
    const char *notInteger = nullptr;
};

// Transitions not negative, first <= last, and (in rowid order) not starting before the end of the
// previous slice; starting on the transition it ends on is allowed (the reference writer does).
QString sliceProblem(const SliceRow &slice, const SliceRow *previous);

// An operation code other than 1, 2 and 4.
QString chunkOperationProblem(const ChunkRow &chunk);

// first <= last, not across 2^63, and, for chunks of one operation and slice read in index order
// (by phy_last), starting after the end of the chunk read before it.
QString chunkProblem(const ChunkRow &chunk, const ChunkRow *previous);

// An access read through its chunk (and the chunk's slice): transition stored non-negative, the
// chunk's operation, size >= 1, no wrap, every byte inside the chunk, transition inside the slice.
QString accessInChunkProblem(const AccessRow &access, const ChunkRow &chunk, const SliceRow &slice);

// An access read by the rowid scan of rows whose transitions must lie in [lowest, highest] (a
// binary search over rowids found them, which is exact only while transitions never decrease):
// a valid operation code, size >= 1, no wrap, transition stored non-negative and inside those
// bounds.
QString scannedAccessProblem(const AccessRow &access, std::int64_t lowest, std::int64_t highest);

// Two accesses with earlier.rowId < later.rowId: the later one must not have the smaller transition.
QString orderProblem(
    qint64 earlierRowId, std::int64_t earlierTransition, qint64 laterRowId, std::int64_t laterTransition);

// An access read anywhere else (the binary search over rowids) whose transition is stored negative.
QString negativeTransitionProblem(qint64 rowId, std::int64_t transition);

} // namespace memhist::query
