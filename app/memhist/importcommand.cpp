// SPDX-License-Identifier: MIT
// memhist import TRACE... -o OUT.memhist [--format auto|csv|lackey|drmemtrace|tenet|memhist-stream] [--with-exec]
//               [--skip-instructions N] [--max-instructions M] [--maps FILE]
#include "boundedfile.h"
#include "commandline.h"
#include "commands.h"
#include "core/context/contextsummarytext.h"
#include "core/importers/importsession.h"
#include "progressline.h"
#include "queryoptions.h"
#include "signalguard.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <limits>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("import"),
    QStringLiteral("TRACE... -o OUT.memhist [--format auto|csv|lackey|drmemtrace|tenet|memhist-stream] [--with-exec]\n"
                   "       [--skip-instructions N] [--max-instructions M] [--maps FILE]"),
    QStringLiteral("Store the accesses of one or more traces (files or trace directories), one after another in\n"
                   "the order given, in a new memhist database. Each trace's transitions continue after the\n"
                   "previous one's. --skip-instructions and --max-instructions import the window [N, N+M) of\n"
                   "the transitions only, numbered as in the whole import. --maps FILE (a /proc/PID/maps dump\n"
                   "of the traced process) is its memory map from the first transition on, and with the\n"
                   "binaries on disk its symbols, for a trace that does not say what was loaded where.\n"
                   "OUT.memhist appears (or is replaced) only once complete; SIGINT, SIGTERM or SIGHUP leave it\n"
                   "as it was (exit status 130, 143, 129)."),
};

