// SPDX-License-Identifier: MIT
// What `memhist diff` finds between two histories (rundiff.h), as plain values: the control-flow
// hunks where the code traces part and meet again, the first differing access of each aligned
// stretch, and the objects whose writes differ. Side A is the first history, B the second.
#pragma once

#include "core/model/types.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace memhist {

// An instruction of one run, described (function and source line where the history knows them).
struct DiffPlace
{
    Transition transition;
    Address pc;
    QString function; // "choose+0x1c"; empty when unknown
    QString source; // "prog.c:10"; empty when unknown
};

// One access of one run, described, with its normalised address (the object it belongs to).
struct DiffAccess
{
    RowId rowId;
    Transition transition;
    Address pc; // 0 when unknown
    QString function;
    QString source;
    Operation operation = Operation::Read;
    Address address; // as recorded in this run
    std::uint32_t size = 0;
    QString object; // the normalised address: "counter", "counter+0x4", "[heap] cell 2 of main+0x5e", ...
    QByteArray value; // empty when unknown
};

// Where the code traces part: A ran transitions aFirst..aFirst+aCount-1 and B bFirst..bFirst+bCount-1
// (either count may be 0) before they meet again at `aResync` / `bResync`.
struct ControlHunk
{
    std::optional<DiffPlace> branch; // the last common instruction before them (none at the start)
    Transition aFirst;
    std::uint64_t aCount = 0;
    Transition bFirst;
    std::uint64_t bCount = 0;
    std::optional<DiffPlace> aStart; // the first instruction of each side's own stretch
    std::optional<DiffPlace> bStart;
    std::optional<DiffPlace> aResync; // where both meet again; none when a run ended or no resync was found
    std::optional<DiffPlace> bResync;
    bool resyncFound = true; // false: not within the lookahead window (the alignment ends here)
};

// The first access of an aligned stretch whose operation, size, normalised address or value
// differs between the runs; either side may be missing (one run made more accesses there).
struct MemoryHunk
{
    std::optional<DiffAccess> a;
    std::optional<DiffAccess> b;
    std::uint64_t differingAccesses = 0; // in the aligned stretch, this one included
};

// An object (a global, a heap cell, a stack slot, a region word) whose writes differ.
struct ObjectDifference
{
    QString object;
    std::uint64_t aWrites = 0;
    std::uint64_t bWrites = 0;
    std::uint64_t firstDifferingWrite = 0; // 1-based index of the first write that differs; 0 when not known
    std::optional<DiffAccess> aFirstDiffering; // none: A made no such write
    std::optional<DiffAccess> bFirstDiffering;
    std::optional<DiffAccess> aLast; // the final write of each side
    std::optional<DiffAccess> bLast;
};

// One entry of the report, in order of A's time.
struct DiffEntry
{
    enum class Kind {
        Control,
        Memory,
        Object,
    };
    Kind kind = Kind::Control;
    ControlHunk control;
    MemoryHunk memory;
    ObjectDifference object;
};

struct DiffResult
{
    QList<DiffEntry> entries; // at most the limit asked for, in order of A's time
    std::uint64_t controlHunks = 0; // found in all, even beyond the limit
    std::uint64_t memoryHunks = 0;
    std::uint64_t objects = 0;
    std::uint64_t alignedInstructions = 0;
    std::uint64_t aInstructions = 0;
    std::uint64_t bInstructions = 0;
    std::uint64_t aAccesses = 0;
    std::uint64_t bAccesses = 0;
    std::uint64_t ignored = 0; // differences left out because the baseline has them too
    QStringList notes; // limits met ("objects capped at ..."), the mode (memory only), ...

    bool differ() const { return controlHunks + memoryHunks + objects > 0; }
};

} // namespace memhist
