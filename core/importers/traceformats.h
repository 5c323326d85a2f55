// SPDX-License-Identifier: MIT
// The trace formats memhist imports, how each is recognised from its content, and the importer for
// each. The one place a new format is registered.
#pragma once

#include "core/importers/traceimporter.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace memhist {

enum class TraceFormat {
    Csv,
    Lackey,
    DrMemtrace,
    Tenet,
    RecordStream, // what `memhist record --keep-stream` keeps: memhist's own Valgrind tool's stream
};

// "csv", "lackey", "drmemtrace", "tenet", "memhist-stream".
QString traceFormatName(TraceFormat format);
// All names, in the order above, for messages and --help.
QStringList traceFormatNames();
// The file name patterns traces usually have, for file dialogs (recognition reads the content, never
// the name): csv, Lackey and Tenet logs, drmemtrace files compressed with gzip, zip or snappy (.sz).
QStringList traceFilePatterns();
// The format named `name`, or false.
bool parseTraceFormat(const QString &name, TraceFormat *format);

// Recognises the format of `path` (a file, or a directory for formats that import one) from its
// content, not its name: reads the first bytes (decompressing gzip where a format allows it) and
// asks each format. False + *error naming the file and the reason (cannot open, empty, unknown).
bool detectTraceFormat(const QString &path, TraceFormat *format, QString *error);

std::unique_ptr<TraceImporter> createImporter(TraceFormat format);

} // namespace memhist
