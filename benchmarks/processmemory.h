// SPDX-License-Identifier: MIT
// The resident-set figures of this process, from Linux's /proc/self: how much memory one benchmark
// phase needed at its peak; and the CPU time it used, which, unlike its wall time, does not grow
// when other programs share the cores.
#pragma once

#include <QtGlobal>

namespace memhist::bench {

// Resets the peak resident set size (VmHWM) to the current one, so that the next peakRssBytes()
// reports the peak of what runs in between. False where the kernel does not support it.
bool resetPeakRss();

// VmHWM and VmRSS from /proc/self/status, in bytes; -1 when unavailable.
qint64 peakRssBytes();
qint64 currentRssBytes();

// User + system CPU time of the whole process (all its threads) so far, in nanoseconds.
qint64 processCpuNanoseconds();

} // namespace memhist::bench
