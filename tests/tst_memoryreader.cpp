// SPDX-License-Identifier: MIT
// Memory at a moment (core/memory/memoryreader.h) against a brute-force replay of random histories
// with values, every byte and how it is known; and `memhist memory`'s hex, csv and batch output and
// its refusals, exactly.
#include "core/memory/memoryreader.h"
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

class tst_MemoryReader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void equalsTheReplay_data();
    void equalsTheReplay();
    void refusesBadRanges();
    void cliHex();
    void cliCsvAndBatch();
    void cliRefusals_data();
    void cliRefusals();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QString m_small; // the hand-made history of the CLI tests
};

namespace {

// The brute-force answer: each byte from the whole stream, in rowid order.
QList<MemoryByte> replay(const QList<ValuedAccess> &stream, std::uint64_t at, std::uint64_t first, std::uint64_t last)
{
    QList<MemoryByte> bytes;
    for (std::uint64_t address = first; address <= last; ++address) {
        MemoryByte byte;
        std::optional<qsizetype> lastBefore;
        std::optional<qsizetype> firstAfter;
        for (qsizetype i = 0; i < stream.size(); ++i) {
            const Access &access = stream[i].access;
            if (address < access.physical.value || address > access.lastByte().value)
                continue;
            if (access.transition.value <= at)
                lastBefore = i;
            else if (!firstAfter)
                firstAfter = i;
        }
        const auto take = [&](qsizetype index, KnownBy knownBy) {
            const ValuedAccess &stored = stream[index];
            if (stored.value.isEmpty())
                return;
            byte.value = std::uint8_t(stored.value[qsizetype(address - stored.access.physical.value)]);
            byte.knownBy = knownBy;
            byte.transition = stored.access.transition;
            byte.rowId = RowId { index + 1 };
        };
        if (lastBefore)
            take(
                *lastBefore, stream[*lastBefore].access.operation == Operation::Write ? KnownBy::Write : KnownBy::Read);
        else if (firstAfter && stream[*firstAfter].access.operation == Operation::Read)
            take(*firstAfter, KnownBy::LaterRead);
        bytes << byte;
    }
    return bytes;
}

} // namespace

void tst_MemoryReader::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The CLI's history: at transition 5 "ABCD" written at 0x1000; at 7 two bytes read at 0x1004
    // (never written); at 9 "xy" written over 0x1001..0x1002; at 12 0x1006 read (first accessed
    // after 9); at 14 0x1007 written (first accessed after 9: unknown before).
    const QList<ValuedAccess> stream {
        { userAccess(5, Operation::Write, 0x1000, 4), "ABCD" },
        { userAccess(7, Operation::Read, 0x1004, 2), byteArrayOf({ 0x00, 0xff }) },
        { userAccess(9, Operation::Write, 0x1001, 2), "xy" },
        { userAccess(12, Operation::Read, 0x1006, 1), "!" },
        { userAccess(14, Operation::Write, 0x1007, 1), "?" },
    };
    m_small = path(QStringLiteral("small.memhist"));
    QVERIFY(writeHistoryWithValues(m_small, stream));
}

void tst_MemoryReader::equalsTheReplay_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("accesses");
    QTest::addColumn<int>("span"); // bytes the accesses fall in
    QTest::addColumn<int>("withoutValues"); // one access in this many has no value (0: none)
    QTest::addColumn<int>("hotPercent"); // accesses to one 8-byte counter amid the span, in percent

    QTest::newRow("dense, every access with its value") << 1u << 3000 << 256 << 0 << 0;
    QTest::newRow("sparse, over 64 KiB") << 2u << 3000 << 65536 << 0 << 0;
    QTest::newRow("some accesses without a value") << 3u << 2000 << 512 << 7 << 0;
    QTest::newRow("a few hundred accesses on a few bytes") << 4u << 400 << 16 << 0 << 0;
    // The walks' pages fill with the counter's accesses, which decide nothing after the first,
    // while bytes beside it that nothing touches keep both walks going to the ends of the history:
    // the pages grow and the walks split around the counter, in both directions.
    QTest::newRow("a hot counter beside bytes never accessed") << 5u << 8000 << 4096 << 0 << 70;
}

