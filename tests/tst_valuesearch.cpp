// SPDX-License-Identifier: MIT
// Value search (core/search/valuesearch.h) against a brute-force scan of random histories with
// values: every page, resumed to the end, both directions, each way of walking forced and the two
// mixed, with and without the value index; unexplained reads against a replay; the value index's
// filters; and `memhist search`'s output and refusals, exactly.
#include "core/search/valuesearch.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/values/valuefilter.h"
#include "core/values/valuegroups.h"
#include "testsupport.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

class tst_ValueSearch : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void filterNeverMissesAValue();
    void exactFilterRulesOutPairs();
    void groupsHoldTheirValues();
    void equalsTheScan_data();
    void equalsTheScan();
    void unexplainedEqualsTheReplay();
    void cliFindsValues();
    void checkNamesUnexplainedReads();
    void cliRefusals_data();
    void cliRefusals();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QString m_small; // the hand-made history of the CLI tests
};

namespace {

// A random stream over `span` bytes whose values are drawn from a few byte values, so that short
// values recur and longer ones rarely do.
QList<ValuedAccess> randomStream(QRandomGenerator &random, int accesses, int span, int reads, bool consistentReads)
{
    const std::uint64_t base = 0x10000;
    QList<ValuedAccess> stream;
    QHash<std::uint64_t, char> memory; // what the writes left, for consistent reads
    std::uint64_t transition = 0;
    for (int i = 0; i < accesses; ++i) {
        transition += random.bounded(3);
        const std::uint32_t size = 1 + random.bounded(8);
        const std::uint64_t address = base + random.bounded(span);
        const Operation operation = int(random.bounded(100)) < reads ? Operation::Read : Operation::Write;
        ValuedAccess stored { userAccess(transition, operation, address, size), {} };
        if (random.bounded(10) != 0) {
            stored.value.resize(size);
            for (std::uint32_t b = 0; b < size; ++b) {
                const char fresh = "\x00\x01\x07\x41\x42\xff"[random.bounded(6)];
                const auto known = memory.constFind(address + b);
                stored.value[b] = operation == Operation::Read && consistentReads && known != memory.cend()
                        && random.bounded(20) != 0
                    ? *known
                    : fresh;
            }
            if (operation == Operation::Write) {
                for (std::uint32_t b = 0; b < size; ++b)
                    memory.insert(address + b, stored.value[b]);
            }
        }
        stream << stored;
    }
    return stream;
}

// The brute-force answer: every access the search selects, in its order.
QList<qint64> scan(const QList<ValuedAccess> &stream, const ValueSearch &search)
{
    const HalfAxisQuery &query = search.query;
    QList<qint64> rows;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        const Access &access = stream[i].access;
        const bool inTime = query.direction == Direction::Forward ? access.transition.value >= query.at->value
                                                                  : access.transition.value <= query.at->value;
        if (inTime && query.operations.testFlag(access.operation) && access.physical.value <= query.last.value
            && access.lastByte().value >= query.first.value && stream[i].value.contains(search.value))
            rows << i + 1;
    }
    if (query.direction == Direction::Backward)
        std::reverse(rows.begin(), rows.end());
    return rows;
}

// Every page of `search`, resumed until exhausted; fails the test on an error or a page too long.
QList<qint64> allPages(ValueSearchEngine &engine, ValueSearch search, int *pages, quint64 *groupsSkipped = nullptr)
{
    QList<qint64> rows;
    *pages = 0;
    for (;;) {
        QueryPage page;
        QString error;
        if (!engine.run(search, &page, &error)) {
            qWarning() << error;
            return { -1 };
        }
        ++*pages;
        if (groupsSkipped)
            *groupsSkipped += engine.lastStats().groupsSkipped;
        if (quint64(page.accesses.size()) > search.query.limit || *pages > 10000)
            return { -2 };
        for (const Access &access : std::as_const(page.accesses))
            rows << access.rowId.value;
        if (page.exhausted)
            return rows;
        search.query.resumeAfter = page.resumePoint();
    }
}

} // namespace

