// SPDX-License-Identifier: MIT
#include "historyargument.h"

namespace memhist::cli {

std::optional<int> parseDatabaseCommandLine(QCommandLineParser &parser, const QStringList &arguments,
    const CommandHelp &help, QStringList *positional, const QList<PositionalArgument> &following)
{
    parser.addPositionalArgument(QStringLiteral("DB"), QStringLiteral("The memhist database."));
    for (const PositionalArgument &argument : following)
        parser.addPositionalArgument(argument.name, argument.description);
    if (const auto status = parseCommandLine(parser, arguments, help))
        return status;
    *positional = parser.positionalArguments();
    if (positional->isEmpty())
        return usageError(help.name, QStringLiteral("missing the database argument (DB)"));
    for (qsizetype i = 0; i < following.size(); ++i) {
        if (positional->size() < 2 + i)
            return usageError(help.name, QStringLiteral("missing the ") + following[i].missing);
    }
    const qsizetype expected = 1 + following.size();
    if (positional->size() > expected)
        return usageError(help.name, QStringLiteral("unexpected argument '%1'").arg(positional->at(expected)));
    return std::nullopt;
}

std::unique_ptr<HistoryDatabase> openDatabaseArgument(const QString &path)
{
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    if (!database)
        inputError(error);
    return database;
}

} // namespace memhist::cli
