// SPDX-License-Identifier: MIT
// Interleaves the files of a trace into one timeline by their timestamp markers: at every
// scheduling point, the file whose next segment has the smallest timestamp runs (ties go to the
// smaller thread id, then to the file listed first), so the same trace always gives the same
// history. Each file is read as a stream; only its reader's buffer is held. The files are threads,
// or, for a core-sharded trace, cores: a core runs its schedule in file order, and the cores meet
// at their timestamp markers as threads do.
#pragma once

#include "core/importers/drmemtrace/threaddecoder.h"

#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace memhist::drmemtrace {

// Where a segment stands in the timeline: segments run in increasing key order, and within a file
// in file order.
struct SegmentKey
{
    quint64 timestamp = 0;
    qint64 threadId = -1;
    size_t index = 0; // of the file

    friend bool operator<(const SegmentKey &a, const SegmentKey &b)
    {
        return std::tie(a.timestamp, a.threadId, a.index) < std::tie(b.timestamp, b.threadId, b.index);
    }
    friend bool operator>(const SegmentKey &a, const SegmentKey &b) { return b < a; }
};

// A seek's cut (chunkseek.h): the segments before `key` are the rest of the chunks the files start
// in; the first segment at or after it is where the timeline is known again, at transition
// `transitionAtCut` + the instructions counted before the cut.
struct InterleaveCut
{
    SegmentKey key;
    quint64 transitionAtCut = 0;
};

enum class InterleaveEnd {
    Complete, // every file read to its end
    WindowEnd, // the window's end was reached
    Failed,
};

// Runs every file to its end or the window's. Failed + *error (naming the file, the record and the
// reason).
InterleaveEnd interleaveThreads(std::vector<std::unique_ptr<ThreadDecoder>> &threads, DecodeContext &context,
    const std::optional<InterleaveCut> &cut, QString *error);

} // namespace memhist::drmemtrace
