// SPDX-License-Identifier: MIT
// The work of the viewer's Compare With…, run off the GUI thread: opens the second history (B)
// read-only beside the first (A), refuses what `memhist diff` refuses (a file that is not a
// history, runs of different programs) and the file open already, then compares them (diffRuns())
// with progress and a way to stop.
#pragma once

#include "core/diff/diffresult.h"
#include "core/model/types.h"

#include <QString>
#include <functional>

namespace memhist::viewer {

struct CompareOutcome
{
    bool ok = false;
    bool cancelled = false; // stopped through `progress`; `error` says so
    DiffResult result;
    QString error; // why not, naming the file
};

// The entries listed at most (all are counted): far more than a person reads, few enough to list.
constexpr std::size_t compareEntryLimit = 10000;

// Compares history `a` with `b`. With a `baseline` (a second run of A's input; empty: none), what
// differs between A and it is left out, as `memhist diff --baseline` does: A is compared with the
// baseline first, then with B. `progress` gets how far along A's transitions the work is, every so
// often, and returns false to stop (the outcome is then cancelled); with a baseline each of the two
// passes counts for half of A's transitions.
CompareOutcome compareHistories(const QString &a, const QString &b, const QString &baseline, std::size_t limit,
    const std::function<bool(Transition reached)> &progress);

} // namespace memhist::viewer
