// SPDX-License-Identifier: MIT
// Where the plane's axes put their ticks and labels, the folded gaps their bands and the query
// results their markers, computed without painting: text 7 pixels a character and 10 pixels a line,
// so that every position is known exactly.
#include "core/model/numbertext.h"
#include "testsupport.h"
#include "widgets/plane/planeaxes.h"

#include <QTest>

using namespace memhist;
using namespace memhist::plane;
using memhist::test::userAccess;

Q_DECLARE_METATYPE(memhist::plane::PlaneViewport)

namespace {

constexpr int lineHeight = 10;

int sevenPerCharacter(const QString &text)
{
    return int(text.size()) * 7;
}

AddressFold oneRegion()
{
    return AddressFold(std::vector<AddressInterval> { { 0x1000, 0x1fff } });
}

// Two regions of 4096 bytes with a folded gap between them.
AddressFold twoRegions()
{
    return AddressFold(std::vector<AddressInterval> { { 0x1000, 0x1fff }, { 0x100000, 0x100fff } });
}

} // namespace

class TestPlaneAxes : public QObject
{
    Q_OBJECT

private slots:
    void plotLeavesRoomForTheLabels()
    {
        // "0x7fffffffffff": 12 digits after "0x", each 7 pixels (the labels have no digit groups).
        QCOMPARE(addressLabelWidth(0x7fff'ffff'ffffull, sevenPerCharacter), 98);
        QCOMPARE(addressLabelWidth(0x1fff, sevenPerCharacter), 42);
        const auto widest = [](const QString &text) { return text == QLatin1String("f") ? 9 : 7 * int(text.size()); };
        QCOMPARE(addressLabelWidth(0x1fff, widest), 14 + 4 * 9); // every digit as wide as the widest
        QCOMPARE(plotArea(QSize(900, 600), 112, lineHeight), QRect(128, 22, 758, 548));
        QCOMPARE(plotArea(QSize(100, 40), 112, lineHeight), QRect(128, 22, 1, 1)); // never empty
    }

    void addressTicksOfOneRegion()
    {
        // 4096 bytes over 400 pixels: ticks every 256 bytes (the first power of two 25 pixels
        // apart), from the region's first address at the bottom edge.
        const QRect plot(100, 20, 400, 400);
        const std::vector<AddressTick> ticks = addressTicks({ 0, 10, 0, 4096 }, oneRegion(), plot, lineHeight);
        std::vector<AddressTick> expected { { 420, 414, 0x1000, true } };
        for (int k = 1; k <= 15; ++k)
            expected.push_back({ 420 - 25 * k, 415 - 25 * k, std::uint64_t(0x1000 + 0x100 * k), false });
        QCOMPARE(ticks, expected);
    }

    void addressTicksOfAZoomedView()
    {
        // 0x1010..0x110f over 400 pixels: 16-byte steps; the region's start is below the view. The
        // tick of 0x1010 sits on the bottom edge, past the plot's last row: left out.
        const QRect plot(100, 20, 400, 400);
        const std::vector<AddressTick> ticks = addressTicks({ 0, 10, 16, 272 }, oneRegion(), plot, lineHeight);
        std::vector<AddressTick> expected;
        for (int k = 1; k <= 15; ++k)
            expected.push_back({ 420 - 25 * k, 415 - 25 * k, std::uint64_t(0x1010 + 0x10 * k), false });
        QCOMPARE(ticks, expected);
    }

    void crowdedRegionStartsKeepTheFirst()
    {
        // The two regions' starts 10 pixels apart on a 20-pixel plot: the upper label would overlap.
        const AddressFold fold = twoRegions();
        const QRect plot(100, 20, 400, 20);
        const std::vector<AddressTick> ticks = addressTicks({ 0, 10, 0, fold.displayLength() }, fold, plot, lineHeight);
        QCOMPARE(ticks.size(), std::size_t(1));
        QCOMPARE(ticks.front().address, std::uint64_t(0x1000));
        QVERIFY(ticks.front().regionStart);
        // With room, both regions start a labelled tick.
        const std::vector<AddressTick> roomy
            = addressTicks({ 0, 10, 0, fold.displayLength() }, fold, QRect(100, 20, 400, 400), lineHeight);
        QCOMPARE(std::count_if(roomy.begin(), roomy.end(), [](const AddressTick &t) { return t.regionStart; }), 2);
    }

