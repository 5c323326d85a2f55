// SPDX-License-Identifier: MIT
#include "core/export/csvexport.h"

#include "core/context/contextcolumns.h"
#include "core/context/contextreader.h"
#include "core/csv/csvaccessformat.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"
#include "core/writer/partialfile.h"

#include <algorithm>
#include <optional>

namespace memhist {

namespace {

// Rows fetched per engine run: large enough that the per-run cost (finding slices, preparing the
// chunk scans) is amortised, small enough that memory stays bounded for any result set.
constexpr quint64 pageRows = 16384;

// For a query whose answer is every access of its operations (no start, window, thread, function or
// limit), how many rows that is, from the history's summary (its writer's counts when the database
// agrees with them, or counted). The engine checks what it reads but cannot see rows that a damaged
// table b-tree hides from a rowid range (a cell whose rowid was overwritten ends the range early); a
// count that disagrees catches that, for the export that promises the whole history.
std::optional<qint64> rowsOfWholeHistory(HistoryDatabase &database, const HalfAxisQuery &query)
{
    if (query.at || query.resumeAfter || !query.coversEveryPlace())
        return std::nullopt;
    const HistorySummary &summary = database.summary();
    if (!summary.error.isEmpty())
        return std::nullopt;
    qint64 rows = 0;
    if (query.operations.testFlag(Operation::Read))
        rows += summary.reads;
    if (query.operations.testFlag(Operation::Write))
        rows += summary.writes;
    if (query.operations.testFlag(Operation::Execute))
        rows += summary.executes;
    return rows;
}

} // namespace

bool exportQueryToCsv(HistoryDatabase &database, HalfAxisQuery query, bool limitRows, const QString &outputPath,
    ExportReport *report, QString *error, const std::function<bool(qint64)> &progress, ExportColumns columns)
{
    ExportReport localReport;
    ExportReport &counts = report ? *report : localReport;
    counts = {};
    const auto failFile = [&](const QString &reason) {
        *error = outputPath + QStringLiteral(": ") + reason;
        return false;
    };

    // The CSV goes to a temporary file beside the target, renamed over it (synced) only once
    // complete; its destructor removes the temporary file on every early return below.
    PartialFile file(outputPath, PartialFile::Target::RegularFileOrStream);
    if (!file.create())
        return failFile(QStringLiteral("cannot create: ") + file.reason());

    std::optional<ContextReader> contextReader;
    std::optional<ContextColumns> context;
    std::optional<ThreadSpans> threads;
    if (columns.threads)
        threads.emplace(database);
    if (columns.context) {
        contextReader.emplace(database);
        context.emplace(*contextReader);
    }
    QByteArray text = csv::header() + (threads ? QByteArrayLiteral(",thread") : QByteArray())
        + (context ? context->csvHeader() : QByteArray()) + '\n';
    const auto flush = [&] {
        const bool ok = file.write(text);
        text.clear();
        return ok;
    };

    const quint64 total = limitRows ? query.limit : ~quint64(0);
    const std::optional<qint64> expected = limitRows ? std::nullopt : rowsOfWholeHistory(database, query);
    quint64 written = 0;
    HalfAxisQueryEngine engine(database);
    QueryPage page;
    while (written < total) {
        query.limit = std::min(pageRows, total - written);
        QString queryError;
        page = {};
        if (!engine.run(query, &page, &queryError)) {
            *error = database.path() + QStringLiteral(": query failed: ") + queryError;
            return false;
        }
        const QList<std::optional<qint64>> pageThreads
            = threads ? threads->threadsOf(page.accesses) : QList<std::optional<qint64>>();
        for (qsizetype row = 0; row < page.accesses.size(); ++row) {
            const Access &access = page.accesses[row];
            text += csv::formatRow(access);
            if (threads) {
                text += ',';
                if (const std::optional<qint64> thread = pageThreads.value(row))
                    text += QByteArray::number(*thread);
            }
            if (context)
                text += context->csvCells(access);
            text += '\n';
        }
        written += quint64(page.accesses.size());
        counts.rows = qint64(written);
        if (!flush())
            return failFile(QStringLiteral("write failed: ") + file.reason());
        if (progress && !progress(counts.rows))
            return failFile(QStringLiteral("export cancelled"));
        const std::optional<RowId> next = page.resumePoint();
        if (!next)
            break;
        query.resumeAfter = next;
    }

    if (!flush())
        return failFile(QStringLiteral("write failed: ") + file.reason());
    if (expected && *expected != counts.rows)
        return failFile(QStringLiteral("not written: the history holds %1 accesses of these operations, but "
                                       "reading them gave %2; the database is damaged: run 'memhist check %3'")
                            .arg(*expected)
                            .arg(counts.rows)
                            .arg(database.path()));
    if (!file.commit())
        return failFile(file.errorString());
    return true;
}

} // namespace memhist
