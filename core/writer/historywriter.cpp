// SPDX-License-Identifier: MIT
#include "core/writer/historywriter.h"

#include "core/context/contextcollector.h"
#include "core/context/contextschema.h"
#include "core/context/contexttablewriter.h"
#include "core/model/numbertext.h"
#include "core/storage/addresssummarybuilder.h"
#include "core/storage/batchinsert.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"
#include "core/summary/summarybuilder.h"
#include "core/writer/hotaddresscounter.h"
#include "core/writer/jobworker.h"
#include "core/writer/partialfile.h"
#include "core/writer/slicebuilder.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace memhist {

namespace {

// Gives the memory the writer's threads have freed back to the system before the index sort
// takes its own (up to 16 MiB per sorter thread, schema.h). glibc keeps what a thread frees in
// that thread's arena for its next allocations; the address summary alone frees up to its 64 MiB
// budget when it is written. Measured at 10^7 accesses: a peak RSS of 178 MiB instead of 213.
void returnFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

// How many closed slices may wait for the store thread, and as many for the summary thread, while
// the planner plans the next: the writer then holds at most slicesQueued + 2 slices past the
// planner. With one (the caller waited for both threads at every slice), the caller waited 2.7 s
// of a 10^7 history's 5.0 s of streaming although the store thread was busy for only 3.7 s: a
// slice that took long to plan left the store thread idle, and one that took long to store left
// the caller idle. See docs/benchmarks.md, "A queue of slices".
constexpr qsizetype slicesQueued = 3;

// How many runs of closed transitions may wait for the planner while the caller's thread buffers
// the next. The caller's thread also parses the trace, so it is the one that bounds an import:
// planning (sorting each slice's accesses by address, cutting chunks) on a thread of its own takes
// that work off it. See docs/benchmarks.md, "A planner thread".
constexpr qsizetype plansQueued = 2;

// Accesses of whole transitions handed from the caller's thread to the planner, which cuts them
// into slices, with the context rows collected up to them. Without accesses, it carries context
// rows only (a flush), which the planner passes on in order.
struct PlanJob
{
    std::vector<BufferedAccess> accesses;
    ContextBatch context;
};

// One closed slice, handed from the thread that buffers accesses to the thread that stores them,
// with the context rows collected meanwhile. A job without a slice (sliceId 0) carries context
// rows only: those of a long stretch of instructions without accesses.
struct SliceJob
{
    qint64 sliceId = 0;
    std::uint64_t firstTransition = 0;
    std::uint64_t lastTransition = 0;
    qint64 firstChunkId = 0;
    std::vector<PlannedChunk> chunks;
    std::vector<BufferedAccess> accesses;
    std::vector<std::uint32_t> chunkOfAccess;
    // The accesses' keys in idx_accesses_1, in index order.
    std::vector<AccessKey> keys;
    ContextBatch context;
};

// Why the connection's last statement failed. For a failed read or write of a file the system's
// reason ("No space left on device", "File too large") says more than SQLite's summary of it
// ("database or disk is full", "disk I/O error"). SQLite's own record of it is often empty;
// the database file keeps the errno of its last failed call.
QString failureReason(const sqlite::Connection &connection)
{
    const QString message = connection.lastError();
    const int code = sqlite3_extended_errcode(connection.handle()) & 0xff;
    if (code != SQLITE_FULL && code != SQLITE_IOERR && code != SQLITE_CANTOPEN)
        return message;
    int systemError = sqlite3_system_errno(connection.handle());
    if (systemError == 0)
        sqlite3_file_control(connection.handle(), "main", SQLITE_FCNTL_LAST_ERRNO, &systemError);
    // SQLITE_FULL comes from ENOSPC, a short write (the disk filled up) or the page limit (64 TiB
    // at the writer's page size), and SQLite records no errno for it.
    if (systemError == 0 && code == SQLITE_FULL)
        systemError = ENOSPC;
    return systemError != 0 ? QString::fromLocal8Bit(std::strerror(systemError)) : message;
}

} // namespace

class HistoryWriter::Private
{
public:
    Private(QString path, WriterOptions opts)
        : outputPath(std::move(path))
        , file(outputPath)
        , options(opts)
        , hotCounter(opts.chunkAccessCap)
        , collector(ContextCollectorOptions { opts.debugRoots, opts.instructionSet })
    { }

