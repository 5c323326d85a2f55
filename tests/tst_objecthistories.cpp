// SPDX-License-Identifier: MIT
// ObjectHistories (core/diff/objecthistories.h): the writes of two runs to one object matched n-th
// with n-th whatever their timing, the first differing write and its rank, the final values, and
// the bounds (a queue that overflows loses the rank but keeps counts and final values; objects
// past the cap are counted as untracked).
#include "core/diff/objecthistories.h"

#include <QTest>

using namespace memhist;

namespace {

// "A0:01 B0:01 B8:ff": run (A or B), offset in the object, value in hex; "A*70:01" repeats.
// With `paired`, a single A write followed by a single B write goes in as one addPair().
void feed(ObjectHistories &histories, const ObjectKey &key, const QString &writes, bool paired = false)
{
    std::int64_t rowId = 0;
    std::optional<ObjectWrite> waitingA; // paired: an A write that a B write may follow
    const auto flush = [&] {
        if (waitingA)
            histories.add(0, key, *waitingA);
        waitingA.reset();
    };
    for (const QString &token : writes.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const int side = token.startsWith(QLatin1Char('A')) ? 0 : 1;
        QString rest = token.mid(1);
        int repeat = 1;
        if (rest.startsWith(QLatin1Char('*'))) {
            repeat = rest.mid(1, rest.indexOf(QLatin1Char(':')) - 1).toInt();
            rest = QStringLiteral("0") + rest.mid(rest.indexOf(QLatin1Char(':')));
        }
        const QStringList parts = rest.split(QLatin1Char(':'));
        for (int i = 0; i < repeat; ++i) {
            ObjectWrite write;
            write.rowId = ++rowId;
            write.transition = std::uint64_t(rowId);
            write.offset = parts[0].toLongLong();
            write.size = std::uint32_t(parts[1].size() / 2);
            write.value = QByteArray::fromHex(parts[1].toLatin1());
            if (!paired || repeat > 1) {
                flush();
                histories.add(side, key, write);
            } else if (side == 0) {
                flush();
                waitingA = write;
            } else if (waitingA) {
                histories.addPair(key, *waitingA, write);
                waitingA.reset();
            } else {
                histories.add(side, key, write);
            }
        }
    }
    flush();
}

} // namespace

class tst_ObjectHistories : public QObject
{
    Q_OBJECT

private slots:
    void matching_data();
    void matching();
    void objectsPastTheCapAreUntracked();
};

void tst_ObjectHistories::matching_data()
{
    QTest::addColumn<QString>("writes");
    QTest::addColumn<bool>("differs");
    QTest::addColumn<int>("rank"); // 0: none or unknown
    QTest::addColumn<QString>("aFirst"); // the first differing write's value, "-" for none
    QTest::addColumn<QString>("bFirst");
    QTest::addColumn<int>("aWrites");
    QTest::addColumn<int>("bWrites");
    QTest::addColumn<bool>("lost");
    QTest::addColumn<bool>("paired");

    // Each row twice: one write at a time, and with each A write followed by a B write given as a
    // pair (addPair, as an aligned instruction's writes to one place are): the same results.
    for (const bool paired : { false, true }) {
        const char *mode = paired ? " (A and B in pairs)" : "";
        QTest::addRow("%s%s", "same writes in lockstep", mode) << "A0:01 B0:01 A0:02 B0:02" << false << 0 << "-"
                                                               << "-" << 2 << 2 << false << paired;
        QTest::addRow("%s%s", "same writes, A all first", mode)
            << "A0:01 A0:02 A0:03 B0:01 B0:02 B0:03" << false << 0 << "-"
            << "-" << 3 << 3 << false << paired;
        QTest::addRow("%s%s", "value differs at the second", mode)
            << "A0:01 B0:01 A0:02 B0:07 A0:03 B0:03" << true << 2 << "02"
            << "07" << 3 << 3 << false << paired;
        QTest::addRow("%s%s", "offset differs", mode) << "A0:01 B8:01" << true << 1 << "01"
                                                      << "01" << 1 << 1 << false << paired;
        QTest::addRow("%s%s", "size differs", mode) << "A0:01 B0:0100" << true << 1 << "01"
                                                    << "0100" << 1 << 1 << false << paired;
        QTest::addRow("%s%s", "B writes once more", mode) << "A0:01 B0:01 A0:02 B0:02 B0:03" << true << 3 << "-"
                                                          << "03" << 2 << 3 << false << paired;
        QTest::addRow("%s%s", "A writes once more, B first", mode) << "B0:01 A0:01 A0:02" << true << 2 << "02"
                                                                   << "-" << 2 << 1 << false << paired;
        QTest::addRow("%s%s", "only B writes", mode) << "B0:05" << true << 1 << "-"
                                                     << "05" << 0 << 1 << false << paired;
        QTest::addRow("%s%s", "first difference kept, later ones ignored", mode)
            << "A0:01 B0:02 A0:03 B0:04" << true << 1 << "01"
            << "02" << 2 << 2 << false << paired;
        QTest::addRow("%s%s", "queue overflow, same counts and finals", mode) << "A*70:01 B*70:01" << false << 0 << "-"
                                                                              << "-" << 70 << 70 << true << paired;
        QTest::addRow("%s%s", "queue overflow, counts differ", mode) << "A*70:01 B*71:01" << true << 0 << "-"
                                                                     << "-" << 70 << 71 << true << paired;
        QTest::addRow("%s%s", "queue overflow, finals differ", mode) << "A*70:01 B*69:01 B0:02" << true << 0 << "-"
                                                                     << "-" << 70 << 70 << true << paired;
        QTest::addRow("%s%s", "64 waiting is within the bound", mode) << "A*64:01 B*64:01" << false << 0 << "-"
                                                                      << "-" << 64 << 64 << false << paired;
        QTest::addRow("%s%s", "equal pairs, then a difference", mode)
            << "A0:01 B0:01 A0:01 B0:01 A0:02 B0:03" << true << 3 << "02"
            << "03" << 3 << 3 << false << paired;
    }
}

