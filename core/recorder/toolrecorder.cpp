// SPDX-License-Identifier: MIT
#include "core/recorder/toolrecorder.h"

#include "core/importers/accesssink.h"
#include "core/recorder/recordformat.h"
#include "core/recorder/recordstreamparser.h"
#include "core/recorder/valgrindprocess.h"
#include "core/writer/historywriter.h"
#include "core/writer/partialfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

namespace memhist {

namespace {

constexpr qint64 progressIntervalNs = 250'000'000;
const QString toolFile = QStringLiteral(MH_TOOL_NAME "-amd64-linux");

bool holdsTool(const QString &directory)
{
    return QFileInfo(QDir(directory).filePath(toolFile)).isExecutable();
}

// "3.19.0" from the stream header's 31900.
QString versionText(quint32 version)
{
    return QStringLiteral("%1.%2.%3").arg(version / 10000).arg(version / 100 % 100).arg(version % 100);
}

} // namespace

QString ToolRecorder::builtValgrindVersion()
{
#ifdef MEMHIST_VALGRIND_VERSION
    return QStringLiteral(MEMHIST_VALGRIND_VERSION);
#else
    return {};
#endif
}

QString ToolRecorder::toolDirectory(QString *why)
{
    const QString fromEnvironment = qEnvironmentVariable("MEMHIST_VALGRIND_LIB");
    if (!fromEnvironment.isEmpty()) {
        if (holdsTool(fromEnvironment))
            return fromEnvironment;
        if (why)
            *why = QStringLiteral("MEMHIST_VALGRIND_LIB=%1 holds no %2").arg(fromEnvironment, toolFile);
        return {};
    }
    if (builtValgrindVersion().isEmpty()) {
        if (why)
            *why = QStringLiteral("this memhist was built without its Valgrind tool (Debian's valgrind package was "
                                  "not installed when it was built)");
        return {};
    }
    const QString installed
        = QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("../libexec/memhist/valgrind"));
    if (holdsTool(installed))
        return QDir::cleanPath(installed);
#ifdef MEMHIST_VALGRIND_TOOL_BUILD_DIR
    if (holdsTool(QStringLiteral(MEMHIST_VALGRIND_TOOL_BUILD_DIR)))
        return QStringLiteral(MEMHIST_VALGRIND_TOOL_BUILD_DIR);
#endif
    if (why)
        *why = QStringLiteral("memhist's Valgrind tool (%1) is not installed beside it (%2)")
                   .arg(toolFile, QDir::cleanPath(installed));
    return {};
}

bool ToolRecorder::checkValgrindVersion(const QString &valgrind, QString *error)
{
    QProcess process;
    process.start(valgrind, { QStringLiteral("--version") });
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = QStringLiteral("cannot run %1 --version: %2").arg(valgrind, process.errorString());
        process.kill();
        return false;
    }
    // "valgrind-3.19.0", maybe with a vendor suffix ("valgrind-3.19.0.GIT").
    QString version = QString::fromLocal8Bit(process.readAllStandardOutput()).trimmed();
    if (version.startsWith(QLatin1StringView("valgrind-")))
        version = version.mid(9);
    const QString built = builtValgrindVersion();
    if (version == built || version.startsWith(built + u'.') || version.startsWith(built + u'-'))
        return true;
    *error = QStringLiteral("memhist's Valgrind tool was built against Valgrind %1, but %2 is Valgrind %3: rebuild "
                            "memhist against this Valgrind, or record with --backend lackey")
                 .arg(built, valgrind, version);
    return false;
}

QStringList ToolRecorder::valgrindOptions(const RecordOptions &options, int streamFd)
{
    // -q: Valgrind's banner would go to the program's stderr, which is memhist's.
    QStringList arguments { QStringLiteral("--tool=" MH_TOOL_NAME), QStringLiteral("-q"),
        QStringLiteral(MH_OPTION_FD "%1").arg(streamFd) };
    if (options.skipInstructions > 0)
        arguments << QStringLiteral(MH_OPTION_SKIP "%1").arg(options.skipInstructions);
    if (!options.startAt.isEmpty())
        arguments << QStringLiteral(MH_OPTION_START_AT) + options.startAt;
    return arguments;
}

