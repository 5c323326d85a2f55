// SPDX-License-Identifier: MIT
// memhist-bench: writes a synthetic 10-million-access history, measures the writer against plain
// SQLite inserts of the same rows in the same run, then times random half-axis queries on the
// result. A benchmark program: it prints figures and the targets beside them; it is not a test.
#include "accessstreamgenerator.h"
#include "benchreport.h"
#include "core/storage/sqlite.h"
#include "machinecontext.h"
#include "memorybenchmark.h"
#include "plaininsert.h"
#include "querybenchmark.h"
#include "querygrowth.h"
#include "searchbenchmark.h"
#include "writerbenchmark.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace memhist;
using namespace memhist::bench;

namespace {

struct Options
{
    qint64 accesses = 10'000'000;
    std::uint64_t seed = 1;
    int queriesPerClass = 1000;
    QString directory; // empty: a temporary directory
    bool keep = false;
    bool references = true; // the plain-insert phases
    bool values = true; // the stream's accesses carry their bytes to the writer
    QStringList queryOnly; // existing histories: only the query phase runs, on each
    bool plainPath = true; // with queryOnly: also time the plain path (every slice visited)
    bool warm = false; // with queryOnly: read each history once before timing its queries
    QString samplesPath; // with queryOnly: every query's figures, one line each
    QStringList memory; // existing histories: MemoryReader::read is timed on each
    QStringList search; // existing histories: value searches are timed on each
    WriterOptions writer; // the library's defaults unless overridden
};

// Decimal or 0x hex, as everywhere in memhist.
std::optional<std::uint64_t> parseNumber(const QString &text)
{
    bool ok = false;
    const std::uint64_t value = text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive)
        ? text.mid(2).toULongLong(&ok, 16)
        : text.toULongLong(&ok, 10);
    return ok ? std::optional(value) : std::nullopt;
}