void tst_ValueSearch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The CLI's history: a counter at 0x1000 written 1, 2, 3 (transitions 10, 20, 30) and read back
    // at 31 as 7 (changed behind the trace's back); text at 0x2000.
    const QList<ValuedAccess> stream {
        { userAccess(10, Operation::Write, 0x1000, 8), byteArrayOf({ 1, 0, 0, 0, 0, 0, 0, 0 }) },
        { userAccess(20, Operation::Write, 0x1000, 8), byteArrayOf({ 2, 0, 0, 0, 0, 0, 0, 0 }) },
        { userAccess(25, Operation::Write, 0x2000, 5), "hello" },
        { userAccess(30, Operation::Write, 0x1000, 8), byteArrayOf({ 3, 0, 0, 0, 0, 0, 0, 0 }) },
        { userAccess(31, Operation::Read, 0x1000, 8), byteArrayOf({ 7, 0, 0, 0, 0, 0, 0, 0 }) },
        { userAccess(32, Operation::Read, 0x2001, 3), "ell" },
    };
    m_small = path(QStringLiteral("small.memhist"));
    QVERIFY(writeHistoryWithValues(m_small, stream));
}

void tst_ValueSearch::filterNeverMissesAValue()
{
    QRandomGenerator random(7);
    for (int round = 0; round < 200; ++round) {
        ValueFilterBuilder builder;
        QList<QByteArray> values;
        const int count = 1 + int(random.bounded(round % 3 == 0 ? 2000 : 40));
        for (int i = 0; i < count; ++i) {
            QByteArray value(1 + random.bounded(16), '\0');
            for (char &byte : value)
                byte = char(random.bounded(256));
            builder.add(value);
            values << value;
        }
        const QByteArray stored = builder.take();
        ValueFilter filter;
        QVERIFY(filter.read(stored));
        for (const QByteArray &value : std::as_const(values)) {
            const qsizetype from = random.bounded(int(value.size()));
            const QByteArray needle = value.mid(from, 1 + random.bounded(int(value.size() - from)));
            QVERIFY2(filter.mayContain(needle), needle.toHex().constData());
        }
    }
}

void tst_ValueSearch::exactFilterRulesOutPairs()
{
    // Every pair of bytes below 0x80 but 0x41 0x42: 16,383 distinct pairs, past what a Bloom filter
    // holds, so the pair map is exact.
    ValueFilterBuilder builder;
    for (int high = 0; high < 0x80; ++high) {
        for (int low = 0; low < 0x80; ++low) {
            if (high != 0x41 || low != 0x42)
                builder.add(byteArrayOf({ high, low }));
        }
    }
    const QByteArray stored = builder.take();
    QCOMPARE(stored.size(), ValueFilter::byteMapSize + ValueFilter::exactPairMapSize);
    ValueFilter filter;
    QVERIFY(filter.read(stored));
    QVERIFY(filter.mayContain("BA"));
    QVERIFY(!filter.mayContain("AB"));
    QVERIFY(!filter.mayContain("xAB"));
    QVERIFY(!filter.mayContain(byteArrayOf({ 0x80 }))); // a byte no value holds
    QVERIFY(filter.mayContain("x"));
    // A builder starts afresh after take(): one short value, a Bloom filter of the smallest size.
    builder.add("hello");
    const QByteArray small = builder.take();
    QCOMPARE(small.size(), ValueFilter::byteMapSize + 8);
    QVERIFY(filter.read(small));
    QVERIFY(filter.mayContain("ell"));
    QVERIFY(!filter.mayContain("z"));
    QVERIFY(!filter.read(QByteArray(ValueFilter::byteMapSize + 12, '\0'))); // not a power of two
}

