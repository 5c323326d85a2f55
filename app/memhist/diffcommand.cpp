// SPDX-License-Identifier: MIT
// memhist diff A.memhist B.memhist [--format table|csv] [--limit N]: where two runs of one program
// part and what each did to memory differently (core/diff/rundiff.h). Exits 0 when the runs do
// not differ, 1 when they do (as diff(1)), 2 on a usage error or a history that cannot be read.
#include "commandline.h"
#include "commands.h"
#include "core/csv/csvaccessformat.h"
#include "core/diff/diffprogram.h"
#include "core/diff/learnbaseline.h"
#include "core/diff/rundiff.h"
#include "core/model/numbertext.h"
#include "historyargument.h"
#include "pageprinter.h"
#include "queryoptions.h"

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("diff"),
    QStringLiteral("A B [--baseline A2] [--format table|csv] [--limit N]"),
    QStringLiteral("Compare two runs of one program (histories A and B) and list where they differ, in order of A's\n"
                   "time: control hunks (where the code traces part, at which branch, and where they meet again: the\n"
                   "first common PC at the same call depth within 1,048,576 instructions of each run), memory hunks\n"
                   "(the first access of an aligned stretch whose value or normalised address differs) and objects\n"
                   "(a global, a heap cell, a stack word) whose writes differ: the counts, the first differing write\n"
                   "and the final values. Addresses are normalised so that layout differences are not reported (see\n"
                   "docs/diff.md). Histories without a code trace are compared by transition, memory only.\n"
                   "--baseline A2 (a second run of A's input) leaves out what differs between A and A2 too: the\n"
                   "nondeterminism of every run (stack canary, pointer guard, rdtsc timings, thread ids). --limit\n"
                   "bounds the entries listed (default 100); all are counted. Exit status: 0 when the runs do not\n"
                   "differ, 1 when they do, 2 on an error."),
};

constexpr std::uint64_t defaultLimit = 100;

const QByteArray header = "kind,a_transition,a_last,b_transition,b_last,a_rowid,b_rowid,a_pc,b_pc,a_function,"
                          "b_function,a_source,b_source,a_operation,b_operation,a_address,b_address,a_object,"
                          "b_object,a_value,b_value,a_final,b_final,a_count,b_count,rank,branch_pc,"
                          "branch_function,branch_source,resync_pc,resync_function,resync_source";

enum Column {
    Kind,
    ATransition,
    ALast,
    BTransition,
    BLast,
    ARowid,
    BRowid,
    APc,
    BPc,
    AFunction,
    BFunction,
    ASource,
    BSource,
    AOperation,
    BOperation,
    AAddress,
    BAddress,
    AObject,
    BObject,
    AValue,
    BValue,
    AFinal,
    BFinal,
    ACount,
    BCount,
    Rank,
    BranchPc,
    BranchFunction,
    BranchSource,
    ResyncPc,
    ResyncFunction,
    ResyncSource,
    ColumnCount,
};

QByteArray number(std::uint64_t value)
{
    return QByteArray::number(qulonglong(value));
}

QByteArray operationName(Operation operation)
{
    return operation == Operation::Write ? "W" : operation == Operation::Read ? "R" : "X";
}

void putPlace(QList<QByteArray> &cells, const std::optional<DiffPlace> &place, int pc, int function, int source)
{
    if (!place)
        return;
    cells[pc] = place->pc.value ? hexBytes(place->pc.value) : QByteArray();
    cells[function] = place->function.toUtf8();
    cells[source] = place->source.toUtf8();
}

// Side 0 fills the a_ columns, side 1 the b_ columns (each b_ column follows its a_ column).
void putAccess(QList<QByteArray> &cells, const std::optional<DiffAccess> &access, int side, bool withObject)
{
    if (!access)
        return;
    cells[ATransition + 2 * side] = number(access->transition.value);
    cells[ARowid + side] = QByteArray::number(access->rowId.value);
    cells[APc + side] = access->pc.value ? hexBytes(access->pc.value) : QByteArray();
    cells[AFunction + side] = access->function.toUtf8();
    cells[ASource + side] = access->source.toUtf8();
    cells[AOperation + side] = operationName(access->operation);
    cells[AAddress + side] = hexBytes(access->address.value);
    if (withObject)
        cells[AObject + side] = access->object.toUtf8();
    cells[AValue + side] = access->value.toHex();
}

