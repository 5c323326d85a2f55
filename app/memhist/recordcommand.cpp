// SPDX-License-Identifier: MIT
// memhist record -o OUT.memhist [--backend tool|lackey] [--skip-instructions N] [--max-instructions M]
//                [--start-at FUNCTION] [--keep-stream FILE | --keep-log FILE] [--with-exec] -- PROGRAM [ARGS...]
#include "commandline.h"
#include "commands.h"
#include "core/context/contextsummarytext.h"
#include "core/model/numbertext.h"
#include "core/recorder/lackeyrecorder.h"
#include "core/recorder/toolrecorder.h"
#include "core/recorder/valgrindprocess.h"
#include "core/writer/historywriter.h"
#include "progressline.h"
#include "signalguard.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QStandardPaths>
#include <limits>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("record"),
    QStringLiteral("-o OUT.memhist [--backend tool|lackey] [--skip-instructions N] [--max-instructions M]\n"
                   "                [--start-at FUNCTION] [--keep-stream FILE | --keep-log FILE] [--with-exec]\n"
                   "                -- PROGRAM [ARGS...]"),
    QStringLiteral("Run PROGRAM under Valgrind and store its memory accesses in a new memhist database: with\n"
                   "memhist's own Valgrind tool (the default), every load and store with the bytes it read or\n"
                   "wrote (and overwrote), the kernel's accesses during system calls, the memory map, modules\n"
                   "and threads; with --backend lackey, Valgrind's Lackey (slower, no values). The trace streams\n"
                   "through a pipe (no file unless --keep-stream or --keep-log). The program's stdin, stdout and\n"
                   "stderr are memhist's; memhist's own messages go to stderr. Ctrl-C or --max-instructions\n"
                   "stops the program and keeps what was recorded. Exit status 0 once the\n"
                   "database is complete, whatever the program's own exit status (printed); 1 when valgrind\n"
                   "or the program cannot run; 2 on a usage error. A second Ctrl-C, SIGTERM or SIGHUP kill\n"
                   "the program and keep nothing: OUT.memhist is left as it was (exit status 130, 143, 129)."),
};

QString shellJoin(const QStringList &words)
{
    QStringList quoted;
    for (const QString &word : words) {
        const bool plain = !word.isEmpty() && std::all_of(word.begin(), word.end(), [](QChar c) {
            return c.isLetterOrNumber() || QStringLiteral("-_./=:,+@%").contains(c);
        });
        quoted << (plain ? word : u'\'' + QString(word).replace(u'\'', QStringLiteral("'\\''")) + u'\'');
    }
    return quoted.join(u' ');
}

} // namespace

