// SPDX-License-Identifier: MIT
// Everything memhist-bench prints: one section per phase, then the targets beside the figures.
#pragma once

#include "accessstreamgenerator.h"
#include "machinecontext.h"
#include "plaininsert.h"
#include "querybenchmark.h"
#include "writerbenchmark.h"

#include <QString>
#include <optional>

namespace memhist::bench {

struct BenchSettings
{
    qint64 accesses = 0;
    std::uint64_t seed = 0;
    int queriesPerClass = 0;
    QString directory;
    QString fileSystem;
};

void printHeader(const MachineContext &machine, const BenchSettings &settings);
void printStream(const StreamMix &mix, qint64 generateNs);
void printWriter(const WriterRunResult &writer);
// `writer` gives the ratio printed beside each reference.
void printPlainInsert(const QString &label, const PlainInsertResult &plain, const WriterRunResult &writer);
void printQueries(const QueryBenchmarkResult &queries, quint64 limit);

struct BenchFigures
{
    WriterRunResult writer;
    std::optional<PlainInsertResult> ceiling; // the unindexed plain insert; absent with --no-references
    std::optional<QueryBenchmarkResult> queries; // absent with --queries 0
};
void printSummary(const BenchFigures &figures, const MachineContext &machine);

} // namespace memhist::bench
