// SPDX-License-Identifier: MIT
// Recognises drmemtrace trace files by their content, whatever their name: the container (zip of
// chunk.NNNN members, gzip, snappy framing, or raw records) and, where the first records can be
// seen, a header record first. Also lists a trace directory: its thread files, and the side files
// drmemtrace writes beside them (cpu_schedule.bin.zip, serial_schedule.bin.gz), which are skipped.
#pragma once

#include "core/importers/drmemtrace/bytestream.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace memhist::drmemtrace {

enum class Container {
    Raw,
    Gzip,
    Snappy,
    Zip,
};

// True when `records` (decompressed) starts with a drmemtrace header record: type TRACE_TYPE_HEADER
// holding a plausible version, followed (when present) by a thread, pid or marker record.
bool startsWithHeaderRecord(QByteArrayView records);

// The container of a trace file whose first stored bytes are `head`, when it is a drmemtrace trace;
// `decompressedHead` is the start of its gzip content when `head` is gzip (ignored otherwise).
std::optional<Container> recogniseTraceHead(QByteArrayView head, QByteArrayView decompressedHead);

// Reads the start of `path` and recognises it. Null + *reason ("empty file", "not a drmemtrace
// trace ...", "cannot open: ...") otherwise.
std::optional<Container> probeTraceFile(const QString &path, QString *reason);

class FileHandlePool;

// The stream that reads `path` as `container`, through `pool` when one is given.
std::unique_ptr<ByteStream> openContainer(const QString &path, Container container, FileHandlePool *pool = nullptr);

struct TraceDirectory
{
    QString directory; // where the trace files are (the directory, or its `trace` subdirectory)
    QStringList traceFiles; // sorted by name
    QStringList sideFiles; // schedule files, skipped
    QStringList otherFiles; // neither traces nor known side files, skipped
};

// Lists `path`: every regular file recognised as a trace by content is a thread file. A file named
// like a trace (NAME.trace, NAME.trace.zip|gz|sz) that is not one is an error (false + *error
// naming it), so a damaged thread is not silently left out. A directory with no trace files but a
// `trace` subdirectory (drmemtrace's own layout: raw/ and trace/) is read from there.
bool listTraceDirectory(const QString &path, TraceDirectory *directory, QString *error);

// True when `path` is a directory holding at least one drmemtrace trace file (for recognising the
// format); looks no further than needed.
bool isTraceDirectory(const QString &path);

} // namespace memhist::drmemtrace
