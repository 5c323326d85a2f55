// SPDX-License-Identifier: MIT
// memhist query DB [query options] [--format csv|table] [--context] [--batch FILE]
// memhist query DB --pc ADDR | --function NAME [--at T] [--backward] [--limit N] [--resume T]
// memhist query DB --function NAME --accesses [--callees] [query options] [--format] [--context]
#include "commandline.h"
#include "commands.h"
#include "core/context/contextcolumns.h"
#include "core/context/contextreader.h"
#include "executionquery.h"
#include "historyargument.h"
#include "pageprinter.h"
#include "querybatch.h"
#include "queryoptions.h"

#include <QElapsedTimer>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("query"),
    QStringLiteral(
        "DB [--at T] [--backward] [--from A] [--to B] [--ops r|w|x|rw|rwx] [--limit N] [--resume ROWID]\n"
        "                     [--thread N]... [--format csv|table] [--context] [--batch FILE]\n"
        "       memhist query DB --function NAME --accesses [--callees] [the options above but --batch]\n"
        "       memhist query DB --pc ADDR | --function NAME [--at T] [--backward] [--limit N] [--resume T]\n"
        "                     [--format csv|table]"),
    QStringLiteral("Print the first N accesses from transition T, forward or backward in time, whose bytes overlap\n"
                   "[A, B] (with --thread, only those of the transitions thread N ran); with --context, also the\n"
                   "instruction of each (pc, function, source, instruction) and what its address is (region), and\n"
                   "the bytes it moved (value) when the history has them.\n"
                   "With --pc or --function, print the transitions at which that instruction (or the function's\n"
                   "entry: its calls) executed instead; with --function NAME --accesses, the accesses made by\n"
                   "that function's instructions (--callees: also while it ran). Numbers are decimal or 0x hex."),
};

} // namespace

int runQuery(const QStringList &arguments)
{
    QCommandLineParser parser;
    addQueryOptions(parser);
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Output format (default table)."),
        QStringLiteral("csv|table"), QStringLiteral("table"));
    const QCommandLineOption batchOption(QStringLiteral("batch"),
        QStringLiteral("Run one query per line of FILE (the options above; # starts a comment), each followed by\n"
                       "\"# query N: K rows in X.XXX ms\"."),
        QStringLiteral("FILE"));
    const QCommandLineOption contextOption(QStringLiteral("context"),
        QStringLiteral("Add the columns pc, function, source, instruction, region (and value when the history has\n"
                       "values) after the six."));
    parser.addOption(formatOption);
    parser.addOption(contextOption);
    parser.addOption(batchOption);
    addExecutionOptions(parser);
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;
    OutputFormat format = OutputFormat::Table;
    if (!parseOutputFormat(parser.value(formatOption), &format))
        return usageError(help.name,
            QStringLiteral("--format: '%1' is not an output format (csv or table)").arg(parser.value(formatOption)));

    if (executionQueryRequested(parser))
        return runExecutionQuery(parser, help.name, positional[0], format);

    // Everything about the command line is checked before the database is opened.
    QList<BatchQuery> queries;
    const bool batch = parser.isSet(batchOption);
    if (batch) {
        if (anyQueryOptionSet(parser) || parser.isSet(QStringLiteral("accesses"))
            || parser.isSet(QStringLiteral("callees")))
            return usageError(
                help.name, QStringLiteral("--batch takes every query from its file: give no other query option"));
        QString error;
        int status = ExitSuccess;
        if (!readBatchFile(parser.value(batchOption), &queries, &error, &status)) {
            writeErr(error + u'\n');
            return status;
        }
    } else {
        BatchQuery single;
        QString error;
        if (!readQueryOptions(parser, &single.query, &error) || !readFunctionFilter(parser, &single.query, &error))
            return usageError(help.name, error);
        queries.append(single);
    }

    QString error;
    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;
    HalfAxisQueryEngine engine(*database);
    std::optional<ContextReader> contextReader;
    std::optional<ContextColumns> contextColumns;
    if (parser.isSet(contextOption)) {
        contextReader.emplace(*database);
        contextColumns.emplace(*contextReader);
    }

    for (qsizetype i = 0; i < queries.size(); ++i) {
        const QString place
            = batch ? parser.value(batchOption) + u':' + QString::number(queries[i].line) : database->path();
        if (!checkQueryThreads(*database, queries[i].query, &error)
            || !checkQueryFunction(*database, queries[i].query, &error))
            return inputError(place + QStringLiteral(": ") + error);
        QueryPage page;
        QElapsedTimer timer;
        timer.start();
        const bool ok = engine.run(queries[i].query, &page, &error);
        const qint64 nanoseconds = timer.nsecsElapsed();
        if (!ok)
            return inputError(place + QStringLiteral(": query failed: ") + error);
        QByteArray out;
        appendPage(&out, page, format, contextColumns ? &*contextColumns : nullptr);
        if (batch) {
            out += QStringLiteral("# query %1: %2 %3 in %4 ms\n")
                       .arg(i + 1)
                       .arg(page.accesses.size())
                       .arg(page.accesses.size() == 1 ? QStringLiteral("row") : QStringLiteral("rows"))
                       .arg(double(nanoseconds) / 1e6, 0, 'f', 3)
                       .toLatin1();
        }
        writeOut(out);
    }
    return ExitSuccess;
}

} // namespace memhist::cli
