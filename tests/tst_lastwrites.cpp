// SPDX-License-Identifier: MIT
// The last writes of an access's bytes (core/search/lastwrites.h: what `memhist origin` follows
// and `memhist search --unexplained` compares) against a brute-force scan of random histories with
// values: each write listed once, newest first, with the bytes it explains; the bytes no write
// explains as ranges; and whether a read's bytes differ from what those writes left. One history
// has hot counters beside bytes never written, so that the byte walk splits around it and walks
// stretches apart (core/query/bytewalk.h).
#include "core/search/lastwrites.h"
#include "core/storage/historydatabase.h"
#include "testsupport.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace memhist;
using namespace memhist::test;

class tst_LastWrites : public QObject
{
    Q_OBJECT

private slots:
    void equalsTheScan_data();
    void equalsTheScan();
    void smallHistoryExactly();

private:
    QTemporaryDir m_dir;
};

namespace {

QString describe(const QList<LastWrite> &writes)
{
    QStringList parts;
    for (const LastWrite &write : writes)
        parts << QStringLiteral("row %1 [0x%2, 0x%3]")
                     .arg(write.write.rowId.value)
                     .arg(write.first.value, 0, 16)
                     .arg(write.last.value, 0, 16);
    return parts.join(QStringLiteral("; "));
}

// The brute-force answer for the access at `row` (0-based in the stream) over its bytes
// [first, last]: each byte's last write at an earlier row, grouped by write, newest first.
void scan(const QList<ValuedAccess> &stream, qsizetype row, std::uint64_t first, std::uint64_t last,
    QList<LastWrite> *writes, QList<LastWrite> *unwritten, std::map<std::uint64_t, qsizetype> *writerOfByte)
{
    std::map<qsizetype, LastWrite, std::greater<>> byWrite;
    for (std::uint64_t address = first; address <= last; ++address) {
        qsizetype writer = -1;
        for (qsizetype i = row - 1; i >= 0; --i) {
            const Access &access = stream[i].access;
            if (access.operation == Operation::Write && address >= access.physical.value
                && address <= access.lastByte().value) {
                writer = i;
                break;
            }
        }
        if (writer < 0) {
            if (!unwritten->isEmpty() && unwritten->constLast().last.value + 1 == address)
                unwritten->last().last = Address { address };
            else
                unwritten->append(LastWrite { Access {}, Address { address }, Address { address } });
            continue;
        }
        (*writerOfByte)[address] = writer;
        auto [entry, inserted] = byWrite.try_emplace(writer);
        if (inserted) {
            entry->second.write = stream[writer].access;
            entry->second.write.rowId = RowId { writer + 1 };
            entry->second.first = Address { address };
        }
        entry->second.last = Address { address };
    }
    for (const auto &[writer, write] : byWrite)
        writes->append(write);
}

} // namespace

void tst_LastWrites::equalsTheScan_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("accesses");
    QTest::addColumn<int>("span"); // bytes the accesses fall in
    QTest::addColumn<int>("hotPercent"); // writes of two 8-byte counters amid the span, in percent

    QTest::newRow("dense") << 11u << 3000 << 128 << 0;
    QTest::newRow("sparse") << 12u << 3000 << 8192 << 0;
    // The counters' writes fill the walk's pages and decide nothing after the first, while the
    // bytes between and beside them that nothing writes keep the walk going to the start of the
    // history.
    QTest::newRow("hot counters beside bytes never written") << 13u << 8000 << 4096 << 70;
}