    // Once the interrupt check stopped SQLite, whatever fails next fails because of it.
    bool fail(const QString &message)
    {
        if (error.isEmpty())
            error = interrupted ? QStringLiteral("cancelled") : message;
        failed = true;
        return false;
    }

    bool validate(const Access &access);
    bool closeSlices(std::size_t boundary);
    bool planJob(PlanJob &job);
    bool submit(std::shared_ptr<const SliceJob> job);
    void joinWorkers();
    // Until every slice submitted is stored and summarised (not the threads of finish()).
    void waitForSliceWorkers();
    bool waitForWorkers();
    bool waitForSlices();
    // False (failed) when a worker reported an error.
    bool checkWorkers();
    // The planner refused a job: fails with the error of the worker that stopped it.
    bool refused();
    bool storeJob(const SliceJob &job);
    bool summariseJob(const SliceJob &job);
    bool store(const SliceJob &job);
    void startBinningTiles();
    void startResolvingContext(Transition historyLast);
    bool writeMeta(const QDateTime &createdAt);
    bool writeReferenceMetadata(const QDateTime &createdAt);
    bool writeThreadSpans();
    bool flushContext();
    void discard();

    QString outputPath;
    PartialFile file; // the temporary file SQLite writes, renamed over outputPath by finish()
    WriterOptions options;
    QString error;
    bool failed = false;
    std::function<bool()> interruptCheck; // see setInterruptCheck()
    bool interrupted = false; // interruptCheck said so, and SQLite stopped
    bool opened = false;
    bool finished = false;
    WriterStats stats;
    QList<SourceDescription> sources;
    QMap<QString, QString> extraMeta;
    struct ThreadSpan
    {
        qint64 threadId;
        std::uint64_t first;
        std::uint64_t last;
    };
    // One entry per thread switch: small next to the accesses of a trace.
    std::vector<ThreadSpan> threadSpans;

    // Accesses of the slice being built; the current transition starts at currentTransitionStart.
    std::vector<BufferedAccess> buffer;
    std::size_t currentTransitionStart = 0;
    bool hasTransition = false;
    std::uint64_t lastTransition = 0;
    HotAddressCounter hotCounter;
    // The planner thread's: read by the caller's thread once waitForSliceWorkers() returned.
    qint64 nextSliceId = 1;
    qint64 nextChunkId = 1;
    // Program context: collected on the caller's thread, its rows stored with the slices.
    ContextCollector collector;

    // Used by the store thread only while it runs; by the caller's thread otherwise.
    sqlite::Connection connection;
    sqlite::Statement insertSlice;
    sqlite::BatchInsert insertChunks;
    sqlite::BatchInsert insertAccesses;
    sqlite::BatchInsert insertAccessKeys; // idx_accesses_1's keys, in key order (schema::createAccessKeys)
    qint64 nextAccessRowId = 1; // the store thread's
    std::unique_ptr<ContextTableWriter> contextTables;
    // Fed each slice's chunks by the summary thread; written by finish(). It spills (past 64 MiB
    // of postings) to its own connection's temporary database.
    addresssummary::Builder addressSummary { connection };
    sqlite::Connection summaryScratch;
    QString storeError;
    // The display summary (core/summary). Its work needs no connection, so it has threads of its
    // own beside the store thread, which SQLite keeps busy: the summary worker is fed each slice
    // while the store worker inserts it, and in finish() the tiles thread bins the tiles while
    // SQLite builds the indexes. The tiles are written into the history last.
    std::unique_ptr<summary::SummaryBuilder> summary;
    std::unique_ptr<QThread> tilesThread;
    // In finish(), the program context is resolved (symbols, lines, disassembly: no connection)
    // on a thread of its own, again while SQLite builds the indexes.
    std::unique_ptr<QThread> contextThread;
    QString summaryError;
    QString tilesError;
    std::atomic<bool> stopSummary = false; // the tiles are not wanted any more (a failure, a cancel)

    // Declared last: stopped (destroyed) before anything their jobs use, the planner (which feeds
    // the other two) first.
    JobWorker<std::shared_ptr<const SliceJob>> storeWorker { QStringLiteral("memhist store"), slicesQueued,
        [this](const std::shared_ptr<const SliceJob> &job) { return storeJob(*job); } };
    JobWorker<std::shared_ptr<const SliceJob>> summaryWorker { QStringLiteral("memhist summary"), slicesQueued,
        [this](const std::shared_ptr<const SliceJob> &job) { return summariseJob(*job); } };
    JobWorker<std::shared_ptr<PlanJob>> planWorker { QStringLiteral("memhist planner"), plansQueued,
        [this](const std::shared_ptr<PlanJob> &job) { return planJob(*job); } };
};

