#include "lackeyimporter.h"

#include "importers/lackeyparser.h"
#include "importers/progressthrottle.h"
#include "importers/textpiecereader.h"
#include "importers/tracefilereader.h"

namespace memhist {

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

    ProgressThrottle throttle(progress);
    const TextPieceParser pieces {
        [&](const char *data, qsizetype size) {
            const qsizetype consumed = parser.parse(data, size);
            if (consumed < 0)
                *error = parser.errorString();
            return consumed;
        },
        [&] { return parser.lineNumber(); },
    };
    QByteArray buffer;
    QByteArrayView rest;
    if (!readTextInPieces(reader, path, LackeyParser::maxLineLength, pieces, throttle, &buffer, &rest, error)) {
        parser.fillReport(&counts);
        return false;
    }
    // The content is complete here (a truncated gzip stream failed above), so a cut last line is
    // the tracer's doing, whether the log is plain or gzipped: finish() warns about it.
    if (!parser.finish(rest, false))
        return parserFailed();
    parser.fillReport(&counts);
    if (parser.instructions() == 0)
        return failFile(QStringLiteral("no Lackey trace lines (I, L, S or M) in %1 lines: not a Lackey trace")
                            .arg(parser.lineNumber()));
    if (!throttle.finish())
        return failFile(QStringLiteral("import cancelled"));
    return true;
}

} // namespace memhist