    void transitionTicks_data()
    {
        QTest::addColumn<PlaneViewport>("view");
        QTest::addColumn<bool>("wideZero"); // "0" is 300 pixels wide
        QTest::addColumn<QList<int>>("xs");
        QTest::addColumn<QList<quint64>>("transitions");
        QTest::addColumn<QList<bool>>("labelled");
        // The plot: x 100..599 in a widget 700 wide.
        const auto series = [](int first, int step, int count) {
            QList<int> values;
            for (int i = 0; i < count; ++i)
                values << first + step * i;
            return values;
        };
        const auto transitions = [](int first, int step, int count) {
            QList<quint64> values;
            for (int i = 0; i < count; ++i)
                values << quint64(first + step * i);
            return values;
        };
        // Labels "1,000" + 28 pixels need 126 transitions: steps of 200.
        QTest::newRow("1000 transitions: every 200") << PlaneViewport { 0, 1000, 0, 1 } << false << series(100, 100, 5)
                                                     << transitions(0, 200, 5) << QList<bool>(5, true);
        // "100" + 28 pixels need 9.8 transitions: steps of 10, each at its transition's centre.
        QTest::newRow("100 transitions: every 10, at their centres")
            << PlaneViewport { 0, 100, 0, 1 } << false << series(103, 50, 10) << transitions(0, 10, 10)
            << QList<bool>(10, true);
        QTest::newRow("from transition 5: the ticks from 10")
            << PlaneViewport { 5, 105, 0, 1 } << false << series(128, 50, 10) << transitions(10, 10, 10)
            << QList<bool>(10, true);
        QTest::newRow("labels crowding the one before are left out")
            << PlaneViewport { 0, 100, 0, 1 } << true << series(103, 50, 10) << transitions(0, 10, 10)
            << QList<bool> { true, false, false, false, false, false, false, true, true, true };
    }
    void transitionTicks()
    {
        QFETCH(PlaneViewport, view);
        QFETCH(bool, wideZero);
        const int widgetWidth = 700;
        const auto textWidth = [wideZero](const QString &text) {
            return wideZero && text == QLatin1String("0") ? 300 : sevenPerCharacter(text);
        };
        const std::vector<TransitionTick> ticks
            = plane::transitionTicks(view, QRect(100, 20, 500, 300), widgetWidth, textWidth);
        QList<int> xs;
        QList<quint64> transitions;
        QList<bool> labelled;
        for (const TransitionTick &tick : ticks) {
            xs << tick.x;
            transitions << tick.transition;
            labelled << tick.labelled;
            QCOMPARE(tick.labelWidth, textWidth(countText(tick.transition)));
            QVERIFY(tick.labelLeft >= 100 - 8 && tick.labelLeft + tick.labelWidth <= widgetWidth - 2);
        }
        QTEST(xs, "xs");
        QTEST(transitions, "transitions");
        QTEST(labelled, "labelled");
    }

