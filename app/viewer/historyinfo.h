// SPDX-License-Identifier: MIT
// What the status line says about an open history: its size and where it came from. Read on a
// worker thread (a database from another writer has its counts computed, which takes a scan).
#pragma once

#include "core/storage/historydatabase.h"
#include "core/storage/historysources.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace memhist::viewer {

struct HistoryInfo
{
    QString path;
    HistorySummary summary;
    // "true.csv (csv)" per source trace; empty when the database does not say.
    QStringList sources;
    QStringList sourcePaths;
    // Distinct threads of the optional thread_spans table; absent when the table is not there.
    std::optional<qint64> threads;
};

// How the status line names one source of a history: "true.csv (csv)" for an imported trace (its
// file name), and for a recording (`recorded`; the path is then memhist record's shell-quoted command
// line) the program's name and its arguments: "sha256sum /tmp/synth.lackey (recorded)".
QString sourceLabel(const SourceDescription &source, bool recorded);

// Opens `path` read-only and reads its summary. False + *error naming the file and the reason.
bool readHistoryInfo(const QString &path, HistoryInfo *info, QString *error);

// One line for the status bar, e.g. "transitions 1..131,062 · 41,797 accesses (30,027 reads,
// 11,770 writes) · 1 slice · 2,349 chunks · source true.csv (csv) · threads not recorded".
QString describeHistory(const HistoryInfo &info);

// True when `path` starts with the SQLite magic ("SQLite format 3\0"): a history to open rather than
// a trace to import.
bool isSqliteDatabase(const QString &path);

} // namespace memhist::viewer
