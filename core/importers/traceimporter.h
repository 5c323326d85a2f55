// SPDX-License-Identifier: MIT
// The one interface every trace importer implements: it reads a trace (a file or, for formats that
// have them, a directory), turns it into AccessSink::add() calls in trace order, reports progress
// as the fraction of its input consumed, and stops when the progress callback returns false.
#pragma once

#include "core/context/processmap.h"
#include "core/model/types.h"

#include <QByteArrayView>
#include <QMap>
#include <QString>
#include <QStringList>
#include <functional>
#include <limits>
#include <optional>

namespace memhist {

class AccessSink;

// Called with the fraction (0..1) of the input consumed, at most every 0.1 %; returning false
// cancels the import (the importer then fails with the error "import cancelled").
using ImportProgress = std::function<bool(double fraction)>;

struct ImportOptions
{
    // The transition the trace's first instruction gets. Importing several traces into one history
    // continues each after the last transition of the previous one. Formats that carry their own
    // transitions (csv) ignore it.
    Transition firstTransition { 0 };
    // Also store instruction fetches as Execute accesses (Lackey `I` lines, drmemtrace instruction
    // records), so "when did this code run" is a query like any other.
    bool withExecute = false;
    // The window to import (DESIGN.md §3): only the instructions [skipInstructions,
    // skipInstructions + maxInstructions) of the trace, counted from its first, and the accesses at
    // their transitions, which stay those of the whole trace (firstTransition + the instruction's
    // index). No maxInstructions: up to the end. Formats that carry their own transitions (csv)
    // keep the rows whose transition is in [firstTransition + skipInstructions, ... + maxInstructions).
    std::uint64_t skipInstructions = 0;
    std::optional<std::uint64_t> maxInstructions;
    // The process memory map as at the first transition (`memhist import --maps`: a /proc/PID/maps
    // dump), for traces that do not say what was loaded where. importTraces() feeds it once, before
    // the first trace; its executable files become modules with their symbols from disk.
    QList<Mapping> initialMap;
};

// The window of ImportOptions as transitions: [begin, end), end saturating at the largest transition.
struct TransitionWindow
{
    std::uint64_t begin = 0;
    std::uint64_t end = std::numeric_limits<std::uint64_t>::max();

    static TransitionWindow of(const ImportOptions &options)
    {
        TransitionWindow window;
        window.begin = saturatingAdd(options.firstTransition.value, options.skipInstructions);
        if (options.maxInstructions)
            window.end = saturatingAdd(window.begin, *options.maxInstructions);
        return window;
    }
    bool contains(std::uint64_t transition) const { return transition >= begin && transition < end; }
    bool bounded() const { return end != std::numeric_limits<std::uint64_t>::max(); }

private:
    static std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
    {
        return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
    }
};

struct ImportReport
{
    qint64 linesRead = 0; // text formats: lines; binary formats: records
    qint64 accesses = 0; // accesses handed to the writer
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 executes = 0;
    qint64 instructions = 0; // transitions this trace used (instructions seen; in the window, when one is given)
    // The transition after this trace's last one: where the next trace of the same history starts.
    Transition nextTransition { 0 };
    // The import stopped at the end of the window (ImportOptions::maxInstructions) with more of the
    // trace after it; nextTransition is then the window's end.
    bool reachedWindowEnd = false;
    // What was read but not stored, by kind ("valgrind messages", "prefetches", "markers", ...).
    QMap<QString, qint64> skipped;
    // Non-fatal findings a user must see ("trace ends early after record 1234: imported what it
    // holds"). Each names the file.
    QStringList warnings;
    // What the trace gave of the program context, one line naming the file ("t.log: pcs, values of
    // 1539 accesses"); empty for formats without context.
    QStringList context;
};

// The ImportReport::skipped kind that counts the instructions read before the window, so every
// format that counts instructions says it the same way (csv, which has none, counts rows).
inline QString beforeWindowKind()
{
    return QStringLiteral("instructions before the window");
}

class TraceImporter
{
public:
    virtual ~TraceImporter() = default;

    // The format's name as --format spells it ("csv", "lackey", "drmemtrace", "tenet").
    virtual QString formatName() const = 0;

    // Imports `path` into `sink` (a WriterSink into a history; benchmarks measure the parser alone
    // with a sink that drops what it is given). On failure returns false with *error naming the
    // file, the place (line, record or byte offset) and the reason, e.g. "trace.csv:17: field 6
    // (size): '0' is not a size (must be at least 1)". Sink (writer) errors are reported with the
    // place that caused them.
    virtual bool run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
        QString *error, const ImportProgress &progress)
        = 0;
};

} // namespace memhist
