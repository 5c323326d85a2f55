// SPDX-License-Identifier: MIT
#include "learnbaseline.h"

namespace memhist {

bool learnBaseline(HistoryDatabase &a, HistoryDatabase &a2, DiffOptions options, DiffNoise *noise, QString *error)
{
    // Every difference is counted and learned whatever the limit: one listed entry keeps the
    // result small.
    options.limit = 1;
    options.ignore = nullptr;
    options.learn = noise;
    DiffResult unused;
    return diffRuns(a, a2, options, &unused, error);
}

} // namespace memhist
