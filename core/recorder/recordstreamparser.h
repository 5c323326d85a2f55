// SPDX-License-Identifier: MIT
// Turns the record stream of memhist's Valgrind tool (recordformat.h) into AccessSink calls, in
// trace order: each instruction at its transition (the superblocks the tool defines and runs), each
// access with its bytes (a write's before bytes too), the kernel's accesses marked with their
// system call, the memory map as it changes, the modules, and the threads. The recorder feeds it
// from the tool's pipe as the program runs; the stream importer from a file a recording kept.
//
// Like the Lackey parser it is a push parser: parse() takes what has arrived and leaves a record
// cut at its end for the next call. A window (ImportOptions' skip and max) keeps only the
// transitions in it, numbered as in the whole run.
#pragma once

#include "core/context/processmap.h"
#include "core/importers/traceimporter.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace memhist {

class AccessSink;

// How the recorded program ended, as the stream's end record says.
struct RecordStreamEnd
{
    std::uint64_t instructions = 0; // executed in all, the window's or not
    bool bySignal = false;
    int status = 0; // the exit status, or the signal number
};

class RecordStreamParser
{
public:
    // The largest record accepted: a kernel access is one record whatever its size (a read() of a
    // whole file), and the reader holds one whole.
    static constexpr qsizetype maxRecordBytes = qsizetype(1) << 30;

    RecordStreamParser(QString source, AccessSink &sink, const ImportOptions &options);

    // Parses the whole records at the start of `data` and returns how many bytes they took: a record
    // cut at the end is left for the next call, which must start with those bytes. -1 + errorString()
    // on a malformed stream or a sink error. Returns early once stopped().
    qsizetype parse(QByteArrayView data);
    // At least how many bytes the next call needs to make progress (the record left at the end).
    qsizetype bytesNeeded() const { return m_needed; }
    // The stream has ended; `rest` is what parse() left. False + errorString() when the stream is
    // not one (no header); a stream cut short (no end record, or a cut record) is kept up to its
    // last whole record, with a warning in the report.
    bool finish(QByteArrayView rest);

    // The stream's header has been read: the tool started.
    bool started() const { return m_headerRead; }
    // The window's end was reached: the rest of the stream is not needed.
    bool stopped() const { return m_stopped; }
    // The end record, once seen.
    const std::optional<RecordStreamEnd> &end() const { return m_end; }
    // The Valgrind version the tool was built against (major * 10000 + minor * 100 + patch), once
    // the header is read.
    quint32 toolValgrindVersion() const { return m_valgrindVersion; }

    qint64 instructions() const { return m_instructions; }
    qint64 accesses() const { return m_accesses; }
    void fillReport(ImportReport *report) const;
    const QString &errorString() const { return m_error; }

private:
    struct Instruction
    {
        std::uint64_t pc;
        quint8 length;
    };
    // A byte cursor over one record; reading past its end sets `ok` false.
    struct Cursor;

    qsizetype parseRecord(const char *data, qsizetype size); // bytes used, 0 when cut, -1 on error
    bool fail(const QString &reason);
    // Hands the instructions of the running superblock up to and including `transition` to the
    // sink. False on a sink error.
    bool emitInstructionsThrough(std::uint64_t transition);
    bool addAccess(Operation operation, std::uint64_t address, std::uint64_t transition, QByteArrayView bytes,
        QByteArrayView before, std::optional<quint32> syscall);
    // The program's thread changes at `transition`.
    void switchThread(std::uint64_t thread, std::uint64_t transition);
    void closeThreadSpan(std::uint64_t end);
    // The memory map, kept to apply protection changes to what is mapped.
    void mapRange(std::uint64_t transition, const Mapping &mapping);
    void unmapRange(std::uint64_t transition, std::uint64_t first, std::uint64_t last);
    void protectRange(std::uint64_t transition, std::uint64_t first, std::uint64_t last, const QString &permissions);

    QString m_source;
    AccessSink &m_sink;
    ImportOptions m_options;
    TransitionWindow m_window;

    bool m_headerRead = false;
    quint32 m_valgrindVersion = 0;
    qint64 m_offset = 0; // stream offset of the next record, for messages
    qsizetype m_needed = 1;
    QString m_error;
    bool m_stopped = false;
    std::optional<RecordStreamEnd> m_end;

    // Node-based: m_running points into it while later blocks are added.
    std::unordered_map<quint32, std::vector<Instruction>> m_blocks;
    const std::vector<Instruction> *m_running = nullptr;
    std::uint64_t m_runningStart = 0; // transition of the running superblock's first instruction
    std::size_t m_runningEmitted = 0; // its instructions handed over (or passed) so far
    std::uint64_t m_next = 0; // the transition after the last instruction seen

    std::optional<std::uint64_t> m_thread;
    std::uint64_t m_threadStart = 0;
    std::map<std::uint64_t, Mapping> m_map; // by first address

    qint64 m_records = 0;
    qint64 m_instructions = 0; // in the window
    qint64 m_accesses = 0;
    qint64 m_reads = 0;
    qint64 m_writes = 0;
    qint64 m_executes = 0;
    qint64 m_kernelAccesses = 0;
    qint64 m_modules = 0;
    std::optional<std::uint64_t> m_lastInWindow;
};

// How readRecordStream() ended.
enum class RecordStreamReadEnd {
    InputEnd, // read() returned 0: the stream is over
    ParserStopped, // the parser reached its window's end
    ReadStopped, // read() returned a negative number: an error or a stop, which the caller set
    Failed, // parse() failed (parser.errorString()) or received() did (the caller set why)
};

// The read loop of a record stream, from the tool's pipe or a kept file: reads with `read` (at most
// `size` bytes into `data`: how many, 0 at the end, negative to end the loop) and parses as the bytes
// arrive. A record cut at the end of a read waits at the start of *buffer for the rest, and one larger
// than the buffer grows it. `received`, when set, sees every piece read before it is parsed (the
// recorder keeps a copy); false from it fails the loop. *rest is what was left unparsed, in *buffer.
RecordStreamReadEnd readRecordStream(RecordStreamParser &parser,
    const std::function<qint64(char *data, qsizetype size)> &read,
    const std::function<bool(QByteArrayView piece)> &received, QByteArray *buffer, QByteArrayView *rest);

} // namespace memhist