void tst_ValueSearch::groupsHoldTheirValues()
{
    // Groups of 4 rowids: rowid 5 (group 1) holds "ABCD", rowid 2050 (group 512, the second span's
    // first) holds "xy", rowid 4100 (the third span) "xy" again; a value of one byte sets nothing.
    valuegroups::Builder builder(2);
    builder.add(5, "ABCD");
    builder.add(7, "Z");
    builder.add(2050, "xy");
    QVERIFY(builder.takeRows(false).empty()); // a span's rows come once a group of a later one is done
    builder.add(4100, "xy");
    std::vector<valuegroups::Builder::Row> rows = builder.takeRows(false);
    const std::vector<std::uint32_t> abcd = valuegroups::slotsOf("ABCD");
    QCOMPARE(abcd.size(), std::size_t(4)); // AB, BC, CD and the window ABCD
    QCOMPARE(valuegroups::slotsOf("Z").size(), std::size_t(0));
    QCOMPARE(valuegroups::slotsOf("AAAA").size(), std::size_t(2)); // AA once, and the window
    QCOMPARE(valuegroups::slotsOf("ABCDEFGH").size(), std::size_t(13)); // 7 pairs, 5 + 1 windows
    QCOMPARE(rows.size(), abcd.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(rows[i].key, valuegroups::keyOf(abcd[i], 0));
        QByteArray expected(valuegroups::spanBytes, '\0');
        expected[0] = char(1 << 1); // group 1
        QCOMPARE(rows[i].bytes().toByteArray(), expected);
    }
    rows = builder.takeRows(true);
    QCOMPARE(rows.size(), std::size_t(3)); // "xy" in spans 1 and 2, then the info row
    const std::uint32_t xy = std::uint32_t('x') << 8 | std::uint32_t('y');
    QByteArray expected(valuegroups::spanBytes, '\0');
    expected[0] = 1; // group 512: the first of span 1
    QCOMPARE(rows[0].key, valuegroups::keyOf(xy, 1));
    QCOMPARE(rows[0].bytes().toByteArray(), expected);
    expected[0] = 2; // group 1025 (rowid 4100): the second of span 2
    QCOMPARE(rows[1].key, valuegroups::keyOf(xy, 2));
    QCOMPARE(rows[1].bytes().toByteArray(), expected);
    QCOMPARE(rows[2].key, valuegroups::infoKey);
    QCOMPARE(rows[2].bytes().toByteArray(), QByteArray(1, '\2'));
}

void tst_ValueSearch::equalsTheScan_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("ways");
    QTest::addColumn<bool>("withIndex");
    // The index's second level (valuegroups.h): rowids per group as a power of two; 0: none (a
    // history written before it). Small groups make many groups and spans on a small history.
    QTest::addColumn<int>("groupShift");

    const int cheaper = int(ValueSearchTuning::Ways::Cheaper);
    const int window = int(ValueSearchTuning::Ways::WindowOnly);
    const int values = int(ValueSearchTuning::Ways::ValuesOnly);
    const int defaultShift = valuegroups::defaultGroupShift;
    QTest::newRow("both ways mixed, index") << 1u << cheaper << true << defaultShift;
    QTest::newRow("both ways mixed, no index") << 2u << cheaper << false << defaultShift;
    QTest::newRow("through the window") << 3u << window << true << defaultShift;
    QTest::newRow("through the values, index") << 4u << values << true << defaultShift;
    QTest::newRow("through the values, no index") << 5u << values << false << defaultShift;
    QTest::newRow("through the values, filters without groups") << 6u << values << true << 0;
    QTest::newRow("through the values, groups of 16 rowids") << 7u << values << true << 4;
    QTest::newRow("through the values, groups of 2 rowids (4 spans)") << 8u << values << true << 1;
    QTest::newRow("both ways mixed, groups of 8 rowids") << 9u << cheaper << true << 3;
}