int runRecord(const QStringList &arguments)
{
    // Everything after "--" is the program's, even "--help": only what comes before is ours.
    const qsizetype separator = arguments.indexOf(QStringLiteral("--"));
    const QStringList own = separator < 0 ? arguments : arguments.first(separator);
    const QStringList command = separator < 0 ? QStringList() : arguments.sliced(separator + 1);

    QCommandLineParser parser;
    const QCommandLineOption outputOption({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The database to write."), QStringLiteral("OUT.memhist"));
    const QCommandLineOption backendOption(QStringLiteral("backend"),
        QStringLiteral("tool (memhist's own Valgrind tool, the default) or lackey (Valgrind's Lackey: slower, no "
                       "values)."),
        QStringLiteral("NAME"), QStringLiteral("tool"));
    const QCommandLineOption skipOption(QStringLiteral("skip-instructions"),
        QStringLiteral("Record from transition N on (the program runs the instructions before unrecorded; "
                       "transitions stay those of the whole run). Tool only."),
        QStringLiteral("N"));
    const QCommandLineOption maxOption(QStringLiteral("max-instructions"),
        QStringLiteral("Stop the program after M recorded instructions and keep what was recorded."),
        QStringLiteral("M"));
    const QCommandLineOption startAtOption(QStringLiteral("start-at"),
        QStringLiteral("Record from the first call of FUNCTION on (after --skip-instructions). Tool only."),
        QStringLiteral("FUNCTION"));
    const QCommandLineOption keepStreamOption(QStringLiteral("keep-stream"),
        QStringLiteral("Also save the tool's record stream to FILE (memhist import reads it back)."),
        QStringLiteral("FILE"));
    const QCommandLineOption keepLogOption(QStringLiteral("keep-log"),
        QStringLiteral("With --backend lackey: also save valgrind's raw Lackey log to FILE (memhist import reads it "
                       "back)."),
        QStringLiteral("FILE"));
    const QCommandLineOption withExecOption(
        QStringLiteral("with-exec"), QStringLiteral("Also store instruction fetches as execute (x) accesses."));
    parser.addOption(outputOption);
    parser.addOption(backendOption);
    parser.addOption(skipOption);
    parser.addOption(maxOption);
    parser.addOption(startAtOption);
    parser.addOption(keepStreamOption);
    parser.addOption(keepLogOption);
    parser.addOption(withExecOption);
    parser.addPositionalArgument(QStringLiteral("PROGRAM"),
        QStringLiteral("The program to run, after --, with its arguments."), QStringLiteral("-- PROGRAM [ARGS...]"));
    // Without "--", the first argument that is not an option starts the program's command line.
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
    if (const auto status = parseCommandLine(parser, own, help))
        return *status;
    QStringList program = command;
    if (separator < 0)
        program = parser.positionalArguments();
    else if (!parser.positionalArguments().isEmpty())
        return usageError(help.name,
            QStringLiteral("unexpected argument '%1' before -- (the program goes after --)")
                .arg(parser.positionalArguments().constFirst()));
    if (program.isEmpty())
        return usageError(help.name, QStringLiteral("missing the program to record (-- PROGRAM [ARGS...])"));
    if (!parser.isSet(outputOption) || parser.value(outputOption).isEmpty())
        return usageError(help.name, QStringLiteral("missing the output database (-o OUT.memhist)"));
    const QString output = parser.value(outputOption);

    RecordOptions options;
    const QString backend = parser.value(backendOption);
    if (backend == QLatin1StringView("tool"))
        options.backend = RecordBackend::Tool;
    else if (backend == QLatin1StringView("lackey"))
        options.backend = RecordBackend::Lackey;
    else
        return usageError(help.name, QStringLiteral("--backend: '%1' is not a backend (tool or lackey)").arg(backend));
    const bool lackey = options.backend == RecordBackend::Lackey;
    for (const QCommandLineOption *toolOnly : { &skipOption, &startAtOption, &keepStreamOption }) {
        if (lackey && parser.isSet(*toolOnly))
            return usageError(help.name,
                QStringLiteral("--%1 needs the tool backend, not --backend lackey")
                    .arg(toolOnly->names().constFirst()));
    }
    if (!lackey && parser.isSet(keepLogOption))
        return usageError(help.name, QStringLiteral("--keep-log keeps a Lackey log: with the tool, use --keep-stream"));
    if (parser.isSet(skipOption)) {
        const QString text = parser.value(skipOption);
        std::uint64_t value = 0;
        if (!parseUnsigned(text.toLatin1(), &value) || value > std::uint64_t(std::numeric_limits<qint64>::max()))
            return usageError(
                help.name, QStringLiteral("--skip-instructions: '%1' is not a number of instructions").arg(text));
        options.skipInstructions = value;
    }
    options.startAt = parser.value(startAtOption);
    if (parser.isSet(startAtOption) && options.startAt.trimmed().isEmpty())
        return usageError(help.name, QStringLiteral("--start-at: the function's name is empty"));
    if (parser.isSet(maxOption)) {
        const QString text = parser.value(maxOption);
        std::uint64_t value = 0;
        if (!parseUnsigned(text.toLatin1(), &value) || value < 1
            || value > std::uint64_t(std::numeric_limits<qint64>::max()))
            return usageError(help.name,
                QStringLiteral("--max-instructions: '%1' is not a number of instructions (at least 1)").arg(text));
        options.maxInstructions = qint64(value);
    }
    const QCommandLineOption &keepOption = lackey ? keepLogOption : keepStreamOption;
    const QString keepName = QStringLiteral("--") + keepOption.names().constFirst();
    options.keepPath = parser.value(keepOption);
    if (!options.keepPath.isEmpty()
        && (QFileInfo(options.keepPath).absoluteFilePath() == QFileInfo(output).absoluteFilePath()
            || inputReplacedBy(output, { options.keepPath })))
        return usageError(help.name, QStringLiteral("%1 and -o name the same file").arg(keepName));
    options.withExecute = parser.isSet(withExecOption);
    options.program = program.constFirst();
    options.arguments = program.mid(1);

    options.valgrind = ValgrindProcess::findValgrind();
    if (options.valgrind.isEmpty())
        return inputError(QStringLiteral("memhist record: valgrind not found (install Debian's valgrind package)"));
    if (!lackey) {
        QString why;
        if (ToolRecorder::toolDirectory(&why).isEmpty())
            return inputError(QStringLiteral("memhist record: %1; record with --backend lackey instead").arg(why));
        if (!ToolRecorder::checkValgrindVersion(options.valgrind, &why))
            return inputError(QStringLiteral("memhist record: ") + why);
    }
    // Valgrind would say so too, but only after starting; this names the cause plainly.
    const QString programFile
        = options.program.contains(u'/') ? options.program : QStandardPaths::findExecutable(options.program);
    if (options.program.contains(u'/')) {
        const QFileInfo info(options.program);
        if (!info.exists())
            return inputError(QStringLiteral("memhist record: %1: No such file or directory").arg(options.program));
        if (!info.isFile() || !info.isExecutable())
            return inputError(QStringLiteral("memhist record: %1: not an executable file").arg(options.program));
    } else if (programFile.isEmpty()) {
        return inputError(QStringLiteral("memhist record: %1: command not found").arg(options.program));
    }
    if (inputReplacedBy(output, { programFile }))
        return usageError(help.name, QStringLiteral("-o %1 would replace the program %2").arg(output, programFile));
    if (!options.keepPath.isEmpty() && inputReplacedBy(options.keepPath, { programFile }))
        return usageError(help.name,
            QStringLiteral("%1 %2 would replace the program %3").arg(keepName, options.keepPath, programFile));

    QElapsedTimer timer;
    timer.start();
    // The first Ctrl-C stops the program and keeps what was recorded; a second one, SIGTERM or
    // SIGHUP kill the program and leave nothing behind.
    ValgrindProcess::clearStopRequest();
    const SignalGuard signalGuard(
        help.name, output, SignalActions { &ValgrindProcess::requestStop, &ValgrindProcess::killProgram });
    HistoryWriter writer(output);
    if (!writer.open())
        return inputError(writer.errorString());
    writer.setSources({ { lackey ? QStringLiteral("lackey") : QStringLiteral("memhist-stream"), shellJoin(program) } });
    const QStringList valgrindOptions
        = lackey ? recordValgrindOptions(options) : ToolRecorder::valgrindOptions(options, 3);
    writer.setMetaValue(QStringLiteral("recorded with"),
        QStringLiteral("valgrind ") + shellJoin(valgrindOptions) + QStringLiteral(" -- ") + shellJoin(program));

    RecordReport report;
    QString error;
    bool ok = false;
    {
        ProgressLine progressLine;
        ok = recordProgram(writer, options, &report, &error, [&](const RecordProgress &progress) {
            const qint64 rate = progress.seconds > 0 ? qint64(double(progress.accesses) / progress.seconds) : 0;
            progressLine.show(QStringLiteral("recording: %1 instructions, %2 accesses, %3 accesses/s")
                                  .arg(progress.instructions)
                                  .arg(progress.accesses)
                                  .arg(rate));
        });
    }
    if (!ok) {
        writer.cancel();
        return inputError(QStringLiteral("memhist record: ") + error);
    }

    QString outcome;
    switch (report.end) {
    case RecordEnd::ProgramExited:
        outcome = report.programCrashed ? QStringLiteral("program killed by signal %1").arg(report.exitStatus)
                                        : QStringLiteral("program exited with status %1").arg(report.exitStatus);
        break;
    case RecordEnd::InstructionLimit:
        outcome = QStringLiteral("stopped the program after %1 instructions (--max-instructions)")
                      .arg(report.import.instructions);
        break;
    case RecordEnd::Interrupted:
        outcome
            = QStringLiteral("interrupted: stopped the program after %1 instructions").arg(report.import.instructions);
        break;
    }
    writer.setMetaValue(QStringLiteral("program end"), outcome);
    // What was not recorded before the start the options chose.
    if (const qint64 skipped = report.import.skipped.value(beforeWindowKind()); skipped > 0) {
        QStringList reasons;
        if (options.skipInstructions > 0)
            reasons << QStringLiteral("--skip-instructions %1").arg(options.skipInstructions);
        if (!options.startAt.isEmpty())
            reasons << QStringLiteral("--start-at %1").arg(options.startAt);
        outcome += QStringLiteral("; skipped the first %1 instructions (%2)")
                       .arg(QString::number(skipped), reasons.join(QStringLiteral(", ")));
    } else if (!options.startAt.isEmpty() && report.import.instructions == 0) {
        outcome += QStringLiteral("; %1 was never called: nothing recorded (--start-at)").arg(options.startAt);
    }
    for (auto it = report.import.skipped.cbegin(); it != report.import.skipped.cend(); ++it)
        writer.setMetaValue(QStringLiteral("skipped: ") + it.key(), QString::number(it.value()));
    if (!writer.finish())
        return inputError(writer.errorString());

    for (const QString &warning : std::as_const(report.import.warnings))
        writeErr(QStringLiteral("memhist record: warning: ") + warning + u'\n');
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    const WriterStats &stats = writer.stats();
    const QString transitions = stats.firstTransition
        ? QStringLiteral("transitions %1..%2").arg(stats.firstTransition->value).arg(stats.lastTransition->value)
        : QStringLiteral("no transitions");
    // One multi-argument arg(): chained calls would rescan a file name holding "%4".
    writeErr(QStringLiteral("memhist record: %1; recorded %2 instructions, %3 accesses (%4 reads, %5 writes, %6 "
                            "executes; %7) into %8: %9 slices, ")
                 .arg(outcome, QString::number(report.import.instructions), QString::number(stats.accesses),
                     QString::number(stats.reads), QString::number(stats.writes), QString::number(stats.executes),
                     transitions, output, QString::number(stats.slices))
        + QStringLiteral("%1 chunks, %2 s\n").arg(QString::number(stats.chunks), QString::number(seconds, 'f', 3)));
    writeErr(QStringLiteral("memhist record: context: ") + contextPartsText(stats.context.parts) + u'\n');
    for (const QString &note : std::as_const(stats.context.notes))
        writeErr(QStringLiteral("memhist record: context: ") + note + u'\n');
    for (const QString &note : std::as_const(report.contextNotes))
        writeErr(QStringLiteral("memhist record: context: ") + note + u'\n');
    return ExitSuccess;
}

} // namespace memhist::cli
