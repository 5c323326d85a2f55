// SPDX-License-Identifier: MIT
#include "core/importers/traceformats.h"

#include "core/csv/csvaccessformat.h"
#include "core/importers/csvimporter.h"
#include "core/importers/drmemtraceimporter.h"
#include "core/importers/gzipstart.h"
#include "core/importers/lackeyimporter.h"
#include "core/importers/lackeyparser.h"
#include "core/importers/tenetimporter.h"
#include "core/importers/tenetparser.h"
#include "core/importers/tracefilereader.h"
#include "core/recorder/recordstreamimporter.h"

#include <QFile>
#include <QFileInfo>

namespace memhist {

namespace {

// Enough of a file to recognise any format: several lines of text, or a zip's first member header
// plus the first records.
constexpr qsizetype headSize = 64 << 10;

// What a format looks at to recognise a trace: the path (directories are recognised from their
// entries) and the first bytes, already decompressed when the file is gzip.
struct TraceHead
{
    QString path;
    bool isDirectory = false;
    bool gzipped = false;
    QByteArray bytes;
};

// Our header, alone or followed by more columns (export --thread-column or --context: the CSV
// importer then says why it reads the six-column form only). head.bytes is gunzipped already.
bool looksLikeCsv(const TraceHead &head)
{
    if (head.isDirectory)
        return false;
    QByteArrayView start(head.bytes);
    if (start.startsWith("\xEF\xBB\xBF"))
        start = start.sliced(3);
    if (const qsizetype newline = start.indexOf('\n'); newline >= 0)
        start = start.first(newline);
    if (start.endsWith('\r'))
        start.chop(1);
    return start == QByteArrayView(csv::header()) || csv::hasColumnsAfterTheSix(start);
}

// The complete lines of the head (a cut last line is left out), at most `count` of them: views into
// `bytes`, which must outlive them (not a temporary in a range-for).
QList<QByteArrayView> headLines(const QByteArray &bytes, int count)
{
    QList<QByteArrayView> lines;
    qsizetype start = 0;
    while (lines.size() < count) {
        const qsizetype newline = bytes.indexOf('\n', start);
        if (newline < 0)
            break;
        lines << QByteArrayView(bytes).sliced(start, newline - start);
        start = newline + 1;
    }
    if (lines.isEmpty() && !bytes.isEmpty())
        lines << QByteArrayView(bytes).first(std::min<qsizetype>(bytes.size(), 4096)); // one unterminated line
    return lines;
}

// The head up to the line that holds its first NUL byte: a text trace damaged further on is still
// recognised, and its importer names the line ("T:12: binary data (a NUL byte), not a Lackey
// trace"); a file that starts with binary data keeps nothing.
QByteArray textBeforeBinary(const QByteArray &bytes)
{
    const qsizetype nul = bytes.indexOf('\0');
    if (nul < 0)
        return bytes;
    const qsizetype lineStart = bytes.lastIndexOf('\n', nul);
    return lineStart < 0 ? QByteArray() : bytes.first(lineStart + 1);
}

// Valgrind's `==PID==` header, or I/L/S/M lines: a log that starts with a few lines of the program's
// own output (--log-fd=1) is recognised as long as trace lines are at least as many as other lines.
bool looksLikeLackey(const TraceHead &head)
{
    if (head.isDirectory)
        return false;
    int traceLines = 0;
    int otherLines = 0;
    const QByteArray text = textBeforeBinary(head.bytes); // the lines below are views into it
    for (const QByteArrayView line : headLines(text, 400)) {
        if (LackeyParser::isTraceLine(line))
            ++traceLines;
        else if (LackeyParser::isValgrindMessage(line) && line.contains("Lackey"))
            return true;
        else if (!LackeyParser::isValgrindMessage(line) && !line.trimmed().isEmpty())
            ++otherLines;
    }
    return traceLines > 0 && traceLines >= otherLines;
}

// `rip=0x...,mr=0x...:...`: every field of the first non-empty line is NAME=0xHEX.
bool looksLikeTenet(const TraceHead &head)
{
    if (head.isDirectory)
        return false;
    const QByteArray text = textBeforeBinary(head.bytes); // the lines below are views into it
    for (const QByteArrayView line : headLines(text, 20)) {
        if (!line.trimmed().isEmpty())
            return TenetParser::isTenetLine(line);
    }
    return false;
}

// drmemtrace: a directory of thread files, or a zip of chunk.NNNN members, gzip, snappy-framed or
// raw records starting with a header record.
bool looksLikeDrMemtrace(const TraceHead &head)
{
    return DrMemtraceImporter::recognises(head.path, head.isDirectory, head.gzipped, head.bytes);
}

// memhist's own record stream: its magic.
bool looksLikeRecordStream(const TraceHead &head)
{
    return !head.isDirectory && RecordStreamImporter::recognises(head.bytes);
}

struct FormatEntry
{
    TraceFormat format;
    const char *name;
    bool (*recognises)(const TraceHead &head);
    std::unique_ptr<TraceImporter> (*create)();
};

// Asked in this order: the more specific formats first.
const FormatEntry formats[] = {
    { TraceFormat::RecordStream, "memhist-stream", looksLikeRecordStream,
        [] { return std::unique_ptr<TraceImporter>(new RecordStreamImporter); } },
    { TraceFormat::Csv, "csv", looksLikeCsv, [] { return std::unique_ptr<TraceImporter>(new CsvImporter); } },
    { TraceFormat::DrMemtrace, "drmemtrace", looksLikeDrMemtrace,
        [] { return std::unique_ptr<TraceImporter>(new DrMemtraceImporter); } },
    { TraceFormat::Lackey, "lackey", looksLikeLackey,
        [] { return std::unique_ptr<TraceImporter>(new LackeyImporter); } },
    { TraceFormat::Tenet, "tenet", looksLikeTenet, [] { return std::unique_ptr<TraceImporter>(new TenetImporter); } },
};

const FormatEntry *entryFor(TraceFormat format)
{
    for (const FormatEntry &entry : formats) {
        if (entry.format == format)
            return &entry;
    }
    return nullptr;
}

} // namespace

QString traceFormatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::Csv:
        return QStringLiteral("csv");
    case TraceFormat::Lackey:
        return QStringLiteral("lackey");
    case TraceFormat::DrMemtrace:
        return QStringLiteral("drmemtrace");
    case TraceFormat::Tenet:
        return QStringLiteral("tenet");
    case TraceFormat::RecordStream:
        return QStringLiteral("memhist-stream");
    }
    return {};
}