bool HistoryWriter::Private::validate(const Access &access)
{
    const auto code = std::uint8_t(access.operation);
    if (!isValidOperationCode(code))
        return fail(QStringLiteral("operation code %1 is not 1 (execute), 2 (write) or 4 (read)").arg(code));
    if (access.size == 0)
        return fail(QStringLiteral("access at %1, transition %2 has size 0")
                        .arg(hexText(access.physical.value))
                        .arg(access.transition.value));
    const std::uint64_t first = access.physical.value;
    if (access.size - 1 > ~std::uint64_t(0) - first)
        return fail(QStringLiteral("access at %1 of %2 bytes wraps past 0xffffffffffffffff")
                        .arg(hexText(first))
                        .arg(access.size));
    if (first < signBoundary && first + access.size - 1 >= signBoundary)
        return fail(QStringLiteral("access at %1 of %2 bytes straddles 0x8000000000000000, which no canonical "
                                   "64-bit address range does")
                        .arg(hexText(first))
                        .arg(access.size));
    if (access.transition.value >= signBoundary)
        return fail(QStringLiteral("transition %1 is out of range (at most 2^63-1)").arg(access.transition.value));
    if (hasTransition && access.transition.value < lastTransition)
        return fail(QStringLiteral("transition %1 comes after transition %2: accesses must be in trace order")
                        .arg(access.transition.value)
                        .arg(lastTransition));
    return true;
}

// Hands buffer[0, boundary), which ends at a transition boundary, to the planner, which makes
// slices of it.
bool HistoryWriter::Private::closeSlices(std::size_t boundary)
{
    auto job = std::make_shared<PlanJob>();
    job->accesses.assign(buffer.begin(), buffer.begin() + std::ptrdiff_t(boundary));
    job->context = collector.takeBatch();
    if (!planWorker.push(std::move(job)))
        return refused();
    buffer.erase(buffer.begin(), buffer.begin() + std::ptrdiff_t(boundary));
    currentTransitionStart -= std::min(currentTransitionStart, boundary);
    // The counter must describe the accesses still buffered (the current transition's).
    hotCounter.clear();
    for (const BufferedAccess &access : buffer)
        hotCounter.add(access.physical, access.operation);
    return true;
}

// On the planner thread: cuts the accesses into slices and queues them for the store and summary
// workers. planSlice may take a shorter prefix than it is given (a chunk would exceed its cap), so
// one job can make several slices. False when a worker failed (it has recorded why; the caller's
// thread reports it).
bool HistoryWriter::Private::planJob(PlanJob &job)
{
    if (job.accesses.empty()) {
        auto slice = std::make_shared<SliceJob>();
        slice->context = std::move(job.context);
        return submit(std::move(slice));
    }
    const ChunkingLimits limits { options.chunkAccessCap, options.chunkTargetAccesses };
    const std::size_t total = job.accesses.size();
    std::size_t done = 0;
    while (done < total) {
        const std::span<const BufferedAccess> pending(job.accesses.data() + done, total - done);
        SlicePlan plan = planSlice(pending, limits);

        auto slice = std::make_shared<SliceJob>();
        slice->sliceId = nextSliceId++;
        slice->firstTransition = pending.front().transition;
        slice->lastTransition = pending[plan.accessCount - 1].transition;
        slice->firstChunkId = nextChunkId;
        nextChunkId += qint64(plan.chunks.size());
        slice->keys = accessKeysInIndexOrder(pending, plan);
        slice->chunks = std::move(plan.chunks);
        slice->chunkOfAccess = std::move(plan.chunkOfAccess);
        if (done == 0)
            slice->context = std::move(job.context);
        if (plan.accessCount == total)
            slice->accesses = std::move(job.accesses); // the usual case: one slice, no copy
        else
            slice->accesses.assign(pending.begin(), pending.begin() + std::ptrdiff_t(plan.accessCount));
        done += plan.accessCount;
        if (!submit(std::move(slice)))
            return false;
    }
    return true;
}

// Queues a slice for the store and summary workers (both take them in order; SQLite sees the
// store worker only until finish() waits for it), waiting while slicesQueued are queued. False
// when one of them failed.
bool HistoryWriter::Private::submit(std::shared_ptr<const SliceJob> job)
{
    if (job->sliceId != 0 && !summaryWorker.push(job))
        return false;
    return storeWorker.push(std::move(job));
}

