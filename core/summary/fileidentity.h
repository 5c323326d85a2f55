// SPDX-License-Identifier: MIT
// What identifies one version of a file without reading it all: its device, inode, size and
// modification time (to the nanosecond), and, for an SQLite database, the file change counter of
// its header (bytes 24..27, bumped by every transaction that changes the file). A summary cached
// outside a history is keyed by this: touching, rewriting or replacing the history changes it.
#pragma once

#include <QString>
#include <cstdint>
#include <optional>

namespace memhist::summary {

struct FileIdentity
{
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::int64_t size = 0;
    std::int64_t modifiedNs = 0;
    std::uint32_t changeCounter = 0; // 0 for a file too short to have an SQLite header

    // "device:inode:size:mtime-ns:counter", all decimal: what a cache file records.
    QString toString() const;
    friend bool operator==(const FileIdentity &, const FileIdentity &) = default;
};

// The identity of `path` now; nullopt (and *error) when it cannot be read.
std::optional<FileIdentity> fileIdentity(const QString &path, QString *error);

} // namespace memhist::summary
