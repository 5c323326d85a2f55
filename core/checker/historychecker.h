// Proves that a database keeps every property the storage model spec promises, and names the first
// violation found: which slice, chunk or access, and which property.
#pragma once

#include <QString>
#include <QStringList>

#include <functional>

namespace memhist {

class HistoryDatabase;

struct CheckReport
{
    bool ok = false;
    // The first violation: the object, the problem, then the property in brackets, e.g.
    // "chunk 12 (slice 3, W, 0x1000..0x1007): bytes 0x1004..0x1005 are covered by none of its
    // accesses [every byte of a chunk is covered by an access]" (wordings: checkmessages.h).
    QString violation;
    // Facts worth knowing that are not violations (e.g. slices sharing a boundary transition,
    // as the reference writer produces).
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