void tst_ValueSearch::equalsTheScan()
{
    QFETCH(quint32, seed);
    QFETCH(int, ways);
    QFETCH(bool, withIndex);
    QFETCH(int, groupShift);
    QRandomGenerator random(seed);
    const QList<ValuedAccess> stream = randomStream(random, 4000, 2048, 50, false);
    const QString history = path(QStringLiteral("random-%1.memhist").arg(seed));
    valuegroups::setGroupShiftForTests(groupShift);
    const bool written = writeHistoryWithValues(history, stream);
    valuegroups::setGroupShiftForTests(0);
    QVERIFY(written);
    if (!withIndex || groupShift == 0) {
        sqlite::Connection connection;
        QVERIFY(connection.open(history, sqlite::Connection::Mode::ReadWriteCreate));
        QVERIFY(connection.execute(withIndex ? "DROP TABLE access_value_groups" : "DROP TABLE access_value_filters"));
    }
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    // Small steps, and the other way retried after two: many switches on a small history.
    ValueSearchTuning tuning;
    tuning.ways = ValueSearchTuning::Ways(ways);
    tuning.windowStepRows = 7;
    tuning.valueStepBlocks = 2;
    tuning.stepsBeforeRetry = 2;
    ValueSearchEngine engine(*database, tuning);
    QVERIFY(engine.hasValues());
    QCOMPARE(engine.hasIndex(), withIndex);
    const std::uint64_t lastTransition = stream.constLast().access.transition.value;
    int nonEmpty = 0;
    quint64 groupsSkipped = 0;
    for (int round = 0; round < 80; ++round) {
        ValueSearch search;
        search.query.direction = random.bounded(2) ? Direction::Forward : Direction::Backward;
        search.query.at = Transition { random.bounded(quint32(lastTransition + 2)) };
        if (round % 3 != 0) {
            search.query.first = Address { std::uint64_t(0x10000 - 4 + random.bounded(2048)) };
            search.query.last = Address { search.query.first.value + random.bounded(round % 2 ? 16 : 600) };
        }
        const int ops = int(random.bounded(3));
        search.query.operations = ops == 0 ? Operations(Operation::Read)
            : ops == 1                     ? Operations(Operation::Write)
                                           : Operations(Operation::Read) | Operation::Write;
        search.query.limit = 1 + random.bounded(round % 4 == 0 ? 200 : 12);
        if (round % 5 == 4) {
            search.value = byteArrayOf({ 0x42, 0x42, 0x42, 0x07 }); // rare
        } else {
            const QByteArray &value = stream[random.bounded(int(stream.size()))].value;
            search.value = value.isEmpty() ? QByteArray("\x41", 1) : value.left(1 + random.bounded(int(value.size())));
        }
        int pages = 0;
        const QList<qint64> expected = scan(stream, search);
        const QList<qint64> found = allPages(engine, search, &pages, &groupsSkipped);
        if (found != expected) {
            QFAIL(qPrintable(QStringLiteral("round %1 (value %2): %3 rows where the scan finds %4")
                                 .arg(round)
                                 .arg(QString::fromLatin1(search.value.toHex()))
                                 .arg(found.size())
                                 .arg(expected.size())));
        }
        nonEmpty += expected.isEmpty() ? 0 : 1;
    }
    QVERIFY2(nonEmpty >= 40, "most searches should find something");
    // Small groups are skipped when the values are walked (one group of 16,384 rowids is never
    // skipped on a history of 4,000 accesses whose values hold every byte pair it is asked for).
    const bool smallGroups = withIndex && groupShift > 0 && groupShift < valuegroups::defaultGroupShift
        && ways != int(ValueSearchTuning::Ways::WindowOnly);
    QVERIFY2(smallGroups == (groupsSkipped > 0), qPrintable(QString::number(groupsSkipped)));
}

