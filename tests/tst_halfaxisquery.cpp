// SPDX-License-Identifier: MIT
// The half-axis query engine against a brute-force oracle: random streams written by HistoryWriter
// (small caps, so that there are many slices and chunks), random queries, every plan path of the
// engine (cursor merge, scan, scan then merge, scan then scan), paging by resume; named edge
// cases; and a database written by hand as another writer of the format would.

#include "core/checker/historychecker.h"
#include "core/query/halfaxisquery.h"
#include "core/query/rowidsearch.h"
#include "core/query/threadaccesscounts.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QFileInfo>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>
#include <random>

using namespace memhist;

namespace {

constexpr std::uint64_t top = ~std::uint64_t(0);

// A random stream exercising the writer's edge cases: size-1 accesses, accesses straddling chunk
// edges (mixed sizes that overlap), addresses near 0, near 2^63 and near 2^64-1, a hot address,
// many accesses at one transition, and gaps between transitions.
QList<Access> randomStream(std::uint64_t seed, int count)
{
    std::mt19937_64 random(seed);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    const std::uint64_t bases[]
        = { 0, 0x7ffffffffffff000ull, 0x8000000000000000ull, 0x7ffd12340000ull, 0x555555560000ull, top - 0xfff };
    QList<Access> stream;
    std::uint64_t transition = below(3);
    for (int i = 0; i < count; ++i) {
        const std::uint64_t roll = below(100);
        if (roll < 55)
            transition += 1;
        else if (roll < 60)
            transition += 1 + below(1000); // a gap
        // otherwise: another access at the same transition
        Access access;
        access.transition = Transition { transition };
        const std::uint64_t kind = below(10);
        access.operation = kind < 6 ? Operation::Read : kind < 9 ? Operation::Write : Operation::Execute;
        const std::uint32_t sizes[] = { 1, 1, 2, 4, 8, 8, 16, 3 };
        access.size = sizes[below(8)];
        std::uint64_t address;
        if (below(6) == 0) {
            address = 0x7ffd12340100ull; // the hot loop counter
            access.size = 8;
        } else {
            address = bases[below(6)] + below(0x1000);
        }
        // Keep clear of wrapping past 2^64-1 and of straddling 2^63 (the writer rejects both).
        if (address > top - access.size + 1)
            address = top - access.size + 1;
        if (address < (std::uint64_t(1) << 63) && address + access.size - 1 >= (std::uint64_t(1) << 63))
            address = (std::uint64_t(1) << 63) - access.size;
        access.physical = Address { address };
        if (below(4) != 0)
            access.linear = Address { address ^ 0x1000 };
        access.rowId = RowId { i + 1 };
        stream.append(access);
    }
    return stream;
}

// Accesses in 48 regions 64 KiB apart (two of them just below 2^63 and at the top of the address
// space), each stretch of the stream working in one region: with small slices, a narrow window
// meets a few slices of many, and the address summary must skip the others exactly.
QList<Access> sparseStream(std::uint64_t seed, int count)
{
    std::mt19937_64 random(seed);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    const auto regionBase = [](std::uint64_t region) -> std::uint64_t {
        if (region == 0)
            return (std::uint64_t(1) << 63) - 0x10000;
        if (region == 1)
            return top - 0xffff;
        return 0x555555000000ull + region * 0x10000;
    };
    QList<Access> stream;
    std::uint64_t transition = 0;
    for (int i = 0; i < count; ++i) {
        transition += below(3) == 0 ? 0 : 1 + below(4);
        // Mostly the stretch's region; now and then anywhere.
        const std::uint64_t region = below(20) == 0 ? below(48) : (std::uint64_t(i) / 150 * 7) % 48;
        Access access;
        access.transition = Transition { transition };
        const std::uint64_t kind = below(10);
        access.operation = kind < 6 ? Operation::Read : kind < 9 ? Operation::Write : Operation::Execute;
        const std::uint32_t sizes[] = { 1, 2, 4, 8 };
        access.size = sizes[below(4)];
        const std::uint64_t offset = below(0x800) & ~std::uint64_t(access.size - 1); // aligned: no wrap
        access.physical = Address { regionBase(region) + offset };
        access.linear = access.physical;
        access.rowId = RowId { i + 1 };
        stream.append(access);
    }
    return stream;
}

HalfAxisQuery randomQuery(std::mt19937_64 &random, const QList<Access> &stream)
{
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    HalfAxisQuery query;
    query.direction = below(2) ? Direction::Forward : Direction::Backward;
    const std::uint64_t lastTransition = stream.constLast().transition.value;
    if (below(8) != 0)
        query.at = Transition { below(lastTransition + 20) };
    const Access &pivot = stream[qsizetype(below(stream.size()))];
    std::uint64_t width;
    switch (below(6)) {
    case 0:
        width = 1;
        break;
    case 1:
        width = 64;
        break;
    case 2:
        width = 4096;
        break;
    case 3:
        width = below(300) + 1;
        break;
    case 4:
        width = 0; // whole address space
        break;
    default:
        width = std::uint64_t(1) << 62; // wide, often across 2^63
        break;
    }
    if (width == 0) {
        query.first = Address { 0 };
        query.last = Address { top };
    } else {
        const std::uint64_t start = pivot.physical.value > width / 2 ? pivot.physical.value - width / 2 : 0;
        query.first = Address { start };
        query.last = Address { start > top - (width - 1) ? top : start + width - 1 };
    }
    query.operations = Operations::fromInt(int(below(7) + 1));
    query.limit = below(10) == 0 ? 0 : below(40) + 1;
    // Sometimes a resume point too, before or after where `at` starts (both must hold).
    if (below(4) == 0)
        query.resumeAfter = stream[qsizetype(below(stream.size()))].rowId;
    return query;
}

QString describe(const HalfAxisQuery &q)
{
    QStringList threads;
    for (const qint64 thread : q.threads)
        threads << QString::number(thread);
    return QStringLiteral("%1 at=%2 [0x%3,0x%4] ops=%5 limit=%6 resume=%7 threads=%8")
        .arg(q.direction == Direction::Forward ? QStringLiteral("fwd") : QStringLiteral("bwd"))
        .arg(q.at ? QString::number(q.at->value) : QStringLiteral("-"))
        .arg(QString::number(q.first.value, 16), QString::number(q.last.value, 16))
        .arg(q.operations.toInt())
        .arg(q.limit)
        .arg(q.resumeAfter ? QString::number(q.resumeAfter->value) : QStringLiteral("-"))
        .arg(threads.isEmpty() ? QStringLiteral("-") : threads.join(u','));
}

// Random thread spans over [0, lastTransition + 5]: runs of 1 to 3 transitions (many short runs)
// or up to 300, of threads 1, 2, 3 and 7, now and then a gap no thread ran.
struct RandomSpan
{
    qint64 thread;
    std::uint64_t first;
    std::uint64_t last;
};
QList<RandomSpan> randomSpans(std::uint64_t seed, std::uint64_t lastTransition)
{
    std::mt19937_64 random(seed);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    const qint64 threads[] = { 1, 2, 3, 7 };
    QList<RandomSpan> spans;
    std::uint64_t next = 0;
    while (next <= lastTransition + 5) {
        const std::uint64_t length = below(3) == 0 ? 1 + below(3) : 1 + below(300);
        if (below(10) != 0)
            spans.append({ threads[below(4)], next, next + length - 1 });
        next += length;
    }
    return spans;
}

// The thread of each access's transition by the spans, or -1 where none ran.
qint64 threadOf(const QList<RandomSpan> &spans, std::uint64_t transition)
{
    for (const RandomSpan &span : spans) {
        if (span.first <= transition && transition <= span.last)
            return span.thread;
    }
    return -1;
}

QList<qint64> rowIds(const QList<Access> &accesses)
{
    QList<qint64> ids;
    for (const Access &a : accesses)
        ids << a.rowId.value;
    return ids;
}

} // namespace