bool HistoryWriter::Private::storeJob(const SliceJob &job)
{
    if (store(job))
        return true;
    if (storeError.isEmpty())
        storeError = failureReason(connection);
    return false;
}

bool HistoryWriter::Private::summariseJob(const SliceJob &job)
{
    if (!addressSummary.addSlice(job.sliceId, job.chunks)) {
        summaryError = addressSummary.error();
        return false;
    }
    if (!summary->addSlice(job.sliceId - 1, job.accesses, job.chunks, job.chunkOfAccess)) {
        summaryError = summary->errorString();
        return false;
    }
    return true;
}

void HistoryWriter::Private::waitForSliceWorkers()
{
    planWorker.waitUntilIdle();
    storeWorker.waitUntilIdle();
    summaryWorker.waitUntilIdle();
    stats.slices = nextSliceId - 1;
    stats.chunks = nextChunkId - 1;
}

void HistoryWriter::Private::joinWorkers()
{
    waitForSliceWorkers();
    for (std::unique_ptr<QThread> *thread : { &tilesThread, &contextThread }) {
        if (*thread) {
            (*thread)->wait();
            thread->reset();
        }
    }
}

bool HistoryWriter::Private::waitForWorkers()
{
    joinWorkers();
    return checkWorkers();
}

bool HistoryWriter::Private::waitForSlices()
{
    waitForSliceWorkers();
    return checkWorkers();
}

// The workers' errors are read once they failed (their flag is set after the error, under their
// mutex) or once their threads are idle or joined.
bool HistoryWriter::Private::checkWorkers()
{
    if (storeWorker.failed())
        return fail(QStringLiteral("%1: cannot write: %2").arg(outputPath, storeError));
    if (summaryWorker.failed())
        return fail(QStringLiteral("%1: cannot write: %2").arg(outputPath, summaryError));
    // The planner fails only when a worker it feeds did, which reports why once it is seen failed.
    if (planWorker.failed())
        return fail(QStringLiteral("%1: cannot write: a worker thread failed").arg(outputPath));
    if (!tilesThread && !tilesError.isEmpty())
        return fail(QStringLiteral("%1: cannot write: %2").arg(outputPath, tilesError));
    return true;
}

bool HistoryWriter::Private::refused()
{
    if (!checkWorkers())
        return false;
    return fail(QStringLiteral("%1: cannot write: the writer's threads have stopped").arg(outputPath));
}

// The display summary's second pass, on the summary thread, once every slice is stored.
void HistoryWriter::Private::startBinningTiles()
{
    const summary::HistoryShape shape { stats.slices, nextChunkId - 1, stats.accesses };
    tilesThread.reset(QThread::create([this, shape] {
        if (!summary->binTiles(shape, [this](double) { return !stopSummary.load(); }))
            tilesError = summary->errorString();
    }));
    tilesThread->start();
}

// Hands the context rows waiting in the collector to the store thread without a slice (through
// the planner, so that they keep their place among the slices' rows).
bool HistoryWriter::Private::flushContext()
{
    auto job = std::make_shared<PlanJob>();
    job->context = collector.takeBatch();
    return planWorker.push(std::move(job)) || refused();
}

