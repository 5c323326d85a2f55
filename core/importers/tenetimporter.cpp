// SPDX-License-Identifier: MIT
#include "core/importers/tenetimporter.h"

#include "core/importers/accesssink.h"
#include "core/importers/progressthrottle.h"
#include "core/importers/tenetparser.h"
#include "core/importers/textpiecereader.h"
#include "core/importers/tracefilereader.h"

namespace memhist {

bool TenetImporter::run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
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
    TenetParser parser(path, sink, options);

    ProgressThrottle throttle(progress);
    const TextPieceParser pieces {
        [&](const char *data, qsizetype size) {
            const qsizetype consumed = parser.parse(data, size);
            if (consumed < 0)
                *error = parser.errorString();
            return consumed;
        },
        [&] { return parser.lineNumber(); },
        [&] { return parser.stopped(); },
    };
    QByteArray buffer;
    QByteArrayView rest;
    if (!readTextInPieces(reader, path, TenetParser::maxLineLength, pieces, throttle, &buffer, &rest, error)) {
        parser.fillReport(&counts);
        return false;
    }
    // The content is complete here (a truncated gzip stream failed above), so a cut last line is
    // the tracer's doing: finish() warns about it.
    const bool finished = parser.finish(rest);
    parser.fillReport(&counts);
    if (!finished) {
        *error = parser.errorString();
        return false;
    }
    if (parser.instructions() == 0)
        return failFile(QStringLiteral("no Tenet lines in it: not a Tenet trace"));
    if (!throttle.finish())
        return failFile(QStringLiteral("import cancelled"));
    return true;
}

} // namespace memhist
