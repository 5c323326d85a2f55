// SPDX-License-Identifier: MIT
// One history's executed instructions in time order, with the call depth before each, read from
// its code trace (core/context/codetrace.h) stretch by stretch, and buffered only as far ahead as
// the diff looks (peek). The depth comes from the disassembly: a `call` deepens, a `ret` returns;
// a history without the instructions table has depth 0 throughout.
#pragma once

#include "core/context/codetracewalk.h"
#include "core/model/types.h"
#include "core/storage/sqlite.h"

#include <QHash>
#include <deque>

namespace memhist {

struct TracedInstruction
{
    std::uint64_t transition = 0;
    std::uint64_t pc = 0; // 0 when unknown
    std::int64_t depth = 0; // call depth before the instruction, from the start of the trace
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
    // How many instructions are buffered ahead (what peek() has read so far).
    std::size_t buffered() const { return m_ahead.size(); }
    std::uint64_t consumed() const { return m_consumed; }

private:
    bool readStretch();
    int callEffect(std::uint64_t pc); // +1 call, -1 return, 0 other

    CodeTraceWalk m_walk;
    sqlite::Statement m_instructionText;
    bool m_available = false;
    bool m_knowsCalls = false;
    bool m_started = false;
    bool m_ended = false;
    std::uint64_t m_start = 0;
    std::int64_t m_depth = 0;
    std::uint64_t m_consumed = 0;
    std::deque<TracedInstruction> m_ahead;
    QHash<std::uint64_t, int> m_effects; // by PC of a stretch's last instruction
};

} // namespace memhist