bool HistoryWriter::Private::store(const SliceJob &job)
{
    if (!job.context.isEmpty() && !contextTables->writeBatch(job.context))
        return false;
    if (job.sliceId == 0)
        return true;
    insertSlice.bind(1, job.sliceId);
    insertSlice.bind(2, toStored(job.firstTransition));
    insertSlice.bind(3, toStored(job.lastTransition));
    if (!insertSlice.run())
        return false;

    const auto bindChunk = [&](sqlite::Statement &statement, int firstParameter, std::size_t index) {
        const PlannedChunk &chunk = job.chunks[index];
        statement.bind(firstParameter, job.sliceId);
        statement.bind(firstParameter + 1, toStored(chunk.first));
        statement.bind(firstParameter + 2, toStored(chunk.last));
        statement.bind(firstParameter + 3, chunk.operation);
    };
    if (!insertChunks.insert(job.chunks.size(), bindChunk))
        return false;
    // The accesses below refer to the planned ids: make sure SQLite gave exactly those.
    const qint64 lastChunkId = job.firstChunkId + qint64(job.chunks.size()) - 1;
    if (!job.chunks.empty() && sqlite3_last_insert_rowid(connection.handle()) != lastChunkId) {
        storeError = QStringLiteral("chunk rowids do not follow the plan (expected %1 last)").arg(lastChunkId);
        return false;
    }

    const auto bindAccess = [&](sqlite::Statement &statement, int firstParameter, std::size_t index) {
        const BufferedAccess &access = job.accesses[index];
        statement.bind(firstParameter, job.firstChunkId + qint64(job.chunkOfAccess[index]));
        statement.bind(firstParameter + 1, toStored(access.transition));
        if (access.hasLinear)
            statement.bind(firstParameter + 2, toStored(access.linear));
        else
            statement.bindNull(firstParameter + 2);
        statement.bind(firstParameter + 3, toStored(access.physical));
        statement.bind(firstParameter + 4, access.size);
        statement.bind(firstParameter + 5, access.operation);
    };
    if (!insertAccesses.insert(job.accesses.size(), bindAccess))
        return false;
    // The keys below name the accesses by rowid: make sure SQLite gave the ones counted.
    const qint64 firstAccessRowId = nextAccessRowId;
    nextAccessRowId += qint64(job.accesses.size());
    if (!job.accesses.empty() && sqlite3_last_insert_rowid(connection.handle()) != nextAccessRowId - 1) {
        storeError
            = QStringLiteral("access rowids do not follow the trace (expected %1 last)").arg(nextAccessRowId - 1);
        return false;
    }
    const auto bindKey = [&](sqlite::Statement &statement, int firstParameter, std::size_t index) {
        const AccessKey &key = job.keys[index];
        statement.bind(firstParameter, job.firstChunkId + qint64(key.chunk));
        statement.bind(firstParameter + 1, toStored(key.transition));
        statement.bind(firstParameter + 2, firstAccessRowId + qint64(key.access));
    };
    return insertAccessKeys.insert(job.keys.size(), bindKey);
}

void HistoryWriter::Private::startResolvingContext(Transition historyLast)
{
    contextThread.reset(QThread::create([this, historyLast] { collector.resolve(historyLast); }));
    contextThread->start();
}

bool HistoryWriter::Private::writeThreadSpans()
{
    if (threadSpans.empty())
        return true;
    if (!connection.execute(schema::createThreadSpansTable))
        return false;
    sqlite::Statement insert = connection.prepare(schema::insertThreadSpan);
    for (const ThreadSpan &span : threadSpans) {
        insert.bind(1, span.threadId);
        insert.bind(2, toStored(span.first));
        insert.bind(3, toStored(span.last));
        if (!insert.run())
            return false;
    }
    return true;
}

bool HistoryWriter::Private::writeMeta(const QDateTime &createdAt)
{
    if (!connection.execute(schema::createMetaTable))
        return false;
    QMap<QString, QString> values = extraMeta;
    const auto set = [&](const char *key, const QString &value) { values.insert(QLatin1String(key), value); };
    const auto number = [](qint64 value) { return QString::number(value); };
    set(schema::meta::formatVersion, number(schema::formatVersion));
    set(schema::meta::writer, QStringLiteral("memhist"));
    set(schema::meta::writerVersion, QStringLiteral(MEMHIST_VERSION));
    set(schema::meta::createdAt, createdAt.toString(Qt::ISODate));
    set(schema::meta::sources, sourcesMetaText(sources));
    set(schema::meta::accesses, number(stats.accesses));
    set(schema::meta::reads, number(stats.reads));
    set(schema::meta::writes, number(stats.writes));
    set(schema::meta::executes, number(stats.executes));
    set(schema::meta::slices, number(stats.slices));
    set(schema::meta::chunks, number(stats.chunks));
    if (stats.firstTransition) {
        set(schema::meta::transitionFirst, QString::number(stats.firstTransition->value));
        set(schema::meta::transitionLast, QString::number(stats.lastTransition->value));
    }
    set(schema::meta::sliceAccessCap, number(options.sliceAccessCap));
    set(schema::meta::chunkAccessCap, number(options.chunkAccessCap));
    if (!stats.context.parts.isEmpty())
        set(contextschema::meta::context, stats.context.parts.join(u','));

    sqlite::Statement insert = connection.prepare(schema::insertMeta);
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        insert.bind(1, it.key());
        insert.bind(2, it.value());
        if (!insert.run())
            return false;
    }
    return true;
}

