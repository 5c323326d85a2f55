// SPDX-License-Identifier: MIT
// drmemtrace's snappy-framed traces (core/importers/drmemtrace/snappyframestream.h), read through
// the record reader as the importer reads them and straight with odd read sizes; both must agree.
// Also the first-chunk decoder that recognises such a file from its first bytes.
#include "core/importers/drmemtrace/snappyframestream.h"
#include "core/importers/drmemtrace/tracefileprobe.h"
#include "fuzzsupport.h"

using namespace memhist;
using namespace memhist::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(data, qsizetype(size));
    drmemtrace::SnappyFrameStream::firstChunk(input);
    drmemtrace::recogniseTraceHead(input, {});
    const MemoryFile file(input);
    readContainer(file.path(), [&] { return std::make_unique<drmemtrace::SnappyFrameStream>(file.path()); });
    return 0;
}
