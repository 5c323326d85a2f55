// SPDX-License-Identifier: MIT
// The memory phase: MemoryReader::read (what `memhist memory` and the viewer's Memory pane ask) on
// ranges of fixed sizes, each centred on the address of a uniformly random access of the history
// at a uniformly random transition, timed in wall-clock and in the reading thread's CPU time.
#pragma once

#include <QList>
#include <QString>
#include <cstdint>

namespace memhist::bench {

// One timed read, kept for the slowest ones.
struct MemorySample
{
    qint64 wallNs = 0;
    qint64 cpuNs = 0;
    std::uint64_t at = 0;
    std::uint64_t first = 0;
    qint64 unknown = 0; // bytes
};

struct MemoryClassResult
{
    std::uint64_t rangeBytes = 0;
    QList<qint64> wallNs;
    QList<qint64> cpuNs;
    // Over all reads: how the bytes were known (core/memory/memoryreader.h's KnownBy).
    qint64 bytesByWrite = 0;
    qint64 bytesByRead = 0;
    qint64 bytesByLaterRead = 0;
    qint64 bytesUnknown = 0;
    QList<MemorySample> slowest; // slowest first
};

struct MemoryBenchmarkResult
{
    bool ok = false;
    QString error;
    bool hasValues = false;
    qint64 historyAccesses = 0;
    QList<MemoryClassResult> classes;
};

// `readsPerClass` reads of each size in `rangeBytes`, in one deterministic shuffled order.
MemoryBenchmarkResult runMemoryBenchmark(
    const QString &databasePath, const QList<std::uint64_t> &rangeBytes, int readsPerClass, std::uint64_t seed);

struct SizedMemoryRun
{
    QString path;
    MemoryBenchmarkResult result;
};

// Each history's figures, then p50 / p99 / max side by side (smallest history first), wall and
// CPU, with the targets (256 B: p99 <= 10 ms, 4 KiB: p99 <= 50 ms, wall-clock).
void printMemoryRuns(const QList<SizedMemoryRun> &runs, int readsPerClass);

} // namespace memhist::bench
