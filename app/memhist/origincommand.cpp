// SPDX-License-Identifier: MIT
// memhist origin DB --row R [--depth N] [--forward] [--format table|csv]: where the bytes of access
// R came from (or went), as a tree of hops (core/origin/originfinder.h).
#include "commandline.h"
#include "commands.h"
#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "core/origin/originfinder.h"
#include "historyargument.h"
#include "pageprinter.h"
#include "queryoptions.h"

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("origin"),
    QStringLiteral("DB --row R [--depth N] [--forward] [--format table|csv]"),
    QStringLiteral("Explain where the bytes of access R (a rowid, as query prints it) came from: for a read, the\n"
                   "last write of each of its bytes (or initial: no write in the history; or kernel: a system\n"
                   "call wrote them); for a write, its instruction's sources: a read of the same instruction\n"
                   "(load), or a register, found at the last earlier instruction of the same thread that wrote\n"
                   "it (register, or computed when that instruction computes, whose sources are all followed).\n"
                   "Each hop is printed once, depth first, with its parent's step. --forward follows where the\n"
                   "bytes went instead: the later reads of them before they are overwritten, and what those\n"
                   "instructions wrote. --depth bounds the tree (default 16). Without a code trace (an imported\n"
                   "CSV) only memory hops are made; without values every hop is unchecked."),
};

constexpr int defaultDepth = 16;
constexpr int maxDepth = 1000;

const QByteArray header = "step,parent,kind,rowid,transition,pc,function,source,address,size,value,confidence";

// The cells of a hop, in the columns of the CSV header; the table adds the note.
QList<QByteArray> cellsOf(const OriginHop &hop, qsizetype step)
{
    const auto optionalNumber
        = [](const auto &value) { return value ? QByteArray::number(qulonglong(value->value)) : QByteArray(); };
    QByteArray place = hop.address ? hexBytes(hop.address->value) : hop.registerName.toLatin1();
    return {
        QByteArray::number(step),
        hop.parent < 0 ? QByteArray() : QByteArray::number(hop.parent),
        hopKindName(hop.kind),
        hop.rowId ? QByteArray::number(hop.rowId->value) : QByteArray(),
        optionalNumber(hop.transition),
        hop.pc ? hexBytes(hop.pc->value) : QByteArray(),
        hop.function.toUtf8(),
        hop.source.toUtf8(),
        place,
        hop.size > 0 ? QByteArray::number(hop.size) : QByteArray(),
        hop.value.toHex(),
        confidenceName(hop.confidence),
    };
}

void appendCsv(QByteArray *out, const OriginTree &tree)
{
    *out += header + '\n';
    for (qsizetype i = 0; i < tree.hops.size(); ++i) {
        const QList<QByteArray> cells = cellsOf(tree.hops[i], i);
        for (qsizetype c = 0; c < cells.size(); ++c) {
            if (c > 0)
                *out += ',';
            *out += csv::quoteField(cells[c]);
        }
        *out += '\n';
    }
}

// The table indents each kind by its depth, so that the tree shows; the note (the instruction, the
// system call, why the walk stops) closes each line.
void appendTable(QByteArray *out, const OriginTree &tree)
{
    QList<QList<QByteArray>> rows;
    QList<QByteArray> titles = header.split(',');
    titles << "note";
    rows << titles;
    for (qsizetype i = 0; i < tree.hops.size(); ++i) {
        const OriginHop &hop = tree.hops[i];
        QList<QByteArray> cells = cellsOf(hop, i);
        cells[2] = QByteArray(2 * std::min(hop.depth, 20), ' ') + cells[2];
        cells << hop.note.toUtf8();
        rows << cells;
    }
    appendAlignedRows(
        out, rows, { true, true, false, true, true, false, false, false, false, true, false, false, false });
    *out += "-- " + QByteArray::number(tree.hops.size()) + (tree.hops.size() == 1 ? " hop" : " hops") + '\n';
}

} // namespace

int runOrigin(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption rowOption(
        QStringLiteral("row"), QStringLiteral("The access to explain (its rowid)."), QStringLiteral("R"));
    const QCommandLineOption depthOption(QStringLiteral("depth"),
        QStringLiteral("Hops below the access, at most (default 16)."), QStringLiteral("N"),
        QString::number(defaultDepth));
    const QCommandLineOption forwardOption(
        QStringLiteral("forward"), QStringLiteral("Where the bytes went, instead of where they came from."));
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Output format (default table)."),
        QStringLiteral("csv|table"), QStringLiteral("table"));
    parser.addOptions({ rowOption, depthOption, forwardOption, formatOption });
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;
    OutputFormat format = OutputFormat::Table;
    if (!parseOutputFormat(parser.value(formatOption), &format))
        return usageError(help.name,
            QStringLiteral("--format: '%1' is not an output format (csv or table)").arg(parser.value(formatOption)));
    if (!parser.isSet(rowOption))
        return usageError(help.name, QStringLiteral("missing --row (origin needs --row R, a rowid)"));
    QString error;
    std::uint64_t row = 0;
    if (!parseNumberOption(QStringLiteral("row"), parser.value(rowOption), &row, &error))
        return usageError(help.name, error);
    if (row == 0 || row >= signBoundary)
        return usageError(
            help.name, QStringLiteral("--row: '%1' is not a rowid (rowids start at 1)").arg(parser.value(rowOption)));
    std::uint64_t depth = 0;
    if (!parseNumberOption(QStringLiteral("depth"), parser.value(depthOption), &depth, &error))
        return usageError(help.name, error);
    if (depth < 1 || depth > std::uint64_t(maxDepth))
        return usageError(help.name,
            QStringLiteral("--depth: '%1' is not between 1 and %2").arg(parser.value(depthOption)).arg(maxDepth));

    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;
    OriginFinder finder(*database);
    if (!finder.hasCode())
        writeErr(QStringLiteral("memhist origin: %1: no code trace (the instruction of each transition), so only "
                                "memory hops are followed, not registers\n")
                     .arg(database->path()));
    if (!finder.hasValues())
        writeErr(QStringLiteral("memhist origin: %1: no values (the bytes of each access), so no hop can be "
                                "checked: all are unchecked\n")
                     .arg(database->path()));
    OriginRequest request;
    request.row = RowId { std::int64_t(row) };
    request.depth = int(depth);
    request.direction = parser.isSet(forwardOption) ? Direction::Forward : Direction::Backward;
    OriginTree tree;
    if (!finder.find(request, &tree, &error))
        return inputError(QStringLiteral("memhist origin: %1: %2").arg(database->path(), error));
    if (tree.truncated)
        writeErr(QStringLiteral("memhist origin: stopped at %1 hops; ask with a smaller --depth, or from a hop of "
                                "this tree\n")
                     .arg(request.maxHops));
    QByteArray out;
    if (format == OutputFormat::Csv)
        appendCsv(&out, tree);
    else
        appendTable(&out, tree);
    writeOut(out);
    return ExitSuccess;
}

} // namespace memhist::cli