// The row the reference readers require (schema.h). tool_info says where the history came from.
bool HistoryWriter::Private::writeReferenceMetadata(const QDateTime &createdAt)
{
    if (!connection.execute(schema::createReferenceMetadataTable))
        return false;
    QStringList sourceTexts;
    for (const SourceDescription &source : std::as_const(sources))
        sourceTexts << source.format + u' ' + source.path;
    QString toolInfo
        = QStringLiteral("memhist %1, format %2").arg(QStringLiteral(MEMHIST_VERSION)).arg(schema::formatVersion);
    if (!sourceTexts.isEmpty())
        toolInfo += QStringLiteral(", from ") + sourceTexts.join(QStringLiteral("; "));
    sqlite::Statement insert = connection.prepare(schema::insertReferenceMetadata);
    insert.bind(1, schema::referenceMetadata::metadataVersion);
    insert.bind(2, schema::referenceMetadata::memoryHistoryType);
    insert.bind(3, QString::fromLatin1(schema::referenceMetadata::formatVersion));
    insert.bind(4, QString::fromLatin1(schema::referenceMetadata::toolName));
    insert.bind(5, QStringLiteral(MEMHIST_VERSION));
    insert.bind(6, toolInfo);
    insert.bind(7, createdAt.toSecsSinceEpoch());
    return insert.run();
}

void HistoryWriter::Private::discard()
{
    stopSummary = true;
    planWorker.stop();
    storeWorker.stop();
    summaryWorker.stop();
    joinWorkers();
    insertSlice = {};
    insertChunks = {};
    insertAccesses = {};
    insertAccessKeys = {};
    contextTables.reset();
    summaryScratch.close();
    // SQLite's descriptor first: the file must not be removed under a connection that may still
    // write to it.
    connection.close();
    if (!finished)
        file.discard();
}

HistoryWriter::HistoryWriter(QString outputPath, WriterOptions options)
    : d(std::make_unique<Private>(std::move(outputPath), options))
{ }

HistoryWriter::~HistoryWriter()
{
    d->discard();
}

bool HistoryWriter::open()
{
    if (d->opened)
        return d->fail(QStringLiteral("the writer is already open"));
    if (d->options.chunkAccessCap == 0 || d->options.sliceAccessCap == 0 || d->options.chunkTargetAccesses == 0)
        return d->fail(QStringLiteral("slice and chunk caps must be at least 1"));

    const QFileInfo target(d->outputPath);
    if (target.isDir())
        return d->fail(QStringLiteral("%1: is a directory").arg(d->outputPath));
    // The temporary file lives beside the target so that the final rename stays on one file system
    // (and so is atomic). SQLite opens it by name.
    if (!d->file.create())
        return d->fail(d->outputPath + QStringLiteral(": ") + d->file.errorString());
    d->file.closeHandle();

    sqlite::Connection &db = d->connection;
    if (!db.open(d->file.temporaryPath(), sqlite::Connection::Mode::ReadWriteCreate, target.absolutePath())
        || !db.execute(schema::writerPragmas) || !db.execute(schema::createBaseTablesWithoutIndexes)
        || !db.execute(schema::createAccessKeys) || !db.execute("BEGIN"))
        return d->fail(QStringLiteral("%1: cannot create the database: %2").arg(d->outputPath, failureReason(db)));
    // "": a private temporary database, its file beside the output.
    if (!d->summaryScratch.open(QString(), sqlite::Connection::Mode::ReadWriteCreate, target.absolutePath()))
        return d->fail(
            QStringLiteral("%1: cannot create the database: %2").arg(d->outputPath, d->summaryScratch.lastError()));
    d->addressSummary.setScratch(d->summaryScratch);

    d->insertSlice = db.prepare(schema::insertSlice);
    d->insertChunks = sqlite::BatchInsert(db, schema::insertChunks);
    d->insertAccesses = sqlite::BatchInsert(db, schema::insertAccesses);
    d->insertAccessKeys = sqlite::BatchInsert(db, schema::insertAccessKeys);
    d->contextTables = std::make_unique<ContextTableWriter>(db);
    if (!d->insertSlice.isValid() || !d->insertChunks.isValid() || !d->insertAccesses.isValid()
        || !d->insertAccessKeys.isValid())
        return d->fail(QStringLiteral("%1: cannot prepare statements: %2").arg(d->outputPath, db.lastError()));

    d->summary = std::make_unique<summary::SummaryBuilder>();
    if (!d->summary->open(target.absolutePath()))
        return d->fail(
            QStringLiteral("%1: cannot create the database: %2").arg(d->outputPath, d->summary->errorString()));
    d->buffer.reserve(std::min<std::size_t>(d->options.sliceAccessCap, 1u << 16)); // grows on demand beyond
    d->opened = true;
    return true;
}