// Exits with status 2 on a usage error, as the memhist command line does.
Options parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Measures the memhist writer and half-axis queries on a synthetic access stream; prints the figures."));
    parser.addHelpOption();
    const QCommandLineOption accesses(QStringLiteral("accesses"),
        QStringLiteral("Accesses to write (default 10000000)."), QStringLiteral("N"), QStringLiteral("10000000"));
    const QCommandLineOption seed(QStringLiteral("seed"),
        QStringLiteral("Seed of the stream and the queries (default 1)."), QStringLiteral("S"), QStringLiteral("1"));
    const QCommandLineOption queries(QStringLiteral("queries"),
        QStringLiteral("Random queries per window and direction (default 1000; 0 skips)."), QStringLiteral("Q"),
        QStringLiteral("1000"));
    const QCommandLineOption dir(QStringLiteral("dir"),
        QStringLiteral("Where to write the files (default: a temporary directory)."), QStringLiteral("DIR"));
    const QCommandLineOption keep(QStringLiteral("keep"), QStringLiteral("Keep the files written."));
    const QCommandLineOption noReferences(QStringLiteral("no-references"),
        QStringLiteral("Skip the plain-insert references (and so the ratio to the ceiling)."));
    const QCommandLineOption noValues(QStringLiteral("no-values"),
        QStringLiteral("Write the accesses without their values (the history of benchmarks before values)."));
    // Writer options, to compare configurations from the command line (docs/benchmarks.md "Choosing the caps").
    const WriterOptions defaults;
    const QCommandLineOption sliceCap(QStringLiteral("slice-cap"),
        QStringLiteral("Writer: accesses per slice (default %1).").arg(defaults.sliceAccessCap), QStringLiteral("N"));
    const QCommandLineOption chunkCap(QStringLiteral("chunk-cap"),
        QStringLiteral("Writer: most accesses per chunk (default %1).").arg(defaults.chunkAccessCap),
        QStringLiteral("N"));
    const QCommandLineOption chunkTarget(QStringLiteral("chunk-target"),
        QStringLiteral("Writer: accesses after which a chunk is cut where it can be (default %1).")
            .arg(defaults.chunkTargetAccesses),
        QStringLiteral("N"));
    const QCommandLineOption queryOnly(QStringLiteral("query-only"),
        QStringLiteral("Only time queries, on an existing history (e.g. one kept with --keep). Repeat it to compare "
                       "sizes: the figures of each history side by side, smallest first, with their growth, with the "
                       "address summary and on the plain path."),
        QStringLiteral("HISTORY"));
    const QCommandLineOption noPlain(QStringLiteral("no-plain"),
        QStringLiteral("With --query-only: skip the plain path (every slice visited, as without an address summary)."));
    const QCommandLineOption warm(QStringLiteral("warm"),
        QStringLiteral("With --query-only: read each history once, sequentially, before timing its queries, so that "
                       "they meet its pages in the page cache (when it fits in memory) rather than on the disk."));
    const QCommandLineOption samples(QStringLiteral("samples"),
        QStringLiteral("With --query-only: write every query's figures to FILE, a tab-separated line each (the "
                       "history, class, T, window, rows, slices, chunks read, SQLite cache misses, wall and CPU ms); "
                       "with --search, every first page's (searchbenchmark.h)."),
        QStringLiteral("FILE"));
    const QCommandLineOption memory(QStringLiteral("memory"),
        QStringLiteral("Only time memory at T (MemoryReader::read of 256 B and 4 KiB ranges, --queries of each) on an "
                       "existing history with values. Repeat it to compare sizes, smallest first."),
        QStringLiteral("HISTORY"));
    const QCommandLineOption search(QStringLiteral("search"),
        QStringLiteral("Only time value searches (--queries first pages for values that occur, and one for a value "
                       "that occurs nowhere) on an existing history with values. Repeat it to compare sizes."),
        QStringLiteral("HISTORY"));
    parser.addOptions({ accesses, seed, queries, dir, keep, noReferences, noValues, memory, search, sliceCap, chunkCap,
        chunkTarget, queryOnly, noPlain, warm, samples });
    parser.process(app);

    const auto fail = [](const QString &message) {
        std::fprintf(stderr, "memhist-bench: %s\n", qUtf8Printable(message));
        std::exit(2);
    };
    if (!parser.positionalArguments().isEmpty())
        fail(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));

    Options options;
    const auto accessCount = parseNumber(parser.value(accesses));
    if (!accessCount || *accessCount == 0 || *accessCount > std::uint64_t(1) << 40)
        fail(QStringLiteral("--accesses: expected a number from 1 to 2^40, got '%1'").arg(parser.value(accesses)));
    options.accesses = qint64(*accessCount);
    const auto seedValue = parseNumber(parser.value(seed));
    if (!seedValue)
        fail(QStringLiteral("--seed: expected a number, got '%1'").arg(parser.value(seed)));
    options.seed = *seedValue;
    const auto queryCount = parseNumber(parser.value(queries));
    if (!queryCount || *queryCount > 10'000'000)
        fail(QStringLiteral("--queries: expected a number from 0 to 10000000, got '%1'").arg(parser.value(queries)));
    options.queriesPerClass = int(*queryCount);
    options.directory = parser.value(dir);
    options.keep = parser.isSet(keep);
    options.references = !parser.isSet(noReferences);
    options.values = !parser.isSet(noValues);
    options.queryOnly = parser.values(queryOnly);
    options.plainPath = !parser.isSet(noPlain);
    options.warm = parser.isSet(warm);
    options.samplesPath = parser.value(samples);
    options.memory = parser.values(memory);
    options.search = parser.values(search);
    if (options.queryOnly.isEmpty() && options.search.isEmpty() && !options.samplesPath.isEmpty())
        fail(QStringLiteral("--samples: only with --query-only or --search"));
    if (options.queryOnly.isEmpty() && parser.isSet(noPlain))
        fail(QStringLiteral("--no-plain: only with --query-only"));
    if (options.queryOnly.isEmpty() && options.memory.isEmpty() && options.search.isEmpty() && options.warm)
        fail(QStringLiteral("--warm: only with --query-only, --memory or --search"));
    const auto writerOption = [&](const QCommandLineOption &option, quint32 *value) {
        if (!parser.isSet(option))
            return;
        const auto number = parseNumber(parser.value(option));
        if (!number || *number == 0 || *number > 0xffffffffu)
            fail(QStringLiteral("--%1: expected a number from 1 to 2^32-1, got '%2'")
                     .arg(option.names().constFirst(), parser.value(option)));
        *value = quint32(*number);
    };
    writerOption(sliceCap, &options.writer.sliceAccessCap);
    writerOption(chunkCap, &options.writer.chunkAccessCap);
    writerOption(chunkTarget, &options.writer.chunkTargetAccesses);
    return options;
}

