// Imports DynamoRIO drmemtrace final traces: one thread file (.trace.zip of chunks, .trace.gz,
// .trace.sz, raw .trace) or a whole trace directory, whose thread files are interleaved into one
// timeline by their timestamp markers. Transitions are the global ordinal of instruction records
// from ImportOptions::firstTransition; reads and writes are stored at their instruction's transition
// with the virtual address as both physical and linear; which thread ran which transitions goes to
// the writer's thread spans. The rules in detail: drmemtrace/threaddecoder.h and README.
#pragma once

#include "importers/traceimporter.h"

namespace memhist {

class DrMemtraceImporter : public TraceImporter
{
public:
    QString formatName() const override { return QStringLiteral("drmemtrace"); }
    bool run(const QString &path, HistoryWriter &writer, const ImportOptions &options, ImportReport *report,
        QString *error, const ImportProgress &progress) override;

    // For the format registry: whether `path` is a drmemtrace trace, from its first bytes (`head`,
    // already gunzipped when `gzipped`) or, for a directory, from the files in it.
    static bool recognises(const QString &path, bool isDirectory, bool gzipped, QByteArrayView head);
};

} // namespace memhist
