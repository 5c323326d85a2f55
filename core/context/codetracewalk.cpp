// SPDX-License-Identifier: MIT
#include "core/context/codetracewalk.h"

#include "core/context/contextstatements.h"

#include <algorithm>
#include <optional>

namespace memhist {

namespace {

// Caches stay small next to a history: cleared when they reach this many entries.
constexpr qsizetype maxCachedRuns = 1 << 16;

} // namespace

CodeTraceWalk::CodeTraceWalk(sqlite::Connection &connection)
    : m_connection(connection)
    , m_rowAtOrBefore(connection.prepare(contextstatements::codeTraceRowAtOrBefore))
    , m_rowAtOrAfter(connection.prepare(contextstatements::codeTraceRowAtOrAfter))
    , m_runById(connection.prepare(contextstatements::codeRunById))
{ }

const CodeRun *CodeTraceWalk::run(std::uint64_t id)
{
    const auto known = m_runs.constFind(id);
    if (known != m_runs.constEnd())
        return &*known;
    if (id == unknownCodeRun || !m_runById.isValid())
        return nullptr;
    m_runById.bind(1, toStored(id));
    std::optional<CodeRun> found;
    const int rc = m_runById.step();
    if (rc == SQLITE_ROW)
        found = CodeRun { Address { fromStored(m_runById.int64(0)) }, m_runById.blob(1) };
    else if (rc != SQLITE_DONE)
        noteError("cannot read the code trace's runs", rc);
    m_runById.reset();
    if (!found)
        return nullptr;
    if (m_runs.size() >= maxCachedRuns)
        m_runs.clear();
    return &*m_runs.insert(id, *found);
}

bool CodeTraceWalk::loadRow(sqlite::Statement &statement, std::uint64_t transition)
{
    if (!statement.isValid() || transition >= signBoundary)
        return false;
    statement.bind(1, toStored(transition));
    const int rc = statement.step();
    const bool found = rc == SQLITE_ROW;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        noteError("cannot read the code trace", rc);
    if (found) {
        m_rowFirst = fromStored(statement.int64(0));
        m_starts.clear();
        m_pairs.clear();
        CodeTraceDecoder decoder(statement.blobView(1));
        CodeTracePair pair;
        std::uint64_t start = m_rowFirst;
        while (decoder.next(&pair)) {
            m_starts.push_back(start);
            m_pairs.push_back(pair);
            start += pair.count;
        }
        m_rowEnd = start;
    }
    statement.reset();
    m_hasRow = found && !m_pairs.empty();
    return m_hasRow;
}

void CodeTraceWalk::noteError(const char *what, int rc)
{
    if (m_error.isEmpty())
        m_error = QLatin1String(what) + QStringLiteral(": ") + m_connection.errorFor(rc);
}

CodeStretch CodeTraceWalk::stretchAt(std::size_t index)
{
    m_index = index;
    const CodeTracePair &pair = m_pairs[index];
    CodeStretch stretch { m_starts[index], pair.count, pair.run, run(pair.run) };
    // A damaged or foreign file: a pair longer than its run has no known PCs.
    if (stretch.run && std::uint64_t(stretch.run->sizes.size()) < pair.count)
        stretch.run = nullptr;
    return stretch;
}

bool CodeTraceWalk::seek(Transition transition, CodeStretch *stretch)
{
    if (!(m_hasRow && m_rowFirst <= transition.value && transition.value < m_rowEnd)
        && !loadRow(m_rowAtOrBefore, transition.value))
        return false;
    if (transition.value >= m_rowEnd)
        return false;
    const auto after = std::upper_bound(m_starts.begin(), m_starts.end(), transition.value);
    *stretch = stretchAt(std::size_t(after - m_starts.begin()) - 1);
    return true;
}

bool CodeTraceWalk::previous(CodeStretch *stretch)
{
    if (!m_hasRow)
        return false;
    if (m_index > 0) {
        *stretch = stretchAt(m_index - 1);
        return true;
    }
    if (m_rowFirst == 0 || !loadRow(m_rowAtOrBefore, m_rowFirst - 1))
        return false;
    *stretch = stretchAt(m_pairs.size() - 1);
    return true;
}

bool CodeTraceWalk::next(CodeStretch *stretch)
{
    if (!m_hasRow)
        return false;
    if (m_index + 1 < m_pairs.size()) {
        *stretch = stretchAt(m_index + 1);
        return true;
    }
    if (!loadRow(m_rowAtOrAfter, m_rowEnd))
        return false;
    *stretch = stretchAt(0);
    return true;
}

} // namespace memhist
