// SPDX-License-Identifier: MIT
// The writer phase: the synthetic stream through HistoryWriter, timed from open() to the end of
// finish(), with the peak resident set size of just this phase.
#pragma once

#include "accessstreamgenerator.h"
#include "core/writer/historywriter.h"

#include <QString>
#include <cstdint>

namespace memhist::bench {

struct WriterRunResult
{
    bool ok = false;
    QString error;
    qint64 nanoseconds = 0;
    qint64 cpuNanoseconds = 0; // CPU time of all the process's threads over the same span
    qint64 finishNanoseconds = 0; // of nanoseconds, in finish(): the indexes, the summaries' last pass
    WriterStats stats;
    WriterOptions options;
    qint64 fileBytes = 0;
    qint64 summaryBytes = -1; // the address summary's pages (addressSummaryBytes)
    qint64 valueBytes = -1; // the value blocks' pages (valueBytes), with values
    StreamMix mix; // what the stream written held
    qint64 rssBeforeBytes = -1; // resident set when the phase started
    qint64 peakRssBytes = -1; // VmHWM over the phase (includes rssBeforeBytes); -1 if unavailable
};

// The bytes of the pages of the address summary's tables and index in a history (SQLite's dbstat
// table), or -1 when they cannot be measured.
qint64 addressSummaryBytes(const QString &path);
// The same for the values' table (access_value_blocks).
qint64 valueBytes(const QString &path);

// withValues: each access's bytes go to the writer too (HistoryWriter::addValue), as a recording's.
WriterRunResult runWriter(
    const QString &path, std::uint64_t seed, qint64 accesses, bool withValues, const WriterOptions &options);

} // namespace memhist::bench
