// SPDX-License-Identifier: MIT
#include "querygrowth.h"

#include "latency.h"

#include <QStringList>
#include <algorithm>
#include <cstdio>
#include <functional>

namespace memhist::bench {

namespace {

constexpr double p99TargetMs = 5; // every window class, both directions, first and next page

// "10^8" for a power of ten, the number otherwise.
QString sizeName(qint64 accesses)
{
    int exponent = 0;
    qint64 value = accesses;
    while (value >= 10 && value % 10 == 0) {
        value /= 10;
        ++exponent;
    }
    return value == 1 && exponent > 0 ? QStringLiteral("10^%1").arg(exponent) : QString::number(accesses);
}

QString classLabel(const QueryClass &queryClass)
{
    return QStringLiteral("%1 %2")
        .arg(queryClass.window, -12)
        .arg(queryClass.direction == Direction::Forward ? QStringLiteral("forward") : QStringLiteral("backward"), -9);
}

QString cell(const LatencySummary &summary)
{
    if (summary.count == 0)
        return QStringLiteral("-");
    return QStringLiteral("%1 / %2").arg(summary.p50Ms, 0, 'f', 3).arg(summary.p99Ms, 0, 'f', 3);
}

QString growth(const LatencySummary &first, const LatencySummary &last)
{
    if (first.count == 0 || last.count == 0 || first.p99Ms <= 0)
        return QStringLiteral("-");
    return QStringLiteral("%1x").arg(last.p99Ms / first.p99Ms, 0, 'f', 2);
}

using Pick = std::function<QList<qint64>(const QueryClassResult &)>;

// One table: a row per class, for each path a column per size and the growth.
void printTable(const char *title, const QList<SizedQueryRun> &runs, const Pick &pick)
{
    const bool plain = !runs.constFirst().result.plainClasses.isEmpty();
    std::printf("%s: p50 / p99 ms; growth = p99 at %s / p99 at %s\n", title,
        qUtf8Printable(sizeName(runs.constLast().accesses)), qUtf8Printable(sizeName(runs.constFirst().accesses)));
    QString header = QStringLiteral("  %1").arg(QStringLiteral("window       direction"), -22);
    QStringList paths { QStringLiteral("summary") };
    if (plain)
        paths << QStringLiteral("plain");
    for (const QString &path : paths) {
        for (const SizedQueryRun &run : runs)
            header += QStringLiteral(" %1").arg(path + u' ' + sizeName(run.accesses), -21);
        header += QStringLiteral(" %1").arg(QStringLiteral("growth"), -8);
    }
    std::printf("%s\n", qUtf8Printable(header.trimmed().prepend(QStringLiteral("  "))));
    const QList<QueryClassResult> &classes = runs.constFirst().result.classes;
    for (qsizetype c = 0; c < classes.size(); ++c) {
        QString line = QStringLiteral("  ") + classLabel(classes[c].queryClass);
        for (const bool plainPath : { false, true }) {
            if (plainPath && !plain)
                continue;
            QList<LatencySummary> summaries;
            for (const SizedQueryRun &run : runs) {
                const auto &results = plainPath ? run.result.plainClasses : run.result.classes;
                summaries << summarizeLatencies(pick(results[c]));
                line += QStringLiteral(" %1").arg(cell(summaries.constLast()), -21);
            }
            line += QStringLiteral(" %1").arg(growth(summaries.constFirst(), summaries.constLast()), -8);
        }
        std::printf("%s\n", qUtf8Printable(line.trimmed().prepend(QStringLiteral("  "))));
    }
    std::printf("\n");
}

} // namespace

void printQueryGrowth(const QList<SizedQueryRun> &runs, quint64 limit, int queriesPerClass)
{
    if (runs.isEmpty())
        return;
    std::printf("Queries by history size (N = %llu, ops rw, windows centred on a random access, T uniform, %d "
                "queries per class; the same queries on both paths, which take turns going first)\n",
        static_cast<unsigned long long>(limit), queriesPerClass);
    for (const SizedQueryRun &run : runs) {
        std::printf("  %-6s %lld accesses, %s (%.1f s); address summary %s\n", qUtf8Printable(sizeName(run.accesses)),
            static_cast<long long>(run.accesses), qUtf8Printable(run.path), double(run.result.totalNanoseconds) / 1e9,
            run.summaryBytes < 0
                ? "absent"
                : qUtf8Printable(
                    QStringLiteral("%1 bytes, %2 bytes per access")
                        .arg(run.summaryBytes)
                        .arg(double(run.summaryBytes) / double(std::max<qint64>(1, run.accesses)), 0, 'f', 3)));
    }
    std::printf("\n");
    printTable("First page, wall time", runs, [](const QueryClassResult &r) { return r.firstPageNs; });
    printTable("Next page, wall time", runs, [](const QueryClassResult &r) { return r.nextPageNs; });
    printTable("First page, CPU time of the querying thread", runs,
        [](const QueryClassResult &r) { return r.firstPageCpuNs; });
    printTable(
        "Next page, CPU time of the querying thread", runs, [](const QueryClassResult &r) { return r.nextPageCpuNs; });

    const bool plain = !runs.constFirst().result.plainClasses.isEmpty();
    std::printf("Slices visited per first page (mean; the summary path's share of queries that used it)\n");
    const QList<QueryClassResult> &classes = runs.constFirst().result.classes;
    for (qsizetype c = 0; c < classes.size(); ++c) {
        QString line = QStringLiteral("  ") + classLabel(classes[c].queryClass);
        for (const SizedQueryRun &run : runs) {
            const QueryClassResult &summary = run.result.classes[c];
            const double queries = double(std::max<qsizetype>(1, summary.firstPageNs.size()));
            line += QStringLiteral("  %1 %2 (%3 %)")
                        .arg(sizeName(run.accesses))
                        .arg(double(summary.slicesVisited) / queries, 8, 'f', 1)
                        .arg(100.0 * double(summary.summaryUsed) / queries, 0, 'f', 0);
            if (plain) {
                const QueryClassResult &plainResult = run.result.plainClasses[c];
                line += QStringLiteral(", plain %1").arg(double(plainResult.slicesVisited) / queries, 0, 'f', 1);
            }
        }
        std::printf("%s\n", qUtf8Printable(line));
    }
    std::printf("\n");

    // The target, on the largest history, with the summary: in wall time, and in the querying
    // thread's CPU time (without waits for the disk or for another process's turn).
    const SizedQueryRun &largest = runs.constLast();
    for (const bool cpu : { false, true }) {
        double worst = 0;
        QString where;
        for (const QueryClassResult &result : largest.result.classes) {
            for (const bool next : { false, true }) {
                const QList<qint64> &times = cpu ? (next ? result.nextPageCpuNs : result.firstPageCpuNs)
                                                 : (next ? result.nextPageNs : result.firstPageNs);
                const LatencySummary summary = summarizeLatencies(times);
                if (summary.count > 0 && summary.p99Ms >= worst) {
                    worst = summary.p99Ms;
                    where = classLabel(result.queryClass).simplified()
                        + (next ? QStringLiteral(", next page") : QString());
                }
            }
        }
        std::printf("  %-40s %-30s %-12s %s\n",
            qUtf8Printable(QStringLiteral("worst p99 at %1 (summary, %2)")
                               .arg(sizeName(largest.accesses), cpu ? QStringLiteral("CPU") : QStringLiteral("wall"))),
            qUtf8Printable(QStringLiteral("%1 ms (%2)").arg(worst, 0, 'f', 3).arg(where)), "<= 5 ms",
            worst <= p99TargetMs ? "met" : "NOT met");
    }
    std::printf("\n");
}

} // namespace memhist::bench