    void foldBandsShowTheGaps()
    {
        const AddressFold fold = twoRegions();
        const FoldSegment &gap = fold.segments()[1];
        QVERIFY(gap.folded);
        const PixelMapping whole({ 0, 10, 0, fold.displayLength() }, QSizeF(100, 400));
        const std::vector<FoldBand> bands = foldBands(fold, whole);
        QCOMPARE(bands.size(), std::size_t(1));
        QCOMPARE(bands.front().addresses, gap.addresses);
        QCOMPARE(bands.front().top, int(std::floor(whole.yToPixel(gap.displayEnd()))));
        QCOMPARE(bands.front().bottom, int(std::ceil(whole.yToPixel(gap.displayStart))));
        QVERIFY(bands.front().bottom - bands.front().top >= 3);
        // On 20 pixels the gap is under a pixel tall: drawn 3 tall.
        const PixelMapping small({ 0, 10, 0, fold.displayLength() }, QSizeF(100, 20));
        const std::vector<FoldBand> thin = foldBands(fold, small);
        QCOMPARE(thin.size(), std::size_t(1));
        QCOMPARE(thin.front().bottom - thin.front().top, 3);
        // A view of the first region alone shows no gap.
        const PixelMapping first({ 0, 10, 0, gap.displayStart - 1 }, QSizeF(100, 400));
        QVERIFY(foldBands(fold, first).empty());
    }

    void oneMarkerPerCell()
    {
        // One region of 100 bytes over 100 pixels, 50 transitions over 100 pixels: a marker of two
        // bytes at 0x1032 is centred on row 49, one of transition t on column 2t + 1.
        const AddressFold fold(std::vector<AddressInterval> { { 0x1000, 0x1063 } });
        const PixelMapping mapping({ 0, 50, 0, 100 }, QSizeF(100, 100));
        const QList<Access> marked { userAccess(10, Operation::Read, 0x1032, 2), // (21, 49)
            userAccess(11, Operation::Read, 0x1032, 2), // (23, 49): the same 3 x 3 cell, left out
            userAccess(12, Operation::Write, 0x1032, 2), // (25, 49): the next cell
            userAccess(51, Operation::Read, 0x1032, 2), // 3 px right of the plot: still shows in part
            userAccess(52, Operation::Read, 0x1032, 2) }; // 5 px right of it: not at all
        QCOMPARE(markerPositions(marked, mapping, fold), (QList<QPoint> { { 21, 49 }, { 25, 49 }, { 103, 49 } }));
    }

    // --- Names of regions and symbols, the current position, the thread strip ---------------------

    void rangeLabels_data()
    {
        QTest::addColumn<std::vector<NamedRange>>("ranges");
        QTest::addColumn<PlaneViewport>("view");
        QTest::addColumn<std::vector<RangeLabel>>("expected");
        // One region of 4096 bytes over 256 pixels: 16 bytes a pixel, address 0x1000 at the bottom.
        const PlaneViewport all { 0, 100, 0, 4096 };
        QTest::newRow("a range 16 pixels tall fits its name, centred")
            << std::vector<NamedRange> { { 0x1000, 0x10ff, QStringLiteral("low") } } << all
            << std::vector<RangeLabel> { { 240, 256, 243, QStringLiteral("low") } };
        QTest::newRow("one 8 pixels tall does not")
            << std::vector<NamedRange> { { 0x1100, 0x117f, QStringLiteral("thin") } } << all
            << std::vector<RangeLabel> {};
        QTest::newRow("the taller wins where two labels would overlap") << std::vector<NamedRange> {
            { 0x1780, 0x18ff, QStringLiteral("inner") }, { 0x1000, 0x1fff, QStringLiteral("whole") }
        } << all << std::vector<RangeLabel> { { 0, 256, 123, QStringLiteral("whole") } };
        QTest::newRow("labels two pixels apart both stay, top to bottom")
            << std::vector<NamedRange> { { 0x1000, 0x10ff, QStringLiteral("low") },
                   { 0x1100, 0x11ff, QStringLiteral("next") } }
            << all
            << std::vector<RangeLabel> { { 224, 240, 227, QStringLiteral("next") },
                   { 240, 256, 243, QStringLiteral("low") } };
        QTest::newRow("a section wins over a taller mapping") << std::vector<NamedRange> {
            { 0x1000, 0x1fff, QStringLiteral("[anon]") }, { 0x1780, 0x18ff, QStringLiteral("libc.so.6 .bss"), 1 }
        } << all << std::vector<RangeLabel> { { 112, 136, 119, QStringLiteral("libc.so.6 .bss") } };
        QTest::newRow("a range outside the view has none")
            << std::vector<NamedRange> { { 0x1800, 0x1fff, QStringLiteral("high") } }
            << PlaneViewport { 0, 100, 0, 1024 } << std::vector<RangeLabel> {};
        QTest::newRow("zoomed in, a small symbol fits and is clipped to the plot")
            << std::vector<NamedRange> { { 0x1000, 0x1003, QStringLiteral("counter") } }
            << PlaneViewport { 0, 100, 0, 16 }
            << std::vector<RangeLabel> { { 192, 256, 219, QStringLiteral("counter") } };
    }
    void rangeLabels()
    {
        QFETCH(std::vector<NamedRange>, ranges);
        QFETCH(PlaneViewport, view);
        const PixelMapping mapping(view, QSizeF(200, 256));
        QTEST(plane::rangeLabels(ranges, mapping, oneRegion(), lineHeight), "expected");
    }