class TestHalfAxisQuery : public QObject
{
    Q_OBJECT

private slots:
    void matchesOracleOnRandomStreams_data();
    void matchesOracleOnRandomStreams();
    void edgeCases_data();
    void edgeCases();
    void rejectsInvalidQueries_data();
    void rejectsInvalidQueries();
    void neededRangesKeepTheirMatches_data();
    void neededRangesKeepTheirMatches();
    void rejectsBadNeededRanges();
    void answersForeignDatabaseExactly();
    void damagedFileGivesSqliteReason_data();
    void damagedFileGivesSqliteReason();
    void timeSearchEndsOnDamagedRowOrder();
    void summaryPathMatchesOracle_data();
    void summaryPathMatchesOracle();
    void threadFilterMatchesOracle_data();
    void threadFilterMatchesOracle();
    void threadFilterNeedsThreadSpans();
    void threadFilterRefusesOverlappingSpans();
    void wholeFileMapServesEveryPage();
    void walFramesWinOverTheMap();

private:
    std::unique_ptr<HistoryDatabase> openEmptyHistory(const QString &name);

    QTemporaryDir m_dir;
};

// A history with no access at all, written by HistoryWriter; nullptr (and a warning) if it fails.
std::unique_ptr<HistoryDatabase> TestHalfAxisQuery::openEmptyHistory(const QString &name)
{
    const QString path = m_dir.filePath(name);
    HistoryWriter writer(path);
    if (!writer.open() || !writer.finish()) {
        qWarning("cannot write %s", qPrintable(path));
        return nullptr;
    }
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    if (!db)
        qWarning("%s", qPrintable(error));
    return db;
}

void TestHalfAxisQuery::matchesOracleOnRandomStreams_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("count");
    QTest::addColumn<quint32>("sliceCap");
    QTest::addColumn<quint32>("chunkCap");
    QTest::addColumn<quint32>("chunkTarget");
    QTest::addColumn<int>("scanStep");
    QTest::addColumn<int>("cursorCost");

    // Default tuning on small slices: chunk lists complete at once, cursors merge.
    QTest::newRow("default plan, tiny caps") << quint64(1) << 3000 << 40u << 6u << 3u << 512 << 16;
    QTest::newRow("default plan, default caps") << quint64(2) << 3000 << 65536u << 4096u << 64u << 512 << 16;
    // Tiny steps: finding chunks and scanning rows alternate, then merge from where the scan stopped.
    QTest::newRow("alternate, then merge") << quint64(3) << 3000 << 200u << 16u << 4u << 3 << 1;
    // Cursors priced high: slices are scanned in steps to their end.
    QTest::newRow("scan to the end") << quint64(4) << 3000 << 200u << 16u << 4u << 4 << 1000;
    // Whole chunk lists at once, cursors cheap: always merge.
    QTest::newRow("merge only") << quint64(5) << 3000 << 500u << 50u << 8u << 1000000 << 1;
    QTest::newRow("hot address closes slices") << quint64(6) << 4000 << 100000u << 5u << 2u << 512 << 16;
}