QString skippedSummary(const QMap<QString, qint64> &skipped)
{
    QStringList parts;
    for (auto it = skipped.cbegin(); it != skipped.cend(); ++it) {
        if (it.value() > 0)
            parts << QString::number(it.value()) + u' ' + it.key();
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outputOption({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The database to write."), QStringLiteral("OUT.memhist"));
    const QCommandLineOption formatOption(QStringLiteral("format"),
        QStringLiteral("The format of the traces (default auto: recognised from their content)."),
        QStringLiteral("auto|") + traceFormatNames().join(u'|'), QStringLiteral("auto"));
    const QCommandLineOption withExecOption(
        QStringLiteral("with-exec"), QStringLiteral("Also store instruction fetches as execute (x) accesses."));
    parser.addOption(outputOption);
    parser.addOption(formatOption);
    parser.addOption(withExecOption);
    const QCommandLineOption skipOption(QStringLiteral("skip-instructions"),
        QStringLiteral("Start the window at transition N: the instructions before it are read, not stored."),
        QStringLiteral("N"));
    const QCommandLineOption maxOption(QStringLiteral("max-instructions"),
        QStringLiteral("Store at most M instructions' transitions from the window's start (at least 1)."),
        QStringLiteral("M"));
    parser.addOption(skipOption);
    parser.addOption(maxOption);
    const QCommandLineOption mapsOption(QStringLiteral("maps"),
        QStringLiteral("The traced process's memory map at the first transition: a /proc/PID/maps dump."),
        QStringLiteral("FILE"));
    parser.addOption(mapsOption);
    parser.addPositionalArgument(QStringLiteral("TRACE"),
        QStringLiteral("The trace files or directories, imported in this order."), QStringLiteral("TRACE..."));
    if (const auto status = parseCommandLine(parser, arguments, help))
        return *status;

    const QStringList traces = parser.positionalArguments();
    if (traces.isEmpty())
        return usageError(help.name, QStringLiteral("missing the trace argument (TRACE...)"));
    if (!parser.isSet(outputOption) || parser.value(outputOption).isEmpty())
        return usageError(help.name, QStringLiteral("missing the output database (-o OUT.memhist)"));
    const QString output = parser.value(outputOption);
    const QString formatValue = parser.value(formatOption);
    std::optional<TraceFormat> requested;
    if (formatValue != QLatin1String("auto")) {
        TraceFormat format;
        if (!parseTraceFormat(formatValue, &format))
            return usageError(help.name,
                QStringLiteral("--format: '%1' is not a trace format (auto, %2)")
                    .arg(formatValue, traceFormatNames().join(QStringLiteral(", "))));
        requested = format;
    }
    ImportOptions options;
    options.withExecute = parser.isSet(withExecOption);
    // Transitions go up to 2^63 - 1 (DESIGN.md §1): so do the window's bounds.
    constexpr std::uint64_t lastTransition = std::numeric_limits<std::int64_t>::max();
    if (parser.isSet(skipOption)) {
        QString message;
        if (!parseNumberOption(
                skipOption.names().constFirst(), parser.value(skipOption), &options.skipInstructions, &message))
            return usageError(help.name, message);
        if (options.skipInstructions > lastTransition)
            return usageError(help.name,
                QStringLiteral("--skip-instructions: '%1' is beyond the last transition (2^63-1)")
                    .arg(parser.value(skipOption)));
    }
    if (parser.isSet(maxOption)) {
        QString message;
        std::uint64_t value = 0;
        if (!parseNumberOption(maxOption.names().constFirst(), parser.value(maxOption), &value, &message))
            return usageError(help.name, message);
        if (value < 1)
            return usageError(help.name,
                QStringLiteral("--max-instructions: '%1' is not a number of instructions (at least 1)")
                    .arg(parser.value(maxOption)));
        options.maxInstructions = value;
    }
    QString error;
    if (const auto trace = inputReplacedBy(output, traces))
        return usageError(help.name, QStringLiteral("-o %1 would replace the trace %2").arg(output, *trace));

    if (parser.isSet(mapsOption)) {
        const QString mapsPath = parser.value(mapsOption);
        if (inputReplacedBy(output, { mapsPath }))
            return usageError(help.name, QStringLiteral("-o %1 would replace the maps file %2").arg(output, mapsPath));
        // A /proc/PID/maps file is tens of kilobytes; 64 MiB is far past any real one.
        QByteArray maps;
        if (!readBoundedFile(mapsPath, 64 << 20, &maps, &error)
            || !parseProcessMaps(maps, mapsPath, &options.initialMap, &error))
            return inputError(error);
    }

    if (requested && !createImporter(*requested))
        return usageError(
            help.name, QStringLiteral("--format: '%1' has no importer yet").arg(traceFormatName(*requested)));
    QList<TraceInput> inputs;
    if (!recogniseTraces(traces, requested, &inputs, &error))
        return inputError(error);

    QElapsedTimer timer;
    timer.start();
    ImportSummary summary;
    bool ok = false;
    {
        // SIGINT, SIGTERM, SIGHUP: the temporary file goes, the output stays as it was.
        const SignalGuard signalGuard(help.name, output);
        ProgressLine progressLine;
        ok = importTraces(
            inputs, output, options,
            [&](const ImportSessionProgress &progress) {
                if (progress.finishing)
                    progressLine.show(QStringLiteral("finishing %1: indexes, summaries and context").arg(output));
                else
                    progressLine.show(QStringLiteral("importing ") + progress.path + QStringLiteral(": ")
                        + QString::number(progress.fraction * 100, 'f', 1) + u'%');
                return true;
            },
            &summary, &error);
    }
    for (const QString &warning : std::as_const(summary.warnings))
        writeErr(QStringLiteral("memhist import: warning: ") + warning + u'\n');
    if (!ok)
        return inputError(error);

    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    const WriterStats &stats = summary.stats;
    const QString transitions = stats.firstTransition
        ? QStringLiteral("transitions %1..%2").arg(stats.firstTransition->value).arg(stats.lastTransition->value)
        : QStringLiteral("no transitions");
    // One multi-argument arg(): chained calls would rescan a file name holding "%4".
    writeOut(QStringLiteral("imported %1 accesses (%2 reads, %3 writes, %4 executes; %5) into %6: %7 slices, "
                            "%8 chunks, %9 s, %10 accesses/s\n")
                 .arg(QString::number(stats.accesses), QString::number(stats.reads), QString::number(stats.writes),
                     QString::number(stats.executes), transitions, output, QString::number(stats.slices),
                     QString::number(stats.chunks), QString::number(seconds, 'f', 3))
                 .arg(QString::number(seconds > 0 ? qint64(double(stats.accesses) / seconds) : 0))
                 .toLocal8Bit());
    if (const QString skipped = skippedSummary(summary.skipped); !skipped.isEmpty())
        writeOut((QStringLiteral("skipped: ") + skipped + u'\n').toLocal8Bit());
    writeOut((QStringLiteral("context: ") + contextPartsText(stats.context.parts) + u'\n').toLocal8Bit());
    for (const QString &source : std::as_const(summary.context))
        writeOut((QStringLiteral("context: ") + source + u'\n').toLocal8Bit());
    for (const QString &note : std::as_const(stats.context.notes))
        writeOut((QStringLiteral("context: ") + note + u'\n').toLocal8Bit());
    return ExitSuccess;
}

} // namespace memhist::cli
