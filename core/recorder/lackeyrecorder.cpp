// SPDX-License-Identifier: MIT
#include "core/recorder/lackeyrecorder.h"

#include "core/importers/accesssink.h"
#include "core/importers/lackeyparser.h"
#include "core/importers/textpiecereader.h"
#include "core/importers/valgrindverboselines.h"
#include "core/model/numbertext.h"
#include "core/recorder/clientstacksink.h"
#include "core/recorder/valgrindprocess.h"
#include "core/writer/historywriter.h"
#include "core/writer/partialfile.h"

#include <QElapsedTimer>

namespace memhist {

namespace {

constexpr qint64 progressIntervalNs = 250'000'000;
constexpr qsizetype keptValgrindMessages = 20;

} // namespace

QStringList recordValgrindOptions(const RecordOptions &options)
{
    QStringList arguments { QStringLiteral("--tool=lackey"), QStringLiteral("--trace-mem=yes") };
    if (options.withContext) {
        // -v -v: "Reading syms from" with svma/avma per object loaded; --trace-syscalls: brk(),
        // mmap() and munmap() with their results. Both are a few hundred lines beside millions of trace lines, read off
        // the parser's fast path. The main stack size is the one valgrind would choose; given explicitly, it is known
        // to be the size of the client stack we name.
        arguments << QStringLiteral("-v") << QStringLiteral("-v") << QStringLiteral("--trace-syscalls=yes")
                  << QStringLiteral("--main-stacksize=%1").arg(ClientStackSink::mainStackSize());
    }
    return arguments;
}

bool LackeyRecorder::record(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
    const RecordProgressCallback &progress)
{
    *report = {};
    QElapsedTimer timer;
    timer.start();

    // Written beside its path and renamed into place once complete, like the history.
    const bool keepingLog = !options.keepPath.isEmpty();
    PartialFile keptLog(options.keepPath, PartialFile::Target::RegularFileOrStream);
    if (keepingLog && !keptLog.create()) {
        *error = options.keepPath + QStringLiteral(": ") + keptLog.errorString();
        return false;
    }

    ValgrindProcess valgrind;
    if (!valgrind.createPipe(error))
        return false;
    valgrind.setPipeSize(1 << 20);
    valgrind.setGatherShortReads(true);

    const QString logName = QStringLiteral("valgrind log of %1").arg(options.program);
    WriterSink writerSink(writer);
    ClientStackSink stackSink(writerSink, ClientStackSink::mainStackSize());
    AccessSink &sink = options.withContext ? static_cast<AccessSink &>(stackSink) : writerSink;
    ImportOptions importOptions;
    importOptions.withExecute = options.withExecute;
    LackeyParser parser(logName, sink, importOptions);
    parser.setInstructionLimit(options.maxInstructions);
    parser.setMessageHandler([report](QByteArrayView line) {
        // Valgrind's verbose lines ("--PID-- ...", -v) say what it loads, not why it failed.
        if (line.startsWith('-'))
            return;
        if (report->lastValgrindMessages.size() == keptValgrindMessages)
            report->lastValgrindMessages.removeFirst();
        report->lastValgrindMessages << QString::fromLocal8Bit(line);
    });

    if (!valgrind.start(options.valgrind,
            recordValgrindOptions(options)
                + QStringList { QStringLiteral("--log-fd=%1").arg(valgrind.pipeFd()), options.program }
                + options.arguments,
            {}, error))
        return false;
    const pid_t valgrindPid = valgrind.pid();
    stackSink.setProcess(valgrindPid);

    const auto fail = [&](const QString &message) {
        valgrind.stopProgram();
        parser.fillReport(&report->import);
        *error = message;
        return false;
    };
    const auto keep = [&](QByteArrayView bytes) { return !keepingLog || bytes.isEmpty() || keptLog.write(bytes); };
    const QString keepError = QStringLiteral("%1: cannot write: %2");
    // The kept log gets the client stack as a line of its own, just before the line of the
    // program's first access (valgrindverboselines.h): its import then names the stack as this
    // recording does. The line numbers are the parser's, which counts every line it was given.
    QByteArray stackLine; // waiting to be kept
    qint64 stackLineNumber = 0; // the line it goes before
    qint64 linesBeforePiece = 0;
    if (keepingLog && options.withContext) {
        stackSink.setStackNamedHandler([&](const Mapping &stack) {
            stackLine = QStringLiteral("--%1-- %2%3-%4\n")
                            .arg(valgrindPid)
                            .arg(QLatin1StringView(clientStackLinePrefix), hexText(stack.first.value),
                                hexText(stack.last.value))
                            .toLatin1();
            stackLineNumber = parser.lineNumber();
        });
    }
    const auto keepParsed = [&](QByteArrayView parsed) {
        if (!stackLine.isEmpty() && stackLineNumber > linesBeforePiece) {
            qsizetype at = 0;
            for (qint64 line = linesBeforePiece + 1; line < stackLineNumber && at >= 0; ++line) {
                at = parsed.indexOf('\n', at);
                if (at >= 0)
                    ++at;
            }
            if (at < 0)
                at = parsed.size();
            if (!keep(parsed.first(at)) || !keep(stackLine))
                return false;
            stackLine.clear();
            parsed = parsed.sliced(at);
        }
        return keep(parsed);
    };

    // Valgrind's log goes through the importers' read loop; reading the pipe waits for valgrind in
    // short polls, between which it looks at the stop request and reports progress.
    QString pieceError;
    qint64 lastProgress = 0;
    const auto readPipe = [&](char *data, qsizetype size) -> qint64 {
        const qint64 n = valgrind.read(data, size, [&] {
            if (progress && timer.nsecsElapsed() - lastProgress >= progressIntervalNs) {
                lastProgress = timer.nsecsElapsed();
                progress({ parser.instructions(), parser.accesses(), double(lastProgress) / 1e9 });
            }
        });
        if (n == ValgrindProcess::stop)
            return TextPieceInput::stop;
        if (n < 0)
            pieceError = valgrind.errorString();
        return n;
    };
    const TextPieceInput input {
        readPipe,
        [&](QByteArrayView parsed) {
            if (keepParsed(parsed))
                return true;
            pieceError = keepError.arg(options.keepPath, keptLog.reason());
            return false;
        },
    };
    const TextPieceParser pieces {
        [&](const char *data, qsizetype size) {
            linesBeforePiece = parser.lineNumber();
            const qsizetype consumed = parser.parse(data, size);
            if (consumed < 0)
                pieceError = parser.errorString();
            return consumed;
        },
        [&] { return parser.lineNumber(); },
        [&] { return parser.stopped(); },
    };
    QByteArray buffer;
    QByteArrayView rest;
    switch (readInPieces(input, LackeyParser::maxLineLength, pieces, &buffer, &rest)) {
    case TextPieceEnd::Failed:
        return fail(pieceError);
    case TextPieceEnd::Stopped:
        report->end = RecordEnd::Interrupted;
        break;
    case TextPieceEnd::ParserDone:
        report->end = RecordEnd::InstructionLimit;
        break;
    case TextPieceEnd::InputEnd:
        // The log's last line, if valgrind was cut off before its newline, is treated as an import
        // of the kept log would treat it, and kept too, so that both agree.
        if (!keep(rest))
            return fail(keepError.arg(options.keepPath, keptLog.reason()));
        if (!parser.finish(rest, false))
            return fail(parser.errorString());
        if (parser.stopped())
            report->end = RecordEnd::InstructionLimit;
        break;
    }
    if (report->end != RecordEnd::ProgramExited)
        valgrind.stopProgram();
    else
        valgrind.waitForFinished();
    parser.flushVerboseLines();
    parser.fillReport(&report->import);
    if (options.withContext && !stackSink.problem().isEmpty())
        report->contextNotes << stackSink.problem();
    if (report->end != RecordEnd::ProgramExited) {
        // The early end is the user's choice, not a cut trace: drop the parser's guesses about it.
        report->import.warnings.clear();
    }
    report->programCrashed = valgrind.crashed();
    report->exitStatus = valgrind.exitCode();

    if (report->end == RecordEnd::ProgramExited && parser.instructions() == 0) {
        QString message = report->programCrashed
            ? QStringLiteral("valgrind could not run %1 (valgrind was killed by signal %2 before the first "
                             "instruction)")
                  .arg(options.program)
                  .arg(report->exitStatus)
            : QStringLiteral("valgrind could not run %1 (valgrind exited with status %2 before the first "
                             "instruction)")
                  .arg(options.program)
                  .arg(report->exitStatus);
        for (const QString &line : std::as_const(report->lastValgrindMessages))
            message += u'\n' + line;
        *error = message;
        return false;
    }
    if (keepingLog && !keptLog.commit())
        return fail(options.keepPath + QStringLiteral(": ") + keptLog.errorString());
    return true;
}

} // namespace memhist
