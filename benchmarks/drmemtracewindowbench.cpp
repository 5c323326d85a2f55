// SPDX-License-Identifier: MIT
// memhist-drmemtrace-window-bench: what importing a window at the end of a long chunked trace costs
// beside importing all of it. It builds a single-thread drmemtrace zip of at least --instructions
// instructions (10^8 by default) from the real chunk structure of DynamoRIO's as_traced test trace
// (tests/data/drmemtrace/as_traced.x64.tracedir: chunks of 1,000 instructions with their footers,
// record ordinals and restated timestamp and cpu): its first chunk, then its full chunks over and
// over with the ordinals and timestamps continued, then its last chunk. It then times, in the same
// run, the full import and the import of the last 1 % (--skip-instructions 99 % of the trace), each
// end to end into a history on disk, and prints both and their ratio (the target: at most 5 %).
// A benchmark program: it prints figures; it is not a test.
#include "core/importers/accesssink.h"
#include "core/importers/drmemtraceimporter.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "drmemtracewriter.h"
#include "machinecontext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLocale>
#include <QTemporaryDir>
#include <cstdio>

using namespace memhist;
using namespace memhist::test;
namespace dm = memhist::drmemtrace;

namespace {

struct Options
{
    quint64 instructions = 100'000'000;
    double windowFraction = 0.01;
    int level = 1;
    QString directory;
    bool keep = false;
};

[[noreturn]] void failWith(const QString &message)
{
    std::fprintf(stderr, "memhist-drmemtrace-window-bench: %s\n", qPrintable(message));
    std::exit(1);
}

Options parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Builds a long chunked drmemtrace trace from real chunks and times its full import and the import of "
        "its last 1 %."));
    parser.addHelpOption();
    const QCommandLineOption instructions(QStringLiteral("instructions"),
        QStringLiteral("Instructions of the trace at least (default 100000000)."), QStringLiteral("N"));
    const QCommandLineOption level(QStringLiteral("level"),
        QStringLiteral("zlib level of the chunks (default 1: fast to build)."), QStringLiteral("L"));
    const QCommandLineOption dir(QStringLiteral("dir"),
        QStringLiteral("Where to write the trace and the histories (default: a temporary directory)."),
        QStringLiteral("DIR"));
    const QCommandLineOption keep(QStringLiteral("keep"), QStringLiteral("Keep the trace and the histories."));
    parser.addOptions({ instructions, level, dir, keep });
    parser.process(app);
    Options options;
    bool ok = true;
    if (parser.isSet(instructions))
        options.instructions = parser.value(instructions).toULongLong(&ok);
    if (!ok || options.instructions < 100'000)
        failWith(
            QStringLiteral("--instructions: '%1' is not a number of at least 100000").arg(parser.value(instructions)));
    if (parser.isSet(level))
        options.level = parser.value(level).toInt(&ok);
    if (!ok || options.level < 0 || options.level > 9)
        failWith(QStringLiteral("--level: '%1' is not a zlib level (0..9)").arg(parser.value(level)));
    options.directory = parser.value(dir);
    options.keep = parser.isSet(keep);
    return options;
}

bool isMarker(const dm::TraceRecord &r, quint16 markerType)
{
    return r.type == dm::type::marker && r.size == markerType;
}

struct BuiltTrace
{
    quint64 instructions = 0;
    int chunks = 0;
};

// The as_traced chunks, repeated: see the header.
BuiltTrace buildTrace(const QString &path, const Options &options)
{
    const QString source = QStringLiteral(MEMHIST_SOURCE_DIR
        "/tests/data/drmemtrace/as_traced.x64.tracedir/drmemtrace.simple_app.1674735.1533.trace.zip");
    Records records;
    QString error;
    if (!readTraceRecords(source, &records, &error))
        failWith(error);
    // The file's chunks, each ending with its footer marker (the last with the trace's footer).
    std::vector<Records> chunks(1);
    for (const dm::TraceRecord &r : records) {
        chunks.back().push_back(r);
        if (isMarker(r, dm::marker::chunkFooter))
            chunks.emplace_back();
    }
    if (chunks.size() < 3)
        failWith(source + QStringLiteral(": expected several chunks"));
    const std::vector<Records> middle(chunks.begin() + 1, chunks.end() - 1);
    // Each pass over the middle chunks moves their timestamps past the previous pass's.
    quint64 lowest = ~quint64(0);
    quint64 highest = 0;
    for (const Records &chunk : middle) {
        for (const dm::TraceRecord &r : chunk) {
            if (isMarker(r, dm::marker::timestamp)) {
                lowest = std::min(lowest, r.addr);
                highest = std::max(highest, r.addr);
            }
        }
    }
    const quint64 passLength = highest - lowest + 1;
    const auto lastInstructions = quint64(countRecords(chunks.back()).instructions);

    ZipWriter zip;
    if (!zip.open(path, options.level))
        failWith(zip.errorString());
    quint64 recordsBefore = 0;
    BuiltTrace built;
    const auto add = [&](Records chunk, quint64 shift) {
        for (dm::TraceRecord &r : chunk) {
            if (isMarker(r, dm::marker::timestamp))
                r.addr += shift;
            else if (isMarker(r, dm::marker::recordOrdinal))
                r.addr = recordsBefore;
            else if (isMarker(r, dm::marker::chunkFooter))
                r.addr = quint64(built.chunks);
        }
        if (!zip.addMember(QStringLiteral("chunk.%1").arg(built.chunks, 4, 10, QLatin1Char('0')), recordBytes(chunk)))
            failWith(zip.errorString());
        recordsBefore += chunk.size();
        built.instructions += quint64(countRecords(chunk).instructions);
        ++built.chunks;
    };
    add(chunks.front(), 0);
    quint64 shift = 0;
    for (size_t i = 0; built.instructions + lastInstructions < options.instructions; ++i) {
        if (i > 0 && i % middle.size() == 0)
            shift += passLength;
        add(middle[i % middle.size()], shift);
    }
    add(chunks.back(), shift + passLength);
    if (!zip.close())
        failWith(zip.errorString());
    return built;
}

