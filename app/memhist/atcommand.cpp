// SPDX-License-Identifier: MIT
// memhist at DB T: what happened at transition T: the thread, the instruction (PC, module, function,
// source line, disassembly) and its accesses with what each address is (and the bytes moved).
#include "commandline.h"
#include "commands.h"
#include "core/context/contextreader.h"
#include "core/context/contextschema.h"
#include "core/context/contextsummarytext.h"
#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/threadspans.h"
#include "historyargument.h"
#include "pageprinter.h"
#include "queryoptions.h"

#include <QCommandLineParser>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("at"),
    QStringLiteral("DB T"),
    QStringLiteral("Describe transition T: the thread that ran it, its instruction (PC, module, function, source\n"
                   "line, disassembly) as far as the history knows them, and its accesses with what each address\n"
                   "is (a global, the stack, the heap, a module's section) and the bytes moved when known."),
};

// Accesses per query run while collecting those of one transition.
constexpr quint64 accessesPerRun = 4096;

} // namespace

int runAt(const QStringList &arguments)
{
    QCommandLineParser parser;
    const PositionalArgument transitionArgument { QStringLiteral("T"),
        QStringLiteral("The transition (decimal or 0x hex)."), QStringLiteral("transition argument (T)") };
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional, { transitionArgument }))
        return *status;
    QString error;
    std::uint64_t number = 0;
    if (!parseNumberOption(QStringLiteral("T"), positional[1], &number, &error))
        return usageError(help.name, error.mid(2)); // "T: '...' is not a number", without the option's dashes
    if (number >= signBoundary)
        return usageError(
            help.name, QStringLiteral("T: '%1' is out of range (transitions end at 2^63-1)").arg(positional[1]));
    const Transition transition { number };

    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;

    // Every access of the transition: forward from T, all operations, until a later transition.
    HalfAxisQueryEngine engine(*database);
    HalfAxisQuery query;
    query.at = transition;
    query.operations = allOperations();
    query.limit = accessesPerRun;
    QList<Access> accesses;
    for (;;) {
        QueryPage page;
        if (!engine.run(query, &page, &error))
            return inputError(database->path() + QStringLiteral(": query failed: ") + error);
        bool later = false;
        for (const Access &access : std::as_const(page.accesses)) {
            later = access.transition != transition;
            if (later)
                break;
            accesses << access;
        }
        if (later || !page.resumePoint())
            break;
        query.resumeAfter = page.resumePoint();
    }

    ContextReader reader(*database);
    const ThreadSpans threads(*database);
    const auto row = [](const char *label, const QString &value) {
        return QStringLiteral("%1 %2\n").arg(QLatin1String(label) + u':', -12).arg(value);
    };
    // A transition the history does not reach reads as one without accesses: say which it is.
    const std::optional<Transition> last = database->summary().lastTransition;
    const bool pastTheEnd = (!last || transition > *last) && !reader.pcAt(transition);
    QString text = row("transition",
        QString::number(transition.value)
            + (!pastTheEnd ? QString()
                    : last ? QStringLiteral(" (after the history's last transition, %1)").arg(last->value)
                           : QStringLiteral(" (the history has no accesses)")));
    if (threads.available()) {
        const std::optional<qint64> thread = threads.threadAt(transition);
        text += row("thread", thread ? QString::number(*thread) : QStringLiteral("unknown"));
    }
    if (const auto pc = reader.pcAt(transition)) {
        const CodeDescription code = reader.describeCode(*pc, transition);
        const auto known = [](const QString &value) { return value.isEmpty() ? QStringLiteral("unknown") : value; };
        text += row("pc", QString::fromLatin1(hexBytes(pc->value)));
        text += row("module", known(code.moduleText()));
        text += row("function", known(code.functionText()));
        text += row("source", known(code.sourceText()));
        text += row("instruction",
            code.instruction.isEmpty()
                ? QStringLiteral("unknown")
                : code.instruction + QStringLiteral(" (") + QString::fromLatin1(code.bytes.toHex(' ')) + u')');
    } else {
        text += row("pc",
            reader.has(contextschema::part::pcs) ? QStringLiteral("unknown")
                                                 : QStringLiteral("unknown (the history has no PCs; context: %1)")
                                                       .arg(contextPartsText(reader.parts())));
    }

    const bool withValues = reader.has(contextschema::part::values);
    QList<QList<QByteArray>> table { { "rowid", "op", "address", "size", "region" } };
    if (withValues)
        table.first() << "value"
                      << "before";
    for (const Access &access : std::as_const(accesses)) {
        QList<QByteArray> cells { QByteArray::number(access.rowId.value),
            QByteArray(1, csv::operationLetter(access.operation)), hexBytes(access.physical.value),
            QByteArray::number(access.size), reader.describeAddress(access.physical, transition).text().toUtf8() };
        if (withValues) {
            const AccessValue value = reader.value(access.rowId).value_or(AccessValue());
            cells << value.bytes.toHex() << value.before.toHex();
        }
        table << cells;
    }
    text += row("accesses", QString::number(accesses.size()));
    QByteArray out = text.toUtf8();
    if (!accesses.isEmpty()) {
        QByteArray rows;
        appendAlignedRows(&rows, table, { true, false, true, true, false, false, false });
        for (const QByteArray &line : rows.split('\n')) {
            if (!line.isEmpty())
                out += "  " + line + '\n';
        }
    }
    writeOut(out);
    return ExitSuccess;
}

} // namespace memhist::cli
