// SPDX-License-Identifier: MIT
// Imports DynamoRIO drmemtrace final traces: one thread file (.trace.zip of chunks, .trace.gz,
// .trace.sz, raw .trace) or a whole trace directory, whose thread files are interleaved into one
// timeline by their timestamp markers; core-sharded traces (one file per core, as DynamoRIO's
// scheduler and record_filter write them) likewise, each core in its file's order. Transitions are
// the global ordinal of instruction records from ImportOptions::firstTransition; reads and writes are
// stored at their instruction's transition with the virtual address as both physical and linear;
// which thread ran which transitions goes to the sink's thread spans. A window starts in the chunk
// that holds it, without inflating the chunks before it (drmemtrace/chunkseek.h). At most a bounded
// number of files are open at once (drmemtrace/pooledfile.h). The rules in detail:
// drmemtrace/threaddecoder.h and docs/trace-formats.md "drmemtrace traces".
#pragma once

#include "core/importers/traceimporter.h"

namespace memhist {

class DrMemtraceImporter : public TraceImporter
{
public:
    // Keeps at most `maxOpenFiles` trace files open at once (0: FileHandlePool::defaultMaxOpen()).
    explicit DrMemtraceImporter(int maxOpenFiles = 0)
        : m_maxOpenFiles(maxOpenFiles)
    { }

    QString formatName() const override { return QStringLiteral("drmemtrace"); }
    bool run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report, QString *error,
        const ImportProgress &progress) override;

    // For the format registry: whether `path` is a drmemtrace trace, from its first bytes (`head`,
    // already gunzipped when `gzipped`) or, for a directory, from the files in it.
    static bool recognises(const QString &path, bool isDirectory, bool gzipped, QByteArrayView head);

private:
    int m_maxOpenFiles;
};

} // namespace memhist
