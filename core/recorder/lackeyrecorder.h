// Records a program's memory history live: runs it under `valgrind --tool=lackey --trace-mem=yes`
// (with -v -v --trace-syscalls=yes for the program context: valgrindverboselines.h, clientstacksink.h),
// reads the Lackey log from a pipe (valgrind's --log-fd) and streams it through the same
// LackeyParser as `memhist import` into a HistoryWriter, so no log file is ever written unless one
// is asked for (RecordOptions::keepLogPath, which then holds exactly the bytes that were parsed:
// importing it gives the same history).
//
// The program's stdin, stdout and stderr are memhist's own: only the trace goes through the pipe.
//
// The traced tree (valgrind, which runs the program in its own process, and the program's children)
// dies with memhist: valgrind runs in a session and process group of its own, which memhist kills
// whole when it stops the program (killProgram() does it from a signal handler), and the kernel
// kills valgrind if memhist dies without doing so (PR_SET_PDEATHSIG, e.g. after SIGKILL). Its own
// session also keeps the terminal's job control away from it: Ctrl-C reaches memhist alone, which
// decides, and a program reading the terminal is not stopped as a background job would be.
#pragma once

#include "core/importers/traceimporter.h"

#include <QString>
#include <QStringList>
#include <functional>

namespace memhist {

class HistoryWriter;

struct RecordOptions
{
    QString valgrind; // the valgrind executable (see LackeyRecorder::findValgrind())
    QString program;
    QStringList arguments;
    qint64 maxInstructions = -1; // stop the program after this many instructions; negative: no limit
    QString keepLogPath; // also save the raw Lackey log here (renamed into place once complete); empty: none
    bool withExecute = false; // store `I` lines as Execute accesses, as import --with-exec does
    // Have valgrind announce what it loads and the heap's breaks (-v -v --trace-syscalls=yes) and
    // name the client stack, so the history has the memory map, modules and symbols. Off: the
    // PCs only (the log and the recording as they were before; for measuring what context costs).
    bool withContext = true;
};

// The valgrind options a recording runs with, before the program's command line.
QStringList recordValgrindOptions(const RecordOptions &options);

enum class RecordEnd {
    ProgramExited, // the program ended by itself (exit or a signal of its own)
    InstructionLimit, // stopped by memhist at maxInstructions
    Interrupted, // stopped by memhist after requestStop() (Ctrl-C)
};

struct RecordReport
{
    ImportReport import; // what was parsed, as an import of the same log would report it
    RecordEnd end = RecordEnd::ProgramExited;
    // For ProgramExited: the program's exit status, or the signal that killed it.
    bool programCrashed = false;
    int exitStatus = 0; // the status, or the signal number when programCrashed
    // The last of valgrind's own messages (`==PID== ...`, not -v's `--PID-- ...`), which explain a
    // failed start.
    QStringList lastValgrindMessages;
    // What context could not be had (the client stack not found), one line each.
    QStringList contextNotes;
};

struct RecordProgress
{
    qint64 instructions = 0;
    qint64 accesses = 0;
    double seconds = 0;
};
// Called about four times a second while recording.
using RecordProgressCallback = std::function<void(const RecordProgress &progress)>;

class LackeyRecorder
{
public:
    // The valgrind on PATH, or an empty string.
    static QString findValgrind();
    // Asks a running record() to stop the program and keep what was recorded. Async-signal-safe:
    // meant for a SIGINT handler. The request stays until clearStopRequest().
    static void requestStop();
    static void clearStopRequest();
    // Kills the process group of the program being recorded, if any, at once (SIGKILL): valgrind,
    // the program and the children it started. Async-signal-safe: meant for a handler that then ends
    // memhist (SIGTERM, SIGHUP, a second Ctrl-C).
    static void killProgram() noexcept;

    // Runs the program and records it into `writer` (opened; record() neither finishes nor cancels
    // it). True when the recording is complete up to where it ended (see report->end); the caller
    // then finishes the writer. False + *error when valgrind cannot run, the program does not start
    // (no instruction recorded) or the log cannot be read or written; the program is then stopped
    // and no kept log is left.
    bool record(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
        const RecordProgressCallback &progress);
};

} // namespace memhist
