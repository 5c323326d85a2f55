// SPDX-License-Identifier: MIT
// Databases laid out as the public reference writer lays them out (tests/referencelayout.h):
// descending chunk order with reads and writes interleaved, slices sharing a boundary transition,
// NULL `linear`, `_metadata`, idx_accesses_2(transition) and discard_after leftovers. `memhist
// check` passes them with exactly the notes due, the half-axis query answers exactly what a
// brute-force oracle answers, and each damaged copy is refused with its first violation named.

#include "core/checker/historychecker.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "referencelayout.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <random>
#include <set>

using namespace memhist;
using test::ReferenceLayout;
using test::ReferenceLimits;

Q_DECLARE_METATYPE(ReferenceLimits)

namespace {

constexpr auto R = Operation::Read;
constexpr auto W = Operation::Write;
constexpr std::uint64_t twoTo63 = std::uint64_t(1) << 63;

Access physicalOnly(std::uint64_t transition, Operation operation, std::uint64_t address, std::uint32_t size)
{
    Access access = test::userAccess(transition, operation, address, size);
    access.linear.reset();
    return access;
}

// Small enough to follow by hand with the limits below (overlap 3, touch 2, 4 accesses per side):
// the read side is full at transition 3, so the read at 4 starts slice 2 on the transition slice 1
// ends on (its write side reached 4); the read at 10 starts slice 3. discard_after(8) then empties
// chunks 7, 11 and 12 and leaves bytes 0x608..0x609 of chunk 9 uncovered.
QList<Access> handBuiltStream()
{
    using test::userAccess;
    return {
        userAccess(0, R, 0x100, 4), // 1
        userAccess(0, W, 0x200, 8), // 2
        userAccess(1, R, 0x104, 4), // 3: touches 1, merged with it when the slice is written
        userAccess(2, R, 0x400, 2), // 4
        physicalOnly(2, W, 0x204, 4), // 5: overlaps 2, merged at once
        userAccess(3, R, 0x500, 1), // 6: the read side is full
        userAccess(3, W, 0x100, 2), // 7: over the reads' range, other operation
        userAccess(4, W, 0x208, 8), // 8: touches 2+5, but 3 accesses would pass the touch limit
        userAccess(4, R, 0x600, 4), // 9: refused by the full read side: slice 2 starts at 4
        userAccess(5, R, 0x604, 4), // 10
        userAccess(5, W, 0x700, 4), // 11
        userAccess(6, R, 0x600, 2), // 12: overlaps 9
        physicalOnly(7, W, 0x704, 4), // 13: touches 11, merged with it
        userAccess(8, R, 0x606, 4), // 14: overlaps 10; discarded
        userAccess(9, W, 0x900, 4), // 15: discarded
        userAccess(10, R, 0xa00, 4), // 16: slice 3; discarded
        userAccess(10, W, 0xa00, 2), // 17: discarded
    };
}
const ReferenceLimits handBuiltLimits { 3, 2, 4 };

// Reads and writes as a program makes them: runs of transitions with gaps, several accesses per
// transition, a hot address, addresses in both halves of the address space (never across 2^63).
QList<Access> randomStream(std::uint64_t seed, int count, std::uint64_t firstTransition = 0)
{
    std::mt19937_64 random(seed);
    const auto below = [&](std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random); };
    const std::uint64_t bases[] = { 0x1000, 0x555555560000, 0x7ffd12340000, 0x8000000000100000, 0xffffffffff000000 };
    const std::uint32_t sizes[] = { 1, 2, 4, 8, 8, 3 };
    QList<Access> stream;
    std::uint64_t transition = firstTransition;
    for (int i = 0; i < count; ++i) {
        const std::uint64_t roll = below(100);
        if (roll < 55)
            transition += 1;
        else if (roll < 60)
            transition += 1 + below(200);
        const Operation operation = below(10) < 6 ? R : W;
        const bool hot = below(6) == 0;
        Access access = test::userAccess(transition, operation,
            hot ? 0x7ffd12340100 : bases[below(std::size(bases))] + below(0x400), hot ? 8 : sizes[below(6)]);
        if (below(4) == 0)
            access.linear.reset();
        else
            access.linear = Address { access.physical.value ^ 0x10000 };
        stream.append(access);
    }
    return stream;
}

