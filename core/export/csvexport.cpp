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
    PartialFile file(outputPath);
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
    if (!file.commit())
        return failFile(file.errorString());
    return true;
}

} // namespace memhist
