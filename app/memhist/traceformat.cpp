#include "traceformat.h"

#include "csv/csvaccessformat.h"

#include <QFile>

namespace memhist::cli {

bool parseTraceFormat(const QString &text, TraceFormat *format, bool *known)
{
    *known = false;
    if (text == QLatin1String("auto")) {
        *format = TraceFormat::Auto;
        return true;
    }
    if (text == QLatin1String("csv")) {
        *format = TraceFormat::Csv;
        return true;
    }
    *known = text == QLatin1String("lackey") || text == QLatin1String("drmemtrace") || text == QLatin1String("tenet");
    return false;
}

QString traceFormatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::Csv:
        return QStringLiteral("csv");
    case TraceFormat::Auto:
        break;
    }
    return QStringLiteral("auto");
}

bool detectTraceFormat(const QString &path, TraceFormat *format, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot open: ") + file.errorString();
        return false;
    }
    // The CSV header is short; a first line longer than this is not one.
    QByteArray start = file.read(4096);
    if (start.isEmpty()) {
        *error = path + QStringLiteral(": empty file");
        return false;
    }
    if (start.startsWith("\xEF\xBB\xBF"))
        start.remove(0, 3);
    QByteArrayView firstLine(start);
    if (const qsizetype newline = start.indexOf('\n'); newline >= 0)
        firstLine = firstLine.first(newline);
    if (firstLine.endsWith('\r'))
        firstLine.chop(1);
    if (firstLine == QByteArrayView(csv::header())) {
        *format = TraceFormat::Csv;
        return true;
    }
    *error = QStringLiteral("memhist import: cannot recognise the format of %1 (supported: csv, whose first line is "
                            "the header '%2')")
                 .arg(path, QString::fromLatin1(csv::header()));
    return false;
}

} // namespace memhist::cli
