// SPDX-License-Identifier: MIT
// Schedules the records of real per-thread drmemtrace files onto a few cores and gives each core's
// records as DynamoRIO's scheduler has record_filter write them (-core_sharded), to build the
// core-sharded traces the tests need (no such trace is among the real ones):
// - a thread's whole header block (HEADER ... TIMESTAMP, CPU_ID) where it first runs, its FILETYPE
//   marked core-sharded (0x10000);
// - THREAD and PID records of size 0 where a thread resumes, followed directly by its records from
//   where it stopped (no new timestamp);
// - every CPU_ID marker holding the core's index;
// - THREAD_EXIT and FOOTER where a thread ends, in the middle of the core's records;
// - CORE_IDLE markers while a core has no thread (a core that starts idle first gets the header
//   record_filter makes up for it: thread and pid -1, timestamp and cpu -1);
// - a FOOTER at the end of a core that ends idle.
// Threads run for a quantum of instructions, switching only between instruction groups, and go back
// to one ready queue that every core takes from, so they move between cores; some sleep for a few
// rounds after their quantum, which leaves cores idle. Deterministic for a given seed.
#pragma once

#include "drmemtracewriter.h"

namespace memhist::test {

struct CoreScheduleOptions
{
    int cores = 3;
    quint64 quantum = 4000; // instructions a thread runs before it goes back to the queue
    int idleRoundsAtStart = 2; // the last core starts idle for this many rounds
    int sleepOneIn = 5; // a thread sleeps after about one quantum in this many
    int sleepRounds = 3;
    int idleMarkersPerRound = 4;
    quint32 seed = 1;
};

// `threads`: each thread's records, as in its own file (no chunk records). Returns each core's records.
std::vector<Records> scheduleOnCores(const std::vector<Records> &threads, const CoreScheduleOptions &options);

} // namespace memhist::test
