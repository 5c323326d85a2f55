#include "historyinfo.h"

#include "core/storage/historysources.h"
#include "core/storage/schema.h"
#include "core/storage/threadspans.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>

namespace memhist::viewer {

namespace {

QString plural(qint64 count, const char *singular, const char *pluralForm)
{
    return formatCount(count) + u' ' + QLatin1String(count == 1 ? singular : pluralForm);
}

} // namespace

QString formatCount(qint64 value)
{
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return english.toString(value);
}

bool readHistoryInfo(const QString &path, HistoryInfo *info, QString *error)
{
    const auto database = HistoryDatabase::open(path, error);
    if (!database)
        return false;
    info->path = path;
    info->summary = database->summary();
    for (const SourceDescription &source :
        parseSourcesMeta(database->meta().value(QLatin1String(schema::meta::sources)))) {
        const QString name = QFileInfo(source.path).fileName();
        info->sources << (source.format.isEmpty() ? name : name + QStringLiteral(" (") + source.format + u')');
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
                     .arg(formatCount(qint64(s.firstTransition->value)), formatCount(qint64(s.lastTransition->value)),
                         formatCount(qint64(s.lastTransition->value - s.firstTransition->value + 1)));
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
