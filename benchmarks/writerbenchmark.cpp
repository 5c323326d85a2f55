#include "writerbenchmark.h"

#include "accessstreamgenerator.h"
#include "processmemory.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

namespace memhist::bench {

WriterRunResult runWriter(const QString &path, std::uint64_t seed, qint64 accesses, const WriterOptions &options)
{
    QFile::remove(path);
    WriterRunResult result;
    AccessStreamGenerator stream(seed, accesses);

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
        }
        if (!writer.finish()) {
            result.error = writer.errorString();
            return result;
        }
        result.stats = writer.stats();
    }
    result.nanoseconds = timer.nsecsElapsed();
    result.cpuNanoseconds = processCpuNanoseconds() - cpuBefore;
    result.peakRssBytes = peakResettable ? peakRssBytes() : -1;
    result.fileBytes = QFileInfo(path).size();
    result.ok = true;
    return result;
}

} // namespace memhist::bench
