// SPDX-License-Identifier: MIT
#include "executionquery.h"

#include "commandline.h"
#include "core/context/contextreader.h"
#include "core/context/contextschema.h"
#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "core/query/functionruns.h"
#include "core/storage/threadspans.h"
#include "historyargument.h"
#include "queryoptions.h"

#include <limits>

namespace memhist::cli {

namespace {

const QString pcName = QStringLiteral("pc");
const QString functionName = QStringLiteral("function");
const QString accessesName = QStringLiteral("accesses");
const QString calleesName = QStringLiteral("callees");

} // namespace

void addExecutionOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        { pcName,
            QStringLiteral("List the transitions at which the instruction at ADDR executed (instead of accesses;\n"
                           "--resume then takes a transition)."),
            QStringLiteral("ADDR") },
        { functionName,
            QStringLiteral("List the calls of function NAME: the executions of its entry instruction (C++ names\n"
                           "demangled, with or without their parameters)."),
            QStringLiteral("NAME") },
        { accessesName,
            QStringLiteral("With --function: print the accesses the function's instructions made instead of its\n"
                           "calls, in the query's order with every query option (--at, --backward, --from, --to,\n"
                           "--ops, --limit, --resume ROWID, --thread, --context).") },
        { calleesName,
            QStringLiteral("With --function --accesses: also the accesses made while the function ran (its\n"
                           "callees'), from each call to its return.") },
    });
}

void addFunctionFilterOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        { functionName, QStringLiteral("With --accesses: only the accesses of function NAME."),
            QStringLiteral("NAME") },
        { accessesName, QStringLiteral("Write the accesses the function's instructions made (with --function).") },
        { calleesName,
            QStringLiteral("With --function --accesses: also the accesses made while the function ran (its\n"
                           "callees'), from each call to its return.") },
    });
}

bool executionQueryRequested(const QCommandLineParser &parser)
{
    return (parser.isSet(pcName) || parser.isSet(functionName)) && !parser.isSet(accessesName);
}

bool readFunctionFilter(const QCommandLineParser &parser, HalfAxisQuery *query, QString *error)
{
    if (parser.isSet(calleesName) && !parser.isSet(accessesName)) {
        *error = QStringLiteral("--callees takes --function NAME --accesses");
        return false;
    }
    // optionNames(): what the command line gave, without asking about options a command lacks.
    const QStringList given = parser.optionNames();
    if (!parser.isSet(accessesName)) {
        // Only `export` gets here with --function (`query` lists the calls then).
        if (parser.isSet(functionName)) {
            *error = QStringLiteral("--function takes --accesses (the accesses of the function)");
            return false;
        }
        return true;
    }
    if (!parser.isSet(functionName)) {
        *error = QStringLiteral("--accesses takes --function NAME (the function whose accesses to print)");
        return false;
    }
    if (given.contains(pcName)) {
        *error = QStringLiteral("--accesses takes --function, not --pc");
        return false;
    }
    if (given.contains(QStringLiteral("batch"))) {
        *error = QStringLiteral("--batch takes every query from its file: give no other query option");
        return false;
    }
    if (parser.value(functionName).isEmpty()) {
        *error = QStringLiteral("--function: the name is empty");
        return false;
    }
    query->function = FunctionFilter { parser.value(functionName), parser.isSet(calleesName) };
    return true;
}

bool checkQueryFunction(HistoryDatabase &database, const HalfAxisQuery &query, QString *error)
{
    if (!query.function.isSet())
        return true;
    // The name only: finding the executions (--callees) is the engine's, once.
    FunctionRuns runs(database, FunctionFilter { query.function.name, false });
    return runs.load(error);
}

