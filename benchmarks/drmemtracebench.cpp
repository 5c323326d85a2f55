// SPDX-License-Identifier: MIT
// memhist-drmemtrace-bench: measures the import of a drmemtrace trace (a file or a trace directory)
// end to end, and in the same run its two halves: reading the records alone (decompression and
// record parsing, no writer) and the writer alone on the same accesses held in memory. Best of
// --repeat runs each. A benchmark program: it prints figures; it is not a test.
#include "core/importers/accesssink.h"
#include "core/importers/drmemtrace/recordreader.h"
#include "core/importers/drmemtrace/tracefileprobe.h"
#include "core/importers/drmemtraceimporter.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "machinecontext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdio>
#include <vector>

using namespace memhist;

namespace {

struct Options
{
    QString trace = QStringLiteral(MEMHIST_SOURCE_DIR "/tests/data/drmemtrace/threadsig.x64.tracedir");
    bool withExecute = false;
    int repeat = 3;
    QString directory;
};

Options parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Measures the drmemtrace import end to end and the writer alone on the same accesses."));
    parser.addHelpOption();
    const QCommandLineOption trace(QStringLiteral("trace"),
        QStringLiteral("The drmemtrace file or directory (default: the threadsig test directory)."),
        QStringLiteral("PATH"));
    const QCommandLineOption withExec(QStringLiteral("with-exec"), QStringLiteral("Also store instruction fetches."));
    const QCommandLineOption repeat(QStringLiteral("repeat"),
        QStringLiteral("Runs of each measure; the best counts (default 3)."), QStringLiteral("N"));
    const QCommandLineOption dir(QStringLiteral("dir"),
        QStringLiteral("Where to write the databases (default: a temporary directory)."), QStringLiteral("DIR"));
    parser.addOptions({ trace, withExec, repeat, dir });
    parser.process(app);
    Options options;
    if (parser.isSet(trace))
        options.trace = parser.value(trace);
    options.withExecute = parser.isSet(withExec);
    if (parser.isSet(repeat)) {
        bool ok = false;
        options.repeat = parser.value(repeat).toInt(&ok);
        if (!ok || options.repeat < 1) {
            std::fprintf(stderr, "memhist-drmemtrace-bench: --repeat: '%s' is not a positive number\n",
                qPrintable(parser.value(repeat)));
            std::exit(2);
        }
    }
    options.directory = parser.value(dir);
    return options;
}

