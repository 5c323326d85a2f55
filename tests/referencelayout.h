// SPDX-License-Identifier: MIT
// Databases laid out exactly as the public reference writer of the format (tetrane/rvnmemhistwriter)
// lays them out, built in the tests from a list of accesses by our own code that follows its
// algorithm:
// - one slice builder per operation (reads, writes); an access overlapping chunks of its side
//   merges them into one chunk; a side refuses an access on a new transition once it holds its
//   access limit, or once the merge would exceed the overlap limit; then both sides become one
//   slice (their bounding box), so the next slice may start on the transition the previous one
//   ended on;
// - when a slice is written, touching chunks of a side merge while they stay within the touch
//   limit, and the chunks of both sides are inserted in DESCENDING address order, reads and writes
//   interleaved; the accesses follow in trace order (so rowid order is trace order), with NULL
//   `linear` where the access has no linear address;
// - the file holds the reference readers' `_metadata` table (created first) and a fourth index,
//   idx_accesses_2(transition), besides the base tables and indexes;
// - discard_after(N) deletes the accesses at or after N without shrinking chunks or slices,
//   leaving empty chunks and chunks whose bytes are no longer all covered.
#pragma once

#include "core/model/types.h"

#include <QList>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace memhist::test {

// The limits of the reference writer's slice builders; its defaults are 100000, 1000 and 10^7.
// Tests set them small, to get many slices and chunks from few accesses.
struct ReferenceLimits
{
    std::size_t chunkOverlapLimit = 100000; // accesses a chunk may reach by merging overlapping chunks
    std::size_t chunkTouchLimit = 1000; // accesses a chunk may reach by merging touching chunks
    std::size_t sideAccessLimit = 10000000; // accesses of one operation in a slice
};

// What the built database holds.
struct ReferenceLayout
{
    // The accesses left in the accesses table, in rowid order, with their rowids.
    QList<Access> stored;
    qint64 slices = 0;
    qint64 chunks = 0;
};

// Writes `path` (replacing it) from `stream`, in trace order: reads and writes only (the reference
// writer refuses executes), transitions never decreasing, transitions of 2^63 or more stored as
// their two's-complement bits as a writer binding unsigned values would. With `discardAfter`, ends
// with discard_after(*discardAfter). False and *error on failure.
bool writeReferenceLayout(const QString &path, const QList<Access> &stream, const ReferenceLimits &limits,
    std::optional<std::uint64_t> discardAfter, ReferenceLayout *layout, QString *error);

} // namespace memhist::test