void TestHalfAxisQuery::matchesOracleOnRandomStreams()
{
    QFETCH(quint64, seed);
    QFETCH(int, count);
    QFETCH(quint32, sliceCap);
    QFETCH(quint32, chunkCap);
    QFETCH(quint32, chunkTarget);
    QFETCH(int, scanStep);
    QFETCH(int, cursorCost);

    const QList<Access> stream = randomStream(seed, count);
    const QString path = m_dir.filePath(QStringLiteral("random-%1.memhist").arg(seed));
    WriterOptions options;
    options.sliceAccessCap = sliceCap;
    options.chunkAccessCap = chunkCap;
    options.chunkTargetAccesses = chunkTarget;
    QString error;
    QVERIFY2(test::writeHistory(path, stream, options, &error), qPrintable(error));

    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QCOMPARE(db->summary().accesses, count);
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    if (quint32(count) > sliceCap)
        QVERIFY(report.slices > 1);
    QVERIFY(report.largestChunk <= qint64(chunkCap));

    HalfAxisQueryEngine engine(*db, QueryTuning { scanStep, cursorCost });
    std::mt19937_64 random(seed * 7919);
    int nonEmpty = 0;
    for (int i = 0; i < 400; ++i) {
        HalfAxisQuery query = randomQuery(random, stream);
        QueryPage page;
        QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
        const QueryPage expected = test::oracle(stream, query);
        QVERIFY2(page.accesses == expected.accesses, qPrintable(describe(query)));
        QCOMPARE(page.exhausted, expected.exhausted);
        nonEmpty += !page.accesses.isEmpty();

        // Paging by resume walks exactly the unlimited answer, each row once.
        if (query.limit == 0)
            continue;
        HalfAxisQuery all = query;
        all.limit = quint64(stream.size()) + 1;
        const QList<Access> expectedAll = test::oracle(stream, all).accesses;
        QList<Access> paged = page.accesses;
        QueryPage current = page;
        while (current.resumePoint()) {
            HalfAxisQuery next = query;
            next.resumeAfter = current.resumePoint();
            QVERIFY2(engine.run(next, &current, &error), qPrintable(error));
            QVERIFY2(current.accesses == test::oracle(stream, next).accesses, qPrintable(describe(next)));
            paged += current.accesses;
        }
        QCOMPARE(rowIds(paged), rowIds(expectedAll));
    }
    QVERIFY(nonEmpty > 100); // the random queries do find accesses
}

void TestHalfAxisQuery::edgeCases_data()
{
    QTest::addColumn<bool>("forward");
    QTest::addColumn<qint64>("at"); // -1: default
    QTest::addColumn<quint64>("limit");
    QTest::addColumn<QList<qint64>>("expectedRowIds");

    // The stream (rowid: transition): 1:10 2:10 3:11 | gap | 4:500 5:501 6:501 | 7:900
    QTest::newRow("forward before the first slice")
        << true << qint64(0) << quint64(100) << QList<qint64> { 1, 2, 3, 4, 5, 6, 7 };
    QTest::newRow("forward after the last slice") << true << qint64(901) << quint64(100) << QList<qint64> {};
    QTest::newRow("backward before the first slice") << false << qint64(9) << quint64(100) << QList<qint64> {};
    QTest::newRow("backward after the last slice")
        << false << qint64(5000) << quint64(100) << QList<qint64> { 7, 6, 5, 4, 3, 2, 1 };
    QTest::newRow("forward from a gap") << true << qint64(100) << quint64(100) << QList<qint64> { 4, 5, 6, 7 };
    QTest::newRow("backward from a gap") << false << qint64(100) << quint64(100) << QList<qint64> { 3, 2, 1 };
    QTest::newRow("backward by default starts at the end")
        << false << qint64(-1) << quint64(2) << QList<qint64> { 7, 6 };
    QTest::newRow("forward within one transition") << true << qint64(501) << quint64(2) << QList<qint64> { 5, 6 };
    QTest::newRow("backward within one transition") << false << qint64(501) << quint64(2) << QList<qint64> { 6, 5 };
    QTest::newRow("limit 0") << true << qint64(0) << quint64(0) << QList<qint64> {};
    QTest::newRow("limit 2^64-1") << false << qint64(-1) << ~quint64(0) << QList<qint64> { 7, 6, 5, 4, 3, 2, 1 };
}

void TestHalfAxisQuery::edgeCases()
{
    QFETCH(bool, forward);
    QFETCH(qint64, at);
    QFETCH(quint64, limit);
    QFETCH(QList<qint64>, expectedRowIds);

    const QString path = m_dir.filePath(QStringLiteral("edges.memhist"));
    if (!QFile::exists(path)) {
        QList<Access> stream;
        const std::uint64_t transitions[] = { 10, 10, 11, 500, 501, 501, 900 };
        for (std::uint64_t t : transitions) {
            Access a;
            a.transition = Transition { t };
            a.physical = Address { 0x1000 + 8 * t };
            a.size = 8;
            stream << a;
        }
        WriterOptions options;
        options.sliceAccessCap = 3; // slices {10,11}, {500,501}, {900}: gaps between them
        QString error;
        QVERIFY2(test::writeHistory(path, stream, options, &error), qPrintable(error));
    }
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QCOMPARE(db->summary().slices, 3);
    HalfAxisQueryEngine engine(*db);
    HalfAxisQuery query;
    query.direction = forward ? Direction::Forward : Direction::Backward;
    if (at >= 0)
        query.at = Transition { quint64(at) };
    query.limit = limit;
    QueryPage page;
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QCOMPARE(rowIds(page.accesses), expectedRowIds);
    QCOMPARE(page.exhausted, quint64(expectedRowIds.size()) < limit);
}

void TestHalfAxisQuery::rejectsInvalidQueries_data()
{
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("last");
    QTest::addColumn<int>("operations");
    QTest::addColumn<QString>("message");
    QTest::newRow("A > B") << quint64(0x2000) << quint64(0x1000) << 6
                           << QStringLiteral("empty address range: from 0x2000 is above to 0x1000");
    QTest::newRow("no operation") << quint64(0) << quint64(1) << 0 << QStringLiteral("no operation selected");
}

