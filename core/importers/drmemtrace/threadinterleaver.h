// Interleaves the threads of a trace into one timeline by their timestamp markers: at every
// scheduling point, the thread whose next segment has the smallest timestamp runs (ties go to the
// smaller thread id, then to the file listed first), so the same trace always gives the same
// history. Each thread is read as a stream; only its reader's buffer is held.
#pragma once

#include "importers/drmemtrace/threaddecoder.h"

#include <memory>
#include <vector>

namespace memhist::drmemtrace {

// Runs every thread to its end. False + *error (naming the file, the record and the reason).
bool interleaveThreads(std::vector<std::unique_ptr<ThreadDecoder>> &threads, DecodeContext &context, QString *error);

} // namespace memhist::drmemtrace
