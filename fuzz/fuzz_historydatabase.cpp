// SPDX-License-Identifier: MIT
// Opening and checking a database (core/storage/historydatabase.h, core/checker/historychecker.h)
// and answering half-axis queries on it (core/query/halfaxisquery.h), whatever the file holds.
// Each query runs twice, with a tuning that makes the engine scan rows and one that makes it merge
// chunk cursors (as tst_halfaxisquery does). On a database that passes the check, every query must
// succeed and both ways must give the same page. (On one that fails it, the two ways may read
// different damaged rows; each must still end without a crash.)
#include "core/checker/historychecker.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "fuzzsupport.h"

#include <QDir>

using namespace memhist;
using namespace memhist::fuzz;

namespace {

QString describe(const HalfAxisQuery &query)
{
    return QStringLiteral("%1 at %2, bytes 0x%3..0x%4, limit %5")
        .arg(query.direction == Direction::Forward ? QStringLiteral("forward") : QStringLiteral("backward"))
        .arg(query.at ? QString::number(query.at->value) : QStringLiteral("(default)"))
        .arg(QString::number(query.first.value, 16), QString::number(query.last.value, 16))
        .arg(query.limit);
}

// A failure must say why. "not an error" is SQLite's text for SQLITE_OK: the error was read after
// something cleared it.
void requireReason(bool succeeded, const QString &reason, const QString &what)
{
    if (!succeeded && (reason.isEmpty() || reason.contains(QLatin1String("not an error"))))
        propertyBroken(QStringLiteral("%1 fails without its reason: '%2'").arg(what, reason));
}

// Runs `query` on both engines and returns the first engine's page; on a checked database, both must
// succeed and agree.
std::optional<QueryPage> runBoth(
    HalfAxisQueryEngine &scanning, HalfAxisQueryEngine &merging, const HalfAxisQuery &query, bool checked)
{
    QueryPage page;
    QueryPage mergedPage;
    QString error;
    QString mergedError;
    const bool ok = scanning.run(query, &page, &error);
    const bool mergedOk = merging.run(query, &mergedPage, &mergedError);
    requireReason(ok, error, QStringLiteral("the query ") + describe(query));
    requireReason(mergedOk, mergedError, QStringLiteral("the query ") + describe(query));
    if (checked && (!ok || !mergedOk))
        propertyBroken(QStringLiteral("the database passes the check, but the query %1 fails: %2")
                           .arg(describe(query), ok ? mergedError : error));
    if (checked && (page.accesses != mergedPage.accesses || page.exhausted != mergedPage.exhausted))
        propertyBroken(QStringLiteral("the query %1 gives %2 rows when scanning, %3 when merging")
                           .arg(describe(query))
                           .arg(page.accesses.size())
                           .arg(mergedPage.accesses.size()));
    if (!ok)
        return std::nullopt;
    return page;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString path = QDir(scratchDirectory()).filePath(QStringLiteral("input.memhist"));
    writeFile(path, QByteArrayView(data, qsizetype(size)));
    QString error;
    const auto database = HistoryDatabase::open(path, &error);
    requireReason(bool(database), error, QStringLiteral("opening the database"));
    if (!database)
        return 0;
    database->summary();
    const CheckReport check = HistoryChecker(*database).run();
    requireReason(check.ok, check.violation, QStringLiteral("the check"));

    HalfAxisQueryEngine scanning(*database, QueryTuning { 1, 1000 });
    HalfAxisQueryEngine merging(*database, QueryTuning { 2, 1 });

    HalfAxisQuery everything;
    everything.operations = allOperations();
    everything.limit = 16;
    const std::optional<QueryPage> first = runBoth(scanning, merging, everything, check.ok);
    if (first && first->resumePoint()) {
        HalfAxisQuery next = everything;
        next.resumeAfter = first->resumePoint();
        runBoth(scanning, merging, next, check.ok);
    }
    HalfAxisQuery backward = everything;
    backward.direction = Direction::Backward;
    runBoth(scanning, merging, backward, check.ok);
    if (first && !first->accesses.isEmpty()) {
        // A narrow window on the first access, from its transition both ways.
        const Access &access = first->accesses.constFirst();
        HalfAxisQuery narrow = everything;
        narrow.first = access.physical;
        narrow.last = Address { access.physical.value + std::min<std::uint64_t>(7, ~access.physical.value) };
        narrow.at = access.transition;
        runBoth(scanning, merging, narrow, check.ok);
        narrow.direction = Direction::Backward;
        runBoth(scanning, merging, narrow, check.ok);
    }
    return 0;
}
