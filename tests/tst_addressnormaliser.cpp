// SPDX-License-Identifier: MIT
// AddressNormaliser (core/diff/addressnormaliser.h) on two runs whose stacks lie at different
// addresses and whose arguments differ in length: stack places are measured from sp0 (the end of a
// run's first stack access), so a frame below it has the same name in both runs and a pointer into
// the stack compares by its distance from sp0 (ObjectHistories::sameWrite); data objects and the
// heap keep their own names.
#include "core/context/contextschema.h"
#include "core/diff/addressnormaliser.h"
#include "core/diff/objecthistories.h"
#include "core/storage/sqlite.h"

#include <QTemporaryDir>
#include <QTest>

using namespace memhist;

namespace {

using Kind = NormalisedAddress::Kind;

// A run's layout: its [stack] mapping, a data object `counter` and the [heap].
struct Layout
{
    std::uint64_t stackFirst;
    std::uint64_t stackLast;
};

bool writeLayout(const QString &path, const Layout &layout)
{
    sqlite::Connection connection;
    if (!connection.open(path, sqlite::Connection::Mode::ReadWriteCreate))
        return false;
    const QByteArray rows = QByteArray(contextschema::insertMemoryMap) + " (0, 1000, "
        + QByteArray::number(qint64(layout.stackFirst)) + ", " + QByteArray::number(qint64(layout.stackLast))
        + ", 'rw-p', 0, '[stack]', NULL), (0, 1000, 4198400, 4202495, 'rw-p', 0, '/tmp/prog', 1), "
          "(0, 1000, 5242880, 5378047, 'rw-p', 0, '[heap]', NULL);";
    return connection.execute(contextschema::createMemoryMapTable) && connection.execute(rows.constData())
        && connection.execute(contextschema::createDataObjectsTable)
        && connection.execute("INSERT INTO data_objects VALUES (1, 'counter', 4198416, 4198423);");
}

QByteArray littleEndian(std::uint64_t value)
{
    QByteArray bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[i] = char((value >> (8 * i)) & 0xff);
    return bytes;
}

} // namespace

class tst_AddressNormaliser : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void framesBelowSp0HaveOneName();
    void pointersIntoTheStackCompareByDistance();
    void overlappingMappingsTakeTheOneFoundLast();

private:
    QTemporaryDir m_dir;
    QString m_a;
    QString m_b;
    // Run B's stack mapping ends 0x10000 lower, and its longer arguments put sp0 0x30 further below
    // the mapping's top: a frame lies 0x10030 lower in B.
    static constexpr std::uint64_t aTop = 0x7ffd00000000;
    static constexpr std::uint64_t bTop = aTop - 0x10000;
    static constexpr std::uint64_t aSp0 = aTop - 0x400;
    static constexpr std::uint64_t bSp0 = bTop - 0x430;
};

void tst_AddressNormaliser::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_a = m_dir.filePath(QStringLiteral("a.db"));
    m_b = m_dir.filePath(QStringLiteral("b.db"));
    QVERIFY(writeLayout(m_a, Layout { aTop - 0x21000, aTop - 1 }));
    QVERIFY(writeLayout(m_b, Layout { bTop - 0x21000, bTop - 1 }));
}