void tst_ValueSearch::unexplainedEqualsTheReplay()
{
    QRandomGenerator random(11);
    const QList<ValuedAccess> stream = randomStream(random, 3000, 256, 60, true);
    const QString history = path(QStringLiteral("unexplained.memhist"));
    QVERIFY(writeHistoryWithValues(history, stream));
    // The replay: each read compared byte by byte with the last earlier write (with a value).
    QList<qint64> expected;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        const ValuedAccess &read = stream[i];
        if (read.access.operation != Operation::Read || read.value.isEmpty())
            continue;
        bool differs = false;
        for (std::uint32_t b = 0; b < read.access.size && !differs; ++b) {
            const std::uint64_t address = read.access.physical.value + b;
            for (qsizetype w = i - 1; w >= 0; --w) {
                const ValuedAccess &write = stream[w];
                if (write.access.operation != Operation::Write || address < write.access.physical.value
                    || address > write.access.lastByte().value)
                    continue;
                if (!write.value.isEmpty())
                    differs = write.value[qsizetype(address - write.access.physical.value)] != read.value[b];
                break;
            }
        }
        if (differs)
            expected << i + 1;
    }
    QVERIFY(expected.size() > 20);
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    ValueSearchEngine engine(*database);
    ValueSearch search;
    search.unexplained = true;
    search.query.at = Transition { 0 };
    search.query.operations = Operation::Read;
    search.query.limit = 9;
    int pages = 0;
    QCOMPARE(allPages(engine, search, &pages), expected);
    QCOMPARE(pages, int(expected.size() / 9) + 1);
    search.query.direction = Direction::Backward;
    search.query.at = Transition { stream.constLast().access.transition.value };
    std::reverse(expected.begin(), expected.end());
    QCOMPARE(allPages(engine, search, &pages), expected);
}

void tst_ValueSearch::cliFindsValues()
{
    const auto run = [this](QStringList arguments) {
        arguments.prepend(m_small);
        arguments.prepend(QStringLiteral("search"));
        const CliResult result = runCli(arguments);
        if (result.exitCode != 0 || !result.err.isEmpty())
            qWarning() << result.exitCode << result.err;
        return result.out;
    };
    // When did the counter first hold 2?
    QCOMPARE(run({ QStringLiteral("--int"), QStringLiteral("2"), QStringLiteral("--size"), QStringLiteral("8"),
                 QStringLiteral("--from"), QStringLiteral("0x1000"), QStringLiteral("--to"), QStringLiteral("0x1007"),
                 QStringLiteral("--format"), QStringLiteral("csv") }),
        QByteArray("rowid,transition,operation,address,linear,size\n2,20,W,0x1000,0x1000,8\n"));
    // "ell": the write of "hello" and the read of "ell", newest first, one page at a time.
    QCOMPARE(run({ QStringLiteral("--value"), QStringLiteral("65:6c:6c"), QStringLiteral("--backward"),
                 QStringLiteral("--limit"), QStringLiteral("1") }),
        QByteArray("rowid  transition  op  address  linear  size\n"
                   "    6          32  R    0x2001  0x2001     3\n"
                   "-- 1 row; next page: --resume 6\n"));
    QCOMPARE(run({ QStringLiteral("--value"), QStringLiteral("656c6c"), QStringLiteral("--backward"),
                 QStringLiteral("--resume"), QStringLiteral("6"), QStringLiteral("--format"), QStringLiteral("csv") }),
        QByteArray("rowid,transition,operation,address,linear,size\n3,25,W,0x2000,0x2000,5\n"));
    // -1 in one byte is ff: nowhere.
    QCOMPARE(run({ QStringLiteral("--int"), QStringLiteral("-1"), QStringLiteral("--size"), QStringLiteral("1") }),
        QByteArray("rowid  transition  op  address  linear  size\n-- 0 rows\n"));
    // The read of 7 where 3 was written.
    QCOMPARE(run({ QStringLiteral("--unexplained"), QStringLiteral("--format"), QStringLiteral("csv"),
                 QStringLiteral("--context") }),
        QByteArray("rowid,transition,operation,address,linear,size,pc,function,source,instruction,region,value,before\n"
                   "5,31,R,0x1000,0x1000,8,,,,,,0700000000000000,\n"));
}

