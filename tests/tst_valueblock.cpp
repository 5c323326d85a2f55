// SPDX-License-Identifier: MIT
// The packing of access values into blocks (core/values/valueblock.h): every value, before and
// kernel mark comes back as given, blocks end where the encoder says, and a damaged layout is
// refused rather than read past.
#include "core/values/valueblock.h"

#include <QRandomGenerator>
#include <QTest>
#include <map>

using namespace memhist;

class tst_ValueBlock : public QObject
{
    Q_OBJECT

private slots:
    void roundTripsRandomValues();
    void cursorReadsForward();
    void blockLimits_data();
    void blockLimits();
    void refusesDamagedBlocks_data();
    void refusesDamagedBlocks();
};

namespace {

// Decodes every block and collects its values by rowid.
std::map<qint64, AccessValue> decodeAll(const std::vector<ValueBlock> &blocks)
{
    std::map<qint64, AccessValue> values;
    for (const ValueBlock &block : blocks) {
        DecodedValueBlock decoded;
        if (!decoded.decode(block.first, block.last, block.layout, block.bytes))
            qFatal("a block the encoder wrote does not decode");
        for (qint64 id = block.first; id <= block.last; ++id) {
            if (const std::optional<AccessValue> value = decoded.at(id))
                values.emplace(id, *value);
        }
    }
    return values;
}

} // namespace

namespace {

// 20,000 random values (some with before bytes, some from the kernel) at rowids with gaps, and
// the blocks the encoder packed them into.
void encodeRandomValues(std::vector<ValueBlock> *blocks, std::map<qint64, AccessValue> *values)
{
    QRandomGenerator random(20261128);
    ValueBlockEncoder encoder;
    qint64 id = 0;
    for (int i = 0; i < 20000; ++i) {
        id += 1 + (random.bounded(10) == 0 ? random.bounded(200) : 0); // some gaps, some past maxGap
        AccessValue value;
        value.bytes.resize(1 + random.bounded(random.bounded(20) == 0 ? 5000 : 32));
        for (char &byte : value.bytes)
            byte = char(random.bounded(256));
        if (random.bounded(3) == 0) {
            value.before.resize(value.bytes.size());
            for (char &byte : value.before)
                byte = char(random.bounded(256));
        }
        if (random.bounded(50) == 0)
            value.kernelSyscall = random.bounded(2) == 0 ? quint32(random.bounded(500)) : 0xffffffffu;
        values->emplace(id, value);
        if (std::optional<ValueBlock> block = encoder.add(id, { value.bytes, value.before, value.kernelSyscall }))
            blocks->push_back(std::move(*block));
    }
    if (std::optional<ValueBlock> block = encoder.take())
        blocks->push_back(std::move(*block));
}

} // namespace

void tst_ValueBlock::roundTripsRandomValues()
{
    std::vector<ValueBlock> blocks;
    std::map<qint64, AccessValue> expected;
    encodeRandomValues(&blocks, &expected);
    QCOMPARE(blocks.size(), std::size_t(1372));
    for (std::size_t i = 1; i < blocks.size(); ++i)
        QVERIFY(blocks[i].first > blocks[i - 1].last);
    QCOMPARE(decodeAll(blocks), expected);
}

void tst_ValueBlock::cursorReadsForward()
{
    // The diff reads a block forward, access after access, passing over some (executes): each
    // access asked for gets its bytes, or none where it has no value.
    std::vector<ValueBlock> blocks;
    std::map<qint64, AccessValue> values;
    encodeRandomValues(&blocks, &values);
    qint64 asked = 0, withValue = 0;
    for (const ValueBlock &block : blocks) {
        ValueBlockCursor cursor;
        QVERIFY(cursor.reset(block.first, block.last, block.layout, block.bytes));
        QCOMPARE(cursor.last(), block.last);
        qint64 lastAsked = -1;
        for (qint64 id = block.first; id <= block.last; ++id) {
            if (id % 3 == 0)
                continue;
            lastAsked = id;
            const auto found = values.find(id);
            const QByteArray expected = found == values.end() ? QByteArray() : found->second.bytes;
            QCOMPARE(cursor.bytesOf(id).toByteArray(), expected);
            ++asked;
            withValue += found != values.end();
        }
        // Behind the cursor or past the block: nothing.
        QCOMPARE(cursor.bytesOf(lastAsked).size(), 0);
        QCOMPARE(cursor.bytesOf(block.last + 1).size(), 0);
    }
    QCOMPARE(asked, qint64(26977));
    QCOMPARE(withValue, qint64(13359)); // two thirds of the 20,000 values
}