    void rangeLabelPlates()
    {
        // Right of the bracket at column 2: 6 pixels in, as wide as the name and 6 more.
        const RangeLabel low { 240, 256, 243, QStringLiteral("low") };
        QCOMPARE(rangeLabelPlate(low, 2, lineHeight, sevenPerCharacter), QRect(8, 243, 27, 10));
        const RangeLabel high { 0, 40, 15, QStringLiteral("higher") };
        QCOMPARE(plane::rangeLabelPlates({ low, high }, 50, lineHeight, sevenPerCharacter),
            (std::vector<QRect> { QRect(56, 243, 27, 10), QRect(56, 15, 48, 10) }));
    }

    void foldCaptions_data()
    {
        QTest::addColumn<std::vector<FoldBand>>("bands");
        QTest::addColumn<std::vector<QRect>>("plates");
        QTest::addColumn<int>("width");
        QTest::addColumn<std::vector<FoldCaption>>("expected");
        // A gap of 8 MiB on rows [100, 130): the caption's row is 110. "8.0 MiB without chunks
        // folded" is 29 characters (203 pixels), "8.0 MiB folded" 14 (98 pixels).
        const std::vector<FoldBand> gap { { 100, 130, { 0x2000, 0x801fff } } };
        const QString longText = QStringLiteral("8.0 MiB without chunks folded");
        const QString shortText = QStringLiteral("8.0 MiB folded");
        QTest::newRow("no name beside it: 8 pixels in, centred on the band")
            << gap << std::vector<QRect> {} << 400 << std::vector<FoldCaption> { { QRect(8, 110, 203, 10), longText } };
        QTest::newRow("a name on its rows: 8 pixels right of the name")
            << gap << std::vector<QRect> { QRect(8, 112, 60, 10) } << 400
            << std::vector<FoldCaption> { { QRect(76, 110, 203, 10), longText } };
        QTest::newRow("right of the rightmost of the names on its rows")
            << gap << std::vector<QRect> { QRect(8, 112, 60, 10), QRect(74, 105, 30, 10), QRect(8, 90, 300, 10) } << 400
            << std::vector<FoldCaption> { { QRect(112, 110, 203, 10), longText } };
        QTest::newRow("names 2 pixels above and below its row leave it alone")
            << gap << std::vector<QRect> { QRect(8, 98, 60, 10), QRect(8, 122, 60, 10) } << 400
            << std::vector<FoldCaption> { { QRect(8, 110, 203, 10), longText } };
        QTest::newRow("a name 1 pixel above its row counts as on it")
            << gap << std::vector<QRect> { QRect(8, 99, 60, 10) } << 400
            << std::vector<FoldCaption> { { QRect(76, 110, 203, 10), longText } };
        QTest::newRow("no room for the long text beside the name: the short one")
            << gap << std::vector<QRect> { QRect(8, 112, 60, 10) } << 250
            << std::vector<FoldCaption> { { QRect(76, 110, 98, 10), shortText } };
        QTest::newRow("no room for either: none")
            << gap << std::vector<QRect> { QRect(8, 112, 60, 10) } << 150 << std::vector<FoldCaption> {};
        QTest::newRow("a band 11 pixels tall has none") << std::vector<FoldBand> { { 100, 111, { 0x2000, 0x801fff } } }
                                                        << std::vector<QRect> {} << 400 << std::vector<FoldCaption> {};
        QTest::newRow("a band partly above the plot: centred on its visible rows")
            << std::vector<FoldBand> { { -50, 30, { 0x2000, 0x801fff } } } << std::vector<QRect> {} << 400
            << std::vector<FoldCaption> { { QRect(8, 10, 203, 10), longText } };
    }
    void foldCaptions()
    {
        QFETCH(std::vector<FoldBand>, bands);
        QFETCH(std::vector<QRect>, plates);
        QFETCH(int, width);
        QTEST(plane::foldCaptions(bands, plates, width, 400, lineHeight, sevenPerCharacter), "expected");
    }

