// SPDX-License-Identifier: MIT
// Importing one or more traces, one after another, into one new history: the loop shared by
// `memhist import` and the viewer's background import, so both continue transitions across traces
// and leave nothing behind on failure in the same way.
#pragma once

#include "core/importers/traceformats.h"
#include "core/importers/traceimporter.h"
#include "core/writer/historywriter.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace memhist {

// One trace of an import and the format it is read as.
struct TraceInput
{
    QString path;
    TraceFormat format = TraceFormat::Csv;
};

// Where an import stands, for a progress display.
struct ImportSessionProgress
{
    qsizetype traceIndex = 0; // the trace being read, 0-based
    qsizetype traceCount = 0;
    QString path; // that trace
    double fraction = 0; // of that trace's input consumed (0..1)
    qint64 accesses = 0; // stored so far, over all traces
    // Every trace is read; the history is being finished (its indexes, summaries and context): on
    // a large history that takes a while (a third of the time at 10^8 accesses), with no fraction
    // to show. Still cancellable.
    bool finishing = false;
};

// Returning false cancels the import; importTraces() then fails with "import cancelled" and
// leaves nothing at the output path.
using ImportSessionProgressCallback = std::function<bool(const ImportSessionProgress &progress)>;

struct ImportSummary
{
    WriterStats stats; // of the history written
    QMap<QString, qint64> skipped; // summed over the traces, by kind
    QStringList warnings; // of every trace read, in order; filled on failure too
    QStringList context; // what each trace gave of the program context (ImportReport::context), in order
};

// Finds the format of each trace before anything is read, so a typo in the last path does not
// cost the import of the others: `requested` for all of them when given (each must exist), else
// detectTraceFormat(). False + *error naming the trace and the reason (unknown format, cannot
// open, or a format without an importer).
bool recogniseTraces(
    const QStringList &paths, std::optional<TraceFormat> requested, QList<TraceInput> *inputs, QString *error);

// Imports `inputs` in order into a new history at `outputPath`, each trace's transitions continuing
// after the previous one's (options.firstTransition is where the first trace starts). A window
// (options.skipInstructions, maxInstructions) applies to the transitions of the whole session, as
// the full import would number them: each trace gets the part of the window it holds, the traces
// wholly before it are read only to count their instructions, and those after it are not read. The history
// is written to a temporary file and renamed into place only when complete: on failure or cancel
// the output path is left as it was. False + *error (the importer's or the writer's message, which
// names the file, the place and the reason).
bool importTraces(const QList<TraceInput> &inputs, const QString &outputPath, ImportOptions options,
    const ImportSessionProgressCallback &progress, ImportSummary *summary, QString *error);

} // namespace memhist
