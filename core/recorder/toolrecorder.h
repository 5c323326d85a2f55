// SPDX-License-Identifier: MIT
// Records a program's memory history live with memhist's own Valgrind tool (valgrind-tool/, a
// separate GPL program): runs `valgrind --tool=memhist` with VALGRIND_LIB naming the tool's
// directory, reads the tool's record stream (recordformat.h) from a pipe (valgrindprocess.h) and
// parses it (recordstreamparser.h) into a HistoryWriter as it arrives: every access with the bytes
// it moved, a write's before bytes, the kernel's accesses, the memory map, modules and threads.
// Nothing of the trace's size touches the disk but the history, unless the stream is kept
// (RecordOptions::keepPath; `memhist import` reads it back into the same history).
#pragma once

#include "core/recorder/recording.h"

namespace memhist {

class HistoryWriter;

class ToolRecorder
{
public:
    // The directory holding the tool and the links to Valgrind's files (VALGRIND_LIB): the
    // environment's MEMHIST_VALGRIND_LIB, else the installed one beside the executable
    // (../libexec/memhist/valgrind), else the build tree's. Empty when there is none; *why then says
    // why.
    static QString toolDirectory(QString *why = nullptr);
    // The Valgrind version the tool was built against ("3.19.0"); empty when memhist was built
    // without the tool (no valgrind package then).
    static QString builtValgrindVersion();
    // False + *error when `valgrind` is another version than the tool was built against (the tool
    // holds Valgrind's core: a different launcher and preload libraries do not fit it).
    static bool checkValgrindVersion(const QString &valgrind, QString *error);
    // The valgrind options a recording runs with, before the program's command line (the stream's
    // file descriptor is `streamFd`).
    static QStringList valgrindOptions(const RecordOptions &options, int streamFd);

    // As LackeyRecorder::record(): true when the recording is complete up to where it ended; false +
    // *error when the tool cannot run, the program does not start or the stream is malformed.
    bool record(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
        const RecordProgressCallback &progress);
};

} // namespace memhist
