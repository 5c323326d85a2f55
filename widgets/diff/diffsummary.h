// SPDX-License-Identifier: MIT
// The Differences tab's header: what a comparison found, in one line as `memhist diff` ends its
// table ("3 control hunks, 1 memory hunk, 5 objects differ; …"), saying when the listing is
// capped, then the comparison's notes (memory only, limits met), one a line.
#pragma once

#include "core/diff/diffresult.h"

#include <QString>

namespace memhist {

// The counts and sizes: "2 control hunks, 1 memory hunk, 3 objects differ; 120,000 instructions
// aligned (A ran 130,000, B 130,210)", then "; first 10,000 of 12,345 listed" when capped and
// "; 4 left out (the baseline has them too)". Runs that do not differ: "No differences: …".
QString diffCountsText(const DiffResult &result);

// diffCountsText() and the notes ("Note: …"), one a line.
QString diffSummaryText(const DiffResult &result);

} // namespace memhist
