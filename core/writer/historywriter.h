// SPDX-License-Identifier: MIT
// Streams accesses, in trace order, into a new memhist database that keeps every property of the
// storage model spec. Memory stays bounded whatever the trace: accesses are buffered one slice at a
// time, and a slice is closed before any chunk could exceed its cap.
#pragma once

#include "core/context/contexttypes.h"
#include "core/context/disassembler.h"
#include "core/model/types.h"
#include "core/storage/historysources.h"
#include "core/values/accessvalue.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace memhist {

struct Mapping;

struct WriterOptions
{
    // A slice is closed at the first transition boundary once it buffers this many accesses. Bounds
    // the writer's memory (~48 bytes per buffered access, up to five slices in flight) and the cost of a
    // query that must scan one slice (wide windows: larger slices made 1 MiB windows slower);
    // fewer, larger slices would shorten a sparse window's walk over the slices. See docs/benchmarks.md
    // "Choosing the caps" for the measurements behind all three values.
    quint32 sliceAccessCap = 65536;
    // No chunk holds more accesses than this (the spec's "capped" property). An address touched
    // more often than this within one slice closes the slice early: with a hot loop counter, this
    // cap rather than sliceAccessCap decides how long slices are, so the two grow together.
    quint32 chunkAccessCap = 4096;
    // Where an access range can be split, a chunk is cut once it holds this many accesses, so that
    // chunks stay narrow in dense regions and a narrow query window reads few non-matching rows
    // (each costs a table read); smaller targets make more chunk rows.
    quint32 chunkTargetAccesses = 16;
    // A single transition with more accesses than this is rejected: slices never share a
    // transition, so one transition must fit in memory.
    quint32 maxAccessesPerTransition = 1u << 20;
    // Program context (ContextCollector): where separate debug files are looked for (empty: the
    // system's, /usr/lib/debug) and how instruction bytes are decoded.
    QStringList debugRoots;
    InstructionSet instructionSet = hostInstructionSet();
};

struct WriterStats
{
    qint64 accesses = 0;
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 executes = 0;
    qint64 slices = 0;
    qint64 chunks = 0;
    std::optional<Transition> firstTransition;
    std::optional<Transition> lastTransition;
    // The most accesses ever buffered at once: the writer's memory bound, which stays at most
    // sliceAccessCap + the accesses of one transition whatever the trace.
    qint64 peakBufferedAccesses = 0;
    // What program context the history holds; filled by finish().
    ContextSummary context;
    // CPU time spent building the address summary (storage/addresssummarybuilder.h), set by finish().
    qint64 addressSummaryCpuNanoseconds = 0;
};

class HistoryWriter
{
public:
    explicit HistoryWriter(QString outputPath, WriterOptions options = {});
    // Discards the temporary file unless finish() succeeded.
    ~HistoryWriter();
    HistoryWriter(const HistoryWriter &) = delete;
    HistoryWriter &operator=(const HistoryWriter &) = delete;

    // Creates the temporary database beside the output path. False + errorString() on failure.
    bool open();

    // Adds one access. Its rowId is ignored. Rejects (false + errorString()): a transition lower
    // than the previous one, size 0, an access whose bytes wrap past 2^64-1 or straddle 2^63 (not a
    // canonical address on any 64-bit architecture; the index order relies on it), an operation
    // code other than 1, 2, 4, and more than maxAccessesPerTransition accesses at one transition.
    // After a failure the writer is unusable; the output path is left untouched.
    bool add(const Access &access);

    // Program context (the optional context tables, see core/context/contextcollector.h), fed in
    // trace order along with the accesses; none of it is required.
    // The instruction executed at `transition` (size 0 = unknown). Rejects (false +
    // errorString()) a transition that does not come after the previous instruction's.
    bool addInstruction(Transition transition, Address pc, quint8 size);
    // The bytes of the instruction at `pc` as the trace encodes them.
    void addInstructionBytes(Address pc, QByteArrayView bytes);
    // A mapping appears (mmap, a module's segment) at `from`, replacing what it overlaps.
    void addMapping(Transition from, const Mapping &mapping);
    // [first, last] is unmapped at `from`.
    void removeMapping(Transition from, Address first, Address last);
    // A module load the trace names with its bias (and build-id, when known).
    void addModule(const LoadedModule &module);
    // The instruction set the trace names, for the disassembly (instead of the options').
    void setInstructionSet(InstructionSet set);
    // The bytes the access added last read or wrote (and overwrote; ignored before the first access).
    void addValue(const AccessValueView &value);

    void setSources(const QList<SourceDescription> &sources);
    // Records that thread `threadId` ran transitions [first, last] (traces that know their threads,
    // such as drmemtrace). Spans are stored in the optional table `thread_spans` by finish(); calls
    // for consecutive spans of the same thread are merged.
    void addThreadSpan(qint64 threadId, Transition first, Transition last);
    // Extra meta rows (e.g. an importer's counts of skipped lines). Keys must not clash with
    // schema::meta keys.
    void setMetaValue(const QString &key, const QString &value);

    // Writes the last slice, the context tables (stats().context says what they hold) and the
    // meta table, then renames the temporary file over the output
    // path. False + errorString() on failure, in which case nothing is left at the output path.
    bool finish();
    // Asked on finish()'s thread while finish() works in SQLite (building the indexes is most of
    // its time on a large history), about every millisecond: true stops it, and finish() fails
    // with "cancelled", leaving nothing at the output path. A caller's Cancel thus works to the end.
    void setInterruptCheck(std::function<bool()> interrupted);
    // True once the interrupt check stopped finish().
    bool interrupted() const;
    // Stops and deletes the temporary file; the output path is left untouched.
    void cancel();

    QString errorString() const;
    const WriterStats &stats() const;
    const WriterOptions &options() const;
    const QString &outputPath() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace memhist