void tst_MemoryReader::equalsTheReplay()
{
    QFETCH(quint32, seed);
    QFETCH(int, accesses);
    QFETCH(int, span);
    QFETCH(int, withoutValues);
    QFETCH(int, hotPercent);
    QRandomGenerator random(seed);
    const std::uint64_t base = 0x7fff0000;
    const std::uint64_t counter = base + std::uint64_t(span / 2);
    QList<ValuedAccess> stream;
    std::uint64_t transition = 0;
    for (int i = 0; i < accesses; ++i) {
        transition += random.bounded(3); // several accesses share a transition now and then
        const bool hot = int(random.bounded(100)) < hotPercent;
        const std::uint32_t size = hot ? 8 : 1 + random.bounded(8);
        const std::uint64_t address = hot ? counter : base + random.bounded(span);
        ValuedAccess stored {
            userAccess(transition, random.bounded(2) ? Operation::Write : Operation::Read, address, size), {}
        };
        if (withoutValues == 0 || random.bounded(withoutValues) != 0) {
            stored.value.resize(size);
            for (char &byte : stored.value)
                byte = char(random.bounded(256));
        }
        stream << stored;
    }
    const QString history = path(QStringLiteral("random-%1.memhist").arg(seed));
    QVERIFY(writeHistoryWithValues(history, stream));
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    MemoryReader reader(*database);
    QVERIFY(reader.hasValues());
    for (int query = 0; query < 60; ++query) {
        const std::uint64_t at = random.bounded(quint32(transition + 3)); // past the end too
        // With a counter, every other range holds it.
        const std::uint64_t first = hotPercent > 0 && query % 2 == 1
            ? counter - random.bounded(query % 5 == 0 ? 504 : 16)
            : base - 8 + random.bounded(span + 16);
        const std::uint64_t last = first + random.bounded(query % 5 == 0 ? 512 : 24);
        QList<MemoryByte> bytes;
        QVERIFY2(
            reader.read(Transition { at }, Address { first }, Address { last }, &bytes, &error), qPrintable(error));
        const QList<MemoryByte> expected = replay(stream, at, first, last);
        QCOMPARE(bytes.size(), expected.size());
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            if (!(bytes[i] == expected[i]))
                QFAIL(qPrintable(QStringLiteral("at %1, byte 0x%2: known by %3 (rowid %4) where the replay says %5 "
                                                "(rowid %6)")
                                     .arg(at)
                                     .arg(first + std::uint64_t(i), 0, 16)
                                     .arg(int(bytes[i].knownBy))
                                     .arg(bytes[i].rowId.value)
                                     .arg(int(expected[i].knownBy))
                                     .arg(expected[i].rowId.value)));
        }
    }
}

void tst_MemoryReader::refusesBadRanges()
{
    QString error;
    const auto database = HistoryDatabase::open(m_small, &error);
    QVERIFY2(database, qPrintable(error));
    MemoryReader reader(*database);
    QList<MemoryByte> bytes;
    QVERIFY(!reader.read(Transition { 0 }, Address { 0x2000 }, Address { 0x1fff }, &bytes, &error));
    QCOMPARE(error, QStringLiteral("the range's first address is after its last"));
    QVERIFY(!reader.read(Transition { 0 }, Address { 0 }, Address { 0x10000 }, &bytes, &error));
    QCOMPARE(error, QStringLiteral("65537 bytes asked for; memory is read at most 65536 bytes at a time"));
    QVERIFY(reader.read(Transition { 0 }, Address { 0 }, Address { 0xffff }, &bytes, &error));
    QCOMPARE(bytes.size(), 65536);
}

void tst_MemoryReader::cliHex()
{
    const CliResult result = runCli({ QStringLiteral("memory"), m_small, QStringLiteral("--at"), QStringLiteral("9"),
        QStringLiteral("--from"), QStringLiteral("0xfff"), QStringLiteral("--to"), QStringLiteral("0x1010") });
    QCOMPARE(result.exitCode, 0);
    QCOMPARE(result.err, QByteArray());
    QCOMPARE(result.out,
        QByteArray(
            "0x0fff: ??41 7879 4400 ff21 ???? ???? ???? ????  ?AxyD..!????????\n"
            "0x100f: ????                                     ??\n"
            "-- 18 bytes after transition 9: 4 known by a write, 2 by a read, 1 by a later read, 11 unknown (?\?)\n"));
}

