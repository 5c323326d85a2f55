// What every command shares: parsing its arguments with QCommandLineParser, --help, and reporting
// errors with the exit statuses of DESIGN.md §3.
#pragma once

#include <QByteArrayView>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <optional>

namespace memhist::cli {

// DESIGN.md §3: 0 on success, 1 on a failed check or a bad input, 2 on a usage error.
enum ExitStatus {
    ExitSuccess = 0,
    ExitFailure = 1,
    ExitUsage = 2,
};

struct CommandHelp
{
    QString name; // "query"
    QString synopsis; // "DB [--at T] ...", shown after "memhist query"
    QString description;
};

// Adds -h/--help, parses `arguments` (the command name first) and handles what ends the command
// at once: --help (help on stdout, status 0) and parse errors (status 2). Returns nothing when the
// command should go on. QCommandLineParser::process() is not used: it exits with status 1.
std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &arguments, const CommandHelp &help);

// Prints "memhist COMMAND: MESSAGE" and a hint to --help on stderr; returns ExitUsage.
int usageError(const QString &command, const QString &message);
// Prints MESSAGE (which names the file, the place and the reason) on stderr; returns ExitFailure.
int inputError(const QString &message);

// Qt's parser messages read "Unknown option 'x'."; ours read "unknown option 'x'".
QString parserMessage(const QString &qtMessage);

void writeOut(QByteArrayView text);
void writeErr(const QString &text);

} // namespace memhist::cli