void TestHalfAxisQuery::rejectsInvalidQueries()
{
    QFETCH(quint64, first);
    QFETCH(quint64, last);
    QFETCH(int, operations);
    QFETCH(QString, message);
    const auto db = openEmptyHistory(QStringLiteral("empty.memhist"));
    QVERIFY(db);
    QString error;
    HalfAxisQueryEngine engine(*db);
    HalfAxisQuery query;
    query.first = Address { first };
    query.last = Address { last };
    query.operations = Operations::fromInt(operations);
    QueryPage page;
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error, message);

    // The empty database itself answers every valid query with nothing.
    query.first = Address { 0 };
    query.last = Address { top };
    query.operations = allOperations();
    QVERIFY(engine.run(query, &page, &error));
    QVERIFY(page.accesses.isEmpty());
    QVERIFY(page.exhausted);
}

void TestHalfAxisQuery::neededRangesKeepTheirMatches_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("scanStep");
    QTest::addColumn<int>("cursorCost");

    QTest::newRow("default plan") << quint64(41) << 512 << 16;
    QTest::newRow("alternate, then merge") << quint64(42) << 3 << 1;
    QTest::newRow("scan to the end") << quint64(43) << 4 << 1000;
}

// HalfAxisQuery::needed: each page holds, in order, every match overlapping the needed ranges up to
// its last row (all of them when exhausted), besides other matches of the window only; paging to the
// end walks exactly the matches overlapping them. Chunks are skipped.
void TestHalfAxisQuery::neededRangesKeepTheirMatches()
{
    QFETCH(quint64, seed);
    QFETCH(int, scanStep);
    QFETCH(int, cursorCost);

    const QList<Access> stream = randomStream(seed, 3000);
    const QString path = m_dir.filePath(QStringLiteral("needed-%1.memhist").arg(seed));
    WriterOptions options;
    options.sliceAccessCap = 200;
    options.chunkAccessCap = 16;
    options.chunkTargetAccesses = 4;
    QString error;
    QVERIFY2(test::writeHistory(path, stream, options, &error), qPrintable(error));
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    HalfAxisQueryEngine engine(*db, QueryTuning { scanStep, cursorCost });
    std::mt19937_64 random(seed * 7919);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    qint64 skipped = 0;
    int neededFound = 0;
    for (int i = 0; i < 300; ++i) {
        HalfAxisQuery query = randomQuery(random, stream);
        query.limit = below(40) + 1;
        // Up to three short ranges at addresses the stream accesses, inside the window.
        for (int k = 0; k < 3; ++k) {
            const std::uint64_t start = stream[qsizetype(below(stream.size()))].physical.value;
            const std::uint64_t end = start + below(8);
            if (start < query.first.value || end > query.last.value || end < start)
                continue;
            if (!query.needed.isEmpty() && start <= query.needed.constLast().last.value)
                continue;
            query.needed.append({ Address { start }, Address { end } });
        }
        if (query.needed.isEmpty())
            query.needed.append({ query.first, query.first });
        const auto overlapsNeeded = [&](const Access &access) {
            return std::any_of(query.needed.begin(), query.needed.end(), [&](const AddressRange &range) {
                return access.physical <= range.last && access.lastByte() >= range.first;
            });
        };
        HalfAxisQuery every = query;
        every.needed.clear();
        every.limit = quint64(stream.size()) + 1;
        const QList<Access> matches = test::oracle(stream, every).accesses;
        QList<qint64> expected;
        for (const Access &access : matches) {
            if (overlapsNeeded(access))
                expected << access.rowId.value;
        }
        neededFound += !expected.isEmpty();

        QList<qint64> paged;
        QueryPage page;
        HalfAxisQuery next = query;
        for (;;) {
            QVERIFY2(engine.run(next, &page, &error), qPrintable(error));
            skipped += engine.lastStats().chunksSkipped;
            QList<qint64> onPage;
            for (const Access &access : std::as_const(page.accesses)) {
                QVERIFY2(matches.contains(access), qPrintable(describe(next)));
                if (overlapsNeeded(access))
                    onPage << access.rowId.value;
            }
            // Every needed match between the page's start and its last row is on it.
            const qsizetype from = paged.size();
            qsizetype to = expected.size();
            if (!page.exhausted) {
                const qint64 lastRow = page.accesses.constLast().rowId.value;
                const bool forward = query.direction == Direction::Forward;
                to = from;
                while (to < expected.size() && (forward ? expected[to] <= lastRow : expected[to] >= lastRow))
                    ++to;
            }
            QVERIFY2(onPage == expected.mid(from, to - from), qPrintable(describe(next)));
            paged += onPage;
            if (page.exhausted)
                break;
            next.resumeAfter = page.resumePoint();
        }
        QCOMPARE(paged, expected);
    }
    QVERIFY(neededFound > 50);
    QVERIFY(skipped > 0);
}

void TestHalfAxisQuery::rejectsBadNeededRanges()
{
    const auto db = openEmptyHistory(QStringLiteral("empty-needed.memhist"));
    QVERIFY(db);
    QString error;
    HalfAxisQueryEngine engine(*db);
    HalfAxisQuery query;
    query.first = Address { 0x1000 };
    query.last = Address { 0x1fff };
    query.needed = { { Address { 0x1100 }, Address { 0x1200 } }, { Address { 0x1200 }, Address { 0x1300 } } };
    QueryPage page;
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error,
        QStringLiteral("needed range 2 (from 0x1200 to 0x1300) is not inside the window from 0x1000 to 0x1fff, "
                       "after the range before it"));
    query.needed = { { Address { 0x0fff }, Address { 0x1000 } } };
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error,
        QStringLiteral("needed range 1 (from 0xfff to 0x1000) is not inside the window from 0x1000 to 0x1fff, "
                       "after the range before it"));
    query.needed = { { Address { 0x1000 }, Address { 0x1000 } }, { Address { 0x1fff }, Address { 0x1fff } } };
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QVERIFY(page.exhausted);
}

