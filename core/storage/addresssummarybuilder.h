// Computes the address summary (storage/addresssummaryformat.h) from the chunks table: the writer
// stores what it computes at the end of a history, `memhist check` compares what it computes with
// what a history stores. Deterministic: the same chunks give the same bytes.
//
// Cost: one pass over the chunks in rowid order, no sort of the chunks. Each block's slices are
// held as the varint list the rows store (a byte or two per block and slice; about 0.15 bytes per
// access on the benchmark stream), and written out in block order at the end. Memory is bounded:
// past `memoryBudget` bytes the postings held so far are spilled as a run to the connection's
// temporary database and merged by block at the end. The coarser levels are the unions of the
// finer ones, built as the finest blocks go by.
#pragma once

#include "storage/addresssummaryformat.h"
#include "storage/sqlite.h"

#include <QByteArray>
#include <QString>
#include <functional>

namespace memhist::addresssummary {

struct Row
{
    int shift = 0;
    std::int64_t block = 0; // the first block of the row
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
    Builder(sqlite::Connection &db, const Parameters &parameters, qint64 memoryBudget = defaultMemoryBudget);

    // Hands every row to sink in key order (shift, then block), then fills *totals. False on a
    // database error (error() says what failed) or when sink returns false (error() is then empty).
    // Uses two scratch tables in the connection's temporary database and drops them.
    bool run(const std::function<bool(const Row &)> &sink, Totals *totals);

    const QString &error() const { return m_error; }
    // How many times the budget was reached (runs spilled to the temporary database).
    int spilledRuns() const { return m_spills; }

private:
    sqlite::Connection &m_db;
    Parameters m_parameters;
    qint64 m_memoryBudget;
    QString m_error;
    int m_spills = 0;
};

// Creates the two tables and fills them from the chunks (the writer, in finish()). False on a
// database error, with the connection's error describing it.
bool writeSummary(sqlite::Connection &db, const Parameters &parameters = {});

} // namespace memhist::addresssummary
