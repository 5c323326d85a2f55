// SPDX-License-Identifier: MIT
#include "writerbenchmark.h"

#include "accessstreamgenerator.h"
#include "core/storage/sqlite.h"
#include "processmemory.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

namespace memhist::bench {

namespace {

constexpr const char *summaryPageBytes = "SELECT sum(pgsize) FROM dbstat WHERE name IN ('address_summary', "
                                         "'address_summary_info', 'idx_address_summary_1')";
constexpr const char *valuePageBytes = "SELECT sum(pgsize) FROM dbstat WHERE name = 'access_value_blocks'";

qint64 pageBytes(const QString &path, const char *sql)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return -1;
    sqlite::Statement pages = db.prepare(sql);
    if (!pages.isValid() || pages.step() != SQLITE_ROW || pages.isNull(0))
        return -1;
    return pages.int64(0);
}

} // namespace

qint64 addressSummaryBytes(const QString &path)
{
    return pageBytes(path, summaryPageBytes);
}

qint64 valueBytes(const QString &path)
{
    return pageBytes(path, valuePageBytes);
}

WriterRunResult runWriter(
    const QString &path, std::uint64_t seed, qint64 accesses, bool withValues, const WriterOptions &options)
{
    QFile::remove(path);
    WriterRunResult result;
    AccessStreamGenerator stream(seed, accesses, withValues);

    const bool peakResettable = resetPeakRss();
    result.rssBeforeBytes = currentRssBytes();
    const qint64 cpuBefore = processCpuNanoseconds();
    QElapsedTimer timer;
    timer.start();
    {
        HistoryWriter writer(path, options);
        result.options = writer.options();
        if (!writer.open()) {
            result.error = writer.errorString();
            return result;
        }
        writer.setSources({ { QStringLiteral("synthetic"), QStringLiteral("memhist-bench seed %1").arg(seed) } });
        Access access;
        while (stream.next(&access)) {
            if (!writer.add(access)) {
                result.error = writer.errorString();
                return result;
            }
            if (stream.hasValues())
                writer.addValue(stream.value());
        }
        const qint64 finishStart = timer.nsecsElapsed();
        if (!writer.finish()) {
            result.error = writer.errorString();
            return result;
        }
        result.finishNanoseconds = timer.nsecsElapsed() - finishStart;
        result.stats = writer.stats();
    }
    result.nanoseconds = timer.nsecsElapsed();
    result.cpuNanoseconds = processCpuNanoseconds() - cpuBefore;
    result.peakRssBytes = peakResettable ? peakRssBytes() : -1;
    result.fileBytes = QFileInfo(path).size();
    result.summaryBytes = addressSummaryBytes(path);
    result.valueBytes = withValues ? valueBytes(path) : -1;
    result.mix = stream.mix();
    result.ok = true;
    return result;
}

} // namespace memhist::bench
