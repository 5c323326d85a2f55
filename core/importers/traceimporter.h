// The one interface every trace importer implements: it reads a trace (a file or, for formats that
// have them, a directory), turns it into HistoryWriter::add() calls in trace order, reports progress
// as the fraction of its input consumed, and stops when the progress callback returns false.
#pragma once

#include "model/types.h"

#include <QByteArrayView>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>

namespace memhist {

class HistoryWriter;

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
};

struct ImportReport
{
    qint64 linesRead = 0; // text formats: lines; binary formats: records
    qint64 accesses = 0; // accesses handed to the writer
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 executes = 0;
    qint64 instructions = 0; // transitions this trace used (instructions seen)
    // The transition after this trace's last one: where the next trace of the same history starts.
    Transition nextTransition { 0 };
    // What was read but not stored, by kind ("valgrind messages", "prefetches", "markers", ...).
    QMap<QString, qint64> skipped;
    // Non-fatal findings a user must see ("trace ends early after record 1234: imported what it
    // holds"). Each names the file.
    QStringList warnings;
};

class TraceImporter
{
public:
    virtual ~TraceImporter() = default;

    // The format's name as --format spells it ("csv", "lackey", "drmemtrace", "tenet").
    virtual QString formatName() const = 0;

    // Imports `path` into `writer`. On failure returns false with *error naming the file, the place
    // (line, record or byte offset) and the reason, e.g. "trace.csv:17: field 6 (size): '0' is not a
    // size (must be at least 1)". Writer errors are reported with the place that caused them.
    virtual bool run(const QString &path, HistoryWriter &writer, const ImportOptions &options,
        ImportReport *report, QString *error, const ImportProgress &progress)
        = 0;
};

} // namespace memhist
