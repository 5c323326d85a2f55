// SPDX-License-Identifier: MIT
#include "core/importers/drmemtraceimporter.h"

#include "core/context/elfloadmappings.h"
#include "core/importers/accesssink.h"
#include "core/importers/drmemtrace/chunkseek.h"
#include "core/importers/drmemtrace/modulelist.h"
#include "core/importers/drmemtrace/pooledfile.h"
#include "core/importers/drmemtrace/recordreader.h"
#include "core/importers/drmemtrace/threaddecoder.h"
#include "core/importers/drmemtrace/threadinterleaver.h"
#include "core/importers/drmemtrace/tracefileprobe.h"
#include "core/importers/progressthrottle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

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
    add("core idle markers", context.coreIdleMarkers);
    add("repeated chunk headers (timestamp, cpu)", context.repeatedChunkHeaders);
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

// The modules.log DynamoRIO wrote for the trace at `path` (a thread file or a directory): beside it,
// or in the `raw` directory beside it or beside its `trace` directory (DIR/raw and DIR/trace, as
// drmemtrace lays them out). Empty when there is none.
QString moduleListFor(const QString &path)
{
    const QFileInfo info(path);
    const QDir directory = info.isDir() ? QDir(info.absoluteFilePath()) : info.absoluteDir();
    for (const QString &candidate :
        { QStringLiteral("modules.log"), QStringLiteral("raw/modules.log"), QStringLiteral("../raw/modules.log") }) {
        const QString file = QDir::cleanPath(directory.filePath(candidate));
        if (QFileInfo(file).isFile())
            return file;
    }
    return {};
}

// The mappings of the module whose first segment is `first`: as its file's program headers lay
// them out at `bias`, with their permissions, when the file is here; else the module's segments as
// the list gives them, permissions unknown (empty).
QList<Mapping> moduleMappings(const ModuleList &list, const ModuleListEntry &first, std::uint64_t bias)
{
    QList<Mapping> mappings;
    QString error;
    if (elfLoadMappings(first.path, bias, &mappings, &error))
        return mappings;
    for (const ModuleListEntry &segment : list.entries) {
        if (segment.containingId == first.id && segment.end > segment.start)
            mappings << Mapping { Address { segment.start }, Address { segment.end - 1 }, QString(), segment.fileOffset,
                first.path };
    }
    return mappings;
}

// Reads the module list beside the trace and names its modules to the sink, and their mappings,
// loaded from `first` on (the list does not say when). A list that cannot be read or parsed is a
// warning: the accesses do not depend on it. Returns what it gave, for the context line.
QString addModuleList(const QString &tracePath, AccessSink &sink, Transition first, QStringList *warnings)
{
    const QString path = moduleListFor(tracePath);
    if (path.isEmpty())
        return QStringLiteral("no modules.log beside the trace (nor in raw/): no modules");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *warnings << path + QStringLiteral(": ") + file.errorString() + QStringLiteral(": imported without modules");
        return QStringLiteral("no modules (%1 unreadable)").arg(path);
    }
    ModuleList list;
    QString error;
    if (!parseModuleList(file.readAll(), path, &list, &error)) {
        *warnings << error + QStringLiteral(": imported without modules");
        return QStringLiteral("no modules (%1 is malformed)").arg(path);
    }
    int modules = 0;
    int mappings = 0;
    for (const ModuleListEntry &entry : std::as_const(list.entries)) {
        // "<unknown>" is code DynamoRIO found in no file; the segments after a module's first are
        // found in its file.
        if (!entry.isFirstSegment() || entry.path == QLatin1String("<unknown>"))
            continue;
        LoadedModule module;
        module.path = entry.path;
        module.bias = moduleBias(entry);
        module.first = first;
        // The mappings before the module, as a recording reports them: the module claims them.
        for (const Mapping &mapping : moduleMappings(list, entry, module.bias)) {
            sink.addMapping(first, mapping);
            ++mappings;
        }
        sink.addModule(module);
        ++modules;
    }
    QString text = QStringLiteral("%1 modules and %2 mappings from %3").arg(modules).arg(mappings).arg(path);
    if (list.version < 5)
        text += QStringLiteral(" (a version %1 list has no preferred base: each module taken as linked at "
                               "address 0, as PIE executables and shared libraries are)")
                    .arg(list.version);
    return text;
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

