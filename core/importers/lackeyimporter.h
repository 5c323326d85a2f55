// SPDX-License-Identifier: MIT
// Imports a Valgrind Lackey log (`valgrind --tool=lackey --trace-mem=yes --log-file=F PROGRAM`),
// plain or gzip-compressed, streaming it through a LackeyParser (see lackeyparser.h for the lines
// and how transitions are counted) in bounded memory.
//
// Ends that are not errors, each with a warning in the report: a plain log whose last line is cut
// (imports the complete lines), a log whose valgrind summary is missing, a gzip stream that stops
// before its end (imports what decompressed cleanly). Errors: a malformed I/L/S/M line, binary
// data, an empty file, a file without any I/L/S/M line, corrupt gzip data (a bad block or a wrong
// checksum: what it decompressed to cannot be trusted).
#pragma once

#include "core/importers/traceimporter.h"

namespace memhist {

class LackeyImporter : public TraceImporter
{
public:
    QString formatName() const override { return QStringLiteral("lackey"); }
    bool run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report, QString *error,
        const ImportProgress &progress) override;
};

} // namespace memhist
