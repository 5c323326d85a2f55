// SPDX-License-Identifier: MIT
// One history's executed instructions in time order, with the call depth before each, read from
// its code trace (core/context/codetrace.h) stretch by stretch, and buffered only as far ahead as
// the diff looks (peek). The depth comes from the disassembly: a `call` deepens, a `ret` returns;
// a history without the instructions table has depth 0 throughout.
//
// The buffer holds stretches, not instructions: a run of a gzip recording has 40 M instructions
// in about 13 M stretches, and an aligned stretch whose instructions access nothing is passed over
// whole (current(), skip()) instead of one instruction at a time.
#pragma once

#include "core/context/codetracewalk.h"
#include "core/model/types.h"
#include "core/storage/sqlite.h"

#include <QHash>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace memhist {

struct TracedInstruction
{
    std::uint64_t transition = 0;
    std::uint64_t pc = 0; // 0 when unknown
    std::int64_t depth = 0; // call depth before the instruction, from the start of the trace
};

// The current instruction and the rest of its stretch: consecutive transitions from `first`, all
// at call depth `depth`, executing pcs[0 .. count - 1] (pcs nullptr: unknown, 0 each).
struct StretchAhead
{
    std::uint64_t first = 0;
    std::int64_t depth = 0;
    const std::uint64_t *pcs = nullptr;
    std::size_t count = 0;

    std::uint64_t pcAt(std::size_t i) const { return pcs ? pcs[i] : 0; }
};

class InstructionStream
{
public:
    // Reads through `connection`, which must outlive this object.
    explicit InstructionStream(sqlite::Connection &connection);

    bool available() const { return m_available; }
    bool knowsCalls() const { return m_knowsCalls; }

    // The k-th instruction from the current one (0: the current); false past the end of the trace.
    bool peek(std::size_t k, TracedInstruction *instruction);
    // Moves past the current instruction; false at the end.
    bool pop(TracedInstruction *instruction = nullptr);
    // The current instruction's stretch from it on; false at the end of the trace. Valid until the
    // next call that moves or reads ahead.
    bool current(StretchAhead *stretch);
    // Moves past the first `count` instructions of current() (at most its count).
    void skip(std::size_t count);
    // How many instructions are buffered ahead (what peek() has read so far).
    std::size_t buffered() const { return m_buffered; }
    std::uint64_t consumed() const { return m_consumed; }

private:
    struct Piece
    {
        std::uint64_t first = 0;
        std::uint64_t count = 0;
        std::int64_t depth = 0;
        const std::uint64_t *pcs = nullptr; // into m_runPcs; nullptr: unknown
    };

    // A run's PCs, and what each does to the call depth when a stretch ends there (callEffect,
    // asked once per instruction; unknownEffect until then).
    struct RunPcs
    {
        static constexpr std::int8_t unknownEffect = 2;
        std::vector<std::uint64_t> pcs;
        std::vector<std::int8_t> effects;
    };

    bool readStretch();
    int callEffect(std::uint64_t pc); // +1 call, -1 return, 0 other
    RunPcs &pcsOf(const CodeStretch &stretch);

    CodeTraceWalk m_walk;
    sqlite::Statement m_instructionText;
    bool m_available = false;
    bool m_knowsCalls = false;
    bool m_started = false;
    bool m_ended = false;
    std::uint64_t m_start = 0;
    std::int64_t m_depth = 0;
    std::uint64_t m_consumed = 0;
    std::deque<Piece> m_ahead; // the front one less its first m_headUsed instructions
    std::uint64_t m_headUsed = 0;
    std::size_t m_buffered = 0;
    // Where the last peek() found its instruction, so that peeks of increasing k (resync's) do not
    // walk the pieces from the front each time; reset whenever the front moves.
    std::size_t m_peekPiece = 0;
    std::size_t m_peekBase = 0; // instructions ahead before m_ahead[m_peekPiece]
    QHash<std::uint64_t, int> m_effects; // by PC of a stretch's last instruction
    // Each run's PCs, computed once; the pieces point into them. The runs are the program's
    // straight-line pieces of code (thousands, numbered from 1): small ids are looked up by index,
    // which costs less than a hash per stretch, larger ones in a node map.
    std::vector<std::unique_ptr<RunPcs>> m_runsById;
    std::unordered_map<std::uint64_t, RunPcs> m_otherRuns;
    std::size_t m_cachedRuns = 0;
};

} // namespace memhist
