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

#include <QString>
#include <cstddef>

namespace memhist {

class HistoryDatabase;

struct DiffOptions
{
    std::size_t limit = 100; // entries listed (all are counted)
    std::size_t window = std::size_t(1) << 20; // instructions searched on each side for a resync
};

// Compares `a` with `b`; false (and *error) when a history cannot be read.
bool diffRuns(HistoryDatabase &a, HistoryDatabase &b, const DiffOptions &options, DiffResult *result, QString *error);

} // namespace memhist