void tst_AddressNormaliser::framesBelowSp0HaveOneName()
{
    sqlite::Connection a;
    sqlite::Connection b;
    QVERIFY(a.open(m_a, sqlite::Connection::Mode::ReadOnly));
    QVERIFY(b.open(m_b, sqlite::Connection::Mode::ReadOnly));
    NameTable names;
    AddressNormaliser inA(a, names);
    AddressNormaliser inB(b, names);

    // Each run's first stack access is the return address its first call pushes, below sp0.
    QCOMPARE(inA.normalise(aSp0 - 8, 8, true, 0x401000), (NormalisedAddress { Kind::Stack, 0, 0, 8 }));
    QCOMPARE(inB.normalise(bSp0 - 8, 8, true, 0x401000), (NormalisedAddress { Kind::Stack, 0, 0, 8 }));
    // A local 0x98 below sp0 in both, though 0x10030 apart; the arguments above sp0 at -0x20.
    QCOMPARE(inA.normalise(aSp0 - 0x98, 4, true, 0x401010), (NormalisedAddress { Kind::Stack, 0, 0, 0x98 }));
    QCOMPARE(inB.normalise(bSp0 - 0x98, 4, true, 0x401010), (NormalisedAddress { Kind::Stack, 0, 0, 0x98 }));
    QCOMPARE(inA.normalise(aSp0 + 0x20, 8, false, 0x401020), (NormalisedAddress { Kind::Stack, 0, 0, -0x20 }));
    // The first access fixed sp0: later ones, even higher up, do not move it.
    QCOMPARE(inA.normalise(aSp0 - 0x98, 4, false, 0x401030), (NormalisedAddress { Kind::Stack, 0, 0, 0x98 }));

    // Objects: the local's word in both runs; the arguments' word above sp0.
    std::int64_t offset = -1;
    QCOMPARE(
        objectKeyOf(NormalisedAddress { Kind::Stack, 0, 0, 0x98 }, &offset), (ObjectKey { Kind::Stack, 0, 0, 0x98 }));
    QCOMPARE(offset, 0);
    QCOMPARE(
        objectKeyOf(NormalisedAddress { Kind::Stack, 0, 0, -0x1d }, &offset), (ObjectKey { Kind::Stack, 0, 0, -0x18 }));
    QCOMPARE(offset, 5);

    // A data object and the heap are named as before, whatever the stack.
    QCOMPARE(inA.normalise(4198420, 4, true, 0x401040).kind, Kind::Global);
    QCOMPARE(inA.normalise(4198420, 4, true, 0x401040), inB.normalise(4198420, 4, true, 0x401040));
}

void tst_AddressNormaliser::pointersIntoTheStackCompareByDistance()
{
    sqlite::Connection a;
    sqlite::Connection b;
    QVERIFY(a.open(m_a, sqlite::Connection::Mode::ReadOnly));
    QVERIFY(b.open(m_b, sqlite::Connection::Mode::ReadOnly));
    NameTable names;
    AddressNormaliser inA(a, names);
    AddressNormaliser inB(b, names);

    // Before a run's first stack access there is no sp0 to measure from.
    QCOMPARE(inA.stackDistanceOf(littleEndian(aSp0 - 0x98)), std::nullopt);
    inA.normalise(aSp0 - 8, 8, true, 0x401000);
    inB.normalise(bSp0 - 8, 8, true, 0x401000);

    QCOMPARE(inA.stackDistanceOf(littleEndian(aSp0 - 0x98)), std::optional<std::int64_t>(0x98));
    QCOMPARE(inB.stackDistanceOf(littleEndian(bSp0 - 0x98)), std::optional<std::int64_t>(0x98));
    QCOMPARE(inA.stackDistanceOf(littleEndian(aSp0 + 0x10)), std::optional<std::int64_t>(-0x10));
    // Not pointers into the stack: outside the mapping, another width.
    QCOMPARE(inA.stackDistanceOf(littleEndian(aTop)), std::nullopt);
    QCOMPARE(inA.stackDistanceOf(littleEndian(4198420)), std::nullopt);
    QCOMPARE(inA.stackDistanceOf(littleEndian(aSp0 - 0x98).left(4)), std::nullopt);

    // A saved frame pointer to the same local in both runs is no difference; to another local it is.
    const auto write = [](std::uint64_t pointer, std::optional<std::int64_t> distance) {
        ObjectWrite w;
        w.size = 8;
        w.value = littleEndian(pointer);
        w.stackDistance = distance;
        return w;
    };
    QVERIFY(sameValue(write(aSp0 - 0x98, 0x98), write(bSp0 - 0x98, 0x98)));
    QVERIFY(!sameValue(write(aSp0 - 0x98, 0x98), write(bSp0 - 0xa0, 0xa0)));
    // Only one side a stack pointer: the bytes decide.
    QVERIFY(!sameValue(write(aSp0 - 0x98, 0x98), write(bSp0 - 0x98, std::nullopt)));
    QVERIFY(sameValue(write(0x1234, std::nullopt), write(0x1234, std::nullopt)));

    ObjectHistories histories;
    const ObjectKey slot { Kind::Stack, 0, 0, 0x100 };
    histories.add(0, slot, write(aSp0 - 0x98, 0x98));
    histories.add(1, slot, write(bSp0 - 0x98, 0x98));
    histories.add(0, slot, write(aSp0 - 0x98, 0x98));
    histories.add(1, slot, write(bSp0 - 0xa0, 0xa0));
    histories.finish();
    const std::vector<ObjectSummary> differing = histories.differing();
    QCOMPARE(differing.size(), std::size_t(1));
    QCOMPARE(differing.front().firstDifferingWrite, std::uint64_t(2));
}

