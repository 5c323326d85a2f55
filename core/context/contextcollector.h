// SPDX-License-Identifier: MIT
// Collects the program context of a trace while it is imported or recorded, and stores it when the
// history is finished: the PC of every instruction (codetrace.h), the instruction bytes a trace
// carries, the memory map and module loads over time (memorymaphistory.h), and the bytes accesses
// read or wrote. At the end everything is resolved once with the Symbolizer (functions and source
// lines of the executed PCs, data objects and sections of the modules, instruction bytes from the
// module files when the trace had none) and the Disassembler, and written to the context tables.
//
// The module files are read as soon as the trace names them (a module load, an executable file
// mapping), on a thread of their own, while the trace goes on: a short recording does not wait at
// its end for its libraries' symbols, and the files are read as the run saw them. The same thread
// then resolves the new PCs of the named modules as they come (codepreparer.h), so that the end
// resolves only the last few.
//
// Memory is bounded by what is distinct (runs, PCs, mappings, modules), never by the number of
// instructions: completed code_trace rows and access values are handed over in batches
// (takeBatch) for the writer to store as it goes.
#pragma once

#include "core/context/codepreparer.h"
#include "core/context/codetrace.h"
#include "core/context/contextrows.h"
#include "core/context/disassembler.h"
#include "core/context/memorymaphistory.h"

#include <QHash>
#include <QMutex>
#include <QSet>
#include <QStringList>
#include <QThreadPool>
#include <atomic>
#include <memory>

namespace memhist {

class ContextTableWriter;
class Symbolizer;

struct ContextCollectorOptions
{
    // Where separate debug files are looked for (Symbolizer::defaultDebugRoots() when empty).
    QStringList debugRoots;
    InstructionSet instructionSet = hostInstructionSet();
};

class ContextCollector
{
public:
    explicit ContextCollector(ContextCollectorOptions options = {});
    ~ContextCollector();
    ContextCollector(const ContextCollector &) = delete;
    ContextCollector &operator=(const ContextCollector &) = delete;

    // The instruction at `transition` (in trace order; size 0 = unknown). False + errorString()
    // when the transitions do not increase.
    bool addInstruction(Transition transition, Address pc, std::uint8_t size)
    {
        if (!m_codeTrace.add(transition, pc, size))
            return false;
        if (m_codeTrace.runs().size() >= m_runsPrepared + prepareRunsAtOnce)
            prepareNewRuns();
        return true;
    }
    const QString &errorString() const { return m_codeTrace.errorString(); }

    // The bytes of the instruction at `pc`, as the trace encodes them; the first bytes given for a
    // PC are kept.
    void addInstructionBytes(Address pc, QByteArrayView bytes);
    void addMapping(Transition from, const Mapping &mapping);
    void removeMapping(Transition from, Address first, Address last) { m_map.removeMapping(from, first, last); }
    void addModule(const LoadedModule &module);
    // Blocks until the module files named so far are read (resolve() does; tests may).
    void waitForModuleFiles() { m_fileReader.waitForDone(); }
    // The instruction set the trace says it ran (drmemtrace's file type), instead of the options'.
    void setInstructionSet(InstructionSet set) { m_options.instructionSet = set; }
    // The bytes access `access` read or wrote; one value per access (a second one is ignored, and
    // so is an empty one), accesses in rowid order.
    void addValue(RowId access, const AccessValueView &value);

    // True when enough rows are waiting that they should be stored now rather than with the next
    // slice (a long stretch of instructions without memory accesses).
    bool needsFlush() const
    {
        return m_codeTrace.completedRowCount() >= maxPendingCodeRows || m_pendingValueBytes >= maxPendingValueBytes
            || m_earlyRowsWaiting.load(std::memory_order_relaxed) >= maxPendingEarlyRows;
    }
    ContextBatch takeBatch();

    // The transition after the last instruction fed (0 when none).
    Transition endTransition() const { return m_codeTrace.endTransition(); }
    bool hasInstructions() const { return !m_codeTrace.isEmpty(); }

    // Ends the collection in four steps. resolve() needs no connection, so the writer runs it on a
    // thread of its own, beside writeLastRows() (which touches none of what it reads) and while
    // SQLite builds the history's indexes.
    // 1. Ends the last run of instructions: nothing may be added after.
    void finishCodeTrace() { m_codeTrace.finish(); }
    // 2. Resolves everything else (functions, lines and disassembly of the executed PCs, modules,
    //    the memory map) for a history whose last transition is `historyLast`.
    void resolve(Transition historyLast);
    // 3. Stores the last code_trace rows and values through `tables`. False on an SQL error (the
    //    connection has the reason).
    bool writeLastRows(ContextTableWriter &tables);
    // 4. Writes the resolved tables and every context index, once resolve() has returned: of the
    //    code rows, only those the preparer did not make, after deleting the ones it made that
    //    differ from the resolved ones or are not among them. False on an SQL error.
    bool writeResolved(ContextTableWriter &tables);
    // What the history holds, once resolve() ran.
    const ContextSummary &summary() const { return m_summary; }

private:
    static constexpr std::size_t maxPendingCodeRows = 256; // <= 5 MiB, ~0.5 MiB in practice
    static constexpr std::size_t maxPendingValueBytes = 4 << 20;
    // New runs are handed to the preparer in batches of this many.
    static constexpr std::size_t prepareRunsAtOnce = 32;
    static constexpr std::size_t maxPendingEarlyRows = 1024;

    // Starts reading the module file at `path` on m_fileReader, once per path.
    void readModuleFile(const QString &path);
    // Hands the runs that appeared since the last call to m_preparer, on m_fileReader, once a
    // module has been named (before that no PC can be placed), for the host's instruction set.
    void prepareNewRuns();
    // The early code rows m_preparer made since the last call (under m_earlyMutex).
    EarlyCodeRows takeEarlyRows();

    ContextCollectorOptions m_options;
    CodeTraceEncoder m_codeTrace;
    MemoryMapHistory m_map;
    QHash<std::uint64_t, QByteArray> m_instructionBytes;
    ContextBatch m_pending; // values only; code rows wait in the encoder
    ValueBlockEncoder m_valueEncoder; // the value block being filled
    std::size_t m_pendingValueBytes = 0; // in m_pending.values and the block being filled
    qint64 m_lastValueAccess = 0;
    qint64 m_values = 0;
    ResolvedContext m_resolved; // from resolve() to writeResolved()
    ContextSummary m_summary;
    // Used by m_fileReader's one thread until resolve() waits for it, then by resolve().
    std::unique_ptr<Symbolizer> m_symbolizer;
    CodePreparer m_preparer;
    std::size_t m_runsPrepared = 0; // runs() handed to m_preparer, or skipped before any module
    bool m_modulesNamed = false;
    // Early code rows made by m_preparer on m_fileReader, waiting for takeBatch().
    QMutex m_earlyMutex;
    EarlyCodeRows m_earlyRows;
    std::atomic<std::size_t> m_earlyRowsWaiting { 0 };
    EarlyCodeDeletions m_earlyDeletions; // from resolve() to writeResolved()
    QSet<QString> m_filesRead;
    QThreadPool m_fileReader; // destroyed first: waits for the file being read
};

} // namespace memhist