void tst_ObjectHistories::matching()
{
    QFETCH(QString, writes);
    QFETCH(bool, differs);
    QFETCH(int, rank);
    QFETCH(QString, aFirst);
    QFETCH(QString, bFirst);
    QFETCH(int, aWrites);
    QFETCH(int, bWrites);
    QFETCH(bool, lost);
    QFETCH(bool, paired);

    ObjectHistories histories;
    const ObjectKey key { NormalisedAddress::Kind::Global, 1, 0, 0 };
    feed(histories, key, writes, paired);
    histories.finish();
    const std::vector<ObjectSummary> found = histories.differing();
    QCOMPARE(found.size(), std::size_t(differs ? 1 : 0));
    QCOMPARE(histories.trackedObjects(), std::size_t(1));
    if (!differs)
        return;
    const ObjectSummary &summary = found.front();
    QVERIFY(summary.key == key);
    QCOMPARE(summary.firstDifferingWrite, std::uint64_t(rank));
    QCOMPARE(summary.comparisonLost, lost);
    const auto text = [](const std::optional<ObjectWrite> &write) {
        return write ? QString::fromLatin1(write->value.toByteArray().toHex()) : QStringLiteral("-");
    };
    QCOMPARE(text(summary.firstDiffering[0]), aFirst);
    QCOMPARE(text(summary.firstDiffering[1]), bFirst);
    QCOMPARE(summary.writes[0], std::uint64_t(aWrites));
    QCOMPARE(summary.writes[1], std::uint64_t(bWrites));
}

void tst_ObjectHistories::objectsPastTheCapAreUntracked()
{
    ObjectHistories histories;
    ObjectWrite write;
    write.size = 1;
    write.value = QByteArray(1, '\x01');
    for (std::size_t i = 0; i <= ObjectHistories::maxObjects; ++i)
        histories.add(0, ObjectKey { NormalisedAddress::Kind::Stack, 0, 0, std::int64_t(i * 8) }, write);
    histories.add(1, ObjectKey { NormalisedAddress::Kind::Stack, 0, 0, 0 }, write);
    // A pair to an object past the cap: two writes untracked.
    histories.addPair(ObjectKey { NormalisedAddress::Kind::Stack, 0, 0, -8 }, write, write);
    histories.finish();
    QCOMPARE(histories.trackedObjects(), ObjectHistories::maxObjects);
    QCOMPARE(histories.untrackedWrites(), std::uint64_t(3));
    // Every tracked object but the first was written by A only.
    QCOMPARE(histories.differing().size(), ObjectHistories::maxObjects - 1);
}

QTEST_GUILESS_MAIN(tst_ObjectHistories)
#include "tst_objecthistories.moc"
