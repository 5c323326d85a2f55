// SPDX-License-Identifier: MIT
// The value types' arithmetic at the edges of the 64-bit space (core/model/types.h): the last byte
// of an access, and an address window as ranges over the signed values the database stores.
#include "core/model/types.h"

#include <QTest>

using namespace memhist;

namespace {

constexpr quint64 max64 = ~quint64(0);
constexpr qint64 storedMax = std::numeric_limits<qint64>::max();
constexpr qint64 storedMin = std::numeric_limits<qint64>::min();

} // namespace

class TestTypes : public QObject
{
    Q_OBJECT

private slots:
    void lastByte_data();
    void lastByte();
    void storedRanges_data();
    void storedRanges();
};

void TestTypes::lastByte_data()
{
    QTest::addColumn<quint64>("address");
    QTest::addColumn<quint32>("size");
    QTest::addColumn<quint64>("last");

    QTest::newRow("one byte") << quint64(0x1000) << quint32(1) << quint64(0x1000);
    QTest::newRow("eight bytes") << quint64(0x1000) << quint32(8) << quint64(0x1007);
    QTest::newRow("size 0 covers one byte") << quint64(0x1000) << quint32(0) << quint64(0x1000);
    QTest::newRow("ends on the last byte") << quint64(max64 - 7) << quint32(8) << quint64(max64);
    QTest::newRow("would wrap: saturates") << quint64(max64 - 3) << quint32(8) << quint64(max64);
    QTest::newRow("largest size at the top") << quint64(max64) << quint32(0xffffffff) << quint64(max64);
    QTest::newRow("crosses 2^63") << quint64(0x7ffffffffffffffc) << quint32(8) << quint64(0x8000000000000003);
}

void TestTypes::lastByte()
{
    QFETCH(quint64, address);
    QFETCH(quint32, size);
    QFETCH(quint64, last);

    Access access;
    access.physical = Address { address };
    access.size = size;
    QCOMPARE(quint64(access.lastByte().value), last);
    QCOMPARE(quint64(lastByteOf(address, size)), last);
}

void TestTypes::storedRanges_data()
{
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("last");
    QTest::addColumn<int>("count");
    QTest::addColumn<qint64>("first0");
    QTest::addColumn<qint64>("last0");
    QTest::addColumn<qint64>("first1");
    QTest::addColumn<qint64>("last1");

    QTest::newRow("below 2^63") << quint64(0x1000) << quint64(0x1fff) << 1 << qint64(0x1000) << qint64(0x1fff)
                                << qint64(0x1000) << qint64(0x1fff);
    QTest::newRow("whole space") << quint64(0) << max64 << 2 << qint64(0) << storedMax << storedMin << qint64(-1);
    QTest::newRow("at and above 2^63") << (quint64(1) << 63) << max64 << 1 << storedMin << qint64(-1) << storedMin
                                       << qint64(-1);
    QTest::newRow("one byte each side") << quint64(storedMax) << (quint64(1) << 63) << 2 << storedMax << storedMax
                                        << storedMin << storedMin;
    QTest::newRow("last byte below 2^63")
        << quint64(storedMax) << quint64(storedMax) << 1 << storedMax << storedMax << storedMax << storedMax;
}

void TestTypes::storedRanges()
{
    QFETCH(quint64, first);
    QFETCH(quint64, last);
    QFETCH(int, count);
    QFETCH(qint64, first0);
    QFETCH(qint64, last0);
    QFETCH(qint64, first1);
    QFETCH(qint64, last1);

    const StoredRanges stored = toStoredRanges(first, last);
    QCOMPARE(stored.count, count);
    QCOMPARE(qint64(stored.ranges[0].first), first0);
    QCOMPARE(qint64(stored.ranges[0].last), last0);
    QCOMPARE(qint64(stored.ranges[1].first), first1);
    QCOMPARE(qint64(stored.ranges[1].last), last1);
}

QTEST_GUILESS_MAIN(TestTypes)
#include "tst_types.moc"