void TestHalfAxisQuery::answersForeignDatabaseExactly()
{
    // As the reference writer can: slice 2 starts on the transition slice 1 ends on (20), chunks of
    // both operations overlap, `linear` is NULL on some rows.
    using namespace memhist::test;
    const QList<ForeignSlice> slices { { 10, 20 }, { 20, 30 }, { 40, 40 } };
    const QList<ForeignChunk> chunks {
        { 1, 0x1000, 0x100f, Operation::Read }, // 1
        { 1, 0x1008, 0x100f, Operation::Write }, // 2
        { 2, 0x1000, 0x1007, Operation::Read }, // 3
        { 2, 0x2000, 0x2003, Operation::Read }, // 4
        { 3, 0x1000, 0x1000, Operation::Write }, // 5
    };
    const QList<ForeignAccess> accesses {
        { 1, 10, 0x1000, 0x1000, 8, Operation::Read }, // rowid 1
        { 2, 15, std::nullopt, 0x1008, 8, Operation::Write }, // 2
        { 1, 20, 0x1008, 0x1008, 8, Operation::Read }, // 3: last transition of slice 1
        { 3, 20, std::nullopt, 0x1000, 8, Operation::Read }, // 4: same transition, slice 2
        { 4, 25, 0x2000, 0x2000, 4, Operation::Read }, // 5
        { 3, 30, 0x1004, 0x1004, 4, Operation::Read }, // 6
        { 5, 40, 0x1000, 0x1000, 1, Operation::Write }, // 7
    };
    const QString path = m_dir.filePath(QStringLiteral("foreign.memhist"));
    QVERIFY(writeForeignDatabase(path, slices, chunks, accesses));

    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QVERIFY(!db->hasMeta());
    QCOMPARE(db->summary().accesses, 7);
    QCOMPARE(db->summary().reads, 5);
    QCOMPARE(db->summary().writes, 2);
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));

    // The same stream as the oracle sees it.
    QList<Access> stream;
    for (qsizetype i = 0; i < accesses.size(); ++i) {
        const ForeignAccess &f = accesses[i];
        Access a;
        a.rowId = RowId { i + 1 };
        a.transition = Transition { f.transition };
        a.operation = f.operation;
        a.physical = Address { f.physical };
        if (f.linear)
            a.linear = Address { *f.linear };
        a.size = f.size;
        stream << a;
    }

    for (const QueryTuning tuning : { QueryTuning {}, QueryTuning { 1, 1000 }, QueryTuning { 2, 1 } }) {
        HalfAxisQueryEngine engine(*db, tuning);
        for (const Direction direction : { Direction::Forward, Direction::Backward }) {
            for (std::uint64_t at = 0; at <= 45; ++at) {
                using Range = std::pair<std::uint64_t, std::uint64_t>;
                for (const auto &[first, last] : { Range { 0, top }, Range { 0x1000, 0x1000 }, Range { 0x1008, 0x1008 },
                         Range { 0x1fff, 0x2000 } }) {
                    for (quint64 limit : { 1ull, 2ull, 100ull }) {
                        HalfAxisQuery query;
                        query.direction = direction;
                        query.at = Transition { at };
                        query.first = Address { first };
                        query.last = Address { last };
                        query.operations = allOperations();
                        query.limit = limit;
                        QueryPage page;
                        QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
                        QVERIFY2(page.accesses == oracle(stream, query).accesses, qPrintable(describe(query)));
                    }
                }
            }
        }
        // At the shared transition 20, rows come in rowid order across the two slices.
        HalfAxisQuery atShared;
        atShared.at = Transition { 20 };
        atShared.operations = allOperations();
        atShared.limit = 2;
        QueryPage page;
        QVERIFY(engine.run(atShared, &page, &error));
        QCOMPARE(rowIds(page.accesses), (QList<qint64> { 3, 4 }));
        atShared.direction = Direction::Backward;
        QVERIFY(engine.run(atShared, &page, &error));
        QCOMPARE(rowIds(page.accesses), (QList<qint64> { 4, 3 }));
        QVERIFY(page.accesses[1].linear == Address { 0x1008 });
        QVERIFY(!page.accesses[0].linear.has_value()); // NULL in the database
    }
}

// Databases with a damaged page (found by the historydatabase fuzzer): the query fails with
// SQLite's reason, not the "not an error" read after the statements that failed were finalized or
// another statement was reset.
void TestHalfAxisQuery::damagedFileGivesSqliteReason_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<int>("cursorCost"); // 1000: the engine scans rows rather than merging chunks
    QTest::addColumn<QString>("expected");
    QTest::newRow("page under the last rowid, met when loading")
        << QStringLiteral("historydatabase-corrupt-rowid-page.memhist") << false << 16
        << QStringLiteral("cannot read accesses: database disk image is malformed");
    QTest::newRow("page met while scanning a slice")
        << QStringLiteral("historydatabase-corrupt-chunk-page.memhist") << false << 1000
        << QStringLiteral("cannot read accesses: database disk image is malformed");
}

void TestHalfAxisQuery::damagedFileGivesSqliteReason()
{
    QFETCH(QString, file);
    QFETCH(bool, backward);
    QFETCH(int, cursorCost);
    QFETCH(QString, expected);
    const QString path = QFINDTESTDATA(QStringLiteral("data/fuzz/") + file);
    QVERIFY(!path.isEmpty());
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    HalfAxisQueryEngine engine(*database, QueryTuning { 1, cursorCost });
    HalfAxisQuery query;
    query.direction = backward ? Direction::Backward : Direction::Forward;
    query.operations = allOperations();
    QueryPage page;
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error, expected);
}

