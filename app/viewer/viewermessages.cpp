// SPDX-License-Identifier: MIT
#include "viewermessages.h"

#include "historyinfo.h"

#include <QCoreApplication>
#include <QDir>

namespace memhist::viewer {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::viewer::ViewerMessages", text);
}

} // namespace

QString notAHistoryMessage(const QString &path)
{
    return tr("%1 is not a memhist history: it does not start with the SQLite header that every history has.")
        .arg(QDir::toNativeSeparators(path));
}

QString openHistoryMessage(const QString &path, const QString &error)
{
    // What SQLite and the header check say of a file whose header is a history's but whose pages
    // are cut or overwritten: "truncated: the header says …", "not a SQLite database (…)",
    // "database disk image is malformed", "malformed database schema …".
    const bool damaged = error.contains(QLatin1String("truncated: "))
        || error.contains(QLatin1String("not a SQLite database")) || error.contains(QLatin1String("malformed"));
    if (!damaged || !isSqliteDatabase(path))
        return error;
    QString reason = error;
    if (reason.startsWith(path + QStringLiteral(": ")))
        reason.remove(0, path.size() + 2);
    return tr("%1 is a damaged or truncated history (%2). Run 'memhist check %1' to see what is wrong, then "
              "record or import it again.")
        .arg(QDir::toNativeSeparators(path), reason);
}

QString importMessage(const QString &error)
{
    const QLatin1String cliAdvice("; name one with --format)");
    if (!error.contains(cliAdvice))
        return error;
    QString message = error;
    message.replace(cliAdvice, QLatin1String(")"));
    return message
        + tr(". The viewer recognises a trace by its content, whatever its name: choose a whole trace in one of "
             "these formats, or a history (.memhist).");
}

} // namespace memhist::viewer
