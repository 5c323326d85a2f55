// SPDX-License-Identifier: MIT
// memhist check DB
#include "commandline.h"
#include "commands.h"
#include "core/checker/historychecker.h"
#include "historyargument.h"

#include <QCommandLineParser>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("check"),
    QStringLiteral("DB"),
    QStringLiteral("Prove that the database passes SQLite's integrity check and keeps every property of the\n"
                   "storage model (slices do not overlap, chunks cover their range, ...). Exit status 0 when it\n"
                   "does, 1 otherwise: the first violation, then each property broken with its count."),
};

} // namespace

int runCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;

    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;

    const CheckReport report = HistoryChecker(*database).run();
    if (!report.ok) {
        QString message = QStringLiteral("FAILED: ") + report.violation;
        // Every check ran: what else is broken, so that one run shows the whole extent of the damage.
        for (const PropertyViolations &broken : report.violations) {
            message += QStringLiteral("\n  [%1]: %2").arg(broken.property, QString::number(broken.count));
            message += broken.count == 1 ? QStringLiteral(" violation") : QStringLiteral(" violations");
            if (broken.first != report.violation)
                message += QStringLiteral(", the first: ") + broken.first;
        }
        return inputError(message);
    }
    QString text = QStringLiteral("OK: %1 slices, %2 chunks, %3 accesses; every property holds\n")
                       .arg(report.slices)
                       .arg(report.chunks)
                       .arg(report.accesses);
    for (const QString &note : report.notes)
        text += QStringLiteral("note: ") + note + u'\n';
    writeOut(text.toLocal8Bit());
    return ExitSuccess;
}

} // namespace memhist::cli