// A damaged table that answers "the first row at or after rowid 160" with row 141 (found by the
// historydatabase fuzzer as a hang: the binary search over rowids never ended). The search, and so
// the query, must end.
void TestHalfAxisQuery::timeSearchEndsOnDamagedRowOrder()
{
    const QString path = QFINDTESTDATA("data/fuzz/historydatabase-rowids-out-of-order.memhist");
    QVERIFY(!path.isEmpty());
    QString error;
    auto database = HistoryDatabase::open(path, &error);
    QVERIFY2(database, qPrintable(error));
    RowIdSearch search(database->connection());
    QVERIFY(search.load());
    QCOMPARE(search.lastRowIdAtOrBefore(119), 140);

    HalfAxisQueryEngine engine(*database, QueryTuning { 1, 1000 });
    HalfAxisQuery query;
    query.direction = Direction::Backward;
    query.operations = allOperations();
    query.limit = 16;
    QueryPage page;
    // It ends with a page or an error (an engine that checks what it reads may refuse the rows).
    QVERIFY(engine.run(query, &page, &error) || !error.isEmpty());
}

void TestHalfAxisQuery::summaryPathMatchesOracle_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("count");
    QTest::addColumn<quint32>("sliceCap");
    QTest::addColumn<int>("scanStep");
    QTest::addColumn<int>("cursorCost");
    QTest::addColumn<quint64>("maxLimit"); // pages of 1..maxLimit rows: small ones resume across skipped slices

    QTest::newRow("sparse, 100 slices, default plan") << quint64(21) << 4000 << 40u << 512 << 16 << quint64(8);
    QTest::newRow("sparse, pages of one row") << quint64(22) << 4000 << 40u << 512 << 16 << quint64(1);
    QTest::newRow("sparse, larger slices, scan to the end") << quint64(23) << 6000 << 150u << 4 << 1000 << quint64(5);
    QTest::newRow("sparse, merge only") << quint64(24) << 6000 << 90u << 1000000 << 1 << quint64(20);
}

// Every query answered twice, through the address summary and on the plain path (every slice
// visited), both equal to the oracle, page after page; the summary path visits fewer slices.
void TestHalfAxisQuery::summaryPathMatchesOracle()
{
    QFETCH(quint64, seed);
    QFETCH(int, count);
    QFETCH(quint32, sliceCap);
    QFETCH(int, scanStep);
    QFETCH(int, cursorCost);
    QFETCH(quint64, maxLimit);

    const QList<Access> stream = sparseStream(seed, count);
    const QString path = m_dir.filePath(QStringLiteral("sparse-%1.memhist").arg(seed));
    WriterOptions options;
    options.sliceAccessCap = sliceCap;
    options.chunkAccessCap = 16;
    options.chunkTargetAccesses = 4;
    QString error;
    QVERIFY2(test::writeHistory(path, stream, options, &error), qPrintable(error));
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));
    QVERIFY(report.slices >= qint64(count) / qint64(sliceCap) - 1);

    QueryTuning tuning { scanStep, cursorCost };
    HalfAxisQueryEngine summary(*db, tuning);
    tuning.useAddressSummary = false;
    HalfAxisQueryEngine plain(*db, tuning);
    std::mt19937_64 random(seed * 104729);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    qint64 summaryVisits = 0;
    qint64 plainVisits = 0;
    int narrowQueries = 0;
    int pages = 0;
    for (int i = 0; i < 150; ++i) {
        HalfAxisQuery query;
        query.direction = below(2) ? Direction::Forward : Direction::Backward;
        query.at = Transition { below(stream.constLast().transition.value + 2) };
        const std::uint64_t widths[] = { 1, 64, 4096, 0x10000, 0x100000, 0 };
        const std::uint64_t width = widths[below(6)];
        const std::uint64_t centre = stream[qsizetype(below(stream.size()))].physical.value;
        if (width == 0) {
            query.first = Address { 0 };
            query.last = Address { top };
        } else {
            const std::uint64_t start = centre > width / 2 ? centre - width / 2 : 0;
            query.first = Address { start };
            query.last = Address { start > top - (width - 1) ? top : start + width - 1 };
        }
        query.operations = Operations::fromInt(int(below(7) + 1));
        query.limit = 1 + below(maxLimit);
        const bool narrow = width != 0 && width <= 4096;
        narrowQueries += narrow;

        // Page by resume to the end of the answer, on both paths.
        HalfAxisQuery current = query;
        for (;;) {
            QueryPage summaryPage;
            QueryPage plainPage;
            QVERIFY2(summary.run(current, &summaryPage, &error), qPrintable(error));
            QVERIFY2(plain.run(current, &plainPage, &error), qPrintable(error));
            const QueryPage expected = test::oracle(stream, current);
            QVERIFY2(summaryPage.accesses == expected.accesses, qPrintable(describe(current)));
            QVERIFY2(plainPage.accesses == expected.accesses, qPrintable(describe(current)));
            QCOMPARE(summaryPage.exhausted, expected.exhausted);
            // Only a resume past the last match returns before choosing slices.
            QVERIFY2(summary.lastStats().usedAddressSummary || summary.lastStats().slicesVisited == 0,
                qPrintable(describe(current)));
            QCOMPARE(plain.lastStats().usedAddressSummary, false);
            if (narrow) {
                summaryVisits += summary.lastStats().slicesVisited;
                plainVisits += plain.lastStats().slicesVisited;
            }
            ++pages;
            if (!summaryPage.resumePoint())
                break;
            current.resumeAfter = summaryPage.resumePoint();
        }
    }
    QVERIFY(narrowQueries > 50);
    QVERIFY(pages > 300);
    // Narrow windows meet a few slices each: the summary skips most of what the plain path visits.
    QVERIFY2(summaryVisits * 3 < plainVisits,
        qPrintable(
            QStringLiteral("%1 slices visited with the summary, %2 without").arg(summaryVisits).arg(plainVisits)));
}

