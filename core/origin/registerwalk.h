// SPDX-License-Identifier: MIT
// Finds, in the code trace, the instruction of the same thread that last wrote a register before a
// transition (or the next ones that use it after one): the register half of the origin search.
// Each run of the code trace gets, once, one bit set per instruction of the register families it
// writes and reads (instructionflow.h), so that the walk skips whole runs that do not touch the
// register and stays cheap over long stretches of loops. It gives up after maxDistance
// transitions instead of scanning the whole history.
#pragma once

#include "core/context/codetracewalk.h"
#include "core/model/types.h"
#include "core/origin/instructionflow.h"

#include <QHash>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

namespace memhist {

class HistoryDatabase;

struct RegisterStep
{
    enum class Outcome {
        Found, // at `transition`, `pc`
        TooFar, // none within maxDistance transitions (`transition`: where the walk stopped)
        TraceEnd, // the code trace (or the thread's part of it) ends first
        UnknownCode, // a stretch of unknown PCs at `transition`: whether it wrote the register is unknown
    };
    Outcome outcome = Outcome::TraceEnd;
    Transition transition;
    Address pc;
};

class RegisterWalk
{
public:
    static constexpr std::uint64_t maxDistance = 1000000;

    // Reads through `database` and `flows`, which must outlive this object.
    RegisterWalk(HistoryDatabase &database, InstructionFlowReader &flows);

    bool available() const { return m_code.available(); }
    // Set when the code trace could not be read (a damaged page): a step that then says TraceEnd or
    // TooFar stopped at the damage, not at the end, and must not be reported as an answer.
    const QString &error() const { return m_code.error(); }
    // The PC of the instruction at `transition`, when the code trace knows it.
    std::optional<Address> pcAt(Transition transition);

    // The last instruction before `before`, of the thread that ran `before`, that wrote a family of
    // `families` (registerfamily.h bits).
    RegisterStep lastWriteBefore(Transition before, std::uint64_t families);

    // The instructions after `after`, of the thread that ran `after`, that read or write a family of
    // `families`, in time order, each handed to `visit` until it returns false. What the last step
    // was: Found when `visit` stopped the walk there.
    RegisterStep scanAfter(
        Transition after, std::uint64_t families, const std::function<bool(Transition, Address)> &visit);

private:
    // Per run: the families each instruction writes, and those it writes or reads, and the union of
    // each prefix (to skip a stretch in one test). Grown as far as the stretches need.
    struct RunFamilies
    {
        std::vector<std::uint64_t> written;
        std::vector<std::uint64_t> touched;
        std::vector<std::uint64_t> writtenPrefix;
        std::vector<std::uint64_t> touchedPrefix;
    };
    const RunFamilies &familiesOf(const CodeStretch &stretch);
    // The spans of the thread that ran `transition` within [first, last], ascending; one span
    // covering the window when the history records no threads.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> threadWindow(
        Transition transition, std::uint64_t first, std::uint64_t last);

    HistoryDatabase &m_database;
    InstructionFlowReader &m_flows;
    CodeTraceWalk m_code;
    QHash<std::uint64_t, RunFamilies> m_runs;
};

} // namespace memhist