void tst_LastWrites::equalsTheScan()
{
    QFETCH(quint32, seed);
    QFETCH(int, accesses);
    QFETCH(int, span);
    QFETCH(int, hotPercent);
    QVERIFY(m_dir.isValid());
    QRandomGenerator random(seed);
    const std::uint64_t base = 0x7fff0000;
    const std::uint64_t counter = base + std::uint64_t(span / 2);
    QList<ValuedAccess> stream;
    std::uint64_t transition = 0;
    for (int i = 0; i < accesses; ++i) {
        transition += random.bounded(3);
        const bool hot = int(random.bounded(100)) < hotPercent;
        std::uint32_t size = hot ? 8 : 1 + random.bounded(8);
        // Two counters 16 bytes apart, the 8 bytes between them and the 64 after the second
        // touched by nothing else: they share a chunk, which the walk cannot skip while the bytes
        // between them are undecided.
        std::uint64_t address = hot ? counter + 16 * random.bounded(2) : base + random.bounded(span);
        if (!hot && address + 8 > counter && address < counter + 96)
            address = base + random.bounded(span / 4);
        // Now and then one byte there is written: the stretches the walk splits into end at
        // different times, and the writes they find must still be listed newest first.
        const bool rare = hotPercent > 0 && !hot && random.bounded(100) == 0;
        if (rare)
            address = counter + (random.bounded(2) ? 8 + random.bounded(8) : 24 + random.bounded(72));
        if (rare)
            size = 1;
        const Operation operation = hot || rare || random.bounded(2) ? Operation::Write : Operation::Read;
        ValuedAccess stored { userAccess(transition, operation, address, size), QByteArray(qsizetype(size), 0) };
        for (char &byte : stored.value)
            byte = char(random.bounded(hot ? 4 : 256)); // the counter repeats values: equal writes
        stream << stored;
    }
    const QString history = m_dir.filePath(QStringLiteral("random-%1.memhist").arg(seed));
    QVERIFY(writeHistoryWithValues(history, stream));
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    LastWrites lastWrites(*database);

    for (int query = 0; query < 80; ++query) {
        // A stored access, or (every third query) its row with a wider range that holds the
        // counters and bytes no write touches.
        const qsizetype row = qsizetype(random.bounded(quint32(stream.size())));
        Access access = stream[row].access;
        access.rowId = RowId { row + 1 };
        if (hotPercent > 0 && query % 3 == 0) {
            access.physical = Address { counter + random.bounded(8) };
            access.size = 16 + random.bounded(64);
        }
        const std::uint64_t first = access.physical.value;
        const std::uint64_t last = access.lastByte().value;

        QList<LastWrite> writes;
        QList<LastWrite> unwritten;
        QVERIFY(lastWrites.lastWritesOf(access, &writes, &unwritten));
        QVERIFY(!lastWrites.failed(&error));
        QList<LastWrite> expectedWrites;
        QList<LastWrite> expectedUnwritten;
        std::map<std::uint64_t, qsizetype> writerOfByte;
        scan(stream, row, first, last, &expectedWrites, &expectedUnwritten, &writerOfByte);
        QCOMPARE(describe(writes), describe(expectedWrites));
        QCOMPARE(describe(unwritten), describe(expectedUnwritten));

        // differs(): the access's bytes as if read, against what each byte's last write left.
        if (stream[row].access.operation != Operation::Read || access.physical != stream[row].access.physical
            || access.size != stream[row].access.size)
            continue;
        bool expectedDiffers = false;
        for (const auto &[address, writer] : writerOfByte) {
            const ValuedAccess &write = stream[writer];
            expectedDiffers = expectedDiffers
                || write.value[qsizetype(address - write.access.physical.value)]
                    != stream[row].value[qsizetype(address - first)];
        }
        QCOMPARE(lastWrites.differs(access, AccessValue { stream[row].value, {}, {} }), expectedDiffers);
        QVERIFY(!lastWrites.failed(&error));
    }
}

void tst_LastWrites::smallHistoryExactly()
{
    // At 3 "ABCD" written at 0x1000, at 5 "xy" over 0x1001..0x1002, at 8 a read of 0x0fff..0x1004
    // (6 bytes): 0x1001..0x1002 from the write at 5, 0x1000 and 0x1003 from the one at 3 (listed
    // once, newest first), 0x0fff and 0x1004 never written.
    const QList<ValuedAccess> stream {
        { userAccess(3, Operation::Write, 0x1000, 4), "ABCD" },
        { userAccess(5, Operation::Write, 0x1001, 2), "xy" },
        { userAccess(8, Operation::Read, 0x0fff, 6), "?AxyD?" },
    };
    const QString history = m_dir.filePath(QStringLiteral("small.memhist"));
    QVERIFY(writeHistoryWithValues(history, stream));
    QString error;
    const auto database = HistoryDatabase::open(history, &error);
    QVERIFY2(database, qPrintable(error));
    LastWrites lastWrites(*database);
    Access read = stream[2].access;
    read.rowId = RowId { 3 };
    QList<LastWrite> writes;
    QList<LastWrite> unwritten;
    QVERIFY(lastWrites.lastWritesOf(read, &writes, &unwritten));
    QCOMPARE(describe(writes), QStringLiteral("row 2 [0x1001, 0x1002]; row 1 [0x1000, 0x1003]"));
    QCOMPARE(describe(unwritten), QStringLiteral("row 0 [0xfff, 0xfff]; row 0 [0x1004, 0x1004]"));
    QCOMPARE(lastWrites.differs(read, AccessValue { QByteArray("?AxyD?"), {}, {} }), false);
    QCOMPARE(lastWrites.differs(read, AccessValue { QByteArray("?AxzD?"), {}, {} }), true);
}

QTEST_GUILESS_MAIN(tst_LastWrites)
#include "tst_lastwrites.moc"