// Rows of a table as text, to compare whole tables at once.
QStringList dump(const QString &path, const char *sql)
{
    sqlite::Connection db;
    QStringList rows;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return { db.lastError() };
    sqlite::Statement stmt = db.prepare(sql);
    if (!stmt.isValid())
        return { db.lastError() };
    const int columns = sqlite3_column_count(stmt.handle());
    while (stmt.step() == SQLITE_ROW) {
        QStringList values;
        for (int i = 0; i < columns; ++i)
            values << (stmt.isNull(i) ? QStringLiteral("NULL") : stmt.text(i));
        rows << values.join(u' ');
    }
    return rows;
}

bool execute(const QString &path, const QString &sql)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadWriteCreate) || !db.execute(sql.toUtf8().constData())) {
        qWarning() << path << sql << db.lastError();
        return false;
    }
    return true;
}

// An address as dump() shows it: the stored signed value.
std::uint64_t storedAddress(const QString &text)
{
    return fromStored(text.toLongLong());
}

std::int64_t integer(const QString &path, const char *sql)
{
    const QStringList rows = dump(path, sql);
    return rows.isEmpty() ? -1 : rows.first().toLongLong();
}

QString hexAddress(std::uint64_t value)
{
    return QStringLiteral("0x") + QString::number(value, 16);
}

// The checker's name for a chunk, written out here from the table.
QString chunkName(qint64 id, qint64 slice, std::int64_t operation, std::uint64_t first, std::uint64_t last)
{
    return QStringLiteral("chunk %1 (slice %2, %3, %4..%5)")
        .arg(QString::number(id), QString::number(slice), operation == 4 ? QStringLiteral("R") : QStringLiteral("W"),
            hexAddress(first), hexAddress(last));
}

// What `memhist check` must print on a layout, found the slow, obvious way: every chunk of every
// slice that ends after the last stored access is looked at byte by byte.
QByteArray bruteForceCheckOutput(const QString &path)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return {};
    struct Chunk
    {
        qint64 id;
        std::uint64_t first;
        std::uint64_t last;
        std::int64_t operation;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> accesses;
    };
    std::map<qint64, std::vector<qint64>> chunksOfSlice; // in rowid order
    std::map<qint64, Chunk> chunks;
    sqlite::Statement chunkRows
        = db.prepare("SELECT rowid, slice_id, phy_first, phy_last, operation FROM chunks ORDER BY rowid");
    while (chunkRows.step() == SQLITE_ROW) {
        chunks[chunkRows.int64(0)] = Chunk { chunkRows.int64(0), fromStored(chunkRows.int64(2)),
            fromStored(chunkRows.int64(3)), chunkRows.int64(4), {} };
        chunksOfSlice[chunkRows.int64(1)].push_back(chunkRows.int64(0));
    }
    qint64 accessCount = 0;
    std::int64_t lastTransition = -1;
    sqlite::Statement accessRows
        = db.prepare("SELECT chunk_id, phy_first, size, transition FROM accesses ORDER BY rowid");
    while (accessRows.step() == SQLITE_ROW) {
        const std::uint64_t first = fromStored(accessRows.int64(1));
        chunks[accessRows.int64(0)].accesses.push_back({ first, first + accessRows.int64(2) - 1 });
        lastTransition = accessRows.int64(3);
        ++accessCount;
    }
    std::size_t largest = 0;
    for (const auto &[id, chunk] : chunks)
        largest = std::max(largest, chunk.accesses.size());

    qint64 shared = 0;
    qint64 empty = 0;
    qint64 uncovered = 0;
    QString firstEmpty;
    QString firstUncovered;
    std::int64_t previousLast = -1;
    sqlite::Statement sliceRows
        = db.prepare("SELECT rowid, transition_first, transition_last FROM slices ORDER BY rowid");
    qint64 sliceCount = 0;
    while (sliceRows.step() == SQLITE_ROW) {
        ++sliceCount;
        const qint64 slice = sliceRows.int64(0);
        shared += sliceRows.int64(1) == previousLast;
        previousLast = sliceRows.int64(2);
        if (sliceRows.int64(2) <= lastTransition)
            continue;
        for (const qint64 id : chunksOfSlice[slice]) {
            const Chunk &chunk = chunks[id];
            const QString name = chunkName(id, slice, chunk.operation, chunk.first, chunk.last);
            if (chunk.accesses.empty()) {
                if (empty++ == 0)
                    firstEmpty = name;
                continue;
            }
            std::set<std::uint64_t> bytes;
            for (const auto &[first, last] : chunk.accesses) {
                for (std::uint64_t byte = first; byte <= last; ++byte)
                    bytes.insert(byte);
            }
            std::uint64_t hole = chunk.first;
            while (hole <= chunk.last && bytes.count(hole))
                ++hole;
            if (hole > chunk.last)
                continue;
            std::uint64_t holeLast = hole;
            while (holeLast < chunk.last && !bytes.count(holeLast + 1))
                ++holeLast;
            if (uncovered++ == 0) {
                firstUncovered = name
                    + (hole == holeLast ? QStringLiteral(", where byte %1 is uncovered").arg(hexAddress(hole))
                                        : QStringLiteral(", where bytes %1..%2 are uncovered")
                                              .arg(hexAddress(hole), hexAddress(holeLast)));
            }
        }
    }
    QString text = QStringLiteral("OK: %1 slices, %2 chunks, %3 accesses; every property holds\n")
                       .arg(sliceCount)
                       .arg(chunks.size())
                       .arg(accessCount);
    if (shared > 0) {
        text += QStringLiteral("note: %1 %2 a boundary transition with the previous slice (allowed; written by the "
                               "reference writer)\n")
                    .arg(QString::number(shared),
                        shared == 1 ? QStringLiteral("slice shares") : QStringLiteral("slices share"));
    }
    const QString allowed = QStringLiteral(": leftovers of discard_after, allowed in slices that end after the last "
                                           "stored access (transition %1); the first is ")
                                .arg(lastTransition);
    if (empty > 0) {
        text += QStringLiteral("note: %1 %2")
                    .arg(QString::number(empty),
                        empty == 1 ? QStringLiteral("chunk holds no access") : QStringLiteral("chunks hold no access"))
            + allowed + firstEmpty + u'\n';
    }
    if (uncovered > 0) {
        text += QStringLiteral("note: %1 %2")
                    .arg(QString::number(uncovered),
                        uncovered == 1 ? QStringLiteral("chunk has bytes covered by none of its accesses")
                                       : QStringLiteral("chunks have bytes covered by none of their accesses"))
            + allowed + firstUncovered + u'\n';
    }
    text += QStringLiteral("note: the chunk access cap is unknown (no chunk_access_cap in meta); the largest chunk "
                           "holds %1 accesses\n")
                .arg(largest);
    return text.toUtf8();
}