[[noreturn]] void abortRun(const QString &phase, const QString &error)
{
    std::fflush(stdout);
    std::fprintf(stderr, "memhist-bench: %s failed: %s\n", qUtf8Printable(phase), qUtf8Printable(error));
    std::exit(1);
}

// Reads the whole file once (the page cache keeps what fits). Returns the seconds it took, or a
// negative number when the file cannot be read.
double readThroughPageCache(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    QElapsedTimer timer;
    timer.start();
    QByteArray buffer(4 << 20, Qt::Uninitialized);
    while (file.read(buffer.data(), buffer.size()) > 0) { }
    return double(timer.nsecsElapsed()) / 1e9;
}

// Every first page of `result` as a tab-separated line.
bool writeSamples(QFile &file, const QString &history, const QueryBenchmarkResult &result)
{
    QByteArray text;
    for (const QuerySample &sample : result.samples) {
        const QueryClass &queryClass = result.classes[sample.classIndex].queryClass;
        text += QStringLiteral("%1\t%2 %3\t%4\t0x%5\t0x%6\t%7\t%8\t%9\t%10\t%11\t%12\n")
                    .arg(history, queryClass.window,
                        queryClass.direction == Direction::Forward ? QStringLiteral("forward")
                                                                   : QStringLiteral("backward"))
                    .arg(sample.at.value)
                    .arg(sample.first.value, 0, 16)
                    .arg(sample.last.value, 0, 16)
                    .arg(sample.rows)
                    .arg(sample.slicesVisited)
                    .arg(sample.chunksRead)
                    .arg(sample.pageCacheMisses)
                    .arg(double(sample.nanoseconds) / 1e6, 0, 'f', 3)
                    .arg(double(sample.cpuNanoseconds) / 1e6, 0, 'f', 3)
                    .toUtf8();
    }
    return file.write(text) == text.size();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("memhist-bench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MEMHIST_VERSION));
    const Options options = parseOptions(app);
    sqlite::configureProcess();

    if (!options.search.isEmpty()) {
        const MachineContext machine = collectMachineContext();
        std::printf("memhist-bench %s, %s, nproc %d (load average %s), build %s\n", MEMHIST_VERSION,
            qUtf8Printable(machine.date), machine.processors, qUtf8Printable(machine.loadAverage),
            MEMHIST_BENCH_BUILD_TYPE);
        QList<std::pair<QString, SearchBenchmarkResult>> runs;
        QFile samplesFile(options.samplesPath);
        if (!options.samplesPath.isEmpty() && !samplesFile.open(QIODevice::WriteOnly | QIODevice::Truncate))
            abortRun(QStringLiteral("search"), options.samplesPath + QStringLiteral(": cannot write"));
        for (const QString &history : options.search) {
            if (options.warm && readThroughPageCache(history) < 0)
                abortRun(QStringLiteral("search"), history + QStringLiteral(": cannot read"));
            SearchBenchmarkResult result = runSearchBenchmark(history, options.queriesPerClass, options.seed);
            if (!result.ok)
                abortRun(QStringLiteral("search"), result.error);
            if (samplesFile.isOpen() && !writeSearchSamples(samplesFile, history, result))
                abortRun(QStringLiteral("search"), options.samplesPath + QStringLiteral(": cannot write"));
            runs.append({ history, std::move(result) });
        }
        printSearchRuns(runs, options.queriesPerClass);
        std::printf("  load average at the end: %s\n", qUtf8Printable(collectMachineContext().loadAverage));
        return 0;
    }

    if (!options.memory.isEmpty()) {
        const MachineContext machine = collectMachineContext();
        std::printf("memhist-bench %s, %s, nproc %d (load average %s), build %s\n", MEMHIST_VERSION,
            qUtf8Printable(machine.date), machine.processors, qUtf8Printable(machine.loadAverage),
            MEMHIST_BENCH_BUILD_TYPE);
        QList<SizedMemoryRun> runs;
        for (const QString &history : options.memory) {
            if (options.warm) {
                const double seconds = readThroughPageCache(history);
                if (seconds < 0)
                    abortRun(QStringLiteral("memory"), history + QStringLiteral(": cannot read"));
                std::printf("%s: read once before the reads (--warm) in %.1f s\n", qUtf8Printable(history), seconds);
            }
            SizedMemoryRun run { history,
                runMemoryBenchmark(history, { 256, 4096 }, options.queriesPerClass, options.seed) };
            if (!run.result.ok)
                abortRun(QStringLiteral("memory"), run.result.error);
            runs.append(std::move(run));
        }
        printMemoryRuns(runs, options.queriesPerClass);
        std::printf("  load average at the end: %s\n", qUtf8Printable(collectMachineContext().loadAverage));
        return 0;
    }

    if (!options.queryOnly.isEmpty()) {
        QueryBenchmarkOptions queryOptions;
        queryOptions.seed = options.seed;
        queryOptions.queriesPerClass = options.queriesPerClass;
        queryOptions.plainPath = options.plainPath;
        QList<SizedQueryRun> runs;
        QFile samplesFile(options.samplesPath);
        if (!options.samplesPath.isEmpty() && !samplesFile.open(QIODevice::WriteOnly | QIODevice::Truncate))
            abortRun(QStringLiteral("queries"), options.samplesPath + QStringLiteral(": cannot write"));
        for (const QString &history : options.queryOnly) {
            std::printf("%s\n", qUtf8Printable(history));
            if (options.warm) {
                const double seconds = readThroughPageCache(history);
                if (seconds < 0)
                    abortRun(QStringLiteral("queries"), history + QStringLiteral(": cannot read"));
                std::printf("  read once before the queries (--warm) in %.1f s\n", seconds);
            }
            SizedQueryRun run { history, 0, -1, runQueryBenchmark(history, standardQueryClasses(), queryOptions) };
            if (!run.result.ok)
                abortRun(QStringLiteral("queries"), run.result.error);
            run.accesses = run.result.historyAccesses;
            run.summaryBytes = addressSummaryBytes(history);
            if (samplesFile.isOpen() && !writeSamples(samplesFile, history, run.result))
                abortRun(QStringLiteral("queries"), options.samplesPath + QStringLiteral(": cannot write"));
            printQueries(run.result, queryOptions.limit);
            std::fflush(stdout);
            runs.append(std::move(run));
        }
        printQueryGrowth(runs, queryOptions.limit, queryOptions.queriesPerClass);
        return 0;
    }

    std::optional<QTemporaryDir> temporary;
    QString directory = options.directory;
    if (directory.isEmpty()) {
        temporary.emplace(QDir::tempPath() + QStringLiteral("/memhist-bench-XXXXXX"));
        if (!temporary->isValid())
            abortRun(QStringLiteral("creating a temporary directory"), temporary->errorString());
        temporary->setAutoRemove(!options.keep);
        directory = temporary->path();
    } else if (!QDir().mkpath(directory)) {
        abortRun(QStringLiteral("creating ") + directory, QStringLiteral("cannot create the directory"));
    }
    const QDir dir(directory);
    const QString historyPath = dir.filePath(QStringLiteral("bench.memhist"));
    const QString unindexedPath = dir.filePath(QStringLiteral("plain-unindexed.sqlite"));
    const QString indexedPath = dir.filePath(QStringLiteral("plain-indexed.sqlite"));

    const MachineContext machine = collectMachineContext();
    const QStorageInfo storage(directory);
    printHeader(machine,
        { options.accesses, options.seed, options.queriesPerClass, dir.absolutePath(),
            QString::fromLatin1(storage.fileSystemType()) });

    // The stream alone: its mix, and what generating it costs inside every rate below.
    {
        AccessStreamGenerator stream(options.seed, options.accesses, options.values);
        Access access;
        QElapsedTimer timer;
        timer.start();
        while (stream.next(&access)) { }
        printStream(stream.mix(), timer.nsecsElapsed());
    }
    std::fflush(stdout);

    BenchFigures figures;
    figures.writer = runWriter(historyPath, options.seed, options.accesses, options.values, options.writer);
    if (!figures.writer.ok)
        abortRun(QStringLiteral("writer"), figures.writer.error);
    printWriter(figures.writer);
    std::fflush(stdout);

    // The references, after the writer, in the same run and on the same rows.
    if (options.references) {
        figures.ceiling = runPlainInsert(unindexedPath, PlainInsertKind::Unindexed, options.seed, options.accesses);
        if (!figures.ceiling->ok)
            abortRun(QStringLiteral("plain insert"), figures.ceiling->error);
        if (!options.keep)
            QFile::remove(unindexedPath);
        printPlainInsert(QStringLiteral("Ceiling: plain prepared single-row insert, one unindexed table, chunk_id = 0"),
            *figures.ceiling, figures.writer);
        std::fflush(stdout);

        // The same rows and table, 64 rows per prepared INSERT (as the writer binds them): the
        // ceiling of a multi-row insert, printed for comparison; the target ratio stays against
        // the single-row ceiling above.
        const PlainInsertResult multiRow
            = runPlainInsert(unindexedPath, PlainInsertKind::UnindexedMultiRow, options.seed, options.accesses);
        if (!multiRow.ok)
            abortRun(QStringLiteral("plain multi-row insert"), multiRow.error);
        if (!options.keep)
            QFile::remove(unindexedPath);
        printPlainInsert(QStringLiteral("Reference: plain prepared 64-row insert, one unindexed table, chunk_id = 0"),
            multiRow, figures.writer);
        std::fflush(stdout);

        const PlainInsertResult indexed
            = runPlainInsert(indexedPath, PlainInsertKind::IndexedRandomChunks, options.seed, options.accesses);
        if (!indexed.ok)
            abortRun(QStringLiteral("plain insert with index"), indexed.error);
        if (!options.keep)
            QFile::remove(indexedPath);
        printPlainInsert(
            QStringLiteral("Reference: plain insert with the (chunk_id, transition) index, random chunk ids "
                           "(slice = row / 20000, chunk in [slice*3000, slice*3000+3000))"),
            indexed, figures.writer);
        std::fflush(stdout);
    }

    if (options.queriesPerClass > 0) {
        QueryBenchmarkOptions queryOptions;
        queryOptions.seed = options.seed;
        queryOptions.queriesPerClass = options.queriesPerClass;
        figures.queries = runQueryBenchmark(historyPath, standardQueryClasses(), queryOptions);
        if (!figures.queries->ok)
            abortRun(QStringLiteral("queries"), figures.queries->error);
        printQueries(*figures.queries, queryOptions.limit);
    }

    printSummary(figures, machine);
    if (!options.keep)
        QFile::remove(historyPath);
    else
        std::printf("\nKept: %s\n", qUtf8Printable(dir.absolutePath()));
    return 0;
}
