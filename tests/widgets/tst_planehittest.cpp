// SPDX-License-Identifier: MIT
// What lies under a pixel of the plane, without a widget: the point, the position of a point, the
// access (drawn bars first, writes on top, then the markers of query results) and the hover text.
#include "testsupport.h"
#include "widgets/plane/planehittest.h"

#include <QTest>

using namespace memhist;
using namespace memhist::plane;
using memhist::test::userAccess;

namespace {

// One region of 100 bytes at 0x1000 (a display unit per byte), transitions [0, 25) over 100 x 100
// pixels: 4 pixels a transition, a pixel a byte, address 0x1000 on the bottom row.
AddressFold oneRegion()
{
    return AddressFold(std::vector<AddressInterval> { { 0x1000, 0x1063 } });
}
PixelMapping testMapping()
{
    return PixelMapping({ 0, 25, 0, 100 }, QSizeF(100, 100));
}

Access withRow(Access access, qint64 row)
{
    access.rowId = RowId { row };
    return access;
}

// What the image drew, in transition order: a read and a write of the same 8 bytes at transition 2
// (bar x 8..10, y 76..83) and an instruction fetch at transition 5.
std::vector<Access> drawn()
{
    return { withRow(userAccess(2, Operation::Read, 0x1010, 8), 3),
        withRow(userAccess(2, Operation::Write, 0x1010, 8), 4),
        withRow(userAccess(5, Operation::Execute, 0x1040, 4), 9) };
}

// A query result at transition 20, one byte at 0x1050: its marker is centred at (82, 19.5).
QList<Access> marked()
{
    return { withRow(userAccess(20, Operation::Read, 0x1050, 1), 40) };
}

QString describe(const std::optional<Access> &access)
{
    if (!access)
        return QStringLiteral("none");
    const char *op = access->operation == Operation::Read ? "read"
        : access->operation == Operation::Write           ? "write"
                                                          : "execute";
    return QStringLiteral("%1@%2").arg(QLatin1String(op)).arg(access->transition.value);
}

} // namespace

class TestPlaneHitTest : public QObject
{
    Q_OBJECT

private slots:
    void pointAtAPixel_data()
    {
        QTest::addColumn<QPointF>("position");
        QTest::addColumn<quint64>("transition");
        QTest::addColumn<quint64>("address");
        QTest::newRow("top-left: transition 0, the highest address")
            << QPointF(0.5, 0.5) << quint64(0) << quint64(0x1063);
        QTest::newRow("bottom-right: the last transition, the lowest address")
            << QPointF(99.9, 99.9) << quint64(24) << quint64(0x1000);
        QTest::newRow("inside") << QPointF(6, 50) << quint64(1) << quint64(0x1032);
        QTest::newRow("left of the plot: transition 0, not negative")
            << QPointF(-8, 50) << quint64(0) << quint64(0x1032);
    }
    void pointAtAPixel()
    {
        QFETCH(QPointF, position);
        const PlanePoint point = pointAt(position, testMapping(), oneRegion());
        QTEST(quint64(point.transition.value), "transition");
        QTEST(quint64(point.address.value), "address");
    }

    void positionOfAPoint_data()
    {
        QTest::addColumn<quint64>("transition");
        QTest::addColumn<quint64>("address");
        QTest::addColumn<bool>("inside");
        QTest::addColumn<QPointF>("position");
        QTest::newRow("the middle of the transition and of the byte")
            << quint64(2) << quint64(0x1010) << true << QPointF(10, 83.5);
        QTest::newRow("the first transition, the highest byte")
            << quint64(0) << quint64(0x1063) << true << QPointF(2, 0.5);
        QTest::newRow("after the view: none") << quint64(25) << quint64(0x1010) << false << QPointF();
    }
    void positionOfAPoint()
    {
        QFETCH(quint64, transition);
        QFETCH(quint64, address);
        QFETCH(bool, inside);
        const std::optional<QPointF> position
            = positionOf(Transition { transition }, Address { address }, testMapping(), oneRegion());
        QCOMPARE(position.has_value(), inside);
        if (inside)
            QTEST(*position, "position");
    }

    void accessUnderAPixel_data()
    {
        QTest::addColumn<QPointF>("position");
        QTest::addColumn<QString>("access");
        QTest::newRow("on a bar: the write, drawn on top of the read") << QPointF(9, 80) << "write@2";
        QTest::newRow("2.5 px right of the bar: still it") << QPointF(12.5, 80) << "write@2";
        QTest::newRow("3 px above the bar: still it") << QPointF(9, 73) << "write@2";
        QTest::newRow("4 px above the bar: nothing") << QPointF(9, 72) << "none";
        QTest::newRow("on the instruction fetch") << QPointF(21, 35) << "execute@5";
        QTest::newRow("on a marker") << QPointF(83, 21) << "read@20";
        QTest::newRow("4.9 px from a marker: it") << QPointF(86.9, 19.5) << "read@20";
        QTest::newRow("5 px from a marker: nothing") << QPointF(87, 19.5) << "none";
        QTest::newRow("left of the plot") << QPointF(-1, 80) << "none";
        QTest::newRow("right of the plot") << QPointF(100, 80) << "none";
    }
    void accessUnderAPixel()
    {
        QFETCH(QPointF, position);
        QTEST(describe(accessAt(position, testMapping(), oneRegion(), drawn(), marked())), "access");
    }

