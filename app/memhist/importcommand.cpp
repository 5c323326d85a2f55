// memhist import TRACE... -o OUT.memhist [--format auto|csv]
#include "commandline.h"
#include "commands.h"
#include "importers/csvimporter.h"
#include "traceformat.h"
#include "writer/historywriter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <cstdio>
#include <unistd.h>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("import"),
    QStringLiteral("TRACE... -o OUT.memhist [--format auto|csv]"),
    QStringLiteral("Store the accesses of one or more traces, one after another in the order given, in a new\n"
                   "memhist database. OUT.memhist appears (or is replaced) only once complete."),
};

// A progress line on stderr, only for a person watching a terminal: scripts and tests that
// capture stderr see the messages alone.
class ProgressLine
{
public:
    ProgressLine()
        : m_enabled(isatty(fileno(stderr)) != 0)
    { }
    ~ProgressLine() { clear(); }

    bool show(const QString &path, double fraction)
    {
        if (m_enabled) {
            writeErr(QStringLiteral("\rimporting ") + path + QStringLiteral(": ")
                + QString::number(fraction * 100, 'f', 1) + u'%');
            m_shown = true;
        }
        return true;
    }
    void clear()
    {
        if (m_shown)
            writeErr(QStringLiteral("\r\033[K"));
        m_shown = false;
    }

private:
    bool m_enabled = false;
    bool m_shown = false;
};

} // namespace

int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption outputOption({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The database to write."), QStringLiteral("OUT.memhist"));
    const QCommandLineOption formatOption(QStringLiteral("format"),
        QStringLiteral("The format of the traces (default auto: recognised from "
                       "their first line)."),
        QStringLiteral("auto|csv"), QStringLiteral("auto"));
    parser.addOption(outputOption);
    parser.addOption(formatOption);
    parser.addPositionalArgument(QStringLiteral("TRACE"), QStringLiteral("The trace files, imported in this order."),
        QStringLiteral("TRACE..."));
    if (const auto status = parseCommandLine(parser, arguments, help))
        return *status;

    const QStringList traces = parser.positionalArguments();
    if (traces.isEmpty())
        return usageError(help.name, QStringLiteral("missing the trace argument (TRACE...)"));
    if (!parser.isSet(outputOption) || parser.value(outputOption).isEmpty())
        return usageError(help.name, QStringLiteral("missing the output database (-o OUT.memhist)"));
    const QString output = parser.value(outputOption);
    TraceFormat requested = TraceFormat::Auto;
    bool known = false;
    if (!parseTraceFormat(parser.value(formatOption), &requested, &known)) {
        const QString value = parser.value(formatOption);
        return usageError(help.name,
            known ? QStringLiteral("--format: '%1' is not supported yet (supported: auto, csv)").arg(value)
                  : QStringLiteral("--format: '%1' is not a trace format (auto, csv)").arg(value));
    }
    const QFileInfo outputInfo(output);
    for (const QString &trace : traces) {
        if (outputInfo.exists() && QFileInfo(trace) == outputInfo)
            return usageError(help.name, QStringLiteral("-o %1 would replace the trace %2").arg(output, trace));
    }

    // Every trace is recognised before the first is read: a typo in the last file name should not
    // cost the import of the others.
    QList<SourceDescription> sources;
    QList<TraceFormat> formats;
    for (const QString &trace : traces) {
        TraceFormat format = requested;
        QString error;
        if (format == TraceFormat::Auto && !detectTraceFormat(trace, &format, &error))
            return inputError(error);
        formats.append(format);
        sources.append({ traceFormatName(format), QFileInfo(trace).absoluteFilePath() });
    }

    QElapsedTimer timer;
    timer.start();
    HistoryWriter writer(output);
    if (!writer.open())
        return inputError(writer.errorString());
    writer.setSources(sources);

    for (qsizetype i = 0; i < traces.size(); ++i) {
        ProgressLine progressLine;
        const QString &trace = traces[i];
        ImportReport report;
        QString error;
        bool ok = false;
        switch (formats[i]) {
        case TraceFormat::Csv:
            ok = CsvImporter().run(
                trace, writer, &report, &error, [&](double fraction) { return progressLine.show(trace, fraction); });
            break;
        case TraceFormat::Auto:
            break;
        }
        if (!ok) {
            progressLine.clear();
            writer.cancel();
            return inputError(error);
        }
    }
    if (!writer.finish())
        return inputError(writer.errorString());

    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    const WriterStats &stats = writer.stats();
    const QString transitions = stats.firstTransition
        ? QStringLiteral("transitions %1..%2").arg(stats.firstTransition->value).arg(stats.lastTransition->value)
        : QStringLiteral("no transitions");
    // One multi-argument arg(): chained calls would rescan a file name holding "%4".
    writeOut(QStringLiteral("imported %1 accesses (%2) into %3: %4 slices, %5 chunks, %6 s, %7 accesses/s\n")
                 .arg(QString::number(stats.accesses), transitions, output, QString::number(stats.slices),
                     QString::number(stats.chunks), QString::number(seconds, 'f', 3),
                     QString::number(seconds > 0 ? qint64(double(stats.accesses) / seconds) : 0))
                 .toLocal8Bit());
    return ExitSuccess;
}

} // namespace memhist::cli