bool DrMemtraceImporter::run(const QString &path, AccessSink &sink, const ImportOptions &options, ImportReport *report,
    QString *error, const ImportProgress &progress)
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

    FileHandlePool pool(m_maxOpenFiles > 0 ? m_maxOpenFiles : FileHandlePool::defaultMaxOpen());
    // Every file keeps its decoded records while the others run: with many threads each gets fewer,
    // so that the buffers of the whole directory stay within about a million records (28 MB).
    constexpr qsizetype recordsForAllBuffers = 1 << 20;
    const qsizetype bufferRecords = std::clamp<qsizetype>(
        recordsForAllBuffers / std::max<qsizetype>(files.size(), 1), 256, RecordReader::defaultBufferRecords);
    qint64 totalBytes = 0;
    std::vector<std::unique_ptr<RecordReader>> openReaders;
    std::vector<Container> containers;
    for (const QString &file : std::as_const(files)) {
        QString reason;
        const std::optional<Container> container = probeTraceFile(file, &reason);
        if (!container) {
            *error = file + QStringLiteral(": ") + reason;
            return false;
        }
        auto reader = std::make_unique<RecordReader>(file, openContainer(file, *container, &pool), bufferRecords);
        if (!reader->open()) {
            *error = reader->error();
            return false;
        }
        totalBytes += QFileInfo(file).size();
        openReaders.push_back(std::move(reader));
        containers.push_back(*container);
    }

    // A window far into chunked files starts in the chunks that hold it.
    SeekPlan plan;
    plan.startChunk.assign(openReaders.size(), 0);
    std::vector<ThreadChunks> chunks(openReaders.size());
    if (options.skipInstructions > 0
        && std::all_of(containers.cbegin(), containers.cend(), [](Container c) { return c == Container::Zip; })) {
        for (size_t i = 0; i < openReaders.size(); ++i) {
            if (!readThreadChunks(*openReaders[i], openReaders.size() > 1, &chunks[i], error))
                return false;
        }
        plan = planChunkSeek(chunks, options.skipInstructions);
        // Reading the chunk heads closed the chunk each reader had entered.
        for (size_t i = 0; i < openReaders.size(); ++i) {
            if (!openReaders[i]->seekPart(plan.startChunk[i])) {
                *error = openReaders[i]->error();
                return false;
            }
        }
    }

    std::vector<std::unique_ptr<ThreadDecoder>> threads;
    std::vector<const RecordReader *> readers;
    for (size_t i = 0; i < openReaders.size(); ++i) {
        readers.push_back(openReaders[i].get());
        threads.push_back(std::make_unique<ThreadDecoder>(std::move(openReaders[i])));
        if (plan.startChunk[i] > 0)
            threads.back()->startInChunk(chunks[i].threadId);
    }

    DecodeContext context(sink);
    context.withExecute = options.withExecute;
    context.window = TransitionWindow::of(options);
    const quint64 transitionAtStart = options.firstTransition.value + plan.instructionsBefore;
    context.next = Transition { transitionAtStart };
    std::optional<InterleaveCut> cut;
    if (plan.cut)
        cut = InterleaveCut { *plan.cut, transitionAtStart };
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

    const QString modules = addModuleList(path, sink, options.firstTransition, &context.warnings);
    const InterleaveEnd end = interleaveThreads(threads, context, cut, error);
    const bool ok = end != InterleaveEnd::Failed;
    if (context.spanThread && context.next > context.spanFirst)
        sink.addThreadSpan(*context.spanThread, context.spanFirst, Transition { context.next.value - 1 });
    if (context.beforeCut) // every thread ended before the cut: where they ended is all that is known
        context.next = Transition { transitionAtStart + quint64(context.instructionsBeforeCut) };

    counts.linesRead = context.records;
    counts.reads = context.reads;
    counts.writes = context.writes;
    counts.executes = context.executes;
    counts.accesses = context.reads + context.writes + context.executes;
    counts.instructions = context.instructions;
    counts.nextTransition = context.next;
    counts.reachedWindowEnd = end == InterleaveEnd::WindowEnd;
    counts.warnings = context.warnings;
    reportSkipped(context, options.withExecute, &counts);
    if (const qint64 before
        = qint64(plan.instructionsBefore) + context.instructionsBeforeCut + context.instructionsBeforeWindow;
        before > 0)
        counts.skipped[beforeWindowKind()] += before;
    if (context.unknownSizeAccesses > 0) {
        // Stored, not skipped, but not as the trace says: recorded where a reader of the database sees it.
        sink.setMetaValue(QStringLiteral("drmemtrace: accesses of unknown size stored as 1 byte"),
            QString::number(context.unknownSizeAccesses));
    }
    // The kinds of records that are more than one instruction and one or two references, decoded as
    // such: said in the history, for a reader wondering about a dense transition.
    if (context.bundledInstructions > 0)
        sink.setMetaValue(QStringLiteral("drmemtrace: instructions from bundle records"),
            QString::number(context.bundledInstructions));
    if (context.multiReferenceInstructions > 0)
        sink.setMetaValue(
            QStringLiteral("drmemtrace: instructions with more than two data references (scatter, gather, string)"),
            QString::number(context.multiReferenceInstructions));
    const QString bytes = context.encodedInstructions > 0
        ? QStringLiteral("instruction bytes from %1 encoded instruction records").arg(context.encodedInstructions)
        : QStringLiteral("no encoding records (traces before version 4 have none): no instruction bytes");
    counts.context << QStringLiteral("%1: pcs of %2 transitions, %3, %4")
                          .arg(path, QString::number(context.instructions), bytes, modules);
    if (!ok)
        return false;
    if (!reportProgress(true)) {
        *error = path + QStringLiteral(": import cancelled");
        return false;
    }
    return true;
}

} // namespace memhist