QString describe(const HalfAxisQuery &q)
{
    return QStringLiteral("%1 at=%2 [0x%3,0x%4] ops=%5 limit=%6 resume=%7")
        .arg(q.direction == Direction::Forward ? QStringLiteral("fwd") : QStringLiteral("bwd"))
        .arg(q.at ? QString::number(q.at->value) : QStringLiteral("-"))
        .arg(QString::number(q.first.value, 16), QString::number(q.last.value, 16))
        .arg(q.operations.toInt())
        .arg(q.limit)
        .arg(q.resumeAfter ? QString::number(q.resumeAfter->value) : QStringLiteral("-"));
}

} // namespace

class TestReferenceLayout : public QObject
{
    Q_OBJECT

private slots:
    void layoutFollowsTheReferenceWriter();
    void checkPassesWithNotes_data();
    void checkPassesWithNotes();
    void queriesMatchOracle_data();
    void queriesMatchOracle();
    void damagedCopiesAreRefused_data();
    void damagedCopiesAreRefused();

private:
    // The layout of one test row, built once per row name.
    QString build(const QList<Access> &stream, const ReferenceLimits &limits, std::optional<std::uint64_t> discard,
        ReferenceLayout *layout);

    QTemporaryDir m_dir;
};

QString TestReferenceLayout::build(const QList<Access> &stream, const ReferenceLimits &limits,
    std::optional<std::uint64_t> discard, ReferenceLayout *layout)
{
    const QString path
        = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_').replace(u'/', u'_')
            + QStringLiteral(".memhist"));
    QString error;
    if (!test::writeReferenceLayout(path, stream, limits, discard, layout, &error)) {
        qWarning() << "cannot build" << path << error;
        return {};
    }
    return path;
}

