// SPDX-License-Identifier: MIT
// Turns the records of one trace file into accesses, a run at a time: the interleaver resumes a
// file, the decoder hands its instructions the next global transitions and its reads and writes to
// the sink, and stops where the file's next timestamp says another file may be due. What is not
// stored is counted by kind.
//
// The rules (docs/trace-formats.md "drmemtrace traces"):
// - A transition is a fetched instruction record (types 10..16, 31, 48, 49; a bundle record counts
//   as the instructions it holds). Non-fetched instructions (type 29, e.g. rep-string iterations)
//   are not transitions: their reads and writes belong to the last fetched instruction.
// - Reads (type 0) and writes (type 1) belong to the instruction before them in the same thread.
//   A read or write before a thread's first instruction has none: it is counted as skipped (no
//   trace we know of has one). A read or write of size 0 (xsave, xrstor: the size depends on
//   processor state) is stored as a 1-byte access at its address. An instruction of size 0 is
//   still a transition but, with --with-exec, gets a 1-byte execute access likewise. Scatter,
//   gather and masked vector references come as one read or write record per element accessed
//   (masked-off elements have none): all are stored at their instruction's transition.
// - A timestamp marker is a scheduling point, but the switch happens at the thread's next
//   instruction record, not at the marker: data records between the marker and that instruction
//   still belong to the previous instruction, whose transition must be the latest one given out.
// - At the top of every chunk after the first (after a chunk footer, or at the start of a zip member)
//   drmemtrace repeats the last timestamp and cpu markers: they restate context, so they are neither
//   scheduling points nor counted as markers (they are counted apart, as repeated chunk headers).
// - A core-sharded file (FILETYPE bit 0x10000) holds one core's schedule: a thread's whole header
//   block where it first runs, THREAD and PID records (size 0) where a thread resumes, THREAD_EXIT
//   and FOOTER where a thread ends (the file goes on), CORE_IDLE markers while the core has nothing
//   to run. The records of a file are its thread's or, in a core-sharded file, those of the thread
//   named by the last THREAD record, which stays current across chunks.
// - A window (DecodeContext::window): instructions before it are counted but neither they nor
//   their accesses are stored; the decoder stops before the first instruction at its end.
// - Program context: every fetched instruction in the window gives the PC of its transition
//   (AccessSink::addInstruction, with its length). Encoding records (version >= 4 traces: up to
//   8 bytes each, in `addr`) come just before an instruction the first time it appears in a chunk;
//   their bytes, concatenated, are that instruction's (addInstructionBytes), given also before the
//   window, since the instruction may run again inside it without its encodings repeated.
#pragma once

#include "core/importers/drmemtrace/recordreader.h"
#include "core/importers/traceimporter.h"
#include "core/model/types.h"

#include <QStringList>
#include <array>
#include <functional>
#include <optional>

namespace memhist {
class AccessSink;
}

namespace memhist::drmemtrace {

// What all files of one import share: the timeline, the sink and the counts.
struct DecodeContext
{
    explicit DecodeContext(AccessSink &accessSink)
        : sink(accessSink)
    { }

    AccessSink &sink;
    bool withExecute = false;
    Transition next; // the transition the next instruction gets
    TransitionWindow window; // the transitions whose accesses are stored

    // Before the cut of a seek (chunkseek.h), instructions are counted here instead of getting a
    // transition: where they fall in the timeline is known only once every thread reaches the cut.
    bool beforeCut = false;
    qint64 instructionsBeforeCut = 0;

    // Records seen, by RecordKind.
    std::array<qint64, size_t(RecordKind::Unknown) + 1> kinds {};
    qint64 records = 0;
    qint64 instructions = 0; // in the window
    qint64 instructionsBeforeWindow = 0; // read to find the window's start, not stored
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 executes = 0;
    qint64 repeatedChunkHeaders = 0; // records, counted apart from the markers
    qint64 coreIdleMarkers = 0; // counted apart from the markers
    qint64 accessesBeforeFirstInstruction = 0;
    qint64 unknownSizeAccesses = 0; // size 0 in the trace, stored as 1 byte
    qint64 bundledInstructions = 0; // instructions that came in bundle records
    qint64 multiReferenceInstructions = 0; // instructions with more than two data references
    qint64 encodedInstructions = 0; // instructions whose bytes came in encoding records
    QStringList warnings;

