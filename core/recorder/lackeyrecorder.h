// SPDX-License-Identifier: MIT
// Records a program's memory history live with Valgrind's Lackey (`memhist record --backend
// lackey`: slower than memhist's own tool and without values): runs it under `valgrind --tool=lackey
// --trace-mem=yes` (with -v -v --trace-syscalls=yes for the program context: valgrindverboselines.h,
// clientstacksink.h), reads the Lackey log from a pipe (valgrind's --log-fd, valgrindprocess.h) and
// streams it through the same LackeyParser as `memhist import` into a HistoryWriter, so no log file
// is ever written unless one is asked for (RecordOptions::keepPath, which then holds exactly the
// bytes that were parsed: importing it gives the same history).
#pragma once

#include "core/recorder/recording.h"

#include <QStringList>

namespace memhist {

class HistoryWriter;

// The valgrind options a Lackey recording runs with, before the program's command line.
QStringList recordValgrindOptions(const RecordOptions &options);

class LackeyRecorder
{
public:
    // Runs the program and records it into `writer` (opened; record() neither finishes nor cancels
    // it). True when the recording is complete up to where it ended (see report->end); the caller
    // then finishes the writer. False + *error when valgrind cannot run, the program does not start
    // (no instruction recorded) or the log cannot be read or written; the program is then stopped
    // and no kept log is left.
    bool record(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
        const RecordProgressCallback &progress);
};

} // namespace memhist