qint64 storedBytes(const QString &path)
{
    if (!QFileInfo(path).isDir())
        return QFileInfo(path).size();
    qint64 total = 0;
    QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

QString rate(double count, double seconds)
{
    return seconds > 0 ? QLocale::c().toString(qint64(count / seconds)) : QStringLiteral("n/a");
}

[[noreturn]] void failWith(const QString &message)
{
    std::fprintf(stderr, "memhist-drmemtrace-bench: %s\n", qPrintable(message));
    std::exit(1);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const Options options = parseOptions(app);
    sqlite::configureProcess();

    QTemporaryDir temporary;
    const QString directory = options.directory.isEmpty() ? temporary.path() : options.directory;
    const QString imported = QDir(directory).filePath(QStringLiteral("drmemtrace-bench-import.memhist"));
    const QString written = QDir(directory).filePath(QStringLiteral("drmemtrace-bench-writer.memhist"));

    // End to end: read, decode, interleave, write, finish (indexes and rename included).
    double bestImport = 0;
    ImportReport report;
    for (int run = 0; run < options.repeat; ++run) {
        QFile::remove(imported);
        QElapsedTimer timer;
        timer.start();
        HistoryWriter writer(imported);
        WriterSink sink(writer);
        if (!writer.open())
            failWith(writer.errorString());
        ImportOptions importOptions;
        importOptions.withExecute = options.withExecute;
        QString error;
        if (!DrMemtraceImporter().run(options.trace, sink, importOptions, &report, &error, {}))
            failWith(error);
        if (!writer.finish())
            failWith(writer.errorString());
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        if (run == 0 || seconds < bestImport)
            bestImport = seconds;
    }

    // Reading alone: every record of every thread file, through the same containers and reader.
    QStringList files { options.trace };
    if (QFileInfo(options.trace).isDir()) {
        drmemtrace::TraceDirectory listing;
        QString error;
        if (!drmemtrace::listTraceDirectory(options.trace, &listing, &error))
            failWith(error);
        files = listing.traceFiles;
    }
    double bestRead = 0;
    qint64 recordsRead = 0;
    for (int run = 0; run < options.repeat; ++run) {
        QElapsedTimer timer;
        timer.start();
        recordsRead = 0;
        for (const QString &file : std::as_const(files)) {
            QString reason;
            const auto container = drmemtrace::probeTraceFile(file, &reason);
            if (!container)
                failWith(file + QStringLiteral(": ") + reason);
            drmemtrace::RecordReader reader(file, drmemtrace::openContainer(file, *container));
            if (!reader.open())
                failWith(reader.error());
            while (reader.next())
                ++recordsRead;
            if (!reader.error().isEmpty())
                failWith(reader.error());
        }
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        if (run == 0 || seconds < bestRead)
            bestRead = seconds;
    }

    // The same accesses, in the same order, from memory into a fresh writer.
    std::vector<Access> accesses;
    accesses.reserve(size_t(report.accesses));
    {
        QString error;
        const auto database = HistoryDatabase::open(imported, &error);
        if (!database)
            failWith(error);
        sqlite::Statement rows = database->connection().prepare(
            "SELECT transition, operation, phy_first, linear, size FROM accesses ORDER BY rowid");
        while (rows.step() == SQLITE_ROW) {
            Access access;
            access.transition = Transition { fromStored(rows.int64(0)) };
            access.operation = Operation(rows.int64(1));
            access.physical = Address { fromStored(rows.int64(2)) };
            access.linear = Address { fromStored(rows.int64(3)) };
            access.size = std::uint32_t(rows.int64(4));
            accesses.push_back(access);
        }
    }
    double bestWriter = 0;
    for (int run = 0; run < options.repeat; ++run) {
        QFile::remove(written);
        QElapsedTimer timer;
        timer.start();
        HistoryWriter writer(written);
        if (!writer.open())
            failWith(writer.errorString());
        for (const Access &access : accesses) {
            if (!writer.add(access))
                failWith(writer.errorString());
        }
        if (!writer.finish())
            failWith(writer.errorString());
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        if (run == 0 || seconds < bestWriter)
            bestWriter = seconds;
    }
    if (options.directory.isEmpty()) {
        QFile::remove(imported);
        QFile::remove(written);
    }

    const bench::MachineContext machine = bench::collectMachineContext();
    const auto n = [](qint64 value) { return QLocale::c().toString(value); };
    QString text;
    text += QStringLiteral("memhist-drmemtrace-bench (%1 build), %2, %3 processors (%4), load %5\n")
                .arg(QStringLiteral(MEMHIST_BENCH_BUILD_TYPE), machine.date)
                .arg(machine.processors)
                .arg(machine.cpuModel, machine.loadAverage);
    text += QStringLiteral("trace:        %1 (%2 bytes stored, %3 records)\n")
                .arg(options.trace, n(storedBytes(options.trace)), n(report.linesRead));
    text += QStringLiteral("accesses:     %1 (%2 reads, %3 writes, %4 executes) over %5 instructions%6\n")
                .arg(n(report.accesses), n(report.reads), n(report.writes), n(report.executes), n(report.instructions),
                    options.withExecute ? QStringLiteral(", --with-exec") : QString());
    text += QStringLiteral("import:       %1 s end to end = %2 accesses/s, %3 records/s (best of %4)\n")
                .arg(QString::number(bestImport, 'f', 3), rate(double(report.accesses), bestImport),
                    rate(double(report.linesRead), bestImport))
                .arg(options.repeat);
    text += QStringLiteral("reading alone: %1 s for the records, no writer = %2 records/s\n")
                .arg(QString::number(bestRead, 'f', 3), rate(double(recordsRead), bestRead));
    text += QStringLiteral("writer alone: %1 s for the same accesses from memory = %2 accesses/s\n")
                .arg(QString::number(bestWriter, 'f', 3), rate(double(report.accesses), bestWriter));
    text += QStringLiteral("reading the records: %1 % of the import time\n")
                .arg(bestImport > 0 ? QString::number(100.0 * bestRead / bestImport, 'f', 1) : QStringLiteral("n/a"));
    std::fputs(qPrintable(text), stdout);
    return 0;
}
