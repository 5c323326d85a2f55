// SPDX-License-Identifier: MIT
// Walks the code trace (codetrace.h) pair by pair from a transition, backward or forward: what the
// origin search needs to find the last instruction that wrote a register, without asking pcAt()
// for one transition at a time. Each step hands over a stretch of consecutive transitions and the
// run they executed; the stretches of a code_trace row are decoded once per row.
#pragma once

#include "core/context/codetrace.h"
#include "core/model/types.h"
#include "core/storage/sqlite.h"

#include <QHash>
#include <QString>
#include <vector>

namespace memhist {

// Transitions [first, first + count) executed instructions 0 .. count - 1 of `run` (nullptr: their
// PCs are unknown, or the run is missing from a damaged file).
struct CodeStretch
{
    std::uint64_t first = 0;
    std::uint64_t count = 0;
    std::uint64_t runId = 0;
    const CodeRun *run = nullptr;
};

class CodeTraceWalk
{
public:
    // Reads through `connection`, which must outlive this object. One thread at a time.
    explicit CodeTraceWalk(sqlite::Connection &connection);

    // False when the history has no code trace.
    bool available() const { return m_rowAtOrBefore.isValid() && m_runById.isValid(); }

    // Places the walk on the stretch holding `transition`; false when no stretch holds it.
    bool seek(Transition transition, CodeStretch *stretch);
    // The stretch before (after) the last one handed over; false at the start (end) of the trace.
    bool previous(CodeStretch *stretch);
    bool next(CodeStretch *stretch);
    // Why a step above returned false when the trace did not end there: the file could not be read
    // ("cannot read the code trace: database disk image is malformed"). Empty while every read
    // succeeded; once set it stays, since what the walk hands over after it would be short.
    const QString &error() const { return m_error; }

    // Run `id` (cached); nullptr when the file has none.
    const CodeRun *run(std::uint64_t id);

private:
    bool loadRow(sqlite::Statement &statement, std::uint64_t transition);
    // Keeps the first read error (SQLite's reason, read before the statement is reset).
    void noteError(const char *what, int rc);
    CodeStretch stretchAt(std::size_t index);

    sqlite::Connection &m_connection;
    QString m_error;
    sqlite::Statement m_rowAtOrBefore;
    sqlite::Statement m_rowAtOrAfter;
    sqlite::Statement m_runById;
    QHash<std::uint64_t, CodeRun> m_runs;

    // The row the walk is in, decoded whole.
    bool m_hasRow = false;
    std::uint64_t m_rowFirst = 0;
    std::uint64_t m_rowEnd = 0;
    std::vector<std::uint64_t> m_starts;
    std::vector<CodeTracePair> m_pairs;
    std::size_t m_index = 0; // of the last stretch handed over
};

} // namespace memhist