    // The thread running the current span of transitions, and where the span began.
    std::optional<qint64> spanThread;
    Transition spanFirst;

    // Called every so many records; returning false cancels the import.
    std::function<bool()> tick;
};

class ThreadDecoder
{
public:
    explicit ThreadDecoder(std::unique_ptr<RecordReader> reader);

    enum class Stop {
        Yield, // at a scheduling point: nextTimestamp() tells when the file runs again
        End, // the file's records are all read
        WindowEnd, // the next instruction is at the window's end: the import is complete
        Failed, // error() says why
    };

    // Processes records until the next scheduling point. The first call stops before the file's
    // first instruction (or at its end), having read its header, thread id and first timestamp.
    Stop run(DecodeContext &context);

    // The reader was moved to the start of a chunk other than the first (RecordReader::seekPart):
    // the header is not read again, so the thread is given here, and the timestamp the chunk
    // restates at its top is the key of the segment the first run stops before.
    void startInChunk(qint64 threadId);

    // The timestamp of the segment the file runs next (0 when the trace has none).
    quint64 nextTimestamp() const { return m_nextTimestamp; }
    // The thread id of the file (its first thread record), or -1 when it has none.
    qint64 threadId() const { return m_fileThread; }
    bool coreSharded() const { return m_coreSharded; }
    const QString &error() const { return m_error; }
    const RecordReader &reader() const { return *m_reader; }

private:
    Stop fail(const QString &message);
    // Gives the instruction its transition (or counts it before the window). False + m_error on a
    // sink (writer) error.
    bool beginInstruction(DecodeContext &context, quint64 pc, quint16 size);
    bool addAccess(DecodeContext &context, Operation operation, quint64 address, quint16 size);
    // Appends an encoding record's bytes. False + m_error when there are more than an instruction
    // can have.
    bool addEncoding(const TraceRecord &record);
    // Gives the encoding read so far to the instruction at `pc` and starts the next one.
    void takeEncoding(DecodeContext &context, quint64 pc);
    Stop finish(DecodeContext &context);
    // The end of the file, or (core-sharded) of one thread in it: nothing when the file goes on.
    std::optional<Stop> handleFooter(DecodeContext &context);

    // Where the records are relative to the top of a chunk, to recognise its repeated context.
    enum class ChunkTop : quint8 {
        No,
        ExpectTimestamp,
        ExpectCpu,
    };

    std::unique_ptr<RecordReader> m_reader;
    qint64 m_fileThread = -1;
    qint64 m_currentThread = -1; // changes in core-sharded files (and old traces of several threads)
    quint64 m_nextTimestamp = 0;
    std::optional<quint64> m_pendingTimestamp; // seen since the last instruction
    bool m_started = false; // the first run (up to the first instruction) is over
    bool m_startsInChunk = false; // startInChunk(): the first chunk top gives the first key
    bool m_coreSharded = false;
    bool m_hasInstruction = false;
    bool m_lastStored = false; // the last instruction is in the window: its accesses are stored
    int m_dataReferences = 0; // data records since the last instruction
    bool m_sawFooter = false;
    bool m_lastWasFooter = false;
    Transition m_lastTransition; // of this thread's last instruction
    quint64 m_lastPc = 0;
    quint16 m_lastLength = 0;
    // The encoding records read since the last instruction: the next instruction's bytes.
    static constexpr int maxEncodingBytes = 32; // x86 needs 15, other architectures 4
    std::array<char, maxEncodingBytes> m_encoding {};
    int m_encodingSize = 0;
    ChunkTop m_chunkTop = ChunkTop::No;
    qint64 m_sinceTick = 0;
    QString m_error;
};

} // namespace memhist::drmemtrace