void tst_AddressNormaliser::overlappingMappingsTakeTheOneFoundLast()
{
    // An anonymous mapping of 16 MiB and, in a later lifetime, a library's page inside it: the map
    // keeps both rows. An address in that page is named after whichever of the two holds it and
    // was found last, as before the per-page cache; pages that one mapping alone covers, with or
    // without a data object, are named as usual.
    const QString path = m_dir.filePath(QStringLiteral("overlap.db"));
    {
        sqlite::Connection connection;
        QVERIFY(connection.open(path, sqlite::Connection::Mode::ReadWriteCreate));
        const QByteArray rows = QByteArray(contextschema::insertMemoryMap)
            + " (0, 10, 268435456, 285212671, 'rw-p', 0, '[anon]', NULL), "
              "(11, 20, 272629760, 272633855, 'r-xp', 8192, '/tmp/lib.so', 2), "
              "(0, 20, 4198400, 4202495, 'rw-p', 0, '/tmp/prog', 1);";
        QVERIFY(connection.execute(contextschema::createMemoryMapTable));
        QVERIFY(connection.execute(rows.constData()));
        QVERIFY(connection.execute(contextschema::createDataObjectsTable));
        QVERIFY(connection.execute("INSERT INTO data_objects VALUES (1, 'counter', 4198416, 4198423);"));
    }
    sqlite::Connection connection;
    QVERIFY(connection.open(path, sqlite::Connection::Mode::ReadOnly));
    NameTable names;
    AddressNormaliser places(connection, names);
    const NormalisedAddress inLib { Kind::File, names.idOf(QStringLiteral("lib.so")), 0, 8192 + 0x10 };
    const std::uint64_t anon = names.idOf(QStringLiteral("[anon]"));
    const std::uint64_t prog = names.idOf(QStringLiteral("prog"));

    // Nothing found yet: the library's row, the nearest start below.
    QCOMPARE(places.normalise(0x10400010, 8, false, 0), inLib);
    // Elsewhere in the anonymous mapping; the library's page then stays with it.
    QCOMPARE(places.normalise(0x10000100, 8, false, 0), (NormalisedAddress { Kind::Region, anon, 0, 0x10000100 }));
    QCOMPARE(places.normalise(0x10400010, 8, false, 0), (NormalisedAddress { Kind::Region, anon, 0, 0x10400010 }));
    // An address outside every mapping leaves the last one found as it was.
    QCOMPARE(places.normalise(0x20000000, 8, false, 0), (NormalisedAddress { Kind::Unknown, 0, 0, 0x20000000 }));
    QCOMPARE(places.normalise(0x10400020, 8, false, 0), (NormalisedAddress { Kind::Region, anon, 0, 0x10400020 }));
    // The program's page: the data object, and the bytes beside it named by the file.
    QCOMPARE(places.normalise(4198420, 4, false, 0),
        (NormalisedAddress { Kind::Global, names.idOf(QStringLiteral("counter")), 0, 4 }));
    QCOMPARE(places.normalise(4198424, 8, false, 0), (NormalisedAddress { Kind::File, prog, 0, 24 }));
    QCOMPARE(places.normalise(4202000, 8, false, 0), (NormalisedAddress { Kind::File, prog, 0, 4202000 - 4198400 }));
}

QTEST_GUILESS_MAIN(tst_AddressNormaliser)
#include "tst_addressnormaliser.moc"
