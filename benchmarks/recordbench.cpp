// SPDX-License-Identifier: MIT
// memhist-record-bench: measures `memhist record` of a program with its program context (valgrind
// -v -v --trace-syscalls, the client stack, symbols resolved at the end) against the same recording
// with the PCs only (RecordOptions::withContext off: plain Lackey, as record was before the context
// sources), alternating the two so that both see the same machine load, and prints the median of
// each, the ratio (target: within 5 %) and the sizes of the histories, on stderr (the program
// writes to stdout, sent to /dev/null). A benchmark program: it prints figures; it is not a test.
#include "core/recorder/lackeyrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/writer/historywriter.h"
#include "machinecontext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace memhist;

namespace {

[[noreturn]] void fail(const QString &message)
{
    std::fflush(stdout);
    std::fprintf(stderr, "memhist-record-bench: %s\n", qUtf8Printable(message));
    std::exit(1);
}

struct Run
{
    double seconds = 0;
    double finishSeconds = 0; // of which in HistoryWriter::finish()
    qint64 bytes = 0;
    qint64 accesses = 0;
};

Run recordOnce(const RecordOptions &options, const QString &output)
{
    QElapsedTimer timer;
    timer.start();
    HistoryWriter writer(output);
    if (!writer.open())
        fail(writer.errorString());
    RecordReport report;
    QString error;
    if (!LackeyRecorder().record(writer, options, &report, &error, {}))
        fail(error);
    const qint64 recorded = timer.nsecsElapsed();
    if (!writer.finish())
        fail(writer.errorString());
    Run run;
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    run.finishSeconds = double(timer.nsecsElapsed() - recorded) / 1e9;
    run.bytes = QFileInfo(output).size();
    run.accesses = writer.stats().accesses;
    return run;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Times memhist record with its program context against PCs only, alternating."));
    parser.addHelpOption();
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Recordings of each kind (default 5)."),
        QStringLiteral("N"), QStringLiteral("5"));
    parser.addOption(runsOption);
    parser.addPositionalArgument(
        QStringLiteral("PROGRAM"), QStringLiteral("The program to record, with its arguments (default: ls -l /usr)."));
    parser.process(app);
    const int runs = std::max(1, parser.value(runsOption).toInt());
    QStringList command = parser.positionalArguments();
    if (command.isEmpty())
        command = { QStringLiteral("/bin/ls"), QStringLiteral("-l"), QStringLiteral("/usr") };

    RecordOptions options;
    options.backend = RecordBackend::Lackey;
    options.valgrind = ValgrindProcess::findValgrind();
    if (options.valgrind.isEmpty())
        fail(QStringLiteral("valgrind not found"));
    options.program = command.constFirst();
    options.arguments = command.mid(1);
    QTemporaryDir directory;
    if (!directory.isValid())
        fail(QStringLiteral("cannot create a temporary folder"));

    // The recorded program writes to our stdout: the figures go to stderr.
    if (!std::freopen("/dev/null", "w", stdout))
        fail(QStringLiteral("cannot send the program's output to /dev/null"));
    const bench::MachineContext machine = bench::collectMachineContext();
    std::fprintf(stderr, "memhist-record-bench (%s build)\n", MEMHIST_BENCH_BUILD_TYPE);
    std::fprintf(stderr, "  machine: %s, %d processors, load average %s\n", qUtf8Printable(machine.cpuModel),
        machine.processors, qUtf8Printable(machine.loadAverage));
    std::fprintf(stderr, "  program: %s; %d recordings of each kind, alternating (program output to /dev/null)\n",
        qUtf8Printable(command.join(u' ')), runs);

    std::vector<double> with;
    std::vector<double> without;
    std::vector<double> finishWith;
    std::vector<double> finishWithout;
    std::vector<double> pairCosts; // % per pair of recordings made one after the other
    Run lastWith;
    Run lastWithout;
    for (int i = 0; i < runs; ++i) {
        options.withContext = false;
        lastWithout = recordOnce(options, directory.filePath(QStringLiteral("pcs.memhist")));
        without.push_back(lastWithout.seconds);
        finishWithout.push_back(lastWithout.finishSeconds);
        options.withContext = true;
        lastWith = recordOnce(options, directory.filePath(QStringLiteral("context.memhist")));
        with.push_back(lastWith.seconds);
        finishWith.push_back(lastWith.finishSeconds);
        pairCosts.push_back((lastWith.seconds / lastWithout.seconds - 1) * 100);
    }
    const double medianWith = median(with);
    const double medianWithout = median(without);
    std::fprintf(stderr, "  PCs only:     median %.3f s (finish() %.3f s), %lld accesses, %lld bytes\n", medianWithout,
        median(finishWithout), static_cast<long long>(lastWithout.accesses), static_cast<long long>(lastWithout.bytes));
    std::fprintf(stderr, "  with context: median %.3f s (finish() %.3f s), %lld accesses, %lld bytes\n", medianWith,
        median(finishWith), static_cast<long long>(lastWith.accesses), static_cast<long long>(lastWith.bytes));
    std::fprintf(stderr, "  context costs %+.1f %% of the time (target: within 5 %%), %+.1f %% of the size\n",
        (medianWith / medianWithout - 1) * 100, (double(lastWith.bytes) / double(lastWithout.bytes) - 1) * 100);
    // On a shared machine single recordings vary by +-10 %: each pair's cost, and their median,
    // say how far the figure above can be trusted.
    std::fprintf(stderr, "  each pair:");
    for (const double cost : pairCosts)
        std::fprintf(stderr, " %+.1f", cost);
    std::fprintf(stderr, " %%; median of the pairs %+.1f %%\n", median(pairCosts));
    return 0;
}
