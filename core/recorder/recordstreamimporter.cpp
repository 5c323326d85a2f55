// SPDX-License-Identifier: MIT
#include "core/recorder/recordstreamimporter.h"

#include "core/importers/progressthrottle.h"
#include "core/importers/tracefilereader.h"
#include "core/recorder/recordformat.h"
#include "core/recorder/recordstreamparser.h"

namespace memhist {

bool RecordStreamImporter::recognises(QByteArrayView head)
{
    return head.startsWith(QByteArrayView(MH_STREAM_MAGIC, MH_STREAM_MAGIC_SIZE));
}

bool RecordStreamImporter::run(const QString &path, AccessSink &sink, const ImportOptions &options,
    ImportReport *report, QString *error, const ImportProgress &progress)
{
    ImportReport localReport;
    ImportReport &counts = report ? *report : localReport;
    counts = {};
    TraceFileReader reader(path);
    if (!reader.open()) {
        *error = reader.errorString();
        return false;
    }
    RecordStreamParser parser(path, sink, options);
    ProgressThrottle throttle(progress);

    bool cancelled = false;
    QByteArray buffer;
    QByteArrayView rest;
    const RecordStreamReadEnd end = readRecordStream(
        parser,
        [&](char *data, qsizetype size) -> qint64 {
            if (!throttle.update(reader.inputPosition(), reader.inputSize())) {
                cancelled = true;
                return -1;
            }
            return reader.read(data, size);
        },
        {}, &buffer, &rest);
    if (end == RecordStreamReadEnd::ReadStopped || end == RecordStreamReadEnd::Failed) {
        *error = cancelled                            ? path + QStringLiteral(": import cancelled")
            : end == RecordStreamReadEnd::ReadStopped ? reader.errorString()
                                                      : parser.errorString();
        parser.fillReport(&counts);
        return false;
    }
    const bool finished = parser.finish(rest);
    parser.fillReport(&counts);
    if (!finished) {
        *error = parser.errorString();
        return false;
    }
    if (!throttle.finish()) {
        *error = path + QStringLiteral(": import cancelled");
        return false;
    }
    return true;
}

} // namespace memhist