void tst_MemoryReader::cliCsvAndBatch()
{
    const CliResult csv = runCli({ QStringLiteral("memory"), m_small, QStringLiteral("--at"), QStringLiteral("4"),
        QStringLiteral("--from"), QStringLiteral("0x1000"), QStringLiteral("--to"), QStringLiteral("0x1001"),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(csv.exitCode, 0);
    // Before transition 5 nothing read 0x1000..0x1001 and the first access wrote them: unknown.
    QCOMPARE(csv.out, QByteArray("address,value,known_by,transition,rowid\n0x1000,,unknown,,\n0x1001,,unknown,,\n"));

    QFile batchFile(path(QStringLiteral("memory.batch")));
    QVERIFY(batchFile.open(QIODevice::WriteOnly));
    batchFile.write("# two moments of 0x1001\n--at 5 --from 0x1001 --to 0x1001\n\n--at 0x9 --from 0x1001 --to 0x1001\n"
                    "--at 8 --from 0x1006 --to 0x1006\n");
    batchFile.close();
    const CliResult batch = runCli({ QStringLiteral("memory"), m_small, QStringLiteral("--batch"), batchFile.fileName(),
        QStringLiteral("--format"), QStringLiteral("csv") });
    QCOMPARE(batch.exitCode, 0);
    const QList<QByteArray> lines = batch.out.split('\n');
    QCOMPARE(lines.size(), 8);
    QCOMPARE(lines[0], QByteArray("address,value,known_by,transition,rowid"));
    QCOMPARE(lines[1], QByteArray("0x1001,42,write,5,1"));
    QVERIFY2(lines[2].startsWith("# query 1: 1 byte in ") && lines[2].endsWith(" ms"), lines[2].constData());
    QCOMPARE(lines[3], QByteArray("0x1001,78,write,9,3"));
    QVERIFY(lines[4].startsWith("# query 2: 1 byte in "));
    QCOMPARE(lines[5], QByteArray("0x1006,21,later_read,12,4"));
    QVERIFY(lines[6].startsWith("# query 3: 1 byte in "));
    QCOMPARE(lines[7], QByteArray());
}

void tst_MemoryReader::cliRefusals_data()
{
    QTest::addColumn<QStringList>("arguments"); // after "memory"; HISTORY stands for the history
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // the first line of stderr

    const QString history = QStringLiteral("HISTORY");
    QTest::newRow("missing --at") << QStringList {
        history, QStringLiteral("--from"), QStringLiteral("1"), QStringLiteral("--to"), QStringLiteral("2")
    } << 2 << QStringLiteral("memhist memory: missing --at (memory needs --at T --from A --to B)");
    QTest::newRow("more than 64 KiB")
        << QStringList { history, QStringLiteral("--at"), QStringLiteral("1"), QStringLiteral("--from"),
               QStringLiteral("0"), QStringLiteral("--to"), QStringLiteral("0x10000") }
        << 2
        << QStringLiteral("memhist memory: --from 0 --to 0x10000 is 65537 bytes; memory shows at most 65536 at once");
    QTest::newRow("from after to") << QStringList { history, QStringLiteral("--at"), QStringLiteral("1"),
        QStringLiteral("--from"), QStringLiteral("9"), QStringLiteral("--to"), QStringLiteral("8") }
                                   << 2 << QStringLiteral("memhist memory: --from 9 is after --to 8");
    QTest::newRow("bad format") << QStringList {
        history, QStringLiteral("--at"), QStringLiteral("1"), QStringLiteral("--from"), QStringLiteral("1"),
        QStringLiteral("--to"), QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("table")
    } << 2 << QStringLiteral("memhist memory: --format: 'table' is not a format (hex or csv)");
    QTest::newRow("no values") << QStringList { QStringLiteral("PLAIN"), QStringLiteral("--at"), QStringLiteral("1"),
        QStringLiteral("--from"), QStringLiteral("1"), QStringLiteral("--to"), QStringLiteral("1") }
                               << 1
                               << QStringLiteral("memhist memory: PLAIN: this history has no values (the bytes its "
                                                 "accesses moved), so its memory cannot be shown; record the program "
                                                 "with memhist record, or import a trace that has them (Tenet)");
}

void tst_MemoryReader::cliRefusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString plain = path(QStringLiteral("plain.memhist"));
    if (!QFile::exists(plain))
        QVERIFY(writeHistoryWithValues(plain, { { userAccess(1, Operation::Write, 1, 1), {} } }));
    for (QString &argument : arguments) {
        argument.replace(QStringLiteral("HISTORY"), m_small);
        argument.replace(QStringLiteral("PLAIN"), plain);
    }
    const CliResult result = runCli(QStringList { QStringLiteral("memory") } + arguments);
    QCOMPARE(result.exitCode, exitCode);
    QCOMPARE(result.out, QByteArray());
    QCOMPARE(
        QString::fromUtf8(result.err).section(u'\n', 0, 0), QString(message).replace(QStringLiteral("PLAIN"), plain));
}

QTEST_GUILESS_MAIN(tst_MemoryReader)
#include "tst_memoryreader.moc"