void TestHalfAxisQuery::threadFilterMatchesOracle_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("count");
    QTest::addColumn<quint32>("sliceCap");
    QTest::addColumn<int>("scanStep");
    QTest::addColumn<int>("cursorCost");
    QTest::addColumn<bool>("useSummary");

    QTest::newRow("default plan, tiny caps") << quint64(31) << 3000 << 40u << 512 << 16 << true;
    QTest::newRow("default plan, without the summary") << quint64(32) << 3000 << 40u << 512 << 16 << false;
    QTest::newRow("alternate, then merge") << quint64(33) << 3000 << 200u << 3 << 1 << true;
    QTest::newRow("scan to the end") << quint64(34) << 3000 << 200u << 4 << 1000 << false;
    QTest::newRow("merge only, large slices") << quint64(35) << 3000 << 2000u << 1000000 << 1 << true;
}

// Random streams with random spans of four threads (and gaps no thread ran), random queries with a
// filter of one thread, two, all four or one the history does not know: each page equals the
// oracle's answer over the accesses of the filter's transitions, in both directions, paging by
// resume walks the whole answer, and limits count filtered rows.
void TestHalfAxisQuery::threadFilterMatchesOracle()
{
    QFETCH(quint64, seed);
    QFETCH(int, count);
    QFETCH(quint32, sliceCap);
    QFETCH(int, scanStep);
    QFETCH(int, cursorCost);
    QFETCH(bool, useSummary);

    const QList<Access> stream = randomStream(seed, count);
    const QList<RandomSpan> spans = randomSpans(seed * 31, stream.constLast().transition.value);
    const QString path = m_dir.filePath(QStringLiteral("threads-%1.memhist").arg(seed));
    WriterOptions options;
    options.sliceAccessCap = sliceCap;
    options.chunkAccessCap = 16;
    options.chunkTargetAccesses = 4;
    {
        HistoryWriter writer(path, options);
        QVERIFY2(writer.open(), qPrintable(writer.errorString()));
        for (const Access &access : stream)
            QVERIFY2(writer.add(access), qPrintable(writer.errorString()));
        for (const RandomSpan &span : spans)
            writer.addThreadSpan(span.thread, Transition { span.first }, Transition { span.last });
        QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    }
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    const CheckReport report = HistoryChecker(*db).run();
    QVERIFY2(report.ok, qPrintable(report.violation));

    QList<qint64> threadOfRow { -1 }; // by rowid
    for (const Access &access : stream)
        threadOfRow.append(threadOf(spans, access.transition.value));

    // Each thread's access count (what the viewer's filter lists) is its accesses by the spans.
    QMap<qint64, qint64> expectedCounts;
    for (const RandomSpan &span : spans)
        expectedCounts[span.thread] += 0;
    for (const qint64 thread : threadOfRow.mid(1)) {
        if (thread >= 0)
            ++expectedCounts[thread];
    }
    QList<ThreadAccessCount> counts;
    QVERIFY2(threadAccessCounts(*db, &counts, &error), qPrintable(error));
    QMap<qint64, qint64> countedByThread;
    for (const ThreadAccessCount &count : counts)
        countedByThread.insert(count.threadId, count.accesses);
    QCOMPARE(countedByThread, expectedCounts);

    QueryTuning tuning { scanStep, cursorCost };
    tuning.useAddressSummary = useSummary;
    HalfAxisQueryEngine engine(*db, tuning);
    std::mt19937_64 random(seed * 6007);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    const QList<QList<qint64>> filters = { { 1 }, { 2 }, { 7 }, { 2, 3 }, { 3, 1 }, { 1, 2, 3, 7 }, { 99 }, { 7, 99 } };
    int nonEmpty = 0;
    int pages = 0;
    for (int i = 0; i < 300; ++i) {
        HalfAxisQuery query = randomQuery(random, stream);
        query.setThreads(filters[qsizetype(below(filters.size()))]);
        if (query.limit == 0)
            query.limit = 1 + below(5);
        QList<Access> filtered;
        for (const Access &access : stream) {
            if (query.threads.contains(threadOfRow[access.rowId.value]))
                filtered.append(access);
        }
        HalfAxisQuery current = query;
        QList<Access> paged;
        for (;;) {
            QueryPage page;
            QVERIFY2(engine.run(current, &page, &error), qPrintable(error));
            const QueryPage expected = test::oracle(filtered, current);
            QVERIFY2(page.accesses == expected.accesses, qPrintable(describe(current)));
            QCOMPARE(page.exhausted, expected.exhausted);
            ++pages;
            nonEmpty += !page.accesses.isEmpty();
            paged += page.accesses;
            if (!page.resumePoint())
                break;
            current.resumeAfter = page.resumePoint();
        }
        HalfAxisQuery all = query;
        all.limit = quint64(stream.size()) + 1;
        QCOMPARE(rowIds(paged), rowIds(test::oracle(filtered, all).accesses));
    }
    QVERIFY(nonEmpty > 100);
    QVERIFY(pages > 400);
}

// A filter on a history without thread_spans is refused, with or without a limit; without a
// filter the same history answers.
void TestHalfAxisQuery::threadFilterNeedsThreadSpans()
{
    const QList<Access> stream = randomStream(41, 200);
    const QString path = m_dir.filePath(QStringLiteral("no-threads.memhist"));
    QString error;
    QVERIFY2(test::writeHistory(path, stream, {}, &error), qPrintable(error));
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    HalfAxisQueryEngine engine(*db);
    HalfAxisQuery query;
    query.setThreads({ 1 });
    QueryPage page;
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error, QStringLiteral("this history records no threads"));
    QVERIFY(page.accesses.isEmpty());
    query.limit = 0;
    error.clear();
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error, QStringLiteral("this history records no threads"));
    query.setThreads({});
    query.limit = 5;
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QCOMPARE(rowIds(page.accesses), QList<qint64>({ 1, 2, 3, 4, 5 }));
    QList<ThreadAccessCount> counts { { 1, 2, 3 } };
    QVERIFY2(threadAccessCounts(*db, &counts, &error), qPrintable(error));
    QVERIFY(counts.isEmpty());
}