    void namesAndCaptionsNeverOverlap_data()
    {
        QTest::addColumn<PlaneViewport>("view");
        QTest::addColumn<int>("captions");
        QTest::addColumn<bool>("moved");
        // Two regions with a gap between them, and one mapping across all three, as an anonymous
        // mapping spans a folded gap: its name is centred on the band (the audit's "[anon]" over
        // "8.0 MiB without chunks folded"), and a section's name sits just above the band.
        const double length = twoRegions().displayLength();
        const double gapMiddle
            = (twoRegions().segments()[1].displayStart + twoRegions().segments()[1].displayEnd()) / 2;
        QTest::newRow("the whole axis: the band is too thin for a caption")
            << PlaneViewport { 0, 10, 0, length } << 0 << false;
        QTest::newRow("zoomed on the gap: beside the mapping's name")
            << PlaneViewport { 0, 10, gapMiddle - 400, gapMiddle + 400 } << 1 << true;
        QTest::newRow("zoomed closer: beside it")
            << PlaneViewport { 0, 10, gapMiddle - 100, gapMiddle + 100 } << 1 << true;
        QTest::newRow("the band's lower half, away from the names: at the left edge")
            << PlaneViewport { 0, 10, gapMiddle, gapMiddle + 300 } << 1 << false;
    }
    void namesAndCaptionsNeverOverlap()
    {
        QFETCH(PlaneViewport, view);
        QFETCH(int, captions);
        QFETCH(bool, moved);
        const AddressFold fold = twoRegions();
        const PixelMapping mapping(view, QSizeF(600, 400));
        const std::vector<NamedRange> ranges { { 0x1000, 0x100fff, QStringLiteral("[anon]") },
            { 0x100000, 0x100fff, QStringLiteral("module .text"), 1 } };
        const std::vector<RangeLabel> labels = plane::rangeLabels(ranges, mapping, fold, lineHeight);
        const std::vector<QRect> plates = plane::rangeLabelPlates(labels, 2, lineHeight, sevenPerCharacter);
        const std::vector<FoldCaption> placed
            = plane::foldCaptions(foldBands(fold, mapping), plates, 600, 400, lineHeight, sevenPerCharacter);
        QCOMPARE(int(placed.size()), captions);
        for (const FoldCaption &caption : placed) {
            for (const QRect &plate : plates)
                QVERIFY2(
                    !caption.box.intersects(plate), qPrintable(QStringLiteral("%1 over a name").arg(caption.text)));
        }
        // Where a name was there to be avoided, the caption moved right of it; elsewhere it stays 8
        // pixels in.
        for (const FoldCaption &caption : placed) {
            const auto beside = std::find_if(plates.begin(), plates.end(), [&](const QRect &plate) {
                return plate.top() <= caption.box.bottom() + 2 && caption.box.top() <= plate.bottom() + 2;
            });
            QCOMPARE(beside != plates.end(), moved);
            QCOMPARE(caption.box.left(), moved ? beside->right() + 1 + 8 : 8);
        }
    }