void TestReferenceLayout::layoutFollowsTheReferenceWriter()
{
    // The hand-built stream, followed by hand through the reference algorithm.
    ReferenceLayout layout;
    const QString path = m_dir.filePath(QStringLiteral("hand-built.memhist"));
    QString error;
    QVERIFY2(
        test::writeReferenceLayout(path, handBuiltStream(), handBuiltLimits, 8, &layout, &error), qPrintable(error));
    QCOMPARE(layout.slices, 3);
    QCOMPARE(layout.chunks, 12);

    QCOMPARE(dump(path, "SELECT type, name FROM sqlite_schema ORDER BY rowid"),
        (QStringList { QStringLiteral("table _metadata"), QStringLiteral("table slices"),
            QStringLiteral("table chunks"), QStringLiteral("table accesses"), QStringLiteral("index idx_slices_1"),
            QStringLiteral("index idx_chunks_1"), QStringLiteral("index idx_accesses_1"),
            QStringLiteral("index idx_accesses_2") }));
    QCOMPARE(dump(path, "SELECT metadata_version, type, format_version FROM _metadata"),
        QStringList { QStringLiteral("1 3 1.0.0") });
    // Slice 2 starts on transition 4, where slice 1 ends.
    QCOMPARE(dump(path, "SELECT rowid, transition_first, transition_last FROM slices"),
        (QStringList { QStringLiteral("1 0 4"), QStringLiteral("2 4 9"), QStringLiteral("3 10 10") }));
    // Descending first address within each slice, reads (4) and writes (2) interleaved.
    QCOMPARE(dump(path,
                 "SELECT rowid, slice_id, printf('0x%x', phy_first), printf('0x%x', phy_last), operation "
                 "FROM chunks ORDER BY rowid"),
        (QStringList { QStringLiteral("1 1 0x500 0x500 4"), QStringLiteral("2 1 0x400 0x401 4"),
            QStringLiteral("3 1 0x208 0x20f 2"), QStringLiteral("4 1 0x200 0x207 2"),
            QStringLiteral("5 1 0x100 0x107 4"), QStringLiteral("6 1 0x100 0x101 2"),
            QStringLiteral("7 2 0x900 0x903 2"), QStringLiteral("8 2 0x700 0x707 2"),
            QStringLiteral("9 2 0x604 0x609 4"), QStringLiteral("10 2 0x600 0x603 4"),
            QStringLiteral("11 3 0xa00 0xa03 4"), QStringLiteral("12 3 0xa00 0xa01 2") }));
    // Trace order; accesses 14 to 17 (transitions 8 to 10) discarded.
    QCOMPARE(dump(path,
                 "SELECT rowid, chunk_id, transition, iif(linear IS NULL, 'NULL', printf('0x%x', linear)), "
                 "printf('0x%x', phy_first), "
                 "size, operation FROM accesses ORDER BY rowid"),
        (QStringList { QStringLiteral("1 5 0 0x100 0x100 4 4"), QStringLiteral("2 4 0 0x200 0x200 8 2"),
            QStringLiteral("3 5 1 0x104 0x104 4 4"), QStringLiteral("4 2 2 0x400 0x400 2 4"),
            QStringLiteral("5 4 2 NULL 0x204 4 2"), QStringLiteral("6 1 3 0x500 0x500 1 4"),
            QStringLiteral("7 6 3 0x100 0x100 2 2"), QStringLiteral("8 3 4 0x208 0x208 8 2"),
            QStringLiteral("9 10 4 0x600 0x600 4 4"), QStringLiteral("10 9 5 0x604 0x604 4 4"),
            QStringLiteral("11 8 5 0x700 0x700 4 2"), QStringLiteral("12 10 6 0x600 0x600 2 4"),
            QStringLiteral("13 8 7 NULL 0x704 4 2") }));
    QCOMPARE(layout.stored.size(), 13);
    QCOMPARE(layout.stored.constLast().rowId, RowId { 13 });
}