QStringList traceFilePatterns()
{
    return { QStringLiteral("*.csv"), QStringLiteral("*.lackey"), QStringLiteral("*.log"), QStringLiteral("*.trace"),
        QStringLiteral("*.gz"), QStringLiteral("*.zip"), QStringLiteral("*.sz") };
}

QStringList traceFormatNames()
{
    QStringList names;
    for (const TraceFormat format : { TraceFormat::Csv, TraceFormat::Lackey, TraceFormat::DrMemtrace,
             TraceFormat::Tenet, TraceFormat::RecordStream })
        names << traceFormatName(format);
    return names;
}

bool parseTraceFormat(const QString &name, TraceFormat *format)
{
    for (const TraceFormat candidate : { TraceFormat::Csv, TraceFormat::Lackey, TraceFormat::DrMemtrace,
             TraceFormat::Tenet, TraceFormat::RecordStream }) {
        if (name == traceFormatName(candidate)) {
            *format = candidate;
            return true;
        }
    }
    return false;
}

bool detectTraceFormat(const QString &path, TraceFormat *format, QString *error)
{
    TraceHead head;
    head.path = path;
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = path + QStringLiteral(": cannot open: No such file or directory");
        return false;
    }
    head.isDirectory = info.isDir();
    if (!head.isDirectory) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = path + QStringLiteral(": cannot open: ") + file.errorString();
            return false;
        }
        head.bytes = file.read(headSize);
        if (head.bytes.isEmpty()) {
            *error = path + QStringLiteral(": empty file");
            return false;
        }
        if (head.bytes.startsWith("\x1f\x8b")) {
            head.gzipped = true;
            head.bytes = gunzipStart(head.bytes, headSize);
        }
    }
    for (const FormatEntry &entry : formats) {
        if (entry.recognises(head)) {
            *format = entry.format;
            return true;
        }
    }
    // A directory can only be a drmemtrace trace directory: say what it lacks, as --format
    // drmemtrace would.
    if (head.isDirectory) {
        *error = path + QStringLiteral(": no drmemtrace trace files in this directory");
        return false;
    }
    // gzip data that does not inflate says why ("T.gz: offset 4: corrupt gzip data (unknown
    // compression method)"), whatever it would have held.
    if (head.gzipped && head.bytes.isEmpty()) {
        TraceFileReader reader(path);
        char probe[4096];
        if (reader.open() && reader.read(probe, sizeof probe) < 0) {
            *error = reader.errorString();
            return false;
        }
    }
    *error = QStringLiteral("%1: cannot recognise the trace format (known formats: %2; name one with --format)")
                 .arg(path, traceFormatNames().join(QStringLiteral(", ")));
    return false;
}

std::unique_ptr<TraceImporter> createImporter(TraceFormat format)
{
    const FormatEntry *entry = entryFor(format);
    return entry ? entry->create() : nullptr;
}

} // namespace memhist