bool HistoryWriter::add(const Access &access)
{
    if (d->failed)
        return false;
    if (!d->opened || d->finished)
        return d->fail(QStringLiteral("the writer is not open"));
    if (!d->validate(access))
        return false;

    const std::uint64_t transition = access.transition.value;
    const auto code = std::uint8_t(access.operation);
    if (!d->hasTransition || transition != d->lastTransition) {
        // A transition boundary: the only place where a slice may end.
        if (d->buffer.size() >= d->options.sliceAccessCap && !d->closeSlices(d->buffer.size()))
            return false;
        d->currentTransitionStart = d->buffer.size();
        d->hasTransition = true;
        d->lastTransition = transition;
    } else if (d->buffer.size() - d->currentTransitionStart >= d->options.maxAccessesPerTransition) {
        return d->fail(QStringLiteral("transition %1 has more than %2 accesses")
                           .arg(transition)
                           .arg(d->options.maxAccessesPerTransition));
    }

    // An address touched chunkAccessCap times in this slice would overflow its chunk: end the slice
    // before the current transition (when there is anything before it).
    if (d->hotCounter.add(access.physical.value, code) && d->currentTransitionStart > 0) {
        if (!d->closeSlices(d->currentTransitionStart))
            return false;
        d->hotCounter.add(access.physical.value, code); // the counter now restarts from the carried accesses
    }

    d->buffer.push_back({ transition, access.physical.value, access.linear ? access.linear->value : 0, access.size,
        code, access.linear.has_value() });

    WriterStats &stats = d->stats;
    stats.peakBufferedAccesses = std::max(stats.peakBufferedAccesses, qint64(d->buffer.size()));
    stats.accesses += 1;
    stats.reads += access.operation == Operation::Read;
    stats.writes += access.operation == Operation::Write;
    stats.executes += access.operation == Operation::Execute;
    if (!stats.firstTransition)
        stats.firstTransition = access.transition;
    stats.lastTransition = access.transition;
    return true;
}

bool HistoryWriter::addInstruction(Transition transition, Address pc, quint8 size)
{
    if (d->failed)
        return false;
    if (!d->opened || d->finished)
        return d->fail(QStringLiteral("the writer is not open"));
    if (!d->collector.addInstruction(transition, pc, size))
        return d->fail(d->collector.errorString());
    return !d->collector.needsFlush() || d->flushContext();
}

void HistoryWriter::addInstructionBytes(Address pc, QByteArrayView bytes)
{
    d->collector.addInstructionBytes(pc, bytes);
}

void HistoryWriter::addMapping(Transition from, const Mapping &mapping)
{
    d->collector.addMapping(from, mapping);
}

void HistoryWriter::removeMapping(Transition from, Address first, Address last)
{
    d->collector.removeMapping(from, first, last);
}

void HistoryWriter::addModule(const LoadedModule &module)
{
    d->collector.addModule(module);
}

void HistoryWriter::setInstructionSet(InstructionSet set)
{
    d->collector.setInstructionSet(set);
}

void HistoryWriter::addValue(const AccessValueView &value)
{
    if (d->stats.accesses > 0)
        d->collector.addValue(RowId { d->stats.accesses }, value);
}

void HistoryWriter::setSources(const QList<SourceDescription> &sources)
{
    d->sources = sources;
}

void HistoryWriter::addThreadSpan(qint64 threadId, Transition first, Transition last)
{
    auto &spans = d->threadSpans;
    if (!spans.empty() && spans.back().threadId == threadId && spans.back().last + 1 >= first.value) {
        spans.back().last = std::max(spans.back().last, last.value);
        return;
    }
    spans.push_back({ threadId, first.value, last.value });
}

void HistoryWriter::setMetaValue(const QString &key, const QString &value)
{
    d->extraMeta.insert(key, value);
}

void HistoryWriter::setInterruptCheck(std::function<bool()> interrupted)
{
    d->interruptCheck = std::move(interrupted);
}