bool ToolRecorder::record(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
    const RecordProgressCallback &progress)
{
    *report = {};
    QElapsedTimer timer;
    timer.start();

    QString why;
    const QString directory = toolDirectory(&why);
    if (directory.isEmpty()) {
        *error = why + QStringLiteral("; record with --backend lackey instead");
        return false;
    }
    if (!checkValgrindVersion(options.valgrind, error))
        return false;

    const bool keeping = !options.keepPath.isEmpty();
    PartialFile kept(options.keepPath, PartialFile::Target::RegularFileOrStream);
    if (keeping && !kept.create()) {
        *error = options.keepPath + QStringLiteral(": ") + kept.errorString();
        return false;
    }

    ValgrindProcess valgrind;
    if (!valgrind.createPipe(error))
        return false;
    valgrind.setPipeSize(1 << 20);

    WriterSink sink(writer);
    ImportOptions window;
    window.withExecute = options.withExecute;
    window.skipInstructions = options.skipInstructions;
    if (options.maxInstructions >= 0)
        window.maxInstructions = std::uint64_t(options.maxInstructions);
    RecordStreamParser parser(QStringLiteral("record stream of %1").arg(options.program), sink, window);

    QProcessEnvironment environment;
    environment.insert(QStringLiteral("VALGRIND_LIB"), directory);
    if (!valgrind.start(options.valgrind,
            valgrindOptions(options, valgrind.pipeFd()) + QStringList { options.program } + options.arguments,
            environment, error))
        return false;
    const auto fail = [&](const QString &message) {
        valgrind.stopProgram();
        parser.fillReport(&report->import);
        *error = message;
        return false;
    };

    qint64 lastProgress = 0;
    const auto reportProgress = [&] {
        if (progress && timer.nsecsElapsed() - lastProgress >= progressIntervalNs) {
            lastProgress = timer.nsecsElapsed();
            progress({ parser.instructions(), parser.accesses(), double(lastProgress) / 1e9 });
        }
    };
    bool stopRequested = false;
    bool keepFailed = false;
    QByteArray buffer;
    QByteArrayView rest;
    const RecordStreamReadEnd end = readRecordStream(
        parser,
        [&](char *data, qsizetype size) {
            const qint64 read = valgrind.read(data, size, reportProgress);
            stopRequested = read == ValgrindProcess::stop;
            return read;
        },
        [&](QByteArrayView piece) {
            keepFailed = keeping && !kept.write(piece);
            return !keepFailed;
        },
        &buffer, &rest);
    switch (end) {
    case RecordStreamReadEnd::InputEnd:
        break;
    case RecordStreamReadEnd::ParserStopped:
        report->end = RecordEnd::InstructionLimit;
        break;
    case RecordStreamReadEnd::ReadStopped:
        if (!stopRequested)
            return fail(valgrind.errorString());
        report->end = RecordEnd::Interrupted;
        break;
    case RecordStreamReadEnd::Failed:
        return fail(keepFailed ? QStringLiteral("%1: cannot write: %2").arg(options.keepPath, kept.reason())
                               : parser.errorString());
    }
    if (report->end != RecordEnd::ProgramExited)
        valgrind.stopProgram();
    else
        valgrind.waitForFinished();
    if (const std::optional<RecordStreamEnd> &end = parser.end()) {
        report->programCrashed = end->bySignal;
        report->exitStatus = end->status;
    } else {
        report->programCrashed = valgrind.crashed();
        report->exitStatus = valgrind.exitCode();
    }
    // Valgrind ended by itself before its tool started (the program cannot be run: valgrind says
    // why on stderr), or before the program's first instruction.
    if (report->end == RecordEnd::ProgramExited
        && (!parser.started() || (parser.instructions() == 0 && !parser.end()))) {
        parser.fillReport(&report->import);
        *error = report->programCrashed
            ? QStringLiteral("valgrind could not run %1 (valgrind was killed by signal %2 before the first "
                             "instruction)")
                  .arg(options.program)
                  .arg(report->exitStatus)
            : QStringLiteral("valgrind could not run %1 (valgrind exited with status %2 before the first "
                             "instruction)")
                  .arg(options.program)
                  .arg(report->exitStatus);
        return false;
    }
    // Stopped before the tool said anything (a Cancel at once): an empty recording, nothing to finish.
    if (parser.started() && !parser.finish(rest))
        return fail(parser.errorString());
    parser.fillReport(&report->import);
    if (report->end != RecordEnd::ProgramExited) {
        // The early end is the user's choice, not a cut stream: drop the parser's guesses about it.
        report->import.warnings.clear();
    }
    if (parser.toolValgrindVersion() != 0 && versionText(parser.toolValgrindVersion()) != builtValgrindVersion())
        return fail(QStringLiteral("the Valgrind tool in %1 was built against Valgrind %2, this memhist against %3")
                        .arg(directory, versionText(parser.toolValgrindVersion()), builtValgrindVersion()));
    if (keeping && !kept.commit())
        return fail(options.keepPath + QStringLiteral(": ") + kept.errorString());
    return true;
}

} // namespace memhist
