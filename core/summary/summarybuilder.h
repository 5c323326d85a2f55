// SPDX-License-Identifier: MIT
// Builds a history's display summary (summarylevels.h) in two passes with bounded memory, while the
// history is being written or, for a history without one, while it is being read.
//
// First pass, one slice at a time as it is stored: the slice's accesses and chunk starts, reduced
// to distinct records with counts (slicefragment.h), go to an anonymous temporary file, and its
// chunk ranges to the occupied-regions builder. The address fold depends on every chunk, so no
// cell can be binned yet.
// Second pass (finish): the fold is made from the regions, then each slice's records are read
// back, binned at every address level (slicebinning.h) and summed into the tiles of every time
// level (tilepyramid.h), which go into the summary tables of the given connection.
//
// Memory: one slice's records in the first pass; in the second, the per-level bin arrays (a few
// MiB) and at most one waiting tile per level. The temporary file takes a few bytes per distinct
// record (tens of MiB for 10^8 accesses) and is gone when the builder is.
#pragma once

#include "core/summary/addressfold.h"
#include "core/summary/slicefragment.h"
#include "core/summary/slicespool.h"
#include "core/summary/summarystore.h"
#include "core/summary/tilepyramid.h"
#include "core/writer/slicebuilder.h"

#include <QString>
#include <functional>
#include <span>

namespace memhist::sqlite {
class Connection;
}

namespace memhist::summary {

struct SummaryOptions
{
    int minAddressLevel = SummaryLevels {}.minAddressLevel;
    int maxAddressLevel = SummaryLevels {}.maxAddressLevel;
    // Which blocks of the pyramid are stored (tilepyramid.h).
    PyramidRule rule;
    FoldOptions fold;
};

// What the second pass did, for benchmarks and tests.
struct SummaryStats
{
    qint64 spoolBytes = 0;
    qint64 storedBlocks = 0;
    qint64 storedCells = 0;
    qint64 tileBytes = 0;
};

// The CPU time of the calling thread, in nanoseconds: what the builder's work costs the writer,
// whichever thread (the store thread, the finishing one) does it.
qint64 threadCpuNanoseconds();

class SummaryBuilder
{
public:
    explicit SummaryBuilder(SummaryOptions options = {});
    ~SummaryBuilder();

    // Creates the temporary file in `directory`. False + errorString() on failure.
    bool open(const QString &directory);

    // One slice as the writer stores it (slice = its index in transition order, 0-based; the
    // chunks and each access's chunk as planSlice() made them).
    bool addSlice(std::int64_t slice, std::span<const BufferedAccess> accesses, std::span<const PlannedChunk> chunks,
        std::span<const std::uint32_t> chunkOfAccess);

    // The same from any source, in parts: a slice's accesses and chunks may come in several
    // fragments, and other slices' fragments in between. Chunk ranges also go to addChunkRange().
    bool addFragment(std::int64_t slice, SliceFragment &fragment);
    void addChunkRange(std::uint64_t first, std::uint64_t last) { m_regions.add(first, last); }
    // And each access, for the fold's access hotspots (addSlice() does both itself).
    void addAccessToFold(std::uint64_t address, std::uint32_t size) { m_regions.addAccess(address, size); }

    // The second pass over slices 0..shape.slices - 1: creates the summary tables on `db` and fills
    // them (in the caller's transaction). `progress(fraction)` is called every few slices; when it
    // returns false the pass stops and finish() fails with errorString() "cancelled".
    bool finish(sqlite::Connection &db, const HistoryShape &shape, const std::function<bool(double)> &progress = {},
        const QString &sourceIdentity = {});

    // The same second pass in two steps, for a caller whose connection is busy meanwhile (the
    // writer bins while SQLite builds the history's indexes on the thread that owns the
    // connection). binTiles() needs no connection: it may run on any thread, and keeps the
    // encoded tiles in a second temporary file. writeTiles() then creates the summary tables on
    // `db` and copies the tiles and the info into them.
    bool binTiles(const HistoryShape &shape, const std::function<bool(double)> &progress = {},
        const QString &sourceIdentity = {});
    bool writeTiles(sqlite::Connection &db);

    // Why the builder failed: the system's reason for a failed temporary file, the database's
    // message (then databaseFailed() is true: the caller may know a better reason), or
    // "cancelled".
    QString errorString() const { return m_error; }
    bool databaseFailed() const { return m_databaseFailed; }
    const SummaryInfo &info() const { return m_info; }
    const SummaryStats &stats() const { return m_stats; }

private:
    bool fail(const QString &message);
    bool databaseFail(sqlite::Connection &db);
    // finish() and writeTiles(): creates the summary tables on `db`, fills summary_tiles through
    // `fill`, then writes the info.
    bool writeTables(sqlite::Connection &db, const std::function<bool(TileWriter &)> &fill);
    // The pass itself: each stored tile goes to `sink`, which returns false on a database error.
    bool bin(const HistoryShape &shape, const std::function<bool(double)> &progress, const QString &sourceIdentity,
        const TilePyramid::Sink &sink, const std::function<void()> &sinkFailed);

    SummaryOptions m_options;
    SliceSpool m_spool;
    // binTiles()'s tiles until writeTiles(): one entry per tile, numbered in the order made.
    SliceSpool m_tileSpool;
    std::int64_t m_spooledTiles = 0;
    OccupiedRegionsBuilder m_regions;
    // Reused by addSlice(): the fragment, and the accesses' order chunk by chunk.
    SliceFragment m_fragment;
    std::vector<std::size_t> m_chunkStarts;
    std::vector<std::uint32_t> m_order;
    qint64 m_accesses = 0;
    qint64 m_chunks = 0;
    qint64 m_cpuNs = 0; // spent in addSlice(), addFragment() and finish()
    SummaryInfo m_info;
    SummaryStats m_stats;
    QString m_error;
    bool m_databaseFailed = false;
};

} // namespace memhist::summary