    void currentLineColumn_data()
    {
        QTest::addColumn<quint64>("transition");
        QTest::addColumn<std::optional<int>>("column");
        // 100 transitions over 200 pixels: a line at the centre of its transition.
        QTest::newRow("first") << quint64(0) << std::optional<int>(1);
        QTest::newRow("tenth") << quint64(10) << std::optional<int>(21);
        QTest::newRow("last") << quint64(99) << std::optional<int>(199);
        QTest::newRow("past the view: none") << quint64(100) << std::optional<int>();
    }
    void currentLineColumn()
    {
        QFETCH(quint64, transition);
        const PixelMapping mapping({ 0, 100, 0, 4096 }, QSizeF(200, 256));
        QTEST(plane::currentLineColumn(Transition { transition }, mapping), "column");
    }

    void threadRuns_data()
    {
        QTest::addColumn<QList<ThreadSpan>>("spans");
        QTest::addColumn<double>("right"); // the view's last transition + 1, over 200 pixels
        QTest::addColumn<std::vector<ThreadRun>>("expected");
        const QList<qint64> threads { 7, 9 };
        QTest::newRow("two halves") << QList<ThreadSpan> { { 7, Transition { 0 }, Transition { 49 } },
            { 9, Transition { 50 }, Transition { 99 } } }
                                    << 100.0 << std::vector<ThreadRun> { { 0, 100, 0 }, { 100, 200, 1 } };
        QList<ThreadSpan> alternating;
        for (std::uint64_t t = 0; t < 400; ++t)
            alternating << ThreadSpan { t % 2 ? 9 : 7, Transition { t }, Transition { t } };
        QTest::newRow("two spans a pixel: the later wins, one run")
            << alternating << 400.0 << std::vector<ThreadRun> { { 0, 200, 1 } };
        QTest::newRow("an unknown thread is left out") << QList<ThreadSpan> {
            { 8, Transition { 0 }, Transition { 49 } }, { 9, Transition { 50 }, Transition { 99 } }
        } << 100.0 << std::vector<ThreadRun> { { 100, 200, 1 } };
        QTest::newRow("a span thinner than a pixel still shows") << QList<ThreadSpan> {
            { 7, Transition { 0 }, Transition { 998 } }, { 9, Transition { 999 }, Transition { 999 } }
        } << 1000.0 << std::vector<ThreadRun> { { 0, 199, 0 }, { 199, 200, 1 } };
    }
    void threadRuns()
    {
        QFETCH(QList<ThreadSpan>, spans);
        QFETCH(double, right);
        const PixelMapping mapping({ 0, right, 0, 4096 }, QSizeF(200, 256));
        QTEST(plane::threadRuns(spans, { 7, 9 }, mapping), "expected");
    }

    void threadOf()
    {
        const QList<ThreadSpan> spans { { 1, Transition { 0 }, Transition { 49 } },
            { 2, Transition { 50 }, Transition { 99 } }, { 1, Transition { 120 }, Transition { 130 } } };
        QCOMPARE(plane::threadOf(spans, Transition { 0 }), std::optional<qint64>(1));
        QCOMPARE(plane::threadOf(spans, Transition { 49 }), std::optional<qint64>(1));
        QCOMPARE(plane::threadOf(spans, Transition { 50 }), std::optional<qint64>(2));
        QCOMPARE(plane::threadOf(spans, Transition { 110 }), std::optional<qint64>());
        QCOMPARE(plane::threadOf(spans, Transition { 125 }), std::optional<qint64>(1));
        QCOMPARE(plane::threadOf(spans, Transition { 131 }), std::optional<qint64>());
        QCOMPARE(threadIndex({ 3, 7, 9 }, 7), 1);
        QCOMPARE(threadIndex({ 3, 7, 9 }, 8), -1);
    }
};

QTEST_GUILESS_MAIN(TestPlaneAxes)
#include "tst_planeaxes.moc"