struct Timed
{
    double seconds = 0;
    ImportReport report;
    qint64 historyBytes = 0;
};

Timed timeImport(const QString &trace, const QString &output, quint64 skip)
{
    QFile::remove(output);
    Timed timed;
    QElapsedTimer timer;
    timer.start();
    HistoryWriter writer(output);
    WriterSink sink(writer);
    if (!writer.open())
        failWith(writer.errorString());
    ImportOptions options;
    options.skipInstructions = skip;
    QString error;
    if (!DrMemtraceImporter().run(trace, sink, options, &timed.report, &error, {}))
        failWith(error);
    if (!writer.finish())
        failWith(writer.errorString());
    timed.seconds = double(timer.nsecsElapsed()) / 1e9;
    timed.historyBytes = QFileInfo(output).size();
    return timed;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app);
    sqlite::configureProcess();

    QTemporaryDir temporary;
    const QString directory = options.directory.isEmpty() ? temporary.path() : options.directory;
    if (!QDir().mkpath(directory))
        failWith(directory + QStringLiteral(": cannot create the directory"));
    temporary.setAutoRemove(!options.keep);
    const QString trace = QDir(directory).filePath(QStringLiteral("drmemtrace.window_bench.1.1.trace.zip"));
    const QString fullHistory = QDir(directory).filePath(QStringLiteral("window-bench-full.memhist"));
    const QString windowHistory = QDir(directory).filePath(QStringLiteral("window-bench-last.memhist"));

    QElapsedTimer buildTimer;
    buildTimer.start();
    const BuiltTrace built = buildTrace(trace, options);
    const double buildSeconds = double(buildTimer.nsecsElapsed()) / 1e9;
    const qint64 traceBytes = QFileInfo(trace).size();

    const quint64 skip = built.instructions - quint64(double(built.instructions) * options.windowFraction);
    const Timed full = timeImport(trace, fullHistory, 0);
    const Timed window = timeImport(trace, windowHistory, skip);
    if (!options.keep) {
        QFile::remove(trace);
        QFile::remove(fullHistory);
        QFile::remove(windowHistory);
    }

    const bench::MachineContext machine = bench::collectMachineContext();
    const auto n = [](qint64 value) { return QLocale::c().toString(value); };
    QString text;
    text += QStringLiteral("memhist-drmemtrace-window-bench (%1 build), %2, %3 processors (%4), load %5\n")
                .arg(QStringLiteral(MEMHIST_BENCH_BUILD_TYPE), machine.date)
                .arg(machine.processors)
                .arg(machine.cpuModel, machine.loadAverage);
    text += QStringLiteral("trace:        %1 instructions in %2 chunks of as_traced's, %3 bytes (zlib level %4), "
                           "built in %5 s\n")
                .arg(n(qint64(built.instructions)), n(built.chunks), n(traceBytes))
                .arg(options.level)
                .arg(QString::number(buildSeconds, 'f', 1));
    text += QStringLiteral("full import:  %1 s, %2 accesses (%3 reads, %4 writes), history %5 bytes\n")
                .arg(QString::number(full.seconds, 'f', 3), n(full.report.accesses), n(full.report.reads),
                    n(full.report.writes), n(full.historyBytes));
    text += QStringLiteral("last %1 %:    %2 s, %3 accesses, --skip-instructions %4 (%5 instructions before the "
                           "window, %6 in it)\n")
                .arg(QString::number(options.windowFraction * 100, 'f', 0), QString::number(window.seconds, 'f', 3),
                    n(window.report.accesses), n(qint64(skip)), n(window.report.skipped.value(beforeWindowKind())),
                    n(window.report.instructions));
    text += QStringLiteral("window / full: %1 % (target: at most 5 %)\n")
                .arg(QString::number(100.0 * window.seconds / full.seconds, 'f', 2));
    std::fputs(qPrintable(text), stdout);
    return 0;
}
