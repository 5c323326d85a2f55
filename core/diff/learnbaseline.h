// SPDX-License-Identifier: MIT
// A baseline (`memhist diff --baseline A2`, the viewer's Compare With Baseline…): what differs
// between two runs of the same input is nondeterminism (DiffNoise), and a diff of A with another
// run leaves it out. Learning it is a comparison of A with A2 that lists nothing and remembers
// every difference it finds.
#pragma once

#include "core/diff/rundiff.h"

namespace memhist {

// Fills *noise with what differs between `a` and `a2` (a second run of A's input), walking both
// once with `options` (their limit, ignore and learn are not used; progress is). False and *error
// as diffRuns() fails: a history that cannot be read, or a progress that asked to stop.
bool learnBaseline(HistoryDatabase &a, HistoryDatabase &a2, DiffOptions options, DiffNoise *noise, QString *error);

} // namespace memhist
