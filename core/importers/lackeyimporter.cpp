#include "lackeyimporter.h"

#include "importers/lackeyparser.h"
#include "importers/progressthrottle.h"
#include "importers/tracefilereader.h"

#include <cstring>

namespace memhist {

namespace {

// Large reads keep the importer parsing rather than waiting on system calls; the buffer holds one
// read plus the longest line the parser accepts, which bounds memory whatever the input.
constexpr qsizetype readSize = 1 << 20;

} // namespace

bool LackeyImporter::run(const QString &path, HistoryWriter &writer, const ImportOptions &options, ImportReport *report,
    QString *error, const ImportProgress &progress)
{
    WriterSink sink(writer);
    return runInto(path, sink, options, report, error, progress);
}

bool LackeyImporter::runInto(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
    QString *error, const ImportProgress &progress)
{
    ImportReport localReport;
    ImportReport &counts = report ? *report : localReport;
    counts = {};
    const auto failFile = [&](const QString &reason) {
        *error = path + QStringLiteral(": ") + reason;
        return false;
    };

    TraceFileReader reader(path);
    if (!reader.open()) {
        *error = reader.errorString();
        return false;
    }
    LackeyParser parser(path, sink, options);
    const auto parserFailed = [&] {
        parser.fillReport(&counts);
        *error = parser.errorString();
        return false;
    };

    QByteArray buffer(readSize + LackeyParser::maxLineLength, Qt::Uninitialized);
    char *const data = buffer.data();
    qsizetype filled = 0;
    bool anyInput = false;
    ProgressThrottle throttle(progress);
    const auto reportProgress = [&](bool atEnd) {
        return atEnd ? throttle.finish() : throttle.update(reader.inputPosition(), reader.inputSize());
    };

    for (;;) {
        const qint64 n = reader.read(data + filled, buffer.size() - filled);
        if (n < 0) {
            // The complete lines before the error are parsed: the data stops in the next one.
            parser.fillReport(&counts);
            *error = reader.errorString(parser.lineNumber() + 1);
            return false;
        }
        if (n == 0)
            break;
        anyInput = true;
        filled += n;
        const qsizetype consumed = parser.parse(data, filled);
        if (consumed < 0)
            return parserFailed();
        filled -= consumed;
        std::memmove(data, data + consumed, size_t(filled));
        if (!reportProgress(false))
            return failFile(QStringLiteral("import cancelled"));
    }
    if (!anyInput)
        return failFile(QStringLiteral("empty file"));
    // The content is complete here (a truncated gzip stream failed above), so a cut last line is
    // the tracer's doing, whether the log is plain or gzipped: finish() warns about it.
    if (!parser.finish(QByteArrayView(data, filled), false))
        return parserFailed();
    parser.fillReport(&counts);
    if (parser.instructions() == 0)
        return failFile(QStringLiteral("no Lackey trace lines (I, L, S or M) in %1 lines: not a Lackey trace")
                            .arg(parser.lineNumber()));
    if (!reportProgress(true))
        return failFile(QStringLiteral("import cancelled"));
    return true;
}

} // namespace memhist
