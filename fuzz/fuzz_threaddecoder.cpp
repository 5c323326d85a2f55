// SPDX-License-Identifier: MIT
// drmemtrace records (core/importers/drmemtrace/recordreader.h, threaddecoder.h,
// threadinterleaver.h), as `memhist import` reads a trace directory: the input holds up to eight
// raw thread files separated by threadSeparator, which are decoded and interleaved by their
// timestamps into a history. Whatever the importer hands the writer and the writer accepts must
// make a database that `memhist check` passes. Also the probe that recognises a trace by its
// first records.
#include "core/checker/historychecker.h"
#include "core/importers/accesssink.h"
#include "core/importers/drmemtrace/rawfilestream.h"
#include "core/importers/drmemtrace/threadinterleaver.h"
#include "core/importers/drmemtrace/tracefileprobe.h"
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "fuzzsupport.h"

#include <QDir>

using namespace memhist;
using namespace memhist::fuzz;

namespace {

// Separates the thread files in the input (the seeds use it; see fuzz/seedcorpus.cpp).
constexpr QByteArrayView threadSeparator("\nTHREAD\n");
constexpr int maxThreads = 8;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(data, qsizetype(size));
    drmemtrace::recogniseTraceHead(input, {});

    std::vector<std::unique_ptr<MemoryFile>> files;
    for (qsizetype start = 0; start <= input.size() && int(files.size()) < maxThreads;) {
        qsizetype end = input.indexOf(threadSeparator, start);
        if (end < 0 || int(files.size()) == maxThreads - 1)
            end = input.size();
        files.push_back(std::make_unique<MemoryFile>(input.sliced(start, end - start)));
        start = end + threadSeparator.size();
    }
    std::vector<std::unique_ptr<drmemtrace::ThreadDecoder>> threads;
    for (const auto &file : files) {
        auto reader = std::make_unique<drmemtrace::RecordReader>(
            file->path(), std::make_unique<drmemtrace::RawFileStream>(file->path()));
        if (!reader->open())
            return 0;
        threads.push_back(std::make_unique<drmemtrace::ThreadDecoder>(std::move(reader)));
    }

    // Small caps, so that a small input already fills several slices and chunks.
    WriterOptions caps;
    caps.sliceAccessCap = 64;
    caps.chunkAccessCap = 16;
    caps.chunkTargetAccesses = 4;
    const QString output = QDir(scratchDirectory()).filePath(QStringLiteral("decoded.memhist"));
    HistoryWriter writer(output, caps);
    if (!writer.open())
        propertyBroken(QStringLiteral("cannot open the writer: ") + writer.errorString());
    WriterSink sink(writer);
    drmemtrace::DecodeContext context(sink);
    context.withExecute = size % 2 == 1;
    QString error;
    const bool ok
        = drmemtrace::interleaveThreads(threads, context, std::nullopt, &error) != drmemtrace::InterleaveEnd::Failed;
    if (!ok) {
        if (error.isEmpty())
            propertyBroken(QStringLiteral("the import failed without a reason"));
        writer.cancel();
        return 0;
    }
    if (context.spanThread && context.next > context.spanFirst)
        writer.addThreadSpan(*context.spanThread, context.spanFirst, Transition { context.next.value - 1 });
    if (!writer.finish())
        propertyBroken(QStringLiteral("the writer accepted every access but cannot finish: ") + writer.errorString());
    const auto database = HistoryDatabase::open(output, &error);
    if (!database)
        propertyBroken(QStringLiteral("the written history does not open: ") + error);
    const CheckReport check = HistoryChecker(*database).run();
    if (!check.ok)
        propertyBroken(QStringLiteral("the written history fails the check: ") + check.violation);
    if (check.accesses != context.reads + context.writes + context.executes)
        propertyBroken(QStringLiteral("the importer handed %1 accesses to the writer, the history holds %2")
                           .arg(context.reads + context.writes + context.executes)
                           .arg(check.accesses));
    return 0;
}
