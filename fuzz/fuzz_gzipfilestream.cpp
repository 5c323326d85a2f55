// SPDX-License-Identifier: MIT
// drmemtrace's gzip-compressed traces (core/importers/drmemtrace/gzipfilestream.h), concatenated
// members included, read through the record reader as the importer reads them and straight with
// odd read sizes; both must agree. Also the gunzipped start that format detection looks at
// (core/importers/gzipstart.h), which must be the start of what the stream reads.
#include "core/importers/drmemtrace/gzipfilestream.h"
#include "core/importers/drmemtrace/tracefileprobe.h"
#include "core/importers/gzipstart.h"
#include "fuzzsupport.h"

using namespace memhist;
using namespace memhist::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(data, qsizetype(size));
    const QByteArray start = gunzipStart(input, 4096);
    drmemtrace::recogniseTraceHead(input, start);
    const MemoryFile file(input);
    readContainer(file.path(), [&] { return std::make_unique<drmemtrace::GzipFileStream>(file.path()); });

    // What gunzipStart gives is what the stream reads first (it may stop earlier, at damage).
    drmemtrace::GzipFileStream stream(file.path());
    if (!start.isEmpty() && stream.open() && stream.nextPart()) {
        QByteArray streamed(start.size(), Qt::Uninitialized);
        qsizetype filled = 0;
        while (filled < streamed.size()) {
            const qint64 n = stream.read(streamed.data() + filled, streamed.size() - filled);
            if (n <= 0)
                break;
            filled += qsizetype(n);
        }
        if (!start.startsWith(streamed.first(filled)) || (filled < start.size() && stream.errorString().isEmpty()))
            propertyBroken(QStringLiteral("the gunzipped start (%1 bytes) is not what the stream reads (%2 bytes)")
                               .arg(start.size())
                               .arg(filled));
    }
    return 0;
}