int runExecutionQuery(
    const QCommandLineParser &parser, const QString &command, const QString &databasePath, OutputFormat format)
{
    if (parser.isSet(pcName) && parser.isSet(functionName))
        return usageError(command, QStringLiteral("give --pc or --function, not both"));
    if (parser.isSet(calleesName))
        return usageError(command, QStringLiteral("--callees takes --function NAME --accesses"));
    for (const char *option : { "from", "to", "ops", "thread", "batch", "context" }) {
        if (parser.isSet(QLatin1String(option)))
            return usageError(command,
                QStringLiteral("--%1 does not apply to --pc or --function (they list transitions, not accesses)")
                    .arg(QLatin1String(option)));
    }

    QString error;
    std::uint64_t number = 0;
    std::optional<Address> pc;
    if (parser.isSet(pcName)) {
        if (!parseNumberOption(pcName, parser.value(pcName), &number, &error))
            return usageError(command, error);
        pc = Address { number };
    }
    const Direction direction = parser.isSet(QStringLiteral("backward")) ? Direction::Backward : Direction::Forward;
    constexpr std::uint64_t lastStorable = signBoundary - 1;
    const bool forward = direction == Direction::Forward;
    std::uint64_t from = forward ? 0 : lastStorable;
    if (parser.isSet(QStringLiteral("at"))) {
        if (!parseNumberOption(QStringLiteral("at"), parser.value(QStringLiteral("at")), &from, &error))
            return usageError(command, error);
    }
    // --resume T continues after T in the query's direction; with --at too, both hold.
    bool nothingLeft = false;
    if (parser.isSet(QStringLiteral("resume"))) {
        if (!parseNumberOption(QStringLiteral("resume"), parser.value(QStringLiteral("resume")), &number, &error))
            return usageError(command, error);
        if (forward) {
            nothingLeft = number >= lastStorable;
            from = std::max(from, number + 1);
        } else {
            nothingLeft = number == 0;
            from = std::min(from, number - 1);
        }
    }
    std::uint64_t limit = 100;
    if (parser.isSet(QStringLiteral("limit"))
        && !parseNumberOption(QStringLiteral("limit"), parser.value(QStringLiteral("limit")), &limit, &error))
        return usageError(command, error);

    const auto database = openDatabaseArgument(databasePath);
    if (!database)
        return ExitFailure;
    ContextReader reader(*database);
    if (!reader.has(contextschema::part::pcs))
        return inputError(database->path()
            + QStringLiteral(": the history has no PCs (import a trace with instructions: a Lackey log, a drmemtrace "
                             "or Tenet trace, or memhist record)"));
    QList<Address> pcs;
    if (pc) {
        pcs << *pc;
    } else {
        const QString name = parser.value(functionName);
        if (!reader.has(contextschema::part::symbols))
            return inputError(database->path()
                + QStringLiteral(": the history has no symbols (no memory map or modules), so no function names"));
        const QList<FunctionInfo> functions = reader.functionsNamed(name);
        if (functions.isEmpty())
            return inputError(database->path()
                + QStringLiteral(": no function named '%1' ran (the history names only the functions "
                                 "that ran)")
                      .arg(name));
        for (const FunctionInfo &function : functions)
            pcs << function.range.first;
    }

    const int pageLimit = int(std::min<std::uint64_t>(limit, std::uint64_t(std::numeric_limits<int>::max())));
    QString readError;
    const QList<Transition> transitions = nothingLeft
        ? QList<Transition> {}
        : reader.executionsOf(pcs, Transition { from }, direction, pageLimit, &readError);
    if (!readError.isEmpty())
        return inputError(database->path() + QStringLiteral(": ") + readError);
    const ThreadSpans threads(*database);

    QList<QList<QByteArray>> rows;
    for (const Transition transition : transitions) {
        const std::optional<qint64> thread = threads.threadAt(transition);
        const Address executed = reader.pcAt(transition).value_or(Address {});
        const CodeDescription code = reader.describeCode(executed, transition);
        QList<QByteArray> row { QByteArray::number(quint64(transition.value)),
            thread ? QByteArray::number(*thread) : QByteArray(), hexBytes(executed.value), code.functionText().toUtf8(),
            code.sourceText().toUtf8() };
        rows << row;
    }
    const QList<QByteArray> titles { "transition", "thread", "pc", "function", "source" };
    QByteArray out;
    if (format == OutputFormat::Csv) {
        out += titles.join(',') + '\n';
        for (const QList<QByteArray> &row : std::as_const(rows)) {
            QList<QByteArray> quoted;
            for (const QByteArray &cell : row)
                quoted << csv::quoteField(cell);
            out += quoted.join(',') + '\n';
        }
    } else {
        // The thread column only when the history knows threads.
        const bool withThreads = threads.available();
        QList<QList<QByteArray>> table { titles };
        table += rows;
        QList<bool> rightAligned { true, true, true, false, false };
        if (!withThreads) {
            for (QList<QByteArray> &row : table)
                row.removeAt(1);
            rightAligned.removeAt(1);
        }
        appendAlignedRows(&out, table, rightAligned);
        out += "-- " + QByteArray::number(rows.size()) + (rows.size() == 1 ? " execution" : " executions");
        if (limit > 0 && std::uint64_t(rows.size()) == limit)
            out += "; next page: --resume " + QByteArray::number(quint64(transitions.last().value));
        out += '\n';
    }
    writeOut(out);
    return ExitSuccess;
}

} // namespace memhist::cli
