// SPDX-License-Identifier: MIT
// memhist info DB
#include "commandline.h"
#include "commands.h"
#include "core/context/contextreader.h"
#include "core/context/contextsummarytext.h"
#include "core/model/numbertext.h"
#include "core/model/visibletext.h"
#include "core/storage/historysources.h"
#include "core/storage/schema.h"
#include "core/storage/threadspans.h"
#include "historyargument.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>
#include <QLocale>

namespace memhist::cli {

namespace {

const CommandHelp help {
    QStringLiteral("info"),
    QStringLiteral("DB"),
    QStringLiteral("Describe a memhist database: where it came from, its time span, its counts, its size, the\n"
                   "program context it holds (PCs, memory map, modules, symbols, lines, disassembly, values) and\n"
                   "its modules.\n"
                   "Works on databases of other writers too (without a meta table, counts are computed and the\n"
                   "reference writer's _metadata row is shown)."),
};

QString metaValue(const HistoryDatabase &database, const char *key)
{
    if (!database.hasMeta())
        return QStringLiteral("unknown (no meta table)");
    const QString value = database.meta().value(QLatin1String(key));
    return value.isEmpty() ? QStringLiteral("unknown") : visibleText(value);
}

struct Provenance
{
    QString formatVersion;
    QString writer;
    QString created;
};

Provenance provenance(const HistoryDatabase &database)
{
    Provenance result;
    const auto &reference = database.referenceMetadata();
    if (database.hasMeta() || !reference) {
        result.formatVersion = metaValue(database, schema::meta::formatVersion);
        result.writer = metaValue(database, schema::meta::writer);
        const QString writerVersion = visibleText(database.meta().value(QLatin1String(schema::meta::writerVersion)));
        if (!writerVersion.isEmpty())
            result.writer += u' ' + writerVersion;
        result.created = metaValue(database, schema::meta::createdAt);
        return result;
    }
    if (!reference->error.isEmpty()) {
        const QString unknown = QStringLiteral("unknown (no meta table; _metadata %1)").arg(reference->error);
        return { unknown, unknown, unknown };
    }
    const QString type = reference->type == QLatin1String("3")
        ? QStringLiteral("type 3, a memory history")
        : QStringLiteral("type %1, not a memory history (3)").arg(visibleText(reference->type));
    result.formatVersion = QStringLiteral("%1 (from _metadata: %2; metadata version %3)")
                               .arg(reference->formatVersion.isEmpty() ? QStringLiteral("unknown")
                                                                       : visibleText(reference->formatVersion),
                                   type, visibleText(reference->metadataVersion));
    QString writer = reference->toolName.isEmpty() ? QStringLiteral("unknown") : visibleText(reference->toolName);
    if (!reference->toolVersion.isEmpty())
        writer += u' ' + visibleText(reference->toolVersion);
    writer += QStringLiteral(" (from _metadata");
    if (!reference->toolInfo.isEmpty())
        writer += QStringLiteral("; tool info: ") + visibleText(reference->toolInfo);
    result.writer = writer + u')';
    result.created = reference->generationDate
        ? QDateTime::fromSecsSinceEpoch(*reference->generationDate, Qt::UTC).toString(Qt::ISODate)
            + QStringLiteral(" (from _metadata)")
        : QStringLiteral("unknown (no meta table; _metadata has no generation date)");
    return result;
}

// "15 (reads 8, writes 7, executes 0)", from the summary or from meta's texts.
QString accessCounts(const QString &accesses, const QString &reads, const QString &writes, const QString &executes)
{
    return QStringLiteral("%1 (reads %2, writes %3, executes %4)").arg(accesses, reads, writes, executes);
}

// Where the counts come from. Never "from the meta table" for a count that was computed: counts
// that the database contradicts are shown with the meta table's figure beside them.
QString countsSource(const HistoryDatabase &database, const HistorySummary &summary)
{
    if (!database.hasMeta())
        return QStringLiteral("computed (no meta table)");
    const auto disagrees = [&](std::initializer_list<const char *> keys) {
        for (const char *key : keys) {
            if (summary.ignoredMeta.contains(QLatin1String(key)))
                return true;
        }
        return false;
    };
    QStringList fromMeta;
    QStringList contradicted;
    QStringList missing;
    const auto sort = [&](const QString &name, bool metaUsed, bool metaContradicted) {
        (metaUsed ? fromMeta : metaContradicted ? contradicted : missing) << name;
    };
    sort(QStringLiteral("accesses"), summary.accessCountsFromMeta,
        disagrees({ schema::meta::accesses, schema::meta::reads, schema::meta::writes, schema::meta::executes }));
    sort(QStringLiteral("slices"), summary.slicesFromMeta, disagrees({ schema::meta::slices }));
    sort(QStringLiteral("chunks"), summary.chunksFromMeta, disagrees({ schema::meta::chunks }));
    if (missing.size() == 3)
        return QStringLiteral("computed (the meta table has no counts)");
    if (fromMeta.size() == 3)
        return QStringLiteral("from the meta table");
    QStringList parts;
    const auto names = [](const QStringList &list) { return list.join(QStringLiteral(", ")); };
    if (!fromMeta.isEmpty())
        parts << names(fromMeta) + QStringLiteral(" from the meta table");
    if (!contradicted.isEmpty())
        parts << names(contradicted) + QStringLiteral(" computed (the meta table disagrees: its figures in brackets)");
    if (!missing.isEmpty())
        parts << names(missing) + QStringLiteral(" computed (not in the meta table)");
    return parts.join(QStringLiteral("; "));
}

} // namespace

int runInfo(const QStringList &arguments)
{
    QCommandLineParser parser;
    QStringList positional;
    if (const auto status = parseDatabaseCommandLine(parser, arguments, help, &positional))
        return *status;

    const auto database = openDatabaseArgument(positional[0]);
    if (!database)
        return ExitFailure;
    const HistorySummary &summary = database->summary();
    if (!summary.error.isEmpty())
        return inputError(database->path() + QStringLiteral(": ") + summary.error);
    const Provenance origin = provenance(*database);

    QStringList sources;
    for (const SourceDescription &source :
        parseSourcesMeta(database->meta().value(QLatin1String(schema::meta::sources)))) {
        sources << (source.format.isEmpty()
                ? visibleText(source.path)
                : visibleText(source.path) + QStringLiteral(" (") + visibleText(source.format) + u')');
    }
    if (sources.isEmpty())
        sources << metaValue(*database, schema::meta::sources);

    QString transitions = summary.firstTransition
        ? QStringLiteral("%1..%2").arg(summary.firstTransition->value).arg(summary.lastTransition->value)
        : QStringLiteral("none (no accesses)");
    if ((summary.firstTransition && summary.firstTransition->value >= signBoundary)
        || (summary.lastTransition && summary.lastTransition->value >= signBoundary)) {
        transitions += QStringLiteral(" (2^63 or more, stored negative; run 'memhist check')");
    }
    const QString bytesPerAccess = summary.accesses > 0
        ? QString::number(double(summary.fileBytes) / double(summary.accesses), 'f', 1)
        : QStringLiteral("n/a (no accesses)");

    // A count the database contradicts is computed; the meta table's figure follows in brackets.
    const auto ignored = [&](const char *key, qint64 computed) {
        const QString text = QString::number(computed);
        const auto it = summary.ignoredMeta.constFind(QLatin1String(key));
        return it == summary.ignoredMeta.cend() ? text : text + QStringLiteral(" [meta: %1]").arg(it.value());
    };
    const QString accesses
        = accessCounts(ignored(schema::meta::accesses, summary.accesses), ignored(schema::meta::reads, summary.reads),
            ignored(schema::meta::writes, summary.writes), ignored(schema::meta::executes, summary.executes));

    const auto row = [](const char *label, const QString &value) {
        return QStringLiteral("%1 %2\n").arg(QLatin1String(label) + u':', -17).arg(value);
    };
    QString text;
    text += row("path", QFileInfo(database->path()).absoluteFilePath());
    text += row("file size",
        QStringLiteral("%1 bytes (%2)").arg(summary.fileBytes).arg(QLocale::c().formattedDataSize(summary.fileBytes)));
    text += row("format version", origin.formatVersion);
    text += row("writer", origin.writer);
    text += row("created", origin.created);
    text += row("sources", sources.join(u'\n' + QString(18, u' ')));
    text += row("transitions", transitions);
    text += row("accesses", accesses);
    text += row("slices", ignored(schema::meta::slices, summary.slices));
    text += row("chunks", ignored(schema::meta::chunks, summary.chunks));
    text += row("bytes per access", bytesPerAccess);
    text += row("counts", countsSource(*database, summary));
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
    // Program context (the optional context tables): what the history holds, and where each
    // module was loaded.
    ContextReader context(*database);
    text += row("context", contextPartsText(context.parts()));
    if (!context.modules().isEmpty()) {
        text += row(
            "modules", QStringLiteral("%1 (path, load bias, build-id, transitions)").arg(context.modules().size()));
        for (const ModuleRow &module : context.modules()) {
            text += QString(18, u' ')
                + QStringLiteral("%1  %2  %3  %4..%5\n")
                      .arg(visibleText(module.module.path), hexText(module.module.bias),
                          module.module.buildId.isEmpty() ? QStringLiteral("-") : visibleText(module.module.buildId),
                          QString::number(module.module.first.value), QString::number(module.module.last.value));
        }
    }
    writeOut(text.toLocal8Bit());
    return ExitSuccess;
}

} // namespace memhist::cli
