// SPDX-License-Identifier: MIT
#include "historyinfo.h"

#include "core/model/numbertext.h"
#include "core/storage/historysources.h"
#include "core/storage/schema.h"
#include "core/storage/threadspans.h"

#include <QFile>
#include <QFileInfo>

namespace memhist::viewer {

namespace {

QString plural(qint64 count, const char *singular, const char *pluralForm)
{
    return countText(quint64(count)) + u' ' + QLatin1String(count == 1 ? singular : pluralForm);
}

// memhist record's meta key for the valgrind command line it ran: only recordings have it.
constexpr const char *recordedWithMeta = "recorded with";

// The first word of a command line shell-quoted as memhist record writes it (plain, or in single
// quotes with '\'' for a quote), and where the rest starts.
QString firstShellWord(const QString &command, qsizetype *rest)
{
    QString word;
    qsizetype i = 0;
    while (i < command.size() && command.at(i) != u' ') {
        if (command.at(i) == u'\'') {
            const qsizetype close = command.indexOf(u'\'', i + 1);
            const qsizetype end = close < 0 ? command.size() : close;
            word += command.mid(i + 1, end - i - 1);
            i = end + 1;
        } else if (command.at(i) == u'\\' && i + 1 < command.size()) {
            word += command.at(i + 1);
            i += 2;
        } else {
            word += command.at(i++);
        }
    }
    *rest = i;
    return word;
}

} // namespace

QString sourceLabel(const SourceDescription &source, bool recorded)
{
    if (recorded) {
        const QString command = source.path.trimmed();
        qsizetype rest = 0;
        const QString program = firstShellWord(command, &rest);
        const QString name = QFileInfo(program).fileName().isEmpty() ? program : QFileInfo(program).fileName();
        return name + command.mid(rest) + QStringLiteral(" (recorded)");
    }
    const QString name = QFileInfo(source.path).fileName();
    return source.format.isEmpty() ? name : name + QStringLiteral(" (") + source.format + u')';
}

bool readHistoryInfo(const QString &path, HistoryInfo *info, QString *error)
{
    const auto database = HistoryDatabase::open(path, error);
    if (!database)
        return false;
    info->path = path;
    info->summary = database->summary();
    // A recording's source is the command line it ran, not a trace: named after its program.
    const bool recorded = database->meta().contains(QLatin1String(recordedWithMeta));
    for (const SourceDescription &source :
        parseSourcesMeta(database->meta().value(QLatin1String(schema::meta::sources)))) {
        info->sources << sourceLabel(source, recorded);
        info->sourcePaths << source.path;
    }
    info->threads = ThreadSpans(*database).threadCount();
    return true;
}

QString describeHistory(const HistoryInfo &info)
{
    const HistorySummary &s = info.summary;
    QStringList parts;
    if (s.firstTransition) {
        parts << QStringLiteral("transitions %1..%2 (%3)")
                     .arg(countText(s.firstTransition->value), countText(s.lastTransition->value),
                         countText(s.lastTransition->value - s.firstTransition->value + 1));
    } else {
        parts << QStringLiteral("no transitions");
    }
    QStringList kinds { plural(s.reads, "read", "reads"), plural(s.writes, "write", "writes") };
    if (s.executes > 0)
        kinds << plural(s.executes, "execute", "executes");
    parts << plural(s.accesses, "access", "accesses") + QStringLiteral(" (") + kinds.join(QStringLiteral(", ")) + u')';
    parts << plural(s.slices, "slice", "slices");
    parts << plural(s.chunks, "chunk", "chunks");
    if (!info.sources.isEmpty())
        parts << QStringLiteral("source ") + info.sources.join(QStringLiteral(", "));
    parts << (info.threads ? plural(*info.threads, "thread", "threads") : QStringLiteral("threads not recorded"));
    return parts.join(QStringLiteral(" · "));
}

bool isSqliteDatabase(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return file.read(16) == QByteArrayView("SQLite format 3\0", 16);
}

} // namespace memhist::viewer
