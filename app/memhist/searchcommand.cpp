// SPDX-License-Identifier: MIT
// memhist search DB (--value HEX | --int N --size 1|2|4|8 | --unexplained) [query options]
//                   [--format csv|table] [--context]
#include "commandline.h"
#include "commands.h"
#include "core/context/contextcolumns.h"
#include "core/context/contextreader.h"
#include "core/search/valuesearch.h"
#include "core/search/valuetext.h"
#include "historyargument.h"
#include "pageprinter.h"
#include "progressline.h"
#include "queryoptions.h"

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("search"),
    QStringLiteral("DB (--value HEX | --int N --size 1|2|4|8 | --unexplained) [--at T] [--backward] [--from A]\n"
                   "                     [--to B] [--ops r|w|rw] [--limit N] [--resume ROWID] [--thread N]...\n"
                   "                     [--format csv|table] [--context]"),
    QStringLiteral("Print the first N accesses from transition T, forward or backward in time, whose bytes overlap\n"
                   "[A, B] and contain a value: the bytes HEX in memory order (--value 2a00 or 2a:00), or the\n"
                   "integer N stored little-endian in SIZE bytes (--int -1 --size 4 is ffffffff). With\n"
                   "--unexplained instead, the reads whose bytes differ from what the last write of them left\n"
                   "(memory changed behind the trace's back). The columns and order are those of `query`;\n"
                   "--resume continues after the last row of a page. Numbers are decimal or 0x hex."),
};

} // namespace

int runSearch(const QStringList &arguments)
{
    QCommandLineParser parser;
    addQueryOptions(parser);
    const QCommandLineOption valueOption(QStringLiteral("value"),
        QStringLiteral("The bytes to find, hex in memory order (2a00, 2a:00)."), QStringLiteral("HEX"));
    const QCommandLineOption intOption(QStringLiteral("int"),
        QStringLiteral("The integer to find (with --size; little-endian)."), QStringLiteral("N"));
    const QCommandLineOption sizeOption(
        QStringLiteral("size"), QStringLiteral("The integer's size in bytes: 1, 2, 4 or 8."), QStringLiteral("SIZE"));
    const QCommandLineOption unexplainedOption(QStringLiteral("unexplained"),
        QStringLiteral("Find the reads whose bytes differ from what the last write of them left."));
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Output format (default table)."),
        QStringLiteral("csv|table"), QStringLiteral("table"));
    const QCommandLineOption contextOption(QStringLiteral("context"),
        QStringLiteral("Add the columns pc, function, source, instruction, region, value and before."));
    parser.addOptions({ valueOption, intOption, sizeOption, unexplainedOption, formatOption, contextOption });
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;
    OutputFormat format = OutputFormat::Table;
    if (!parseOutputFormat(parser.value(formatOption), &format))
        return usageError(help.name,
            QStringLiteral("--format: '%1' is not an output format (csv or table)").arg(parser.value(formatOption)));

    ValueSearch search;
    QString error;
    const int ways
        = int(parser.isSet(valueOption)) + int(parser.isSet(intOption)) + int(parser.isSet(unexplainedOption));
    if (ways != 1)
        return usageError(help.name, QStringLiteral("give one of --value, --int (with --size) and --unexplained"));
    if (parser.isSet(sizeOption) != parser.isSet(intOption))
        return usageError(help.name, QStringLiteral("--int and --size go together"));
    if (parser.isSet(valueOption)
        && !parseHexValue(QStringLiteral("--value"), parser.value(valueOption), &search.value, &error))
        return usageError(help.name, error);
    if (parser.isSet(intOption)) {
        bool sizeOk = false;
        const int size = parser.value(sizeOption).toInt(&sizeOk);
        if (!sizeOk || (size != 1 && size != 2 && size != 4 && size != 8))
            return usageError(
                help.name, QStringLiteral("--size: '%1' is not 1, 2, 4 or 8").arg(parser.value(sizeOption)));
        if (!integerValue(QStringLiteral("--int"), parser.value(intOption), size, &search.value, &error))
            return usageError(help.name, error);
    }
    search.unexplained = parser.isSet(unexplainedOption);
    if (!readQueryOptions(parser, &search.query, &error))
        return usageError(help.name, error);
    if (search.query.operations.testFlag(Operation::Execute))
        return usageError(help.name, QStringLiteral("--ops: instruction fetches have no values; use r, w or rw"));
    if (search.unexplained && !parser.isSet(QStringLiteral("ops")))
        search.query.operations = Operation::Read;
    if (search.unexplained && search.query.operations != Operations(Operation::Read))
        return usageError(help.name, QStringLiteral("--unexplained finds reads: give no --ops, or --ops r"));

    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;
    if (!checkQueryThreads(*database, search.query, &error))
        return inputError(database->path() + QStringLiteral(": ") + error);
    ValueSearchEngine engine(*database);
    if (!engine.hasValues())
        return inputError(QStringLiteral("%1: this history has no values, so it cannot be searched for them (record "
                                         "the program with `memhist record`, or import a trace that has values)")
                              .arg(database->path()));
    std::optional<ContextReader> contextReader;
    std::optional<ContextColumns> contextColumns;
    if (parser.isSet(contextOption)) {
        contextReader.emplace(*database);
        contextColumns.emplace(*contextReader);
    }

    QueryPage page;
    ProgressLine progress;
    const bool ok = engine.run(search, &page, &error, [&progress](double done) {
        progress.show(QStringLiteral("searching: %1 % of the history's time").arg(int(done * 100)));
        return true;
    });
    progress.clear();
    if (!ok)
        return inputError(database->path() + QStringLiteral(": search failed: ") + error);
    QByteArray out;
    appendPage(&out, page, format, contextColumns ? &*contextColumns : nullptr);
    writeOut(out);
    return ExitSuccess;
}

} // namespace memhist::cli
