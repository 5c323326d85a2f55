// SPDX-License-Identifier: MIT
#include "instructionstream.h"

#include "core/context/codetrace.h"
#include "core/diff/diffstatements.h"

namespace memhist {

namespace {

// Runs whose PCs are kept at most; past it the cache starts again when nothing points into it.
constexpr std::size_t maxCachedRuns = 1 << 16;
// Run ids below this are looked up by index (a table of at most 8 MiB of pointers).
constexpr std::uint64_t maxIndexedRunId = 1 << 20;

} // namespace

InstructionStream::InstructionStream(sqlite::Connection &connection)
    : m_walk(connection)
    , m_instructionText(connection.prepare(diffstatements::instructionText))
{
    sqlite::Statement start = connection.prepare(diffstatements::codeTraceStart);
    if (m_walk.available() && start.isValid() && start.step() == SQLITE_ROW && !start.isNull(0)) {
        m_available = true;
        m_start = fromStored(start.int64(0));
    }
    m_knowsCalls = m_instructionText.isValid();
}

int InstructionStream::callEffect(std::uint64_t pc)
{
    if (!m_knowsCalls || pc == 0)
        return 0;
    const auto known = m_effects.constFind(pc);
    if (known != m_effects.constEnd())
        return *known;
    int effect = 0;
    m_instructionText.bind(1, toStored(pc));
    if (m_instructionText.step() == SQLITE_ROW) {
        const QString text = m_instructionText.text(0);
        // capstone's Intel text: "call 0x401136", "call qword ptr [rax]", "ret", "ret 8", "bnd ret"
        if (text.startsWith(QLatin1String("call")) || text.startsWith(QLatin1String("bnd call")))
            effect = 1;
        else if (text.startsWith(QLatin1String("ret")) || text.startsWith(QLatin1String("bnd ret")))
            effect = -1;
    }
    m_instructionText.reset();
    m_effects.insert(pc, effect);
    return effect;
}

InstructionStream::RunPcs &InstructionStream::pcsOf(const CodeStretch &stretch)
{
    // Copied at once: the walk's run cache may drop the run on its next lookup. A run id names
    // one row of code_runs, so its PCs never change.
    const bool indexed = stretch.runId < maxIndexedRunId;
    if (indexed && stretch.runId < m_runsById.size() && m_runsById[stretch.runId])
        return *m_runsById[stretch.runId];
    if (!indexed)
        if (const auto known = m_otherRuns.find(stretch.runId); known != m_otherRuns.end())
            return known->second;
    RunPcs run;
    run.pcs.reserve(std::size_t(stretch.run->sizes.size()));
    std::uint64_t pc = stretch.run->pc.value;
    for (const char size : stretch.run->sizes) {
        run.pcs.push_back(pc);
        pc += std::uint8_t(size);
    }
    run.effects.assign(run.pcs.size(), RunPcs::unknownEffect);
    ++m_cachedRuns;
    if (!indexed)
        return m_otherRuns.emplace(stretch.runId, std::move(run)).first->second;
    if (stretch.runId >= m_runsById.size())
        m_runsById.resize(std::size_t(stretch.runId) + 1);
    m_runsById[stretch.runId] = std::make_unique<RunPcs>(std::move(run));
    return *m_runsById[stretch.runId];
}

bool InstructionStream::readStretch()
{
    if (m_ended || !m_available)
        return false;
    CodeStretch stretch;
    do {
        const bool found = m_started ? m_walk.next(&stretch) : m_walk.seek(Transition { m_start }, &stretch);
        m_started = true;
        if (!found) {
            m_ended = true;
            return false;
        }
    } while (stretch.count == 0);
    if (m_ahead.empty() && m_cachedRuns >= maxCachedRuns) {
        m_runsById.clear();
        m_otherRuns.clear();
        m_cachedRuns = 0;
    }
    RunPcs *run = stretch.run ? &pcsOf(stretch) : nullptr;
    m_ahead.push_back(Piece { stretch.first, stretch.count, m_depth, run ? run->pcs.data() : nullptr });
    m_buffered += stretch.count;
    // Only a stretch's last instruction can call or return: both jump, and a jump ends a run.
    if (run) {
        std::int8_t &effect = run->effects[std::size_t(stretch.count - 1)];
        if (effect == RunPcs::unknownEffect)
            effect = std::int8_t(callEffect(run->pcs[std::size_t(stretch.count - 1)]));
        m_depth += effect;
    }
    return true;
}

bool InstructionStream::peek(std::size_t k, TracedInstruction *instruction)
{
    while (m_buffered <= k)
        if (!readStretch())
            return false;
    if (k < m_peekBase || m_peekPiece >= m_ahead.size()) {
        m_peekPiece = 0;
        m_peekBase = 0;
    }
    // Instructions ahead of the front piece's first one that is still to come.
    for (;;) {
        const Piece &piece = m_ahead[m_peekPiece];
        const std::uint64_t used = m_peekPiece == 0 ? m_headUsed : 0;
        const std::size_t left = std::size_t(piece.count - used);
        if (k < m_peekBase + left) {
            const std::uint64_t i = used + (k - m_peekBase);
            *instruction = TracedInstruction { piece.first + i, piece.pcs ? piece.pcs[i] : 0, piece.depth };
            return true;
        }
        m_peekBase += left;
        ++m_peekPiece;
    }
}

bool InstructionStream::current(StretchAhead *stretch)
{
    if (m_buffered == 0 && !readStretch())
        return false;
    const Piece &piece = m_ahead.front();
    stretch->first = piece.first + m_headUsed;
    stretch->depth = piece.depth;
    stretch->pcs = piece.pcs ? piece.pcs + m_headUsed : nullptr;
    stretch->count = std::size_t(piece.count - m_headUsed);
    return true;
}

void InstructionStream::skip(std::size_t count)
{
    if (count == 0 || m_ahead.empty())
        return;
    const Piece &piece = m_ahead.front();
    count = std::min<std::size_t>(count, std::size_t(piece.count - m_headUsed));
    m_headUsed += count;
    m_buffered -= count;
    m_consumed += count;
    if (m_headUsed == piece.count) {
        m_ahead.pop_front();
        m_headUsed = 0;
    }
    m_peekPiece = 0;
    m_peekBase = 0;
}

bool InstructionStream::pop(TracedInstruction *instruction)
{
    TracedInstruction current;
    if (!peek(0, &current))
        return false;
    if (instruction)
        *instruction = current;
    skip(1);
    return true;
}

} // namespace memhist
