// SPDX-License-Identifier: MIT
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

// Whether both paths name one existing file, whatever path, symbolic or hard link names it.
bool sameFile(const QString &a, const QString &b);
// The first of `inputs` that writing `output` would replace (sameFile()). Nothing when `output`
// does not exist yet.
std::optional<QString> inputReplacedBy(const QString &output, const QStringList &inputs);

// Qt's parser messages read "Unknown option 'x'."; ours read "unknown option 'x'".
QString parserMessage(const QString &qtMessage);

// Writes to standard output; a failure is remembered for finishOutput().
void writeOut(QByteArrayView text);
void writeErr(const QString &text);
// Flushes standard output. When a write to it failed, says so on stderr (naming the command and
// the system's reason) and turns a success `status` into ExitFailure; otherwise returns `status`.
int finishOutput(const QString &command, int status);

} // namespace memhist::cli