// Overlapping spans (another writer's damage; memhist check does not read thread_spans) make a
// filtered query fail, naming both spans, in either direction; without a filter it answers.
void TestHalfAxisQuery::threadFilterRefusesOverlappingSpans()
{
    const QList<Access> stream = randomStream(42, 100);
    const QString path = m_dir.filePath(QStringLiteral("overlapping-spans.memhist"));
    {
        HistoryWriter writer(path, {});
        QVERIFY2(writer.open(), qPrintable(writer.errorString()));
        for (const Access &access : stream)
            QVERIFY2(writer.add(access), qPrintable(writer.errorString()));
        writer.addThreadSpan(1, Transition { 0 }, Transition { 10 });
        writer.addThreadSpan(2, Transition { 5 }, Transition { 20 });
        QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    }
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    HalfAxisQueryEngine engine(*db);
    HalfAxisQuery query;
    query.setThreads({ 2 });
    QueryPage page;
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error,
        QStringLiteral("the thread_spans table is damaged: span [5, 20] of thread 2 overlaps span [0, 10] of thread 1 "
                       "(spans never overlap)"));
    query.direction = Direction::Backward;
    QVERIFY(!engine.run(query, &page, &error));
    QCOMPARE(error,
        QStringLiteral("the thread_spans table is damaged: span [0, 10] of thread 1 overlaps span [5, 20] of thread 2 "
                       "(spans never overlap)"));
    query.setThreads({});
    query.limit = 3;
    QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
    QCOMPARE(page.accesses.size(), 3);
}

namespace {

// The name of the VFS chain a connection reads its main file through ("memhist-whole-file-map/unix").
QString vfsNameOf(sqlite::Connection &connection)
{
    char *name = nullptr;
    if (sqlite3_file_control(connection.handle(), "main", SQLITE_FCNTL_VFSNAME, &name) != SQLITE_OK || !name)
        return {};
    const QString text = QString::fromUtf8(name);
    sqlite3_free(name);
    return text;
}

} // namespace

void TestHalfAxisQuery::wholeFileMapServesEveryPage()
{
    // A reader maps the whole file (core/storage/wholefilemap.h). With SQLite's own map cut to one
    // page, every other page a query reads comes from that map: the answers must not change.
    const QList<Access> stream = randomStream(404, 20000);
    const QString path = m_dir.filePath(QStringLiteral("mapped.memhist"));
    WriterOptions options;
    options.sliceAccessCap = 500;
    options.chunkAccessCap = 40;
    options.chunkTargetAccesses = 8;
    QString error;
    QVERIFY2(test::writeHistory(path, stream, options, &error), qPrintable(error));
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QCOMPARE(vfsNameOf(db->connection()).section(u'/', 0, 0), QStringLiteral("memhist-whole-file-map"));
    sqlite::Statement pageSize = db->connection().prepare("PRAGMA page_size");
    QCOMPARE(pageSize.step(), SQLITE_ROW);
    const qint64 page = pageSize.int64(0);
    QVERIFY2(QFileInfo(path).size() > 8 * page, qPrintable(QString::number(QFileInfo(path).size())));
    // SQLite's own map: the first page only.
    QVERIFY(db->connection().execute(QByteArray("PRAGMA mmap_size = " + QByteArray::number(page)).constData()));

    HalfAxisQueryEngine engine(*db);
    std::mt19937_64 random(4040);
    int nonEmpty = 0;
    for (int i = 0; i < 300; ++i) {
        const HalfAxisQuery query = randomQuery(random, stream);
        QueryPage page;
        QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
        const QueryPage expected = test::oracle(stream, query);
        QVERIFY2(page.accesses == expected.accesses, qPrintable(describe(query)));
        nonEmpty += !page.accesses.isEmpty();
    }
    QVERIFY(nonEmpty > 100);
}

void TestHalfAxisQuery::walFramesWinOverTheMap()
{
    // The map shows the main file; a page changed in a -wal that a writer still holds open must be
    // read from the -wal (SQLite looks there first), not from the map.
    const QList<Access> stream = randomStream(405, 2000);
    const QString path = m_dir.filePath(QStringLiteral("wal.memhist"));
    QString error;
    QVERIFY2(test::writeHistory(path, stream, WriterOptions {}, &error), qPrintable(error));
    sqlite::Connection writer;
    QVERIFY(writer.open(path, sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY(writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"));
    const qint64 changed = stream[1000].transition.value + 1000000;
    QVERIFY(writer.execute(
        QByteArray("UPDATE accesses SET transition = " + QByteArray::number(changed) + " WHERE rowid = 1001")
            .constData()));
    QVERIFY(QFileInfo(path + QStringLiteral("-wal")).size() > 0);

    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QCOMPARE(vfsNameOf(db->connection()).section(u'/', 0, 0), QStringLiteral("memhist-whole-file-map"));
    sqlite::Statement read = db->connection().prepare("SELECT transition FROM accesses WHERE rowid = 1001");
    QCOMPARE(read.step(), SQLITE_ROW);
    QCOMPARE(read.int64(0), changed);
}

QTEST_GUILESS_MAIN(TestHalfAxisQuery)
#include "tst_halfaxisquery.moc"