void tst_ValueSearch::checkNamesUnexplainedReads()
{
    // `memhist check` finds the same read by its replay, names it, and points to search for all.
    const CliResult result = runCli({ QStringLiteral("check"), m_small });
    QCOMPARE(result.exitCode, 0);
    QStringList valueNotes;
    for (const QString &line : QString::fromUtf8(result.out).split(u'\n')) {
        if (line.startsWith(QLatin1String("note: values:")) || line.startsWith(QLatin1String("note:   access ")))
            valueNotes << line;
    }
    QCOMPARE(valueNotes,
        QStringList(
            { QStringLiteral("note: values: 1 of 2 reads of written bytes differ from what the last write left (memory "
                             "changed behind the trace's back: another process, a device, or a kernel effect "
                             "the recorder is not told of); `memhist search --unexplained` lists them all; the "
                             "first:"),
                QStringLiteral(
                    "note:   access 5 (transition 31, 8 bytes at 0x1000) read 0700000000000000 where the last writes "
                    "left 0300000000000000 (first differing byte 0x1000)") }));
}

void tst_ValueSearch::cliRefusals_data()
{
    QTest::addColumn<QStringList>("arguments"); // after "search"; HISTORY stands for the small history
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // the first line of stderr

    const QString history = QStringLiteral("HISTORY");
    QTest::newRow("no value") << QStringList { history } << 2
                              << QStringLiteral("memhist search: give one of --value, --int (with --size) and "
                                                "--unexplained");
    QTest::newRow("odd hex") << QStringList { history, QStringLiteral("--value"), QStringLiteral("abc") } << 2
                             << QStringLiteral("memhist search: --value: 'abc' is not hex bytes in memory order (pairs "
                                               "of hex digits, e.g. 2a00)");
    QTest::newRow("int without size") << QStringList { history, QStringLiteral("--int"), QStringLiteral("5") } << 2
                                      << QStringLiteral("memhist search: --int and --size go together");
    QTest::newRow("int too large") << QStringList { history, QStringLiteral("--int"), QStringLiteral("256"),
        QStringLiteral("--size"), QStringLiteral("1") }
                                   << 2 << QStringLiteral("memhist search: --int: 256 does not fit in 1 byte");
    QTest::newRow("size 3") << QStringList { history, QStringLiteral("--int"), QStringLiteral("1"),
        QStringLiteral("--size"), QStringLiteral("3") }
                            << 2 << QStringLiteral("memhist search: --size: '3' is not 1, 2, 4 or 8");
    QTest::newRow("executes") << QStringList { history, QStringLiteral("--value"), QStringLiteral("00"),
        QStringLiteral("--ops"), QStringLiteral("x") }
                              << 2
                              << QStringLiteral("memhist search: --ops: instruction fetches have no values; use r, w "
                                                "or rw");
    QTest::newRow("unexplained writes") << QStringList { history, QStringLiteral("--unexplained"),
        QStringLiteral("--ops"), QStringLiteral("w") }
                                        << 2
                                        << QStringLiteral("memhist search: --unexplained finds reads: give no --ops, "
                                                          "or --ops r");
    QTest::newRow("no values") << QStringList { QStringLiteral("NOVALUES"), QStringLiteral("--value"),
        QStringLiteral("00") } << 1
                               << QStringLiteral("NOVALUES: this history has no values, so it cannot be searched for "
                                                 "them (record the program with `memhist record`, or import a trace "
                                                 "that has values)");
}

void tst_ValueSearch::cliRefusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString noValues = path(QStringLiteral("novalues.memhist"));
    if (!QFile::exists(noValues)) {
        QString error;
        QVERIFY2(writeHistory(noValues, { userAccess(1, Operation::Read, 0x10, 4) }, {}, &error), qPrintable(error));
    }
    arguments.replaceInStrings(QStringLiteral("NOVALUES"), noValues);
    arguments.replaceInStrings(QStringLiteral("HISTORY"), m_small);
    message.replace(QStringLiteral("NOVALUES"), noValues);
    arguments.prepend(QStringLiteral("search"));
    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(QString::fromUtf8(result.err).section(u'\n', 0, 0), message);
    QCOMPARE(result.out, QByteArray());
}

QTEST_GUILESS_MAIN(tst_ValueSearch)
#include "tst_valuesearch.moc"
