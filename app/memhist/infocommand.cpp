// memhist info DB
#include "commandline.h"
#include "commands.h"
#include "storage/historydatabase.h"
#include "storage/schema.h"
#include "storage/threadspans.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QLocale>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("info"),
    QStringLiteral("DB"),
    QStringLiteral("Describe a memhist database: where it came from, its time span, its counts and its size.\n"
                   "Works on databases of other writers too (without a meta table, counts are computed)."),
};

QString metaValue(const HistoryDatabase &database, const char *key)
{
    if (!database.hasMeta())
        return QStringLiteral("unknown (no meta table)");
    const QString value = database.meta().value(QLatin1String(key));
    return value.isEmpty() ? QStringLiteral("unknown") : value;
}

// The same rule as HistoryDatabase::summary(): the four access counts come from meta only together.
bool countsFromMeta(const HistoryDatabase &database)
{
    for (const char *key :
        { schema::meta::accesses, schema::meta::reads, schema::meta::writes, schema::meta::executes }) {
        bool ok = false;
        database.meta().value(QLatin1String(key)).toLongLong(&ok);
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

int runInfo(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("DB"), QStringLiteral("The memhist database."));
    if (const auto status = parseCommandLine(parser, arguments, help))
        return *status;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(help.name, QStringLiteral("missing the database argument (DB)"));
    if (positional.size() > 1)
        return usageError(help.name, QStringLiteral("unexpected argument '%1'").arg(positional[1]));

    QString error;
    const auto database = HistoryDatabase::open(positional[0], &error);
    if (!database)
        return inputError(error);
    const HistorySummary &summary = database->summary();

    QString writer = metaValue(*database, schema::meta::writer);
    const QString writerVersion = database->meta().value(QLatin1String(schema::meta::writerVersion));
    if (!writerVersion.isEmpty())
        writer += u' ' + writerVersion;

    QStringList sources;
    const QString sourcesText = database->meta().value(QLatin1String(schema::meta::sources));
    for (const QString &line : sourcesText.split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype tab = line.indexOf(u'\t');
        sources << (tab < 0 ? line : line.mid(tab + 1) + QStringLiteral(" (") + line.left(tab) + u')');
    }
    if (sources.isEmpty())
        sources << metaValue(*database, schema::meta::sources);

    const QString transitions = summary.firstTransition
        ? QStringLiteral("%1..%2").arg(summary.firstTransition->value).arg(summary.lastTransition->value)
        : QStringLiteral("none (no accesses)");
    const QString bytesPerAccess = summary.accesses > 0
        ? QString::number(double(summary.fileBytes) / double(summary.accesses), 'f', 1)
        : QStringLiteral("n/a (no accesses)");
    QString counts;
    if (countsFromMeta(*database))
        counts = QStringLiteral("from the meta table");
    else if (database->hasMeta())
        counts = QStringLiteral("computed (the meta table has no counts)");
    else
        counts = QStringLiteral("computed (no meta table)");

    const auto row = [](const char *label, const QString &value) {
        return QStringLiteral("%1 %2\n").arg(QLatin1String(label) + u':', -17).arg(value);
    };
    QString text;
    text += row("path", QFileInfo(database->path()).absoluteFilePath());
    text += row("file size",
        QStringLiteral("%1 bytes (%2)").arg(summary.fileBytes).arg(QLocale::c().formattedDataSize(summary.fileBytes)));
    text += row("format version", metaValue(*database, schema::meta::formatVersion));
    text += row("writer", writer);
    text += row("created", metaValue(*database, schema::meta::createdAt));
    text += row("sources", sources.join(u'\n' + QString(18, u' ')));
    text += row("transitions", transitions);
    text += row("accesses",
        QStringLiteral("%1 (reads %2, writes %3, executes %4)")
            .arg(summary.accesses)
            .arg(summary.reads)
            .arg(summary.writes)
            .arg(summary.executes));
    text += row("slices", QString::number(summary.slices));
    text += row("chunks", QString::number(summary.chunks));
    text += row("bytes per access", bytesPerAccess);
    text += row("counts", counts);
    // Traces that know their threads (drmemtrace) record which thread ran which transitions.
    const ThreadSpans threadSpans(*database);
    if (threadSpans.available()) {
        const QList<ThreadSummary> threads = threadSpans.threads();
        text += row("threads", QStringLiteral("%1 (thread id: times scheduled, transitions run)").arg(threads.size()));
        for (const ThreadSummary &thread : threads) {
            text += QString(18, u' ')
                + QStringLiteral("%1: %2 spans, %3 transitions (%4..%5)\n")
                      .arg(thread.threadId)
                      .arg(thread.spans)
                      .arg(thread.transitions)
                      .arg(thread.first.value)
                      .arg(thread.last.value);
        }
    }
    writeOut(text.toLocal8Bit());
    return ExitSuccess;
}

} // namespace memhist::cli
