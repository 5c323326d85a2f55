// SPDX-License-Identifier: MIT
// Which slices may hold accesses in an address window, from the optional address summary
// (storage/addresssummaryformat.h), so that the engine visits only those: a narrow window over
// sparse data meets a few slices of thousands. Without a summary (another writer's file, an older
// memhist file, a summary of another version) every slice is a candidate.
#pragma once

#include "core/model/types.h"
#include "core/query/queryfailure.h"
#include "core/storage/addresssummaryinfo.h"
#include "core/storage/sqlite.h"

#include <array>
#include <cstdint>
#include <vector>

namespace memhist {

// What it checks, at O(1) per item it reads (the engine refuses a damaged summary as it refuses
// any damaged row): the info row (both tables there, one row, its checksum, valid parameters,
// built from as many slices and up to the same last chunk rowid as the history holds: a summary
// left behind by rows added later is stale), and each row a lookup reads (its checksum, its link
// to the row read before it, the level's header row reached when the walk runs out, entries well
// formed and below the next row's block, slice ids that the history holds): a row changed, added
// or removed is refused rather than skipped. What it cannot check cheaply is a summary rewritten
// consistently (checksums recomputed) that misses a slice: `memhist check` rebuilds the summary
// from the chunks and compares every block.
class AddressSummaryLookup
{
public:
    explicit AddressSummaryLookup(sqlite::Connection &db);

    // At the engine's load. sliceIds: every slice rowid, ascending (the slices table in rowid
    // order). False on a database error or a damaged summary (failure says which).
    bool load(const std::vector<qint64> &sliceIds, QueryFailure &failure);
    bool available() const { return m_available; }

    // One bit per slice (sliceIds order) for each operation index (0: X, 1: W, 2: R).
    using Candidates = std::array<std::vector<std::uint64_t>, addresssummary::operationCount>;

    // For the window [first, last] (unsigned addresses) and those operations: *used is false when
    // no level of the summary is fine enough to help (every slice is then a candidate); otherwise
    // bit i of (*candidates)[op] is set when the i-th slice may hold accesses of that operation
    // there (the bits of operations not asked for stay clear).
    bool candidates(std::uint64_t first, std::uint64_t last, Operations operations, Candidates *candidates, bool *used,
        QueryFailure &failure);

private:
    // The position of slice `id` in sliceIds, or -1 when the history holds no such slice.
    std::int64_t ordinalOf(std::int64_t id) const;
    // "address_summary row (...)" of the level of 2^shift-byte blocks, or (shift -1) the wide postings.
    static QString describeRow(int shift, std::int64_t rowBlock);
    // Sets the bits of the slices of the reader's current entry, in the bitset of its operation.
    bool markEntry(addresssummary::PostingsReader &reader, Candidates *candidates, int shift, std::int64_t rowBlock,
        QueryFailure &failure);

    sqlite::Connection &m_db;
    bool m_available = false;
    addresssummary::Parameters m_parameters;
    std::vector<qint64> m_sliceIds;
    bool m_contiguousIds = false; // sliceIds[i] == sliceIds[0] + i: ordinals by subtraction
    Candidates m_wide; // the wide postings, as bits
    sqlite::Statement m_rows;
};

} // namespace memhist
