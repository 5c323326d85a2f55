// The trace formats `memhist import` reads, and how --format auto recognises them.
#pragma once

#include <QString>

namespace memhist::cli {

enum class TraceFormat {
    Auto,
    Csv,
};

// What --format accepted; false for anything else. *known is set when the name is a format of
// DESIGN.md §3 that has no importer yet (lackey, drmemtrace, tenet), for a better message.
bool parseTraceFormat(const QString &text, TraceFormat *format, bool *known);

// The name recorded in the database's sources ("csv").
QString traceFormatName(TraceFormat format);

// Recognises the format of `path` from its first bytes: a file whose first line is the CSV header
// is csv. False + *error naming the file and the reason otherwise (unreadable, empty, unknown).
bool detectTraceFormat(const QString &path, TraceFormat *format, QString *error);

} // namespace memhist::cli
