#include "drmemtraceimporter.h"

#include "importers/drmemtrace/recordreader.h"
#include "importers/drmemtrace/threaddecoder.h"
#include "importers/drmemtrace/threadinterleaver.h"
#include "importers/drmemtrace/tracefileprobe.h"
#include "importers/progressthrottle.h"
#include "writer/historywriter.h"

#include <QFileInfo>

namespace memhist {

using namespace drmemtrace;

namespace {

// The names under which ImportReport::skipped counts what is read but not stored.
void reportSkipped(const DecodeContext &context, bool withExecute, ImportReport *report)
{
    const auto add = [&](const char *what, qint64 count) {
        if (count > 0)
            report->skipped[QLatin1String(what)] += count;
    };
    const auto kind = [&](RecordKind k) { return context.kinds[size_t(k)]; };
    add("markers", kind(RecordKind::Marker));
    add("repeated chunk headers (timestamp, cpu)", context.repeatedChunkHeaders);
    add("encodings", kind(RecordKind::Encoding));
    add("prefetches", kind(RecordKind::Prefetch));
    add("non-fetched instructions", kind(RecordKind::NoFetch));
    add("cache flushes", kind(RecordKind::Flush));
    add("header, thread and pid records", kind(RecordKind::Bookkeeping) + kind(RecordKind::Thread));
    add("footer records", kind(RecordKind::Footer));
    add("other records", kind(RecordKind::Other));
    add("accesses before a thread's first instruction", context.accessesBeforeFirstInstruction);
    if (!withExecute)
        add("instruction fetches", context.instructions);
}

} // namespace

bool DrMemtraceImporter::recognises(const QString &path, bool isDirectory, bool gzipped, QByteArrayView head)
{
    if (isDirectory)
        return isTraceDirectory(path);
    if (gzipped)
        return startsWithHeaderRecord(head);
    return recogniseTraceHead(head, {}).has_value();
}

bool DrMemtraceImporter::run(const QString &path, HistoryWriter &writer, const ImportOptions &options,
    ImportReport *report, QString *error, const ImportProgress &progress)
{
    ImportReport localReport;
    ImportReport &counts = report ? *report : localReport;
    counts = {};
    counts.nextTransition = options.firstTransition;

    // The thread files, each with its container.
    QStringList files;
    if (QFileInfo(path).isDir()) {
        TraceDirectory directory;
        if (!listTraceDirectory(path, &directory, error))
            return false;
        if (directory.traceFiles.isEmpty()) {
            *error = path + QStringLiteral(": no drmemtrace trace files in this directory");
            return false;
        }
        files = directory.traceFiles;
        if (!directory.sideFiles.isEmpty())
            counts.skipped[QStringLiteral("schedule side files")] += directory.sideFiles.size();
        if (!directory.otherFiles.isEmpty())
            counts.skipped[QStringLiteral("other files in the directory")] += directory.otherFiles.size();
    } else {
        files << path;
    }

    qint64 totalBytes = 0;
    std::vector<std::unique_ptr<ThreadDecoder>> threads;
    std::vector<const RecordReader *> readers;
    for (const QString &file : std::as_const(files)) {
        QString reason;
        const std::optional<Container> container = probeTraceFile(file, &reason);
        if (!container) {
            *error = file + QStringLiteral(": ") + reason;
            return false;
        }
        auto reader = std::make_unique<RecordReader>(file, openContainer(file, *container));
        if (!reader->open()) {
            *error = reader->error();
            return false;
        }
        totalBytes += QFileInfo(file).size();
        readers.push_back(reader.get());
        threads.push_back(std::make_unique<ThreadDecoder>(std::move(reader)));
    }

    DecodeContext context(writer);
    context.withExecute = options.withExecute;
    context.next = options.firstTransition;
    ProgressThrottle throttle(progress);
    const auto reportProgress = [&](bool done) {
        if (done)
            return throttle.finish();
        qint64 consumed = 0;
        for (const RecordReader *reader : readers)
            consumed += reader->inputBytesConsumed();
        return throttle.update(consumed, totalBytes);
    };
    context.tick = [&] { return reportProgress(false); };

    const bool ok = interleaveThreads(threads, context, error);
    if (context.spanThread && context.next > context.spanFirst)
        writer.addThreadSpan(*context.spanThread, context.spanFirst, Transition { context.next.value - 1 });

    counts.linesRead = context.records;
    counts.reads = context.reads;
    counts.writes = context.writes;
    counts.executes = context.executes;
    counts.accesses = context.reads + context.writes + context.executes;
    counts.instructions = context.instructions;
    counts.nextTransition = context.next;
    counts.warnings = context.warnings;
    reportSkipped(context, options.withExecute, &counts);
    if (context.unknownSizeAccesses > 0) {
        // Stored, not skipped, but not as the trace says: recorded where a reader of the database sees it.
        writer.setMetaValue(QStringLiteral("drmemtrace: accesses of unknown size stored as 1 byte"),
            QString::number(context.unknownSizeAccesses));
    }
    if (!ok)
        return false;
    if (!reportProgress(true)) {
        *error = path + QStringLiteral(": import cancelled");
        return false;
    }
    return true;
}

} // namespace memhist
