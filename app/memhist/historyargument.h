// SPDX-License-Identifier: MIT
// The database argument (DB) that every command reading a history takes first: declaring it,
// checking the positional arguments around it and opening it, with the messages and exit statuses
// of DESIGN.md §3, the same for every command.
#pragma once

#include "commandline.h"
#include "core/storage/historydatabase.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace memhist::cli {

// A positional argument after DB.
struct PositionalArgument
{
    QString name; // "T"
    QString description; // for --help
    QString missing; // "transition argument (T)", as in "missing the transition argument (T)"
};

// Adds the database argument and then `following` to `parser`, parses `arguments` as
// parseCommandLine() does, and checks that the positional arguments are DB followed by one for
// each of `following`, no fewer and no more; *positional holds them. Returns the status to exit
// with when the command should not go on: --help, a parse error, or a usage error ("missing the
// database argument (DB)", "missing the transition argument (T)", "unexpected argument 'x'").
std::optional<int> parseDatabaseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
    const CommandHelp &help, QStringList *positional, const QList<PositionalArgument> &following = {});

// Opens the history at `path` (the database argument) for reading. When it cannot be opened,
// prints why (the message names the file) on stderr and returns null: the command then exits with
// ExitFailure.
std::unique_ptr<HistoryDatabase> openDatabaseArgument(const QString &path);

} // namespace memhist::cli