void tst_ValueBlock::blockLimits_data()
{
    QTest::addColumn<QList<qint64>>("ids");
    QTest::addColumn<int>("valueBytes");
    QTest::addColumn<QList<qint64>>("blockFirsts");

    QList<qint64> consecutive;
    for (qint64 id = 1; id <= 600; ++id)
        consecutive << id;
    QTest::newRow("256 rowids a block") << consecutive << 4 << QList<qint64> { 1, 257, 513 };
    QTest::newRow("16 KiB a block: the value that reaches it ends it")
        << QList<qint64> { 1, 2, 3, 4, 5 } << 8192 << QList<qint64> { 1, 3, 5 };
    QTest::newRow("a gap of 64 rowids stays, of 65 starts a block")
        << QList<qint64> { 1, 65, 130 } << 1 << QList<qint64> { 1, 130 };
}

void tst_ValueBlock::blockLimits()
{
    QFETCH(QList<qint64>, ids);
    QFETCH(int, valueBytes);
    QFETCH(QList<qint64>, blockFirsts);
    ValueBlockEncoder encoder;
    std::vector<ValueBlock> blocks;
    const QByteArray bytes(valueBytes, 'v');
    for (const qint64 id : ids) {
        if (std::optional<ValueBlock> block = encoder.add(id, { bytes, {}, std::nullopt }))
            blocks.push_back(std::move(*block));
    }
    if (std::optional<ValueBlock> block = encoder.take())
        blocks.push_back(std::move(*block));
    QList<qint64> firsts;
    for (const ValueBlock &block : blocks)
        firsts << block.first;
    QCOMPARE(firsts, blockFirsts);
    QCOMPARE(qint64(decodeAll(blocks).size()), qint64(ids.size()));
}

void tst_ValueBlock::refusesDamagedBlocks_data()
{
    QTest::addColumn<qint64>("last");
    QTest::addColumn<QByteArray>("layout");
    QTest::addColumn<QByteArray>("bytes");

    // Two accesses of 2 bytes, the second with before bytes: heads 0x08 and 0x0a, 6 bytes.
    const QByteArray sixBytes = QByteArray::fromHex("111122223333");
    QTest::newRow("as written: decodes") << qint64(2) << QByteArray::fromHex("080a") << sixBytes;
    QTest::newRow("bytes missing") << qint64(2) << QByteArray::fromHex("080a") << sixBytes.first(5);
    QTest::newRow("bytes left over") << qint64(2) << QByteArray::fromHex("080a") << sixBytes + '\0';
    QTest::newRow("a head missing") << qint64(3) << QByteArray::fromHex("080a") << sixBytes;
    QTest::newRow("a head left over") << qint64(1) << QByteArray::fromHex("080a") << sixBytes;
    QTest::newRow("a kernel head without its syscall") << qint64(1) << QByteArray::fromHex("09") << sixBytes.first(2);
    QTest::newRow("a varint cut") << qint64(1) << QByteArray::fromHex("88") << sixBytes.first(2);
    QTest::newRow("last before first") << qint64(0) << QByteArray() << QByteArray();
    QTest::newRow("a length past the bytes") << qint64(1) << QByteArray::fromHex("ffffffff0f") << sixBytes;
}

void tst_ValueBlock::refusesDamagedBlocks()
{
    QFETCH(qint64, last);
    QFETCH(QByteArray, layout);
    QFETCH(QByteArray, bytes);
    DecodedValueBlock decoded;
    const bool wellFormed = QByteArray(QTest::currentDataTag()) == "as written: decodes";
    QCOMPARE(decoded.decode(1, last, layout, bytes), wellFormed);
    QCOMPARE(decoded.contains(1), wellFormed);
    if (wellFormed) {
        QCOMPARE(decoded.at(1), std::optional(AccessValue { QByteArray::fromHex("1111"), {}, std::nullopt }));
        QCOMPARE(decoded.at(2),
            std::optional(AccessValue { QByteArray::fromHex("2222"), QByteArray::fromHex("3333"), std::nullopt }));
    } else {
        QCOMPARE(decoded.at(1), std::nullopt);
    }
    ValueBlockCursor cursor;
    QCOMPARE(cursor.reset(1, last, layout, bytes), wellFormed);
    QCOMPARE(cursor.contains(1), wellFormed);
    QCOMPARE(cursor.bytesOf(1).toByteArray(), wellFormed ? QByteArray::fromHex("1111") : QByteArray());
    QCOMPARE(cursor.bytesOf(2).toByteArray(), wellFormed ? QByteArray::fromHex("2222") : QByteArray());
}

QTEST_GUILESS_MAIN(tst_ValueBlock)
#include "tst_valueblock.moc"
