// SPDX-License-Identifier: MIT
// Proves that a database keeps every property the storage model spec promises, and passes SQLite's
// own integrity check. Every check runs to the end: the report names the first violation met, and
// for each property broken, how many times and where first.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>

namespace memhist {

class HistoryDatabase;

// Every violation of one property.
struct PropertyViolations
{
    QString property; // the wording of checkmessages.h, as quoted in brackets in the messages
    QString first; // the first violation of it met, the whole message
    qint64 count = 0;
};

struct CheckReport
{
    bool ok = false;
    // The first violation met: the object, the problem, then the property in brackets, e.g.
    // "chunk 12 (slice 3, W, 0x1000..0x1007): bytes 0x1004..0x1005 are covered by none of its
    // accesses [every byte of a chunk is covered by an access]" (wordings: checkmessages.h);
    // "cancelled" when the progress callback stopped the check.
    QString violation;
    // One entry per property broken, in the order their first violations were met (the first
    // entry's `first` is `violation`). Empty when ok or cancelled.
    QList<PropertyViolations> violations;
    // With a passing report: facts worth knowing that are not violations (e.g. slices sharing a
    // boundary transition, or chunks left behind by the reference writer's discard_after).
    QStringList notes;
    qint64 slices = 0;
    qint64 chunks = 0;
    qint64 accesses = 0;
    qint64 largestChunk = 0; // accesses in the largest chunk
};

class HistoryChecker
{
public:
    explicit HistoryChecker(HistoryDatabase &database);

    // progress(fraction in [0, 1]) is called now and then; returning false cancels the check
    // (the report then says "cancelled").
    CheckReport run(const std::function<bool(double)> &progress = {});

private:
    HistoryDatabase &m_database;
};

} // namespace memhist
