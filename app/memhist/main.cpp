// SPDX-License-Identifier: MIT
// memhist: the command line of DESIGN.md §3. Dispatches to one function per command.
#include "commandline.h"
#include "commands.h"

#include <QCoreApplication>

namespace {

using namespace memhist::cli;

struct Command
{
    const char *name;
    int (*run)(const QStringList &arguments);
    const char *synopsis;
};

const Command commands[] = {
    { "import", runImport,
        "import TRACE... -o OUT.memhist [--format auto|csv|lackey|drmemtrace|tenet|memhist-stream] [--with-exec]\n"
        "                [--skip-instructions N] [--max-instructions M] [--maps FILE]" },
    { "record", runRecord,
        "record -o OUT.memhist [--backend tool|lackey] [--skip-instructions N] [--max-instructions M]\n"
        "                [--start-at FUNCTION] [--keep-stream FILE | --keep-log FILE] [--with-exec] -- PROGRAM "
        "[ARGS...]" },
    { "query", runQuery,
        "query DB [--at T] [--backward] [--from A] [--to B] [--ops r|w|x|rw|rwx]\n"
        "                [--limit N] [--resume ROWID] [--thread N]... [--format csv|table] [--context]\n"
        "                [--batch FILE]\n"
        "  memhist query DB --pc ADDR | --function NAME [--at T] [--backward] [--limit N] [--resume T]\n"
        "                [--format csv|table]" },
    { "export", runExport,
        "export DB -o OUT.csv [the query options; without --limit, every match] [--thread-column]\n"
        "                [--context]" },
    { "check", runCheck, "check DB" },
    { "info", runInfo, "info DB" },
    { "at", runAt, "at DB T" },
    { "memory", runMemory, "memory DB --at T --from A --to B [--format hex|csv] | DB --batch FILE [--format hex|csv]" },
    { "search", runSearch,
        "search DB (--value HEX | --int N --size 1|2|4|8 | --unexplained) [the query options]\n"
        "                [--format csv|table] [--context]" },
    { "origin", runOrigin, "origin DB --row R [--depth N] [--forward] [--format table|csv]" },
    { "diff", runDiff, "diff A B [--baseline A2] [--format table|csv] [--limit N]" },
};

QByteArray usage()
{
    QByteArray text = "Usage:\n";
    for (const Command &command : commands)
        text += QByteArray("  memhist ") + command.synopsis + '\n';
    text += "  memhist COMMAND --help\n"
            "  memhist --version\n"
            "\n"
            "Stores the memory accesses of a program run in an indexed SQLite database (.memhist) and\n"
            "answers half-axis queries over it: the first N accesses from transition T, forward or\n"
            "backward in time, whose bytes overlap [A, B]. Numbers are decimal or 0x hex.\n"
            "Exit status: 0 success, 1 failed check or bad input, 2 usage error.\n";
    return text;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("memhist"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MEMHIST_VERSION));

    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 2) {
        writeErr(QStringLiteral("memhist: missing the command\n") + QString::fromLatin1(usage()));
        return ExitUsage;
    }
    const QString first = arguments[1];
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        writeOut(usage());
        return finishOutput({}, ExitSuccess);
    }
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        writeOut(QByteArrayLiteral("memhist " MEMHIST_VERSION "\n"));
        return finishOutput({}, ExitSuccess);
    }
    for (const Command &command : commands) {
        if (first == QLatin1String(command.name))
            return finishOutput(QLatin1String(command.name), command.run(arguments.mid(1)));
    }
    writeErr(
        QStringLiteral("memhist: unknown command '%1'\nTry 'memhist --help' for the list of commands.\n").arg(first));
    return ExitUsage;
}
