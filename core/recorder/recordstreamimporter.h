// SPDX-License-Identifier: MIT
// Imports a record stream that `memhist record --keep-stream` kept (recordstreamparser.h): the same
// history the recording made, from the file, gzipped or not. Also how a benchmark replays a
// recording into the writer alone.
#pragma once

#include "core/importers/traceimporter.h"

namespace memhist {

class RecordStreamImporter final : public TraceImporter
{
public:
    // The stream's first bytes (recordformat.h's magic).
    static bool recognises(QByteArrayView head);

    QString formatName() const override { return QStringLiteral("memhist-stream"); }
    bool run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report, QString *error,
        const ImportProgress &progress) override;
};

} // namespace memhist
