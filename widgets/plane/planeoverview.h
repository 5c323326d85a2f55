// SPDX-License-Identifier: MIT
// What the plane needs to know about a whole history before it can draw any view of it: the
// slices, the folded address axis and the summary counts. Made once per history, off the GUI
// thread, from the worker's own read-only connection.
//
// Two ways: openOverview() reads the history's display summary (core/summary), or the one the
// viewer cached for it, and nothing else but the slices: cheap whatever the history's size. A
// history with neither is summarised first (summarizeHistory(), in the background) or, when that
// is impossible, loadOverview() scans it for a fold and per-slice coverage of its own.
#pragma once

#include "core/storage/historydatabase.h"
#include "core/summary/summarystore.h"
#include "widgets/plane/planecoordinates.h"

#include <QString>
#include <bit>
#include <functional>
#include <memory>
#include <vector>

namespace memhist::plane {

struct SliceSpan
{
    qint64 rowId = 0;
    std::uint64_t first = 0; // transitions, inclusive
    std::uint64_t last = 0;
};

// Where one slice has chunks of one operation, at a fixed resolution along the folded address axis:
// bit b is set when a chunk overlaps display range [b, b + 1) * displayLength / bins. Lets a view
// of thousands of slices x millions of chunks be drawn without reading a chunk row, as long as a
// bin is no taller than a pixel.
struct OperationCoverage
{
    // Bins per coarse bin: chunk counts are kept per coarse bin (chunks are far from evenly spread:
    // a dense array sweep makes many narrow chunks, pointer chasing few wide ones).
    static constexpr int binsPerCoarseBin = 64;

    std::vector<quint64> bits; // empty when the slice has no chunk of this operation
    std::vector<quint32> coarseChunks; // chunks starting in each coarse bin
    qint64 chunks = 0;

    // Whether any bin of [first, last] is set.
    bool any(int first, int last) const;
    int count(int first, int last) const;
    // About how many chunks overlap bins [first, last]: exact per coarse bin, spread over the set
    // bins within a coarse bin that the range only partly covers.
    double estimateChunks(int first, int last) const;
};

// The operations in drawing order (writes drawn last, on top); the index into SliceSummary::ops.
inline constexpr Operation drawnOperations[3] = { Operation::Execute, Operation::Read, Operation::Write };
constexpr int operationIndex(Operation op)
{
    return op == Operation::Execute ? 0 : op == Operation::Read ? 1 : 2;
}

struct SliceSummary
{
    OperationCoverage ops[3];
};

struct HistoryOverview
{
    QString path;
    HistorySummary summary;
    std::vector<SliceSpan> slices; // in transition order
    AddressFold fold;
    // The display summary the plane draws from, when there is one (then `fold` is its fold and
    // there is no per-slice coverage): its levels, and the file holding its tiles (the history
    // itself, or a summary file in the viewer's cache).
    std::shared_ptr<const summary::SummaryInfo> summaryInfo;
    QString summaryPath;
    // Set by openOverview() when the history has no usable summary and the cache none for it: the
    // summary file to make (summarizeHistory()) before opening again. Nothing else is then valid.
    QString summaryToMake;
    // Why the history's own summary tables are not used (another version, damaged, another tool's,
    // out of date): the plane then draws from a summary of its own making, never from them.
    QString summaryNotice;
    // The mean number of accesses per chunk: turns a count of visible chunks into an estimate of
    // the accesses a view would draw (the level-of-detail decision).
    double accessesPerChunk = 1;
    // One per slice (same order), at `summaryBins` bins; empty when the summary was not built.
    std::vector<SliceSummary> summaries;
    int summaryBins = 0;
    qint64 milliseconds = 0; // how long loading took
    QString error; // non-empty when the database could not be read; nothing else is then valid
};

// Opens `path` read-only (its own connection, closed before returning), reads the slices, streams
// every chunk's address range into the fold, then streams the chunks again into the per-slice
// coverage (two passes keep memory bounded: nothing per chunk is kept). The bin count is capped so
// that the summaries take at most `summaryBudgetBytes`. Returns null when `cancelled()` turns true
// meanwhile (checked every few thousand rows).
std::shared_ptr<const HistoryOverview> loadOverview(const QString &path, const std::function<bool()> &cancelled,
    const FoldOptions &options = {}, qint64 summaryBudgetBytes = 48ll << 20);

// Opens `path` read-only and reads its slices and display summary: the history's own when it has
// one that matches its tables, else the one cached for it in `cacheDirectory` when that matches the
// file's identity; else sets summaryToMake (the cache file to summarise into; empty with an empty
// `cacheDirectory`, when only loadOverview() is left). No scan of chunks or accesses.
std::shared_ptr<const HistoryOverview> openOverview(const QString &path, const QString &cacheDirectory);

// The index of the first slice that ends at or after transition x (a double in plane space), or
// slices.size() when none does. Slices are sorted and disjoint, so this is a binary search.
std::size_t firstSliceEndingAfter(const std::vector<SliceSpan> &slices, double x);

} // namespace memhist::plane
