// SPDX-License-Identifier: MIT
#include "core/recorder/recordstreamimporter.h"

#include "core/importers/progressthrottle.h"
#include "core/importers/tracefilereader.h"
#include "core/recorder/recordformat.h"
#include "core/recorder/recordstreamparser.h"

#include <cstring>

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

    // Records are parsed from a buffer that keeps the cut record at its end for the next read, and
    // grows when one record is larger than the buffer (a kernel access of a whole file's bytes).
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qsizetype filled = 0;
    for (;;) {
        if (buffer.size() - filled < parser.bytesNeeded())
            buffer.resize(filled + std::max<qsizetype>(parser.bytesNeeded(), 1 << 20));
        const qint64 read = reader.read(buffer.data() + filled, buffer.size() - filled);
        if (read < 0) {
            *error = reader.errorString();
            parser.fillReport(&counts);
            return false;
        }
        if (read == 0)
            break;
        filled += qsizetype(read);
        const qsizetype used = parser.parse(QByteArrayView(buffer.constData(), filled));
        if (used < 0) {
            *error = parser.errorString();
            parser.fillReport(&counts);
            return false;
        }
        std::memmove(buffer.data(), buffer.constData() + used, std::size_t(filled - used));
        filled -= used;
        if (parser.stopped() || parser.end())
            break;
        if (!throttle.update(reader.inputPosition(), reader.inputSize())) {
            parser.fillReport(&counts);
            *error = path + QStringLiteral(": import cancelled");
            return false;
        }
    }
    const bool finished = parser.finish(QByteArrayView(buffer.constData(), filled));
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
