// SPDX-License-Identifier: MIT
// Where two code traces that just parted meet again (issue 31): the first pair of instructions,
// one from each run, with the same PC at the same call depth relative to where they parted, the
// way diff(1) re-synchronises lines. "First" is the pair reached soonest when both runs are read
// in lockstep (the smallest max(i, j), then the smallest i + j), so a return to the common caller
// and a join after an if/else are both found, whichever comes first.
//
// Only the first `window` instructions of each run are searched: a divergence longer than that
// is reported as not re-synchronised, and the alignment of the runs ends there.
#pragma once

#include "core/diff/instructionstream.h"

#include <cstddef>
#include <optional>
#include <utility>

namespace memhist {

struct ResyncPoint
{
    std::size_t a = 0; // instructions of A before the meeting point (from the divergence)
    std::size_t b = 0;
};

// `useDepth` false (a history without disassembly) matches PCs alone.
std::optional<ResyncPoint> findResync(InstructionStream &a, InstructionStream &b, std::size_t window, bool useDepth);

} // namespace memhist
