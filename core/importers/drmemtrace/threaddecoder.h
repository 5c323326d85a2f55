// Turns the records of one thread's trace file into accesses, a run at a time: the interleaver
// resumes a thread, the decoder hands its instructions the next global transitions and its reads
// and writes to the writer, and stops where the thread's next timestamp says another thread may be
// due. What is not stored is counted by kind.
//
// The rules (README "drmemtrace"):
// - A transition is a fetched instruction record (types 10..16, 31, 48, 49; a bundle record counts
//   as the instructions it holds). Non-fetched instructions (type 29, e.g. rep-string iterations)
//   are not transitions: their reads and writes belong to the last fetched instruction.
// - Reads (type 0) and writes (type 1) belong to the instruction before them in the same thread.
//   A read or write before a thread's first instruction has none: it is counted as skipped (no
//   trace we know of has one). A read or write of size 0 (xsave, xrstor: the size depends on
//   processor state) is stored as a 1-byte access at its address. An instruction of size 0 is
//   still a transition but, with --with-exec, gets a 1-byte execute access likewise.
// - A timestamp marker is a scheduling point, but the switch happens at the thread's next
//   instruction record, not at the marker: data records between the marker and that instruction
//   still belong to the previous instruction, whose transition must be the latest one given out.
// - At the top of every chunk after the first (after a chunk footer, or at the start of a zip member)
//   drmemtrace repeats the last timestamp and cpu markers: they restate context, so they are neither
//   scheduling points nor counted as markers (they are counted apart, as repeated chunk headers).
#pragma once

#include "importers/drmemtrace/recordreader.h"
#include "model/types.h"

#include <QStringList>
#include <array>
#include <functional>
#include <optional>

namespace memhist {
class HistoryWriter;
}

namespace memhist::drmemtrace {

// What all threads of one import share: the timeline, the writer and the counts.
struct DecodeContext
{
    explicit DecodeContext(HistoryWriter &historyWriter)
        : writer(historyWriter)
    { }

    HistoryWriter &writer;
    bool withExecute = false;
    Transition next; // the transition the next instruction gets

    // Records seen, by RecordKind.
    std::array<qint64, size_t(RecordKind::Unknown) + 1> kinds {};
    qint64 records = 0;
    qint64 instructions = 0;
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 executes = 0;
    qint64 repeatedChunkHeaders = 0; // records, counted apart from the markers
    qint64 accessesBeforeFirstInstruction = 0;
    qint64 unknownSizeAccesses = 0; // size 0 in the trace, stored as 1 byte
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
        Yield, // at a scheduling point: nextTimestamp() tells when the thread runs again
        End, // the thread's records are all read
        Failed, // error() says why
    };

    // Processes records until the next scheduling point. The first call stops before the thread's
    // first instruction (or at its end), having read its header, thread id and first timestamp.
    Stop run(DecodeContext &context);

    // The timestamp of the segment the thread runs next (0 when the trace has none).
    quint64 nextTimestamp() const { return m_nextTimestamp; }
    // The thread id of the file (its first thread record), or -1 when it has none.
    qint64 threadId() const { return m_fileThread; }
    const QString &error() const { return m_error; }
    const RecordReader &reader() const { return *m_reader; }

private:
    Stop fail(const QString &message);
    bool beginInstruction(DecodeContext &context, quint64 pc, quint16 size);
    bool addAccess(DecodeContext &context, Operation operation, quint64 address, quint16 size);
    Stop finish(DecodeContext &context);

    // Where the records are relative to the top of a chunk, to recognise its repeated context.
    enum class ChunkTop : quint8 {
        No,
        ExpectTimestamp,
        ExpectCpu,
    };

    std::unique_ptr<RecordReader> m_reader;
    qint64 m_fileThread = -1;
    qint64 m_currentThread = -1; // changes when a single file records several threads (old traces)
    quint64 m_nextTimestamp = 0;
    std::optional<quint64> m_pendingTimestamp; // seen since the last instruction
    bool m_started = false; // the first run (up to the first instruction) is over
    bool m_hasInstruction = false;
    bool m_sawFooter = false;
    Transition m_lastTransition; // of this thread's last instruction
    quint64 m_lastPc = 0;
    quint16 m_lastLength = 0;
    ChunkTop m_chunkTop = ChunkTop::No;
    qint64 m_sinceTick = 0;
    QString m_error;
};

} // namespace memhist::drmemtrace
