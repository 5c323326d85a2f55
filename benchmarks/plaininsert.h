// SPDX-License-Identifier: MIT
// The reference the writer is measured against: the same rows inserted one by one with a plain
// prepared statement into a single table, with the writer's connection setup and one transaction.
// What SQLite itself costs per row; the writer's overhead (slicing, chunking, its index) is the rest.
#pragma once

#include <QString>
#include <cstdint>

namespace memhist::bench {

enum class PlainInsertKind {
    // One unindexed table, chunk_id = 0, one row per statement: the ceiling.
    Unindexed,
    // The same, 64 rows per statement (as the writer inserts): what SQLite costs per row when
    // statement overhead is shared.
    UnindexedMultiRow,
    // With idx_accesses_1 on (chunk_id, transition) and chunk_id a pseudo-random value in
    // [slice * 3000, slice * 3000 + 3000), slice = row / 20000: roughly the index maintenance the
    // writer also pays, without its slicing and chunking.
    IndexedRandomChunks,
};

struct PlainInsertResult
{
    bool ok = false;
    QString error;
    qint64 rows = 0;
    qint64 nanoseconds = 0; // from open to the commit, generation included
    qint64 cpuNanoseconds = 0; // CPU time over the same span
    qint64 fileBytes = 0;
};

// Inserts the first `accesses` accesses of the stream with `seed` into a new file at `path`
// (replaced if it exists).
PlainInsertResult runPlainInsert(const QString &path, PlainInsertKind kind, std::uint64_t seed, qint64 accesses);

} // namespace memhist::bench