QList<QByteArray> cellsOf(const DiffEntry &entry)
{
    QList<QByteArray> cells(ColumnCount);
    switch (entry.kind) {
    case DiffEntry::Kind::Control: {
        const ControlHunk &hunk = entry.control;
        cells[Kind] = "control";
        if (hunk.aCount > 0) {
            cells[ATransition] = number(hunk.aFirst.value);
            cells[ALast] = number(hunk.aFirst.value + hunk.aCount - 1);
        }
        if (hunk.bCount > 0) {
            cells[BTransition] = number(hunk.bFirst.value);
            cells[BLast] = number(hunk.bFirst.value + hunk.bCount - 1);
        }
        putPlace(cells, hunk.aStart, APc, AFunction, ASource);
        putPlace(cells, hunk.bStart, BPc, BFunction, BSource);
        cells[ACount] = number(hunk.aCount);
        cells[BCount] = number(hunk.bCount);
        putPlace(cells, hunk.branch, BranchPc, BranchFunction, BranchSource);
        putPlace(cells, hunk.aResync, ResyncPc, ResyncFunction, ResyncSource);
        break;
    }
    case DiffEntry::Kind::Memory:
        cells[Kind] = "memory";
        putAccess(cells, entry.memory.a, 0, true);
        putAccess(cells, entry.memory.b, 1, true);
        cells[ACount] = number(entry.memory.differingAccesses);
        break;
    case DiffEntry::Kind::Object: {
        const ObjectDifference &object = entry.object;
        cells[Kind] = "object";
        putAccess(cells, object.aFirstDiffering, 0, false);
        putAccess(cells, object.bFirstDiffering, 1, false);
        cells[AObject] = cells[BObject] = object.object.toUtf8();
        if (object.aLast) {
            cells[ALast] = number(object.aLast->transition.value);
            cells[AFinal] = object.aLast->value.toHex();
        }
        if (object.bLast) {
            cells[BLast] = number(object.bLast->transition.value);
            cells[BFinal] = object.bLast->value.toHex();
        }
        cells[ACount] = number(object.aWrites);
        cells[BCount] = number(object.bWrites);
        if (object.firstDifferingWrite > 0)
            cells[Rank] = number(object.firstDifferingWrite);
        break;
    }
    }
    return cells;
}

void appendCsv(QByteArray *out, const DiffResult &result)
{
    *out += header + '\n';
    for (const DiffEntry &entry : result.entries) {
        const QList<QByteArray> cells = cellsOf(entry);
        for (qsizetype c = 0; c < cells.size(); ++c) {
            if (c > 0)
                *out += ',';
            *out += csv::quoteField(cells[c]);
        }
        *out += '\n';
    }
}

// "choose+0x14 (prog.c:10)", "0x109155", "unknown".
QByteArray placeText(const std::optional<DiffPlace> &place)
{
    if (!place)
        return "unknown";
    QByteArray text = place->function.isEmpty() ? hexBytes(place->pc.value) : place->function.toUtf8();
    if (!place->source.isEmpty())
        text += " (" + place->source.toUtf8() + ')';
    return text;
}

QByteArray stretchText(Transition first, std::uint64_t count)
{
    if (count == 0)
        return "nothing";
    return number(first.value) + ".." + number(first.value + count - 1) + " (" + number(count)
        + (count == 1 ? " instruction)" : " instructions)");
}

QByteArray accessText(const std::optional<DiffAccess> &access)
{
    if (!access)
        return "no such access";
    QByteArray text = "rowid " + QByteArray::number(access->rowId.value) + " transition "
        + number(access->transition.value) + ' ' + operationName(access->operation) + ' '
        + hexBytes(access->address.value);
    if (!access->object.isEmpty())
        text += ' ' + access->object.toUtf8();
    text += " = " + (access->value.isEmpty() ? QByteArray("?") : access->value.toHex());
    text += " by " + placeText(DiffPlace { access->transition, access->pc, access->function, access->source });
    return text;
}

void appendTable(QByteArray *out, const DiffResult &result)
{
    for (const DiffEntry &entry : result.entries) {
        switch (entry.kind) {
        case DiffEntry::Kind::Control: {
            const ControlHunk &hunk = entry.control;
            *out += "control  A " + stretchText(hunk.aFirst, hunk.aCount) + ", B "
                + stretchText(hunk.bFirst, hunk.bCount) + '\n';
            if (hunk.branch)
                *out += "  parted after " + placeText(hunk.branch) + '\n';
            if (hunk.aStart)
                *out += "  A runs       " + placeText(hunk.aStart) + '\n';
            if (hunk.bStart)
                *out += "  B runs       " + placeText(hunk.bStart) + '\n';
            if (hunk.aResync)
                *out += "  meet again   " + placeText(hunk.aResync) + " at A " + number(hunk.aResync->transition.value)
                    + ", B " + number(hunk.bResync ? hunk.bResync->transition.value : 0) + '\n';
            else if (!hunk.resyncFound && hunk.aCount > 0 && hunk.bCount > 0)
                *out += "  not met again within the window: the runs are not aligned after this\n";
            break;
        }
        case DiffEntry::Kind::Memory:
            *out += "memory   " + number(entry.memory.differingAccesses)
                + (entry.memory.differingAccesses == 1 ? " access differs" : " accesses differ")
                + " in this aligned stretch; the first:\n";
            *out += "  A " + accessText(entry.memory.a) + '\n';
            *out += "  B " + accessText(entry.memory.b) + '\n';
            break;
        case DiffEntry::Kind::Object: {
            const ObjectDifference &object = entry.object;
            *out += "object   " + object.object.toUtf8() + ": A " + number(object.aWrites) + " writes, B "
                + number(object.bWrites) + " writes\n";
            if (object.firstDifferingWrite > 0) {
                *out += "  write " + number(object.firstDifferingWrite) + " differs first\n";
                *out += "  A " + (object.aFirstDiffering ? accessText(object.aFirstDiffering) : "none") + '\n';
                *out += "  B " + (object.bFirstDiffering ? accessText(object.bFirstDiffering) : "none") + '\n';
            } else {
                *out += "  the first differing write is not known (the runs wrote it too far apart)\n";
            }
            *out += "  final A " + (object.aLast ? object.aLast->value.toHex() : QByteArray("none")) + ", B "
                + (object.bLast ? object.bLast->value.toHex() : QByteArray("none")) + '\n';
            break;
        }
        }
    }
    const auto plural = [](std::uint64_t n, const char *one, const char *many) -> QByteArray {
        return number(n) + ' ' + (n == 1 ? one : many);
    };
    *out += "-- " + plural(result.controlHunks, "control hunk", "control hunks") + ", "
        + plural(result.memoryHunks, "memory hunk", "memory hunks") + ", "
        + plural(result.objects, "object differs", "objects differ") + "; "
        + plural(result.alignedInstructions, "instruction aligned", "instructions aligned") + " (A ran "
        + number(result.aInstructions) + ", B " + number(result.bInstructions) + ')';
    const std::uint64_t found = result.controlHunks + result.memoryHunks + result.objects;
    if (found > std::uint64_t(result.entries.size()))
        *out += "; " + number(result.entries.size()) + " listed (--limit)";
    if (result.ignored > 0)
        *out += "; " + number(result.ignored) + " left out (the baseline has them too)";
    *out += '\n';
}

} // namespace