void TestReferenceLayout::checkPassesWithNotes_data()
{
    QTest::addColumn<QList<Access>>("stream");
    QTest::addColumn<ReferenceLimits>("limits");
    QTest::addColumn<qint64>("discardAfter"); // -1: none
    QTest::addColumn<QByteArray>("expected"); // empty: the brute-force answer

    QTest::newRow("hand-built, discard_after leaves empty and partly covered chunks")
        << handBuiltStream() << handBuiltLimits << qint64(8)
        << QByteArray("OK: 3 slices, 12 chunks, 13 accesses; every property holds\n"
                      "note: 1 slice shares a boundary transition with the previous slice (allowed; written by the "
                      "reference writer)\n"
                      "note: 3 chunks hold no access: leftovers of discard_after, allowed in slices that end after the "
                      "last stored access (transition 7); the first is chunk 7 (slice 2, W, 0x900..0x903)\n"
                      "note: 1 chunk has bytes covered by none of its accesses: leftovers of discard_after, allowed in "
                      "slices that end after the last stored access (transition 7); the first is chunk 9 (slice 2, R, "
                      "0x604..0x609), where bytes 0x608..0x609 are uncovered\n"
                      "note: the chunk access cap is unknown (no chunk_access_cap in meta); the largest chunk holds 2 "
                      "accesses\n");
    QTest::newRow("hand-built, nothing discarded")
        << handBuiltStream() << handBuiltLimits << qint64(-1)
        << QByteArray("OK: 3 slices, 12 chunks, 17 accesses; every property holds\n"
                      "note: 1 slice shares a boundary transition with the previous slice (allowed; written by the "
                      "reference writer)\n"
                      "note: the chunk access cap is unknown (no chunk_access_cap in meta); the largest chunk holds 2 "
                      "accesses\n");
    // discard_after(0): every access gone, every chunk left empty.
    QTest::newRow("hand-built, everything discarded")
        << handBuiltStream() << handBuiltLimits << qint64(0)
        << QByteArray("OK: 3 slices, 12 chunks, 0 accesses; every property holds\n"
                      "note: 1 slice shares a boundary transition with the previous slice (allowed; written by the "
                      "reference writer)\n"
                      "note: 12 chunks hold no access: leftovers of discard_after, allowed in slices that end after "
                      "the last stored access (the database holds none); the first is chunk 1 (slice 1, R, "
                      "0x500..0x500)\n"
                      "note: the chunk access cap is unknown (no chunk_access_cap in meta); the largest chunk holds 0 "
                      "accesses\n");
    const QList<Access> random = randomStream(11, 4000);
    const qint64 nearTheEnd = qint64(random[random.size() - 40].transition.value);
    QTest::newRow("random, small limits, discard_after near the end")
        << random << ReferenceLimits { 10, 6, 120 } << nearTheEnd << QByteArray();
    QTest::newRow("random, small limits, nothing discarded")
        << random << ReferenceLimits { 10, 6, 120 } << qint64(-1) << QByteArray();
    QTest::newRow("random, default limits, discard_after near the end")
        << random << ReferenceLimits {} << nearTheEnd << QByteArray();
    QTest::newRow("random, overlap limit 1 (a chunk per access)")
        << randomStream(12, 2000) << ReferenceLimits { 1, 1, 50 } << qint64(-1) << QByteArray();
}

void TestReferenceLayout::checkPassesWithNotes()
{
    QFETCH(QList<Access>, stream);
    QFETCH(ReferenceLimits, limits);
    QFETCH(qint64, discardAfter);
    QFETCH(QByteArray, expected);

    ReferenceLayout layout;
    const QString path
        = build(stream, limits, discardAfter >= 0 ? std::optional(std::uint64_t(discardAfter)) : std::nullopt, &layout);
    QVERIFY(!path.isEmpty());
    if (expected.isEmpty()) {
        expected = bruteForceCheckOutput(path);
        QVERIFY(expected.startsWith("OK: "));
    }
    const test::CliResult result = test::runCli({ QStringLiteral("check"), path });
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out, expected);
    QCOMPARE(result.exitCode, 0);
}

void TestReferenceLayout::queriesMatchOracle_data()
{
    QTest::addColumn<QList<Access>>("stream");
    QTest::addColumn<ReferenceLimits>("limits");
    QTest::addColumn<qint64>("discardAfter"); // -1: none

    QTest::newRow("hand-built, discard_after") << handBuiltStream() << handBuiltLimits << qint64(8);
    QTest::newRow("hand-built, nothing discarded") << handBuiltStream() << handBuiltLimits << qint64(-1);
    const QList<Access> random = randomStream(21, 3000);
    QTest::newRow("random, small limits, discard_after")
        << random << ReferenceLimits { 10, 6, 120 } << qint64(random[random.size() - 40].transition.value);
    QTest::newRow("random, tiny slices sharing boundaries")
        << randomStream(22, 1500) << ReferenceLimits { 2, 2, 6 } << qint64(-1);
}

