// SPDX-License-Identifier: MIT
#include "core/importers/lackeyimporter.h"

#include "core/importers/accesssink.h"
#include "core/importers/lackeyparser.h"
#include "core/importers/progressthrottle.h"
#include "core/importers/textpiecereader.h"
#include "core/importers/tracefilereader.h"

#include <algorithm>
#include <limits>

namespace memhist {

bool LackeyImporter::run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
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
    // The window: the parser numbers instructions from options.firstTransition, counts the skipped
    // ones without storing them, and stops before the one after the window.
    constexpr std::uint64_t most = std::numeric_limits<qint64>::max();
    const std::uint64_t skip = std::min(options.skipInstructions, most);
    parser.setSkippedInstructions(qint64(skip));
    if (options.maxInstructions)
        parser.setInstructionLimit(qint64(skip + std::min(*options.maxInstructions, most - skip)));
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
        [&] { return parser.stopped(); },
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
    counts.reachedWindowEnd = parser.stopped();
    if (parser.instructions() == 0)
        return failFile(QStringLiteral("no Lackey trace lines (I, L, S or M) in %1 lines: not a Lackey trace")
                            .arg(parser.lineNumber()));
    if (!throttle.finish())
        return failFile(QStringLiteral("import cancelled"));
    return true;
}

} // namespace memhist