int runDiff(const QStringList &arguments)
{
    QCommandLineParser parser;
    const QCommandLineOption formatOption(QStringLiteral("format"), QStringLiteral("Output format (default table)."),
        QStringLiteral("csv|table"), QStringLiteral("table"));
    const QCommandLineOption limitOption(QStringLiteral("limit"),
        QStringLiteral("Entries listed, at most (default 100)."), QStringLiteral("N"), QString::number(defaultLimit));
    const QCommandLineOption baselineOption(QStringLiteral("baseline"),
        QStringLiteral("A second run of A's input: what differs between A and it is left out."), QStringLiteral("A2"));
    parser.addOptions({ formatOption, limitOption, baselineOption });
    const PositionalArgument second { QStringLiteral("B"), QStringLiteral("The history to compare with DB (A)."),
        QStringLiteral("second history (B)") };
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional, { second }))
        return *status;
    OutputFormat format = OutputFormat::Table;
    if (!parseOutputFormat(parser.value(formatOption), &format))
        return usageError(help.name,
            QStringLiteral("--format: '%1' is not an output format (csv or table)").arg(parser.value(formatOption)));
    QString error;
    std::uint64_t limit = 0;
    if (!parseNumberOption(QStringLiteral("limit"), parser.value(limitOption), &limit, &error))
        return usageError(help.name, error);
    if (limit < 1 || limit > 1000000)
        return usageError(
            help.name, QStringLiteral("--limit: '%1' is not between 1 and 1000000").arg(parser.value(limitOption)));

    // DESIGN.md §3: diff's 1 means "the runs differ", so a history that cannot be read is a 2.
    const auto a = openDatabaseArgument(positional[0]);
    if (!a)
        return ExitUsage;
    const auto b = openDatabaseArgument(positional[1]);
    if (!b)
        return ExitUsage;
    if (const auto mismatch = programMismatch(a->path(), recordedProgram(*a), b->path(), recordedProgram(*b))) {
        writeErr(QStringLiteral("memhist diff: %1\n").arg(*mismatch));
        return ExitUsage;
    }
    DiffOptions options;
    options.limit = std::size_t(limit);
    // A comparison of A with `other` that could not read a history.
    const auto failed = [&a, &error](const HistoryDatabase &other) {
        writeErr(QStringLiteral("memhist diff: %1 / %2: %3\n").arg(a->path(), other.path(), error));
        return ExitUsage;
    };
    DiffResult result;
    DiffNoise noise;
    if (parser.isSet(baselineOption)) {
        const auto baseline = openDatabaseArgument(parser.value(baselineOption));
        if (!baseline)
            return ExitUsage;
        if (const auto mismatch
            = programMismatch(a->path(), recordedProgram(*a), baseline->path(), recordedProgram(*baseline))) {
            writeErr(QStringLiteral("memhist diff: --baseline: %1\n").arg(*mismatch));
            return ExitUsage;
        }
        if (!learnBaseline(*a, *baseline, options, &noise, &error))
            return failed(*baseline);
        options.ignore = &noise;
    }
    if (!diffRuns(*a, *b, options, &result, &error))
        return failed(*b);
    for (const QString &note : result.notes)
        writeErr(QStringLiteral("memhist diff: %1\n").arg(note));
    QByteArray out;
    if (format == OutputFormat::Csv)
        appendCsv(&out, result);
    else
        appendTable(&out, result);
    writeOut(out);
    return result.differ() ? ExitFailure : ExitSuccess;
}

} // namespace memhist::cli