void TestReferenceLayout::queriesMatchOracle()
{
    QFETCH(QList<Access>, stream);
    QFETCH(ReferenceLimits, limits);
    QFETCH(qint64, discardAfter);

    ReferenceLayout layout;
    const QString path
        = build(stream, limits, discardAfter >= 0 ? std::optional(std::uint64_t(discardAfter)) : std::nullopt, &layout);
    QVERIFY(!path.isEmpty());
    QString error;
    auto db = HistoryDatabase::open(path, &error);
    QVERIFY2(db, qPrintable(error));
    QVERIFY(layout.slices > 1);
    const QList<Access> &stored = layout.stored;
    QVERIFY(!stored.isEmpty());

    // Transitions: before, at and between the stored ones, past the end; a sample on long streams.
    const std::uint64_t lastTransition = stored.constLast().transition.value;
    std::set<std::uint64_t> transitions { 0, lastTransition, lastTransition + 1, lastTransition + 100 };
    const qsizetype stride = std::max<qsizetype>(1, stored.size() / 12);
    for (qsizetype i = 0; i < stored.size(); i += stride) {
        transitions.insert(stored[i].transition.value);
        transitions.insert(stored[i].transition.value + 1);
    }
    // Windows: everything, one access's bytes, a byte just past it, across a chunk boundary, the
    // high half of the address space.
    const Access &middle = stored[stored.size() / 2];
    using Window = std::pair<std::uint64_t, std::uint64_t>;
    const Window windows[] = {
        { 0, ~std::uint64_t(0) },
        { middle.physical.value, middle.lastByte().value },
        { middle.lastByte().value + 1, middle.lastByte().value + 1 },
        { 0x100, 0x60f },
        { 0x7ffd12340000, 0x7ffd123400ff },
        { twoTo63, ~std::uint64_t(0) },
    };
    const Operations operationSets[] = { Operations(R), Operations(W), Operations(R) | W };

    int nonEmpty = 0;
    for (const QueryTuning tuning : { QueryTuning {}, QueryTuning { 3, 1 }, QueryTuning { 4, 1000 } }) {
        HalfAxisQueryEngine engine(*db, tuning);
        for (const Direction direction : { Direction::Forward, Direction::Backward }) {
            for (const std::uint64_t at : transitions) {
                for (const auto &[first, last] : windows) {
                    for (const Operations operations : operationSets) {
                        HalfAxisQuery query;
                        query.direction = direction;
                        query.at = Transition { at };
                        query.first = Address { first };
                        query.last = Address { last };
                        query.operations = operations;
                        query.limit = 7;
                        // Paged by resume to the end: every page is the oracle's page.
                        QList<Access> paged;
                        QueryPage page;
                        QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
                        for (int pages = 0;; ++pages) {
                            QVERIFY2(
                                page.accesses == test::oracle(stored, query).accesses, qPrintable(describe(query)));
                            QCOMPARE(page.exhausted, test::oracle(stored, query).exhausted);
                            paged += page.accesses;
                            if (!page.resumePoint() || pages > 20)
                                break;
                            query.resumeAfter = page.resumePoint();
                            QVERIFY2(engine.run(query, &page, &error), qPrintable(error));
                        }
                        if (!page.resumePoint()) {
                            HalfAxisQuery all = query;
                            all.resumeAfter.reset();
                            all.limit = quint64(stored.size()) + 1;
                            QVERIFY2(paged == test::oracle(stored, all).accesses, qPrintable(describe(all)));
                        }
                        nonEmpty += !paged.isEmpty();
                    }
                }
            }
        }
    }
    QVERIFY(nonEmpty > 50); // the queries do find accesses
}

// How a copy of a reference layout is damaged.
enum class Damage {
    ZeroedIndexPage,
    IndexMissingARow,
    TransitionsFrom2To63,
    OverlapInIndexOrder,
    UncoveredByteBeforeTheLastSlice,
    EmptyChunkBeforeTheLastSlice,
};
Q_DECLARE_METATYPE(Damage)

void TestReferenceLayout::damagedCopiesAreRefused_data()
{
    QTest::addColumn<Damage>("damage");
    QTest::newRow("one zeroed page of idx_accesses_1") << Damage::ZeroedIndexPage;
    QTest::newRow("idx_accesses_1 missing a row") << Damage::IndexMissingARow;
    QTest::newRow("transitions of 2^63 or more, stored negative") << Damage::TransitionsFrom2To63;
    QTest::newRow("chunks overlapping in idx_chunks_1 order") << Damage::OverlapInIndexOrder;
    QTest::newRow("a slice before the last with an uncovered byte") << Damage::UncoveredByteBeforeTheLastSlice;
    QTest::newRow("a slice before the last with an empty chunk") << Damage::EmptyChunkBeforeTheLastSlice;
}