bool HistoryWriter::finish()
{
    if (d->failed)
        return false;
    if (!d->opened || d->finished)
        return d->fail(QStringLiteral("the writer is not open"));
    if (!d->buffer.empty() && !d->closeSlices(d->buffer.size()))
        return false;
    // The program context is resolved for everything the trace ran, up to its last instruction.
    // It needs no connection: it starts now, beside the last slice's store and the index build.
    Transition historyLast = d->stats.lastTransition.value_or(Transition { 0 });
    if (d->collector.hasInstructions())
        historyLast = std::max(historyLast, Transition { d->collector.endTransition().value - 1 });
    d->collector.finishCodeTrace();
    d->startResolvingContext(historyLast);
    if (!d->waitForSlices())
        return false;
    // SQLite calls the handler every 2^16 virtual machine instructions (about a millisecond) of
    // this connection; a non-zero return interrupts the statement, which then fails. Installed
    // once the store worker is done with the connection: from here on only this thread uses it.
    struct InterruptHandler
    {
        sqlite3 *db;
        InterruptHandler(sqlite3 *db, Private *d)
            : db(db)
        {
            if (d->interruptCheck) {
                sqlite3_progress_handler(
                    db, 1 << 16,
                    [](void *context) {
                        auto *d = static_cast<Private *>(context);
                        d->interrupted = d->interrupted || d->interruptCheck();
                        return d->interrupted ? 1 : 0;
                    },
                    d);
            }
        }
        ~InterruptHandler() { sqlite3_progress_handler(db, 0, nullptr, nullptr); }
    };
    const InterruptHandler interruptHandler(d->connection.handle(), d.get());
    d->startBinningTiles();
    sqlite::Connection &db = d->connection;
    const auto writeFailure
        = [&] { return d->fail(QStringLiteral("%1: cannot write: %2").arg(d->outputPath, failureReason(db))); };
    if (!d->collector.writeLastRows(*d->contextTables))
        return writeFailure();
    // The slices' and chunks' indexes are built now, once, from sorted keys: SQLite writes their
    // pages full and in order, instead of splitting pages all over the index as rows arrive in
    // trace order (smaller file, and the rows above went in without index maintenance). The
    // accesses' index was appended in key order while they were stored (schema::createAccessKeys).
    // The file only becomes a history when it is renamed into place below, so nobody can see it
    // without its indexes.
    if (!d->writeThreadSpans() || !addresssummary::writeSummary(db, d->addressSummary))
        return writeFailure();
    returnFreedMemory();
    // The accesses' index is already there, as a table of its keys in index order (schema.h): it
    // becomes idx_accesses_1. The other two are sorted now.
    d->insertAccessKeys = {};
    if (!db.execute(schema::adoptAccessKeysAsIndex))
        return writeFailure();
    if (sqlite3_changes(db.handle()) != 1)
        return d->fail(QStringLiteral("%1: cannot write: the accesses' index keys were not found").arg(d->outputPath));
    if (!db.execute(schema::createSliceAndChunkIndexes))
        return writeFailure();
    if (!d->waitForWorkers())
        return false;
    if (!d->collector.writeResolved(*d->contextTables))
        return writeFailure();
    d->stats.context = d->collector.summary();
    const QDateTime createdAt = QDateTime::currentDateTimeUtc();
    if (!d->writeMeta(createdAt) || !d->writeReferenceMetadata(createdAt))
        return writeFailure();
    if (!d->summary->writeTiles(db))
        return d->fail(
            QStringLiteral("%1: cannot write: %2")
                .arg(d->outputPath, d->summary->databaseFailed() ? failureReason(db) : d->summary->errorString()));
    if (!db.execute("COMMIT"))
        return writeFailure();
    d->stats.addressSummaryCpuNanoseconds = d->addressSummary.cpuNanoseconds();
    d->insertSlice = {};
    d->insertChunks = {};
    d->insertAccesses = {};
    d->insertAccessKeys = {};
    d->contextTables.reset();
    d->summaryScratch.close();
    db.close();
    // Synced, renamed into place, directory synced: a crash right after cannot leave a short file.
    if (!d->file.commit())
        return d->fail(d->outputPath + QStringLiteral(": ") + d->file.errorString());
    d->finished = true;
    return true;
}

void HistoryWriter::cancel()
{
    d->failed = true;
    if (d->error.isEmpty())
        d->error = QStringLiteral("cancelled");
    d->discard();
}

bool HistoryWriter::interrupted() const
{
    return d->interrupted;
}

QString HistoryWriter::errorString() const
{
    return d->error;
}

const WriterStats &HistoryWriter::stats() const
{
    return d->stats;
}

const WriterOptions &HistoryWriter::options() const
{
    return d->options;
}

const QString &HistoryWriter::outputPath() const
{
    return d->outputPath;
}

} // namespace memhist
