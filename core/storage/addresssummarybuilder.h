// SPDX-License-Identifier: MIT
// Computes the address summary (storage/addresssummaryformat.h) from chunks: the writer feeds it
// each slice's chunks as it stores them and writes the tables at the end of a history, `memhist
// check` feeds it the chunks table and compares what it computes with what a history stores.
// Deterministic: the same chunks give the same bytes.
//
// Cost: a hash-map update per chunk (none per access), no sort of the chunks. Each block's slices are
// held as the varint list the rows store (a byte or two per block and slice; about 0.15 bytes per
// access on the benchmark stream), and written out in block order at the end. Memory is bounded:
// past `memoryBudget` bytes the postings held so far are spilled as a run to the connection's
// temporary database and merged by block at the end. The coarser levels are the unions of the
// finer ones, built as the finest blocks go by.
#pragma once

#include "core/storage/addresssummaryformat.h"
#include "core/storage/sqlite.h"

#include <QByteArray>
#include <QString>
#include <functional>
#include <iterator>
#include <memory>

namespace memhist::addresssummary {

struct Row
{
    int shift = 0;
    std::int64_t block = 0; // the first block of the row (headerBlock for the level's header)
    std::int64_t next = 0; // the level's next row's block, or levelEnd(shift)
    std::int64_t checksum = 0; // rowChecksum() of the above and the postings
    QByteArray postings;
    friend bool operator==(const Row &, const Row &) = default;
};

// What the info row records besides the parameters.
struct Totals
{
    std::int64_t slices = 0;
    std::int64_t lastChunk = 0;
    QByteArray widePostings;
};

inline constexpr qint64 defaultMemoryBudget = qint64(64) << 20;

class Builder
{
public:
    // Uses the connection only for its temporary database (spills) and, in finish(), to count the
    // slices and chunks the summary was built from.
    Builder(sqlite::Connection &db, const Parameters &parameters = {}, qint64 memoryBudget = defaultMemoryBudget);
    ~Builder();
    // Spill to `scratch`'s temporary database instead of the one of the constructor's connection:
    // the writer feeds chunks on a thread of their own while another thread inserts into the
    // history, and a connection serves one thread at a time. Before the first chunk.
    void setScratch(sqlite::Connection &scratch);
    Builder(const Builder &) = delete;
    Builder &operator=(const Builder &) = delete;

    // One chunk (slice rowid, operation code, its first and last byte). Any order gives the same
    // rows; slice after slice, as memhist stores them, keeps the postings smallest. Chunks of an
    // operation code other than 1, 2, 4 are left out. False on a database error while spilling, or
    // with invalid parameters (error() says which).
    bool addChunk(std::int64_t slice, std::int64_t operation, std::uint64_t first, std::uint64_t last);
    // The chunks of one slice (each with operation, first and last), as the writer stores them;
    // counts the thread's CPU time spent in cpuNanoseconds().
    template<typename Chunks> bool addSlice(std::int64_t slice, const Chunks &chunks)
    {
        const qint64 start = threadCpuNanoseconds();
        bool ok = true;
        for (auto it = std::begin(chunks); ok && it != std::end(chunks); ++it)
            ok = addChunk(slice, it->operation, it->first, it->last);
        m_cpuNanoseconds += threadCpuNanoseconds() - start;
        return ok;
    }

    // Once, after the last chunk: hands every row to sink in key order (shift, then block; each
    // level's header row first, even for a level without blocks), then
    // fills *totals. False on a database error (error() says what failed) or when sink returns
    // false (error() is then empty). Empties the scratch tables it made in the temporary database.
    bool finish(const std::function<bool(const Row &)> &sink, Totals *totals);

    const Parameters &parameters() const { return m_parameters; }
    const QString &error() const;
    // How many times the budget was reached (runs spilled to the temporary database).
    int spilledRuns() const;
    // CPU time of the calling threads in addSlice() and finish(): what the summary adds to a writer.
    qint64 cpuNanoseconds() const { return m_cpuNanoseconds; }

private:
    static qint64 threadCpuNanoseconds();

    class State;
    Parameters m_parameters;
    qint64 m_cpuNanoseconds = 0;
    std::unique_ptr<State> m_state;
};

// Creates the two tables in the builder's database and fills them from what it was fed (the
// writer, in finish()). False on a database error, with the connection's error describing it.
bool writeSummary(sqlite::Connection &db, Builder &builder);

} // namespace memhist::addresssummary
