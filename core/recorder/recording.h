// SPDX-License-Identifier: MIT
// What `memhist record` asks of a recorder and what a recording reports, whichever records:
// memhist's own Valgrind tool (toolrecorder.h, the default: every access with its bytes) or
// Valgrind's Lackey (lackeyrecorder.h: slower, no values).
#pragma once

#include "core/importers/traceimporter.h"

#include <QString>
#include <QStringList>
#include <functional>

namespace memhist {

enum class RecordBackend {
    Tool, // memhist's own Valgrind tool
    Lackey,
};

struct RecordOptions
{
    RecordBackend backend = RecordBackend::Tool;
    QString valgrind; // the valgrind executable (ValgrindProcess::findValgrind())
    QString program;
    QStringList arguments;
    // Record from this transition on (the instructions before it run unrecorded; transitions stay
    // those of the whole run). Tool only.
    std::uint64_t skipInstructions = 0;
    qint64 maxInstructions = -1; // stop the program after this many recorded instructions; negative: no limit
    // Record from the first call of this function on (after skipInstructions). Tool only.
    QString startAt;
    // Also save what valgrind sent (the Lackey log, or the tool's record stream) here, renamed into
    // place once complete; empty: none. Importing it gives the same history.
    QString keepPath;
    bool withExecute = false; // store instruction fetches as Execute accesses, as import --with-exec does
    // Lackey: have valgrind announce what it loads and the heap's breaks (-v -v --trace-syscalls=yes)
    // and name the client stack, so the history has the memory map, modules and symbols. Off: the
    // PCs only (for measuring what context costs). The tool always reports them.
    bool withContext = true;
};

enum class RecordEnd {
    ProgramExited, // the program ended by itself (exit or a signal of its own)
    InstructionLimit, // stopped by memhist at maxInstructions
    Interrupted, // stopped by memhist after ValgrindProcess::requestStop() (Ctrl-C)
};

struct RecordReport
{
    ImportReport import; // what was parsed, as an import of the kept log or stream would report it
    RecordEnd end = RecordEnd::ProgramExited;
    // For ProgramExited: the program's exit status, or the signal that killed it.
    bool programCrashed = false;
    int exitStatus = 0; // the status, or the signal number when programCrashed
    // The last of valgrind's own messages (`==PID== ...`, not -v's `--PID-- ...`), which explain a
    // failed start (Lackey; the tool's messages go to memhist's stderr).
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

class HistoryWriter;

// Runs the program under the backend the options name and records it into `writer` (opened;
// neither finished nor cancelled here). True when the recording is complete up to where it ended
// (report->end); false + *error when the program could not be recorded.
bool recordProgram(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
    const RecordProgressCallback &progress);

} // namespace memhist
