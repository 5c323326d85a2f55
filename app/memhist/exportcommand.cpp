// SPDX-License-Identifier: MIT
// memhist export DB -o OUT.csv [query options]
#include "commandline.h"
#include "commands.h"
#include "core/export/csvexport.h"
#include "executionquery.h"
#include "historyargument.h"
#include "queryoptions.h"
#include "signalguard.h"

#include <QCommandLineParser>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("export"),
    QStringLiteral("DB -o OUT.csv [--at T] [--backward] [--from A] [--to B] [--ops r|w|x|rw|rwx] [--limit N]\n"
                   "                      [--resume ROWID] [--thread N]... [--function NAME --accesses [--callees]]\n"
                   "                      [--thread-column] [--context]"),
    QStringLiteral("Write every access matching the query to a CSV file (only the first N with --limit). The file\n"
                   "appears only once complete. --thread-column adds the column thread (the thread that ran the\n"
                   "access, empty where unknown: the file the viewer's Export CSV writes for a history with threads);\n"
                   "--context adds the columns pc, function, source, instruction, region (and value when the\n"
                   "history has values); import --format csv reads the six-column form."),
};

} // namespace

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    addQueryOptions(parser, LimitDefault::EveryMatch);
    addFunctionFilterOptions(parser);
    const QCommandLineOption outputOption({ QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The CSV file to write."), QStringLiteral("OUT.csv"));
    const QCommandLineOption contextOption(QStringLiteral("context"),
        QStringLiteral("Add the columns pc, function, source, instruction, region (and value when the history has\n"
                       "values) after the six."));
    const QCommandLineOption threadsOption(QStringLiteral("thread-column"),
        QStringLiteral("Add the column thread after the six: the thread that ran the access, empty where the "
                       "history does not know it (on every row of a history without threads)."));
    parser.addOption(outputOption);
    parser.addOption(threadsOption);
    parser.addOption(contextOption);
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;
    if (!parser.isSet(outputOption) || parser.value(outputOption).isEmpty())
        return usageError(help.name, QStringLiteral("missing the output file (-o OUT.csv)"));
    HalfAxisQuery query;
    QString error;
    if (!readQueryOptions(parser, &query, &error) || !readFunctionFilter(parser, &query, &error))
        return usageError(help.name, error);

    const QString output = parser.value(outputOption);
    if (inputReplacedBy(output, { positional[0] }))
        return usageError(help.name, QStringLiteral("-o %1 would replace the history %2").arg(output, positional[0]));
    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;
    if (!checkQueryThreads(*database, query, &error) || !checkQueryFunction(*database, query, &error))
        return inputError(database->path() + QStringLiteral(": ") + error);
    ExportReport report;
    bool ok = false;
    {
        const SignalGuard signalGuard(help.name, output);
        // Without --limit the export holds every match, not the query's default first 100.
        ok = exportQueryToCsv(*database, query, parser.isSet(QStringLiteral("limit")), output, &report, &error, {},
            ExportColumns { parser.isSet(threadsOption), parser.isSet(contextOption) });
    }
    if (!ok)
        return inputError(error);
    const QString summary = QStringLiteral("wrote %1 %2 to %3\n")
                                .arg(report.rows)
                                .arg(report.rows == 1 ? QStringLiteral("row") : QStringLiteral("rows"), output);
    // `-o /dev/stdout`: the rows went to standard output, where the summary must not land amid them.
    if (sameFile(output, QStringLiteral("/dev/stdout")))
        writeErr(summary);
    else
        writeOut(summary.toLocal8Bit());
    return ExitSuccess;
}

} // namespace memhist::cli
