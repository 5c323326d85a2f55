// SPDX-License-Identifier: MIT
// Summarises an existing history that has no display summary of its own (written by another tool
// or an older memhist), into a separate summary file: the history is only read. Two sequential
// scans (chunks, then accesses, in rowid order) feed the same SummaryBuilder the writer uses, so
// that the summary is the one the writer would have written for the same rows.
#pragma once

#include <QString>
#include <functional>

namespace memhist::summary {

struct SummarizeOptions
{
    // Called every few thousand rows with the fraction done (0..1); returning false cancels.
    std::function<bool(double)> progress;
    // Recorded in the summary (SummaryInfo::sourceIdentity): what the summary is valid for.
    QString sourceIdentity;
};

// Reads the history at `historyPath` and writes its summary to `outputPath` (an SQLite file
// holding the summary tables alone), under a temporary name renamed into place once complete: the
// output path holds nothing, its previous file or a complete summary. False and *error (naming the
// file and the reason, or "cancelled") on failure.
bool summarizeHistory(
    const QString &historyPath, const QString &outputPath, const SummarizeOptions &options, QString *error);

} // namespace memhist::summary
