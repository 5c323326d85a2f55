// SPDX-License-Identifier: MIT
// Where the viewer keeps the summaries it made itself, of histories without one: files outside the
// histories (the viewer never writes into a history), in one directory, each named for its
// history's path and identity (fileidentity.h) and recording that identity inside. A summary is
// served only for the history exactly as it was summarised: a touched, rewritten or replaced
// history has another identity, so another name, and its old summary is never read again (it is
// removed when the new one is made).
#pragma once

#include "core/summary/fileidentity.h"

#include <QString>
#include <optional>

namespace memhist::summary {

class SummaryCache
{
public:
    explicit SummaryCache(QString directory);
    const QString &directory() const { return m_directory; }

    struct Entry
    {
        QString historyPath; // absolute
        FileIdentity identity; // of the history now
        QString path; // of its summary file, whether it exists or not
    };
    // The cache entry for the history at `historyPath` as it is now. Nullopt (and *error) when the
    // history cannot be read.
    std::optional<Entry> entryFor(const QString &historyPath, QString *error) const;

    // Whether the entry's summary file exists and records the entry's identity (a file that cannot
    // be read, or records another, is not valid).
    bool isValid(const Entry &entry) const;

    // Creates the directory. False and *error when it cannot be.
    bool prepare(QString *error) const;
    // Removes the summary files of the entry's history other than the entry's own (summaries of
    // earlier versions of it). Returns how many it removed.
    int removeStale(const Entry &entry) const;

private:
    QString prefixFor(const QString &historyPath) const;

    QString m_directory;
};

// The file extension of summary files.
inline constexpr const char *summaryFileSuffix = ".memhist-summary";

} // namespace memhist::summary
