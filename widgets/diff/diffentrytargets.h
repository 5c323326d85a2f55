// SPDX-License-Identifier: MIT
// Where an entry of a comparison (core/diff/diffresult.h) is on each run's plane: the transitions
// to bring into view, the bytes to frame and outline, and the accesses to mark. Side A is the
// first history (the top plane), B the second (the bottom one).
#pragma once

#include "core/diff/diffresult.h"
#include "core/model/types.h"

#include <QList>
#include <optional>

namespace memhist {

enum class DiffSide {
    A,
    B,
};

struct DiffTarget
{
    Transition firstTransition; // inclusive
    Transition lastTransition;
    std::optional<Address> firstAddress; // the bytes of its accesses; none for a control hunk
    std::optional<Address> lastAddress;
    QList<Access> accesses; // the differing accesses of this side, in rowid order, each once
};

// The side's part of `entry`, or none when the side has nothing there (a memory hunk with only
// A's access, an object B never wrote). A control hunk whose side ran nothing is the point where
// that side went on (its first transition).
std::optional<DiffTarget> diffTarget(const DiffEntry &entry, DiffSide side);

// The entry listed at a point (t, a) of the side's plane, for a click there: the one whose
// differing accesses include the access under the cursor; else the memory hunk or object whose
// accesses' box holds the point, the shortest in time first; else the control hunk whose stretch
// on that side holds t, the shortest first. None when no entry is there.
std::optional<qsizetype> entryAt(const QList<DiffEntry> &entries, DiffSide side, Transition t, Address a,
    const std::optional<Access> &accessUnderCursor);

// A compared access as the plane draws and marks it (the recorded address in both columns: the
// histories memhist compares are user programs').
Access accessOf(const DiffAccess &access);

} // namespace memhist
