#include "traceformats.h"

#include "csv/csvaccessformat.h"
#include "importers/csvimporter.h"

#include <QFile>
#include <QFileInfo>

#include <zlib.h>

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

bool looksLikeCsv(const TraceHead &head)
{
    if (head.isDirectory || head.gzipped)
        return false;
    QByteArrayView start(head.bytes);
    if (start.startsWith("\xEF\xBB\xBF"))
        start = start.sliced(3);
    if (const qsizetype newline = start.indexOf('\n'); newline >= 0)
        start = start.first(newline);
    if (start.endsWith('\r'))
        start.chop(1);
    return start == QByteArrayView(csv::header());
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
    { TraceFormat::Csv, "csv", looksLikeCsv, [] { return std::unique_ptr<TraceImporter>(new CsvImporter); } },
};

const FormatEntry *entryFor(TraceFormat format)
{
    for (const FormatEntry &entry : formats) {
        if (entry.format == format)
            return &entry;
    }
    return nullptr;
}

// The first bytes of a gzip member, decompressed; what a truncated member holds is enough here.
QByteArray gunzipHead(const QByteArray &compressed)
{
    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        return {};
    QByteArray out(headSize, Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.constData()));
    stream.avail_in = uInt(compressed.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    inflate(&stream, Z_SYNC_FLUSH);
    out.truncate(out.size() - qsizetype(stream.avail_out));
    inflateEnd(&stream);
    return out;
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
    }
    return {};
}

QStringList traceFormatNames()
{
    QStringList names;
    for (const TraceFormat format : { TraceFormat::Csv, TraceFormat::Lackey, TraceFormat::DrMemtrace, TraceFormat::Tenet })
        names << traceFormatName(format);
    return names;
}

bool parseTraceFormat(const QString &name, TraceFormat *format)
{
    for (const TraceFormat candidate :
        { TraceFormat::Csv, TraceFormat::Lackey, TraceFormat::DrMemtrace, TraceFormat::Tenet }) {
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
            head.bytes = gunzipHead(head.bytes);
        }
    }
    for (const FormatEntry &entry : formats) {
        if (entry.recognises(head)) {
            *format = entry.format;
            return true;
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
