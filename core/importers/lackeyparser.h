// SPDX-License-Identifier: MIT
// The parser of Valgrind Lackey logs (`valgrind --tool=lackey --trace-mem=yes`), fed with bytes
// rather than a file, so that `memhist import` (a file, maybe gzipped) and `memhist record` (a pipe
// from a running valgrind) share it.
//
// Lines:   "I  04010000,3"   an instruction (address, size)
//          " L 1fff000608,8" a load; " S ..." a store; " M ..." a modify (one load and one store)
//          "==1234== ..."    valgrind's messages ("--1234--" with -v, "**1234**"); those that say
//                            where objects and the heap are (-v -v, --trace-syscalls=yes) become the
//                            history's modules and memory map (valgrindverboselines.h)
//          anything else     the program's own output when it shares the log, skipped
// Addresses are hex without 0x, sizes decimal. Stray spaces, tabs and CRLF are accepted (hand-made
// "cache-lab" traces have them).
//
// Transitions (DESIGN.md §2): the first `I` line is options.firstTransition, each further `I`
// line the next one, and a data line belongs to the last `I` line before it. A data line with no
// `I` line before it (a file without `I` lines, the cache-lab subset) is an instruction of its own.
#pragma once

#include "core/importers/accesssink.h"
#include "core/importers/traceimporter.h"
#include "core/importers/valgrindverboselines.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <functional>

namespace memhist {

class LackeyParser
{
public:
    // No Lackey line comes near this; a longer line means binary data, and bounding it keeps the
    // caller's buffer (and so memory) bounded whatever the input.
    static constexpr qsizetype maxLineLength = 64 << 10;

    // `sourceName` starts every message ("trace.lackey:12: ...").
    LackeyParser(QString sourceName, AccessSink &sink, const ImportOptions &options);

    // Stops before the line that would start instruction number `limit` + 1: parse() then returns
    // the bytes up to that line and stopped() is true. Negative: no limit.
    void setInstructionLimit(qint64 limit) { m_instructionLimit = limit; }
    // The first `count` instructions are counted (their lines are parsed and checked) but neither
    // they nor their data lines are stored: the start of an import window.
    void setSkippedInstructions(qint64 count) { m_skippedInstructions = count; }
    // Called with every valgrind message line (e.g. to show the last ones when a recording fails).
    void setMessageHandler(std::function<void(QByteArrayView)> handler) { m_messageHandler = std::move(handler); }

    // Parses the complete lines ('\n'-terminated) at the start of [data, data + size) and returns
    // the number of bytes they span. The caller keeps the rest (an incomplete line) and passes it
    // again, followed by the next bytes. Returns -1 on an error (errorString() names the line): a
    // malformed I/L/S/M line, binary data (a NUL byte, or a line longer than maxLineLength), or the
    // sink's error.
    qsizetype parse(const char *data, qsizetype size);

    // The input has ended; `rest` is what followed its last newline. `inputCut`: the caller knows
    // the input was cut and reports that itself, so an incomplete last line is dropped without a
    // warning of its own. Otherwise a last line without newline is imported when it is valid, with
    // a warning that it may be cut, and dropped with a warning when it is not. False on an error.
    bool finish(QByteArrayView rest, bool inputCut);

    // Reports what valgrind's verbose lines announced and is still waiting for its last line (a
    // load whose build-id line may follow): for a caller that stops before finish().
    void flushVerboseLines() { m_verbose.finish(); }

    bool stopped() const { return m_stopped; }
    const QString &errorString() const { return m_error; }
    qint64 lineNumber() const { return m_line; }
    qint64 instructions() const { return m_instructions; }
    qint64 accesses() const { return m_reads + m_writes + m_executes; }
    // Fills every field of *report from what has been parsed (counts, skipped lines, warnings, the
    // transition after the last).
    void fillReport(ImportReport *report) const;

    // For format recognition: is `line` (without its newline) a valid I/L/S/M line, or one of
    // valgrind's own messages?
    static bool isTraceLine(QByteArrayView line);
    static bool isValgrindMessage(QByteArrayView line);

private:
    bool handleLine(const char *begin, const char *end, bool *stopBefore);
    // `kind` is a LineKind (lackeyparser.cpp); `reason` explains a malformed line.
    bool handleClassified(int kind, const char *begin, const char *end, std::uint64_t address, std::uint64_t size,
        const QString &reason, bool *stopBefore);
    bool fail(const QString &reason);
    bool failAt(qint64 line, const QString &reason);
    void emitValgrindMessage(QByteArrayView line);

    QString m_source;
    AccessSink &m_sink;
    std::uint64_t m_nextTransition;
    std::uint64_t m_currentTransition = 0;
    bool m_withExecute;
    bool m_sawInstruction = false;
    bool m_stopped = false;
    qint64 m_instructionLimit = -1;
    qint64 m_skippedInstructions = 0;
    qint64 m_line = 0;
    qint64 m_instructions = 0;
    qint64 m_reads = 0;
    qint64 m_writes = 0;
    qint64 m_executes = 0;
    qint64 m_valgrindMessages = 0;
    qint64 m_otherLines = 0;
    qint64 m_cutLines = 0;
    qint64 m_zeroSizeInstructions = 0;
    // A valgrind header ("Lackey, an example Valgrind tool") promises a summary ("Exit code:") at
    // the end; a log that lacks it was cut (the tracer was killed).
    bool m_sawHeader = false;
    bool m_sawSummary = false;
    QStringList m_warnings;
    QString m_error;
    Access m_access;
    std::function<void(QByteArrayView)> m_messageHandler;
    ValgrindVerboseLines m_verbose;
    // The line after a "summarise_context(...): cannot summarise" message (-v -v), which
    // continues it without valgrind's prefix; -1 when none is expected.
    qint64 m_continuationLine = -1;
};

} // namespace memhist
