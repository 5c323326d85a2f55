// SPDX-License-Identifier: MIT
// `memhist diff`: aligns two runs of one program and lists where they differ (issue 31), in one
// streaming pass over both histories (no history is held in memory):
// - the code traces are read in lockstep while their PCs agree; where they part, the last common
//   instruction is the branch that parted them, and resync.h finds where they meet again (within
//   DiffOptions::window instructions of each run);
// - in aligned stretches the accesses of each pair of aligned instructions are compared pairwise
//   (operation, size, normalised address: addressnormaliser.h, value): the first difference of
//   each stretch is a memory hunk;
// - every write of both runs goes to its object (objecthistories.h), whose differing histories are
//   listed at the end.
// Without a code trace in either history the runs are compared by transition alone (memory only),
// and the result's notes say so.
#pragma once

#include "core/diff/diffresult.h"

#include <QSet>
#include <QString>
#include <cstddef>
#include <functional>

namespace memhist {

class HistoryDatabase;

// What differs between two runs of the same input: nondeterminism (the stack protector's canary
// and the pointer guard from AT_RANDOM, rdtsc timings, thread ids, getrandom()), learned from a
// baseline pair of runs and left out of another diff (`memhist diff --baseline`).
struct DiffNoise
{
    QSet<QString> objects; // as reported ("tcache_key", "[stack] top-0xbf8")
    QSet<std::uint64_t> accessPcs; // instructions whose accesses differed in an aligned stretch
    QSet<std::uint64_t> branchPcs; // branches that parted the runs
    static constexpr qsizetype maxPcs = 1 << 20;

    bool isEmpty() const { return objects.isEmpty() && accessPcs.isEmpty() && branchPcs.isEmpty(); }
};

struct DiffOptions
{
    std::size_t limit = 100; // entries listed (all are counted)
    std::size_t window = std::size_t(1) << 20; // instructions searched on each side for a resync
    const DiffNoise *ignore = nullptr; // differences left out (a baseline's noise)
    DiffNoise *learn = nullptr; // filled with every difference found (to serve as a baseline)
    // Called every progressInterval instructions walked in A (transitions, in a memory-only
    // comparison) with A's transition reached: how far the comparison is, for a viewer's progress
    // bar. Returning false stops it: diffRuns() then fails with diffCancelledError. Unset (the CLI):
    // never called.
    std::function<bool(Transition reached)> progress;
    std::uint64_t progressInterval = std::uint64_t(1) << 16;
};

// The error of a comparison whose progress callback asked it to stop.
inline const QString diffCancelledError = QStringLiteral("the comparison was cancelled");

// Compares `a` with `b`; false (and *error) when a history cannot be read, or when
// options.progress asked it to stop (*error is then diffCancelledError).
bool diffRuns(HistoryDatabase &a, HistoryDatabase &b, const DiffOptions &options, DiffResult *result, QString *error);

} // namespace memhist