void TestReferenceLayout::damagedCopiesAreRefused()
{
    QFETCH(Damage, damage);

    // A layout whose last slice holds discard_after leftovers: the damage is what is refused.
    // (A writer that stores transitions past 2^63 is not given discard_after: its bound would be
    // negative too.)
    const bool past2To63 = damage == Damage::TransitionsFrom2To63;
    const QList<Access> stream = past2To63 ? randomStream(31, 300, twoTo63 - 100) : randomStream(31, 3000);
    ReferenceLayout layout;
    const QString path = build(stream, ReferenceLimits { 10, 6, 120 },
        past2To63 ? std::nullopt : std::optional(stream[stream.size() - 30].transition.value), &layout);
    QVERIFY(!path.isEmpty());
    QVERIFY(layout.slices > 2);
    // Where the last slice starts: the damage goes before it.
    const std::int64_t firstOfLastSlice = integer(path,
        "SELECT min(rowid) FROM chunks WHERE slice_id = "
        "(SELECT max(rowid) FROM slices)");
    QVERIFY(firstOfLastSlice > 1);

    QString expected;
    QString expectedRest; // the rest of stderr, when it is known
    switch (damage) {
    case Damage::ZeroedIndexPage: {
        // A leaf page in the middle of the index: the table is intact, a reader using the index
        // would miss a page of rows.
        const QStringList leaves = dump(
            path, "SELECT pageno FROM dbstat WHERE name = 'idx_accesses_1' AND pagetype = 'leaf' ORDER BY pageno");
        QVERIFY2(leaves.size() > 3, qPrintable(leaves.join(u',')));
        const qint64 page = leaves[leaves.size() / 2].toLongLong();
        const qint64 pageSize = integer(path, "PRAGMA page_size");
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.seek((page - 1) * pageSize));
        QCOMPARE(file.write(QByteArray(pageSize, '\0')), pageSize);
        file.close();
        expected = QStringLiteral("file %1: SQLite's integrity check reports \"Page %2: btreeInitPage() returns "
                                  "error code 11\" [the file passes SQLite's own integrity check (PRAGMA "
                                  "integrity_check)]")
                       .arg(path)
                       .arg(page);
        break;
    }
    case Damage::IndexMissingARow: {
        // The index is rebuilt without access 17, then declared whole again.
        QVERIFY(execute(path,
            QStringLiteral("DROP INDEX idx_accesses_1;"
                           "CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition) WHERE rowid <> 17;"
                           "PRAGMA writable_schema = ON;"
                           "UPDATE sqlite_schema SET sql = 'CREATE INDEX idx_accesses_1 ON accesses(chunk_id, "
                           "transition)' WHERE name = 'idx_accesses_1';")));
        expected = QStringLiteral("file %1: SQLite's integrity check reports \"row 17 missing from index "
                                  "idx_accesses_1\" [the file passes SQLite's own integrity check (PRAGMA "
                                  "integrity_check)]")
                       .arg(path);
        expectedRest = QStringLiteral("  [the file passes SQLite's own integrity check (PRAGMA integrity_check)]: 2 "
                                      "violations\n");
        break;
    }
    case Damage::TransitionsFrom2To63: {
        // Nothing to damage: the writer stored transitions of 2^63 and more as negative int8. The
        // first slice that reaches 2^63 is named, by the first of its bounds that does.
        const QStringList slice = dump(path,
            "SELECT rowid, transition_first, transition_last FROM slices WHERE transition_last < 0 ORDER BY rowid "
            "LIMIT 1");
        QCOMPARE(slice.size(), 1);
        const QStringList fields = slice.first().split(u' ');
        const bool firstIsNegative = fields[1].toLongLong() < 0;
        const QString &negative = firstIsNegative ? fields[1] : fields[2];
        expected = QStringLiteral("slice %1 [%2..%3]: %4 %5 is negative: %6 (2^63 or more) stored as its two's "
                                  "complement [transitions are in [0, 2^63-1]]")
                       .arg(fields[0], fields[1], fields[2],
                           firstIsNegative ? QStringLiteral("transition_first") : QStringLiteral("transition_last"),
                           negative, QString::number(fromStored(negative.toLongLong())));
        break;
    }
    case Damage::OverlapInIndexOrder: {
        // Two reads of slice 1 next to each other in idx_chunks_1 order: the lower one grows to
        // reach the upper one's first byte (which it then does not cover either).
        const QStringList pair = dump(path,
            "SELECT rowid, phy_first, phy_last FROM chunks WHERE slice_id = 1 AND operation = 4 AND phy_first >= 0 "
            "ORDER BY phy_last LIMIT 2");
        QCOMPARE(pair.size(), 2);
        const QStringList lower = pair[0].split(u' ');
        const QStringList upper = pair[1].split(u' ');
        const std::uint64_t lowerFirst = storedAddress(lower[1]);
        const std::uint64_t lowerLast = storedAddress(lower[2]);
        const std::uint64_t upperFirst = storedAddress(upper[1]);
        QVERIFY(
            execute(path, QStringLiteral("UPDATE chunks SET phy_last = %1 WHERE rowid = %2").arg(upper[1], lower[0])));
        expected = QStringLiteral("%1: starts at %2, not after the end of the previous %3 [chunks of one operation in "
                                  "a slice do not overlap in idx_chunks_1 order]")
                       .arg(chunkName(upper[0].toLongLong(), 1, 4, upperFirst, storedAddress(upper[2])),
                           hexAddress(upperFirst), chunkName(lower[0].toLongLong(), 1, 4, lowerFirst, upperFirst));
        // Every check ran: the grown chunk's new bytes are reported too.
        const QString hole = lowerLast + 1 == upperFirst
            ? QStringLiteral("byte %1 is").arg(hexAddress(upperFirst))
            : QStringLiteral("bytes %1..%2 are").arg(hexAddress(lowerLast + 1), hexAddress(upperFirst));
        expectedRest = QStringLiteral("  [chunks of one operation in a slice do not overlap in idx_chunks_1 order]: 1 "
                                      "violation\n"
                                      "  [every byte of a chunk is covered by an access]: 1 violation, the first: %1: "
                                      "%2 covered by none of its accesses [every byte of a chunk is covered by an "
                                      "access]\n")
                           .arg(chunkName(lower[0].toLongLong(), 1, 4, lowerFirst, upperFirst), hole);
        break;
    }
    case Damage::UncoveredByteBeforeTheLastSlice: {
        // The highest write chunk of slice 1 grows by one byte that no access covers.
        const QStringList top = dump(path,
            "SELECT rowid, phy_first, phy_last FROM chunks WHERE slice_id = 1 AND operation = 2 "
            "ORDER BY phy_last DESC LIMIT 1");
        QCOMPARE(top.size(), 1);
        const QStringList fields = top.first().split(u' ');
        const std::uint64_t grown = storedAddress(fields[2]) + 1;
        QVERIFY(execute(path,
            QStringLiteral("UPDATE chunks SET phy_last = %1 WHERE rowid = %2").arg(toStored(grown)).arg(fields[0])));
        expected
            = QStringLiteral("%1: byte %2 is covered by none of its accesses [every byte of a chunk is covered by "
                             "an access]")
                  .arg(chunkName(fields[0].toLongLong(), 1, 2, storedAddress(fields[1]), grown), hexAddress(grown));
        expectedRest = QStringLiteral("  [every byte of a chunk is covered by an access]: 1 violation\n");
        break;
    }
    case Damage::EmptyChunkBeforeTheLastSlice: {
        // The accesses of one chunk of slice 1 are deleted, as discard_after would in the last slice.
        const QStringList chunk = dump(path,
            "SELECT rowid, phy_first, phy_last, operation FROM chunks WHERE slice_id = 1 ORDER BY rowid LIMIT 1 "
            "OFFSET 2");
        QCOMPARE(chunk.size(), 1);
        const QStringList fields = chunk.first().split(u' ');
        QVERIFY(execute(path, QStringLiteral("DELETE FROM accesses WHERE chunk_id = %1").arg(fields[0])));
        expected = QStringLiteral("%1: holds no access [every chunk holds at least one access]")
                       .arg(chunkName(fields[0].toLongLong(), 1, fields[3].toLongLong(), storedAddress(fields[1]),
                           storedAddress(fields[2])));
        expectedRest = QStringLiteral("  [every chunk holds at least one access]: 1 violation\n");
        break;
    }
    }

    const test::CliResult result = test::runCli({ QStringLiteral("check"), path });
    QCOMPARE(result.out, QByteArray());
    const QString err = QString::fromUtf8(result.err);
    const qsizetype firstLineEnd = err.indexOf(u'\n');
    QVERIFY2(firstLineEnd > 0, qPrintable(err));
    QCOMPARE(err.left(firstLineEnd), QStringLiteral("FAILED: ") + expected);
    if (!expectedRest.isEmpty())
        QCOMPARE(err.mid(firstLineEnd + 1), expectedRest);
    QCOMPARE(result.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestReferenceLayout)
#include "tst_referencelayout.moc"