    void drawnBarsComeBeforeMarkers()
    {
        // A marker on the read's bar: the bar wins; with nothing drawn, the marker.
        const QList<Access> onTheBar { userAccess(2, Operation::Execute, 0x1013, 1) };
        QCOMPARE(describe(accessAt(QPointF(9, 80), testMapping(), oneRegion(), drawn(), onTheBar)),
            QStringLiteral("write@2"));
        QCOMPARE(
            describe(accessAt(QPointF(9, 80), testMapping(), oneRegion(), {}, onTheBar)), QStringLiteral("execute@2"));
    }

    void inRange_data()
    {
        QTest::addColumn<quint64>("transition");
        QTest::addColumn<quint64>("address");
        QTest::addColumn<quint32>("size");
        QTest::addColumn<bool>("inside");
        // The range: transitions 10..20, addresses 0x100..0x1ff.
        QTest::newRow("inside") << quint64(15) << quint64(0x150) << 8u << true;
        QTest::newRow("its last byte reaches in") << quint64(10) << quint64(0xfc) << 8u << true;
        QTest::newRow("ends just below") << quint64(10) << quint64(0xf8) << 8u << false;
        QTest::newRow("starts at the last address") << quint64(20) << quint64(0x1ff) << 8u << true;
        QTest::newRow("after the last transition") << quint64(21) << quint64(0x150) << 8u << false;
    }
    void inRange()
    {
        QFETCH(quint64, transition);
        QFETCH(quint64, address);
        QFETCH(quint32, size);
        const ViewRange range { Transition { 10 }, Transition { 20 }, Address { 0x100 }, Address { 0x1ff } };
        QTEST(isInRange(userAccess(transition, Operation::Read, address, size), range), "inside");
    }

    void inRangeAtTheTopOfTheAddressSpace()
    {
        // Bytes past 2^64 - 1 do not wrap to 0: the access still reaches the top of the range.
        constexpr std::uint64_t top = ~std::uint64_t(0);
        const ViewRange range { Transition { 10 }, Transition { 20 }, Address { top - 0xff }, Address { top } };
        QVERIFY(isInRange(userAccess(15, Operation::Read, top - 3, 8), range));
        QVERIFY(!isInRange(userAccess(15, Operation::Read, top - 0x107, 8), range));
    }

    void hoverTexts_data()
    {
        QTest::addColumn<QPointF>("position");
        QTest::addColumn<bool>("onAccess");
        QTest::addColumn<QString>("text");
        QTest::newRow("an address in a region")
            << QPointF(6, 50) << false << "transition 1 · address 0x1032 · region 1/1 (0x1000–0x1063)";
        QTest::newRow("with the access under the cursor")
            << QPointF(9, 80) << true
            << "transition 2 · address 0x1014 · region 1/1 (0x1000–0x1063) · write of 8 bytes at 0x1010, "
               "transition 2 (row 4)";
    }
    void hoverTexts()
    {
        QFETCH(QPointF, position);
        QFETCH(bool, onAccess);
        const std::optional<Access> access
            = onAccess ? accessAt(position, testMapping(), oneRegion(), drawn(), {}) : std::nullopt;
        QTEST(hoverText(position, testMapping(), oneRegion(), access), "text");
    }

    void hoverTextNamesAFoldedGap()
    {
        // Two regions with the gap between them folded; the second is region 2/2.
        const AddressFold fold(std::vector<AddressInterval> { { 0x1000, 0x1fff }, { 0x100000, 0x100fff } });
        const FoldSegment &gap = fold.segments()[1];
        QVERIFY(gap.folded);
        const PixelMapping mapping({ 0, 25, 0, fold.displayLength() }, QSizeF(100, 100));
        const double gapMiddle = mapping.yToPixel(gap.displayStart + gap.displayLength / 2);
        QCOMPARE(hoverText(QPointF(6, gapMiddle), mapping, fold, std::nullopt),
            QStringLiteral("transition 1 · folded gap 0x2000–0xfffff (1016 KiB without chunks)"));
        const double secondRegion = mapping.yToPixel(fold.toDisplay(0x100800) + 0.5);
        QCOMPARE(hoverText(QPointF(6, secondRegion), mapping, fold, std::nullopt),
            QStringLiteral("transition 1 · address 0x100800 · region 2/2 (0x100000–0x100fff)"));
    }
};

QTEST_GUILESS_MAIN(TestPlaneHitTest)
#include "tst_planehittest.moc"
