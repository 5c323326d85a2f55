// SPDX-License-Identifier: MIT
// `memhist query DB --batch FILE`: many queries in one process, one per line of FILE, written with
// the query options of the command line (e.g. "--at 100 --from 0x1000 --to 0x1fff --backward").
#pragma once

#include "core/query/halfaxisquery.h"

#include <QList>
#include <QString>

namespace memhist::cli {

// Bounds of a batch file (query's and memory's), checked as it is read: a line longer than any
// query, or more lines than a batch of interactive queries, is a file given by mistake.
inline constexpr qsizetype maxBatchLines = 1'000'000;
inline constexpr qint64 maxBatchLineBytes = 4096;

struct BatchQuery
{
    int line = 0; // 1-based line of the batch file
    HalfAxisQuery query;
};

// Reads every query of the file before any runs, so that a mistake on line 90 does not leave 89
// answers behind. Blank lines and lines starting with '#' are skipped; the others are split on
// whitespace. On failure returns false, *error "FILE:LINE: reason" with *exitStatus 2 (a bad line
// is a usage error), or "FILE: cannot open: reason" (or past the bounds above) with *exitStatus 1.
bool readBatchFile(const QString &path, QList<BatchQuery> *queries, QString *error, int *exitStatus);

} // namespace memhist::cli
