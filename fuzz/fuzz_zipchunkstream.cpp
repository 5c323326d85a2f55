// SPDX-License-Identifier: MIT
// drmemtrace's zip archives of chunks (core/importers/drmemtrace/zipchunkstream.h), read through the
// record reader as the importer reads them and straight with odd read sizes; both must agree.
#include "core/importers/drmemtrace/zipchunkstream.h"
#include "fuzzsupport.h"

using namespace memhist;
using namespace memhist::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const MemoryFile file(QByteArrayView(data, qsizetype(size)));
    readContainer(file.path(), [&] { return std::make_unique<drmemtrace::ZipChunkStream>(file.path()); });
    return 0;
}
