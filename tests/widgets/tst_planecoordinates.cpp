// SPDX-License-Identifier: MIT
// The plane's coordinate maths: the fold (occupied regions, address <-> display), zoom anchored at
// the cursor, clamping to the history, view-range round trips, axis ticks and labels.
#include "core/model/numbertext.h"
#include "widgets/plane/planecoordinates.h"

#include <QTest>
#include <cmath>
#include <limits>
#include <random>

using namespace memhist;
using namespace memhist::plane;

using Intervals = std::vector<AddressInterval>;
Q_DECLARE_METATYPE(Intervals)

namespace {

constexpr std::uint64_t maxAddress = std::numeric_limits<std::uint64_t>::max();

// Two regions: a 1 MiB heap at 0x600000 and an 8 KiB stack at 0x7ffc0000, with a 2 GiB gap.
AddressFold heapAndStack()
{
    return AddressFold(Intervals { { 0x600000, 0x6fffff }, { 0x7ffc0000, 0x7ffc1fff } });
}

PlaneExtent extentOf(std::uint64_t firstTransition, std::uint64_t lastTransition, const AddressFold &fold)
{
    return extentFor(Transition { firstTransition }, Transition { lastTransition }, fold);
}

} // namespace

class TestPlaneCoordinates : public QObject
{
    Q_OBJECT

private slots:
    void mergeIntervals_data()
    {
        QTest::addColumn<Intervals>("input");
        QTest::addColumn<Intervals>("expected");
        QTest::newRow("empty history") << Intervals {} << Intervals {};
        QTest::newRow("overlapping merge") << Intervals { { 10, 20 }, { 15, 30 } } << Intervals { { 10, 30 } };
        QTest::newRow("contained merge") << Intervals { { 10, 40 }, { 15, 30 } } << Intervals { { 10, 40 } };
        QTest::newRow("adjacent merge") << Intervals { { 10, 20 }, { 21, 30 } } << Intervals { { 10, 30 } };
        QTest::newRow("one-byte gap kept")
            << Intervals { { 10, 20 }, { 22, 30 } } << Intervals { { 10, 20 }, { 22, 30 } };
        QTest::newRow("unsorted input sorted")
            << Intervals { { 50, 60 }, { 10, 20 } } << Intervals { { 10, 20 }, { 50, 60 } };
        QTest::newRow("reversed range swapped") << Intervals { { 20, 10 } } << Intervals { { 10, 20 } };
        QTest::newRow("ending at 2^64-1 does not wrap to 0") << Intervals { { 0, 5 }, { maxAddress - 5, maxAddress } }
                                                             << Intervals { { 0, 5 }, { maxAddress - 5, maxAddress } };
        QTest::newRow("whole address space") << Intervals { { 0, maxAddress / 2 }, { maxAddress / 2 + 1, maxAddress } }
                                             << Intervals { { 0, maxAddress } };
    }
    void mergeIntervals()
    {
        QFETCH(Intervals, input);
        QFETCH(Intervals, expected);
        QCOMPARE(plane::mergeIntervals(input), expected);
    }

    void occupiedRegions_data()
    {
        QTest::addColumn<Intervals>("chunks");
        QTest::addColumn<int>("maxRegions");
        QTest::addColumn<int>("batchSize");
        QTest::addColumn<Intervals>("expected");
        const Intervals heapAndStackChunks { { 0x600000, 0x600fff }, { 0x601100, 0x60ffff }, // 256 B gap: kept
            { 0x7ffc0000, 0x7ffc1fff } }; // 2 GiB gap: folded
        QTest::newRow("empty history: no regions") << Intervals {} << 32 << 1024 << Intervals {};
        QTest::newRow("small gap merged, large gap folded")
            << heapAndStackChunks << 32 << 1024 << Intervals { { 0x600000, 0x60ffff }, { 0x7ffc0000, 0x7ffc1fff } };
        QTest::newRow("streamed in batches of one: same result")
            << heapAndStackChunks << 32 << 1 << Intervals { { 0x600000, 0x60ffff }, { 0x7ffc0000, 0x7ffc1fff } };
        // Gaps of 1 MiB, 16 MiB and 256 MiB between four 1 MiB blocks; a cap of 2 keeps the largest.
        const std::uint64_t mib = 1 << 20;
        const Intervals four { { 0, mib - 1 }, { 2 * mib, 3 * mib - 1 }, { 19 * mib, 20 * mib - 1 },
            { 276 * mib, 277 * mib - 1 } };
        QTest::newRow("cap merges the smallest gaps first")
            << four << 2 << 1024 << Intervals { { 0, 20 * mib - 1 }, { 276 * mib, 277 * mib - 1 } };
        QTest::newRow("cap of 1: one region") << four << 1 << 1024 << Intervals { { 0, 277 * mib - 1 } };
        // 2 % of 100 GiB occupied is 2 GiB: a 1 GiB hole in it is not folded.
        const std::uint64_t gib = std::uint64_t(1) << 30;
        QTest::newRow("gap under the fraction threshold merged") << Intervals { { 0, 50 * gib - 1 },
            { 51 * gib, 101 * gib - 1 } } << 32 << 1024 << Intervals { { 0, 101 * gib - 1 } };
        // The gap threshold is the footprint (the bytes in chunks) within [1 KiB, 64 KiB], or 2 % of
        // it when that is more. An 8 KiB footprint: its 8 KiB gaps are folded, its 1 KiB gap is not.
        QTest::newRow("8 KiB footprint: 8 KiB gaps folded, 1 KiB gap merged") << Intervals {
            { 0x600000, 0x6007ff }, { 0x600c00, 0x6013ff }, { 0x603400, 0x603bff }, { 0x605c00, 0x6063ff }
        } << 32 << 1024 << Intervals { { 0x600000, 0x6013ff }, { 0x603400, 0x603bff }, { 0x605c00, 0x6063ff } };
        QTest::newRow("8 KiB footprint: a gap one byte under it merged") << Intervals {
            { 0x600000, 0x6007ff }, { 0x600c00, 0x6013ff }, { 0x603400, 0x603bff }, { 0x605bff, 0x6063fe }
        } << 32 << 1024 << Intervals { { 0x600000, 0x6013ff }, { 0x603400, 0x6063fe } };
        // A 2 KiB footprint in pieces 3 KiB apart, and one 2 KiB - 1 after them: the footprint decides.
        QTest::newRow("2 KiB footprint: 3 KiB gaps folded, 2 KiB - 1 merged") << Intervals {
            { 0x600000, 0x6001ff }, { 0x600e00, 0x600fff }, { 0x601c00, 0x601dff }, { 0x6025ff, 0x6027fe }
        } << 32 << 1024 << Intervals { { 0x600000, 0x6001ff }, { 0x600e00, 0x600fff }, { 0x601c00, 0x6027fe } };
        // 512 bytes of chunks: the floor of 1 KiB decides.
        QTest::newRow("512 B footprint: a 1 KiB gap folded") << Intervals { { 0x600000, 0x6000ff },
            { 0x600500, 0x6005ff } } << 32 << 1024 << Intervals { { 0x600000, 0x6000ff }, { 0x600500, 0x6005ff } };
        QTest::newRow("512 B footprint: a gap one byte under 1 KiB merged") << Intervals { { 0x600000, 0x6000ff },
            { 0x6004ff, 0x6005fe } } << 32 << 1024 << Intervals { { 0x600000, 0x6005fe } };
        // However few bytes the regions hold (the display summary then bins them finer than a byte,
        // and the plane's estimate of the accesses in view still counts each once: planedetail.h).
        QTest::newRow("1 KiB of regions: a 62 KiB gap folded") << Intervals { { 0x600000, 0x6003ff },
            { 0x60fc00, 0x60ffff } } << 32 << 1024 << Intervals { { 0x600000, 0x6003ff }, { 0x60fc00, 0x60ffff } };
        // 4,000 KiB of chunks (2 MiB, 1 MiB and 928 KiB): the threshold is 2 % of it, 80 KiB.
        QTest::newRow("4000 KiB footprint: 80 KiB gap folded, 80 KiB - 1 merged")
            << Intervals { { 0, 0x1fffff }, { 0x214000, 0x313fff }, { 0x327fff, 0x40fffe } } << 32 << 1024
            << Intervals { { 0, 0x1fffff }, { 0x214000, 0x40fffe } };
        // A 1 MiB heap in blocks 8 KiB apart is one region (2 % of 1 MiB is 20,971 bytes).
        const Intervals heapBlocks { { 0x10000000, 0x1007dfff }, { 0x10080000, 0x100fdfff },
            { 0x10100000, 0x10107fff } };
        QTest::newRow("large footprint keeps its 8 KiB gaps")
            << heapBlocks << 32 << 1024 << Intervals { { 0x10000000, 0x10107fff } };
        QTest::newRow("regions at 0 and 2^64-1")
            << Intervals { { 0, 0xfff }, { maxAddress - 0xfff, maxAddress } } << 32 << 1024
            << Intervals { { 0, 0xfff }, { maxAddress - 0xfff, maxAddress } };
    }
    void occupiedRegions()
    {
        QFETCH(Intervals, chunks);
        QFETCH(int, maxRegions);
        QFETCH(int, batchSize);
        QFETCH(Intervals, expected);
        FoldOptions options;
        options.maxRegions = maxRegions;
        OccupiedRegionsBuilder builder(options, std::size_t(batchSize));
        for (const auto &c : chunks)
            builder.add(c.first, c.last);
        QCOMPARE(builder.added(), chunks.size());
        QCOMPARE(builder.finish(), expected);
    }

    void compactionKeepsLargeGaps()
    {
        // 10,000 scattered 16-byte chunks inside two far-apart areas, compacted every 100 regions:
        // the one huge gap between the areas must survive.
        OccupiedRegionsBuilder builder(FoldOptions {}, 64, 100);
        std::mt19937_64 random(7);
        for (int i = 0; i < 10000; ++i) {
            const std::uint64_t base = (i % 2) ? 0x7ffc00000000ull : 0x555555000000ull;
            const std::uint64_t offset = (random() % 0x100000) & ~0xfull;
            builder.add(base + offset, base + offset + 15);
        }
        const Intervals regions = builder.finish();
        QCOMPARE(regions.size(), std::size_t(2));
        QVERIFY(regions[0].last < 0x555555000000ull + 0x100000);
        QVERIFY(regions[1].first >= 0x7ffc00000000ull);
    }

    void foldRoundTrip_data()
    {
        QTest::addColumn<Intervals>("regions");
        QTest::addColumn<quint64>("address");
        const Intervals two { { 0x600000, 0x60ffff }, { 0x7ffc0000, 0x7ffc1fff } };
        QTest::newRow("first byte of the lower region") << two << quint64(0x600000);
        QTest::newRow("last byte of the lower region") << two << quint64(0x60ffff);
        QTest::newRow("inside the stretched small region") << two << quint64(0x7ffc1234);
        QTest::newRow("last byte of the axis") << two << quint64(0x7ffc1fff);
        const Intervals edges { { 0, 0xffff }, { maxAddress - 0xffff, maxAddress } };
        QTest::newRow("address 0") << edges << quint64(0);
        QTest::newRow("address 2^64-1") << edges << quint64(maxAddress);
        QTest::newRow("just below 2^64-1") << edges << quint64(maxAddress - 1);
        QTest::newRow("single-byte region")
            << Intervals { { 0x1000, 0x1000 }, { 0x100000000, 0x100000fff } } << quint64(0x1000);
        QTest::newRow("2^40-byte region, far offset")
            << Intervals { { 0, (std::uint64_t(1) << 40) - 1 } } << quint64((std::uint64_t(1) << 40) - 3);
    }
    void foldRoundTrip()
    {
        QFETCH(Intervals, regions);
        QFETCH(quint64, address);
        const AddressFold fold(regions);
        const double low = fold.toDisplay(address);
        const double high = fold.toDisplayEnd(address);
        QVERIFY2(high > low, "every occupied byte owns a non-empty display range");
        QVERIFY(high - low >= 1.0 - 1e-9); // at least one display unit per occupied byte
        QCOMPARE(fold.toAddress(low), address);
        QCOMPARE(fold.toAddress((low + high) / 2), address);
        QCOMPARE(fold.toAddress(std::nextafter(high, low)), address);
    }

    void foldIsMonotonicAcrossGaps()
    {
        const AddressFold fold = heapAndStack();
        QCOMPARE(fold.regionCount(), 2);
        QCOMPARE(int(fold.segments().size()), 3);
        QVERIFY(fold.segments()[1].folded);
        std::mt19937_64 random(1);
        std::vector<std::uint64_t> addresses { 0x600000, 0x60ffff, 0x610000, 0x7ffbffff, 0x7ffc0000, 0x7ffc1fff };
        for (int i = 0; i < 2000; ++i)
            addresses.push_back(0x600000 + random() % (0x7ffc2000 - 0x600000));
        std::sort(addresses.begin(), addresses.end());
        for (std::size_t i = 1; i < addresses.size(); ++i)
            QVERIFY(fold.toDisplay(addresses[i - 1]) <= fold.toDisplay(addresses[i]));
    }

    void foldedGapIsThin()
    {
        const AddressFold fold = heapAndStack();
        const FoldSegment &gap = fold.segments()[1];
        QCOMPARE(gap.addresses.first, quint64(0x700000));
        QCOMPARE(gap.addresses.last, quint64(0x7ffbffff));
        // ~2 GiB folded into about 1.2 % of the axis, whereas the 8 KiB stack is stretched to a
        // visible share next to the 1 MiB heap.
        QVERIFY(gap.displayLength < 0.02 * fold.displayLength());
        QVERIFY(fold.segments()[2].displayLength > 0.05 * fold.displayLength());
        // An address inside the gap lands inside the band.
        const double d = fold.toDisplay(0x40000000);
        QVERIFY(d >= gap.displayStart && d < gap.displayEnd());
        QCOMPARE(fold.segmentIndexOf(0x40000000), 1);
        QCOMPARE(fold.segmentIndexAtDisplay(d), 1);
    }

    void foldClampsOutsideTheAxis_data()
    {
        QTest::addColumn<quint64>("address");
        QTest::addColumn<double>("display");
        const AddressFold fold = heapAndStack();
        QTest::newRow("address 0 clamps to the bottom") << quint64(0) << 0.0;
        QTest::newRow("below the lowest region") << quint64(0x5fffff) << 0.0;
        QTest::newRow("above the highest region") << quint64(0x7ffc2000) << fold.displayLength();
        QTest::newRow("address 2^64-1 clamps to the top") << quint64(maxAddress) << fold.displayLength();
    }
    void foldClampsOutsideTheAxis()
    {
        QFETCH(quint64, address);
        QFETCH(double, display);
        const AddressFold fold = heapAndStack();
        // Outside the axis toDisplay() gives the nearest end's byte; the byte's edge that faces
        // outwards is the axis end.
        if (display == 0.0)
            QCOMPARE(fold.toDisplay(address), 0.0);
        else
            QCOMPARE(fold.toDisplayEnd(address), display);
        QCOMPARE(fold.toAddress(-1.0), quint64(0x600000));
        QCOMPARE(fold.toAddress(std::numeric_limits<double>::quiet_NaN()), quint64(0x600000));
        QCOMPARE(fold.toAddress(fold.displayLength() * 2), quint64(0x7ffc1fff));
    }

    void foldHasBoundedRegionsWhateverItsInput()
    {
        // 2,048,000 sixteen-byte regions 128 KiB apart, but every 2000th gap 1 MiB larger: the cap
        // merges the smallest gaps, so the 1024 regions left are separated by exactly the large gaps.
        std::vector<AddressInterval> many;
        std::uint64_t address = 0x2000000000;
        for (int i = 0; i < 2048000; ++i) {
            many.push_back({ address, address + 15 });
            address += 0x20000 + ((i + 1) % 2000 == 0 ? 0x100000 : 0);
        }
        // No timing here (a loaded CI machine took 4 s under AddressSanitizer): the hang this
        // guards against was quadratic, hours at this size, and the test's timeout catches that.
        const AddressFold fold(many);
        QCOMPARE(fold.regionCount(), summary::maxFoldRegions);
        QCOMPARE(int(fold.segments().size()), 2 * summary::maxFoldRegions - 1);
        QCOMPARE(fold.firstAddress(), many.front().first);
        QCOMPARE(fold.lastAddress(), many.back().last);
        QCOMPARE(fold.regions()[0], (AddressInterval { many[0].first, many[1999].last }));
        QCOMPARE(fold.regions()[1], (AddressInterval { many[2000].first, many[3999].last }));
        // Still a fold of every byte: monotonic, and a region's bytes round-trip.
        QCOMPARE(fold.toAddress(fold.toDisplay(many[123456].first + 7)), many[123456].first + 7);
        QVERIFY(fold.toDisplay(many[2000].first) > fold.toDisplay(many[1999].last));

        // At the cap exactly nothing is merged.
        const std::vector<AddressInterval> atCap(many.begin(), many.begin() + summary::maxFoldRegions);
        QCOMPARE(AddressFold(atCap).regionCount(), summary::maxFoldRegions);
        const std::vector<AddressInterval> overCap(many.begin(), many.begin() + summary::maxFoldRegions + 1);
        QCOMPARE(AddressFold(overCap).regionCount(), summary::maxFoldRegions);
    }

    void framingCentresTheBytes_data()
    {
        QTest::addColumn<quint64>("first");
        QTest::addColumn<quint64>("last");
        QTest::addColumn<bool>("centred");
        QTest::newRow("128 bytes inside the heap: centred, a third of the view")
            << quint64(0x680000) << quint64(0x68007f) << true;
        QTest::newRow("4 bytes: 32 bytes tall at the zoom limit, centred")
            << quint64(0x680000) << quint64(0x680003) << true;
        QTest::newRow("the stack's last 16 bytes: the view stops at the axis' top")
            << quint64(0x7ffc1ff0) << quint64(0x7ffc1fff) << false;
        QTest::newRow("bytes across the folded gap") << quint64(0x6fff00) << quint64(0x7ffc00ff) << true;
    }
    void framingCentresTheBytes()
    {
        QFETCH(quint64, first);
        QFETCH(quint64, last);
        QFETCH(bool, centred);
        const PlaneExtent extent = extentOf(0, 999, heapAndStack());
        const PlaneViewport before { 100, 200, 0, extent.bounds.top };
        const PlaneViewport framed = framedViewport(before, extent, first, last);
        QCOMPARE(framed.left, 100.0);
        QCOMPARE(framed.right, 200.0);
        const double low = extent.fold.toDisplay(first);
        const double high = extent.fold.toDisplayEnd(last);
        QVERIFY(framed.bottom <= low && high <= framed.top);
        QCOMPARE(framed.height(), std::max(3 * (high - low), 4 * extent.minHeightAt((low + high) / 2)));
        if (centred) {
            QCOMPARE((framed.bottom + framed.top) / 2, (low + high) / 2);
        } else {
            QCOMPARE(framed.top, extent.bounds.top);
        }
        // Outlined at least minTargetPixels tall, in the plot.
        const PixelMapping map(framed, QSizeF(800, 300));
        const std::optional<QRect> outline
            = targetRect(ViewRange { Transition { 100 }, Transition { 199 }, Address { first }, Address { last } }, map,
                extent.fold, QSize(800, 300));
        QVERIFY(outline);
        QCOMPARE(outline->left(), 0);
        QCOMPARE(outline->right(), 799);
        QVERIFY(outline->height() >= minTargetPixels);
        if (centred)
            QVERIFY2(std::abs(outline->height() - 100) <= 2 || framed.height() > 3 * (high - low),
                qPrintable(QString::number(outline->height())));
    }

    void targetOutOfViewHasNoOutline()
    {
        const AddressFold fold = heapAndStack();
        const PixelMapping map(PlaneViewport { 0, 100, 0, fold.toDisplay(0x680000) }, QSizeF(400, 200));
        QVERIFY(!targetRect(
            ViewRange { Transition { 0 }, Transition { 99 }, Address { 0x7ffc0000 }, Address { 0x7ffc0010 } }, map,
            fold, QSize(400, 200)));
        // One byte far under a pixel: minTargetPixels tall round it (one more where its edges fall
        // inside pixels: the rectangle covers every pixel it touches).
        const std::optional<QRect> sliver
            = targetRect(ViewRange { Transition { 0 }, Transition { 99 }, Address { 0x640000 }, Address { 0x640000 } },
                map, fold, QSize(400, 200));
        QVERIFY(sliver);
        QVERIFY2(sliver->height() == minTargetPixels || sliver->height() == minTargetPixels + 1,
            qPrintable(QString::number(sliver->height())));
    }

    void hotspotsGetLengthByAccesses_data()
    {
        QTest::addColumn<std::vector<AccessHotspot>>("hotspots");
        QTest::addColumn<int>("segments");
        QTest::addColumn<double>("hotLength"); // of the hotspot's piece, as a fraction of the base length
        // A 1 MiB buffer with a 128-byte array right after it, one region of 1 MiB + 256 bytes.
        QTest::newRow("no hotspot: one segment") << std::vector<AccessHotspot> {} << 1 << 0.0;
        QTest::newRow("the array with 2/3 of the accesses")
            << std::vector<AccessHotspot> { { { 0x10100000, 0x1010007f }, 2.0 / 3 } } << 3 << 2.0 / 3;
        QTest::newRow("1 % of the accesses: the 3 % floor")
            << std::vector<AccessHotspot> { { { 0x10100000, 0x1010007f }, 0.01 } } << 3 << 0.03;
        QTest::newRow("at the region's first byte")
            << std::vector<AccessHotspot> { { { 0x10000000, 0x1000007f }, 0.5 } } << 2 << 0.5;
        QTest::newRow("across the region's last byte: clipped")
            << std::vector<AccessHotspot> { { { 0x10100080, 0x101001ff }, 0.5 } } << 2 << 0.5;
        QTest::newRow("128 KiB, under an eighth of the region: kept")
            << std::vector<AccessHotspot> { { { 0x10000000, 0x1001ffff }, 0.5 } } << 2 << 0.5;
        QTest::newRow("128 KiB + 257 bytes, over an eighth of the region: ignored")
            << std::vector<AccessHotspot> { { { 0x10000000, 0x10020100 }, 0.5 } } << 1 << 0.0;
        QTest::newRow("outside the region: ignored")
            << std::vector<AccessHotspot> { { { 0x20000000, 0x2000007f }, 0.5 } } << 1 << 0.0;
    }
    void hotspotsGetLengthByAccesses()
    {
        QFETCH(std::vector<AccessHotspot>, hotspots);
        QFETCH(int, segments);
        QFETCH(double, hotLength);
        const Intervals regions { { 0x10000000, 0x101000ff } };
        const AddressFold plain = AddressFold::fromRegions(regions, AddressFold::Layout {});
        const AddressFold fold = AddressFold::fromRegions(regions, AddressFold::Layout {}, hotspots);
        QCOMPARE(int(fold.segments().size()), segments);
        QCOMPARE(fold.regionCount(), 1);
        QCOMPARE(fold.regions(), regions);
        const double base = plain.displayLength();
        QCOMPARE(fold.displayLength(), base * (1 + hotLength));
        if (!hotspots.empty() && segments > 1) {
            const std::uint64_t first = std::max<std::uint64_t>(hotspots[0].addresses.first, 0x10000000);
            const std::uint64_t last = std::min<std::uint64_t>(hotspots[0].addresses.last, 0x101000ff);
            const FoldSegment &hot = fold.segments()[std::size_t(fold.segmentIndexOf(first))];
            QCOMPARE(hot.addresses, (AddressInterval { first, last }));
            QCOMPARE(hot.displayLength, double(last - first + 1) + base * hotLength);
        }
        // Monotonic, tiling, and every byte round-trips, at the pieces' edges too.
        for (std::size_t i = 1; i < fold.segments().size(); ++i) {
            QCOMPARE(fold.segments()[i].displayStart, fold.segments()[i - 1].displayEnd());
            QCOMPARE(fold.segments()[i].addresses.first, fold.segments()[i - 1].addresses.last + 1);
        }
        std::vector<std::uint64_t> addresses { 0x10000000, 0x1000007f, 0x10000080, 0x100fffff, 0x10100000, 0x1010007f,
            0x10100080, 0x101000ff };
        std::mt19937_64 random(7);
        for (int i = 0; i < 500; ++i)
            addresses.push_back(0x10000000 + random() % 0x100100);
        std::sort(addresses.begin(), addresses.end());
        for (std::size_t i = 0; i < addresses.size(); ++i) {
            QCOMPARE(fold.toAddress(fold.toDisplay(addresses[i])), addresses[i]);
            QVERIFY(fold.toDisplayEnd(addresses[i]) > fold.toDisplay(addresses[i]));
            if (i > 0 && addresses[i] != addresses[i - 1])
                QVERIFY(fold.toDisplay(addresses[i]) >= fold.toDisplayEnd(addresses[i - 1]));
        }
    }

    void regionsBuilderFindsTheHotspots()
    {
        OccupiedRegionsBuilder builder(FoldOptions {}, 4);
        // A buffer written once through in 8-byte accesses, a 128-byte array (two 64-byte blocks) read
        // 200,000 times, one access elsewhere (under 1 %).
        for (std::uint64_t i = 0; i < 0x100000 / 8; ++i) {
            builder.add(0x10000000 + 8 * i, 0x10000000 + 8 * i + 7);
            builder.addAccess(0x10000000 + 8 * i, 8);
        }
        builder.add(0x10100000, 0x1010007f);
        for (int i = 0; i < 200000; ++i)
            builder.addAccess(0x10100000 + 8 * std::uint64_t(i % 16), 8);
        builder.add(0x20000000, 0x20000007);
        builder.addAccess(0x20000000, 8);
        const Intervals regions = builder.finish();
        QCOMPARE(regions, (Intervals { { 0x10000000, 0x1010007f }, { 0x20000000, 0x20000007 } }));
        const double all = 0x100000 / 8 + 200000 + 1;
        QCOMPARE(builder.hotspots().size(), std::size_t(1));
        QCOMPARE(builder.hotspots()[0].addresses, (AddressInterval { 0x10100000, 0x1010007f }));
        QCOMPARE(builder.hotspots()[0].share, 200000 / all);
    }

    void emptyFoldIsIdentity()
    {
        const AddressFold fold;
        QVERIFY(fold.isEmpty());
        QCOMPARE(fold.toDisplay(12345), 12345.0);
        QCOMPARE(fold.toAddress(12345.5), quint64(12345));
        QCOMPARE(fold.toAddress(0x1p64), maxAddress);
        QCOMPARE(fold.firstAddress(), quint64(0));
        QCOMPARE(fold.lastAddress(), maxAddress);
    }

    void zoomKeepsAnchor_data()
    {
        QTest::addColumn<double>("anchorX");
        QTest::addColumn<double>("anchorY");
        QTest::addColumn<double>("factorX");
        QTest::addColumn<double>("factorY");
        QTest::newRow("centre, 2x in") << 0.5 << 0.5 << 2.0 << 2.0;
        QTest::newRow("near a corner, 3x in") << 0.1 << 0.9 << 3.0 << 3.0;
        QTest::newRow("x only (Ctrl)") << 0.3 << 0.7 << 4.0 << 1.0;
        QTest::newRow("y only (Shift)") << 0.3 << 0.7 << 1.0 << 4.0;
        QTest::newRow("out again, away from the edges") << 0.4 << 0.6 << 0.8 << 0.8;
    }
    void zoomKeepsAnchor()
    {
        QFETCH(double, anchorX);
        QFETCH(double, anchorY);
        QFETCH(double, factorX);
        QFETCH(double, factorY);
        const PlaneExtent extent = extentOf(0, 1'000'000, heapAndStack());
        // A view in the middle of the extent, so that no clamping interferes.
        PlaneViewport view { 200'000, 600'000, extent.bounds.height() * 0.2, extent.bounds.height() * 0.6 };
        const double x = view.left + anchorX * view.width();
        const double y = view.bottom + anchorY * view.height();
        const PlaneViewport zoomed = zoomViewport(view, extent, QPointF(anchorX, anchorY), factorX, factorY);
        QCOMPARE(zoomed.left + anchorX * zoomed.width(), x);
        QCOMPARE(zoomed.bottom + anchorY * zoomed.height(), y);
        QCOMPARE(zoomed.width(), view.width() / factorX);
        QCOMPARE(zoomed.height(), view.height() / factorY);
        if (factorX == 1.0)
            QCOMPARE(zoomed.left, view.left); // the other axis is untouched, bit for bit
        if (factorY == 1.0)
            QCOMPARE(zoomed.bottom, view.bottom);
    }

    void zoomLimitStopsShrinking()
    {
        const PlaneExtent extent = extentOf(0, 1'000'000, heapAndStack());
        PlaneViewport view { 500'000, 500'100, 100, 200 };
        const double x = view.left + 0.25 * view.width();
        for (int i = 0; i < 50; ++i)
            view = zoomViewport(view, extent, QPointF(0.25, 0.5), 2.0, 2.0);
        QCOMPARE(view.width(), extent.minWidth);
        QCOMPARE(view.height(), extent.minHeightAt(150));
        QVERIFY(std::abs(view.left + 0.25 * view.width() - x) < 1e-6); // the anchor still holds
    }

    void zoomLimitFollowsRegionScale()
    {
        // The stack is stretched (many display units per byte): its limit is minBytes bytes of it.
        const AddressFold fold = heapAndStack();
        const PlaneExtent extent = extentOf(0, 100, fold);
        const FoldSegment &stack = fold.segments()[2];
        QVERIFY(stack.scale() > 1.0);
        QCOMPARE(extent.minHeightAt(stack.displayStart + 1), extent.minBytes * stack.scale());
        QCOMPARE(extent.minHeightAt(1), extent.minBytes); // the heap: one unit per byte
    }

    void zoomOutClampsToExtent()
    {
        const PlaneExtent extent = extentOf(100, 999, heapAndStack());
        const PlaneViewport view { 120, 220, 10, 110 };
        const PlaneViewport out = zoomViewport(view, extent, QPointF(0.1, 0.1), 1e-6, 1e-6);
        QCOMPARE(out, extent.bounds);
    }

    void clamp_data()
    {
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("right");
        QTest::addColumn<double>("expectedLeft");
        QTest::addColumn<double>("expectedRight");
        QTest::newRow("inside: unchanged") << 200.0 << 300.0 << 200.0 << 300.0;
        QTest::newRow("past the left edge: shifted") << 50.0 << 150.0 << 100.0 << 200.0;
        QTest::newRow("past the right edge: shifted") << 950.0 << 1050.0 << 900.0 << 1000.0;
        QTest::newRow("wider than the history: all of it") << -500.0 << 5000.0 << 100.0 << 1000.0;
        QTest::newRow("narrower than the limit: widened around the centre") << 500.0 << 501.0 << 496.5 << 504.5;
        QTest::newRow("NaN: all of it") << std::nan("") << 300.0 << 100.0 << 1000.0;
    }
    void clamp()
    {
        QFETCH(double, left);
        QFETCH(double, right);
        QFETCH(double, expectedLeft);
        QFETCH(double, expectedRight);
        const PlaneExtent extent = extentOf(100, 999, heapAndStack());
        const PlaneViewport clamped = clampViewport({ left, right, extent.bounds.bottom, extent.bounds.top }, extent);
        QCOMPARE(clamped.left, expectedLeft);
        QCOMPARE(clamped.right, expectedRight);
    }

    void singleTransitionHistory()
    {
        const PlaneExtent extent = extentOf(42, 42, heapAndStack());
        QCOMPARE(extent.bounds.left, 42.0);
        QCOMPARE(extent.bounds.right, 43.0);
        QCOMPARE(extent.effectiveMinWidth(), 1.0);
        const PlaneViewport view = zoomViewport(extent.bounds, extent, QPointF(0.5, 0.5), 10, 1);
        QCOMPARE(view.left, 42.0);
        QCOMPARE(view.right, 43.0);
        const ViewRange range = toViewRange(view, extent.fold);
        QCOMPARE(range.firstTransition, Transition { 42 });
        QCOMPARE(range.lastTransition, Transition { 42 });
    }

    void emptyHistory()
    {
        const PlaneExtent extent = extentFor(std::nullopt, std::nullopt, AddressFold {});
        QCOMPARE(extent.bounds.left, 0.0);
        QCOMPARE(extent.bounds.right, 1.0);
        const PlaneViewport view = clampViewport(extent.bounds, extent);
        QCOMPARE(view, extent.bounds);
        const ViewRange range = toViewRange(view, extent.fold);
        QCOMPARE(range.firstAddress, Address { 0 });
        QCOMPARE(range.lastAddress, Address { maxAddress });
    }

    void panning_data()
    {
        QTest::addColumn<double>("dx");
        QTest::addColumn<double>("expectedLeft");
        QTest::newRow("half a view later") << 0.5 << 250.0;
        QTest::newRow("past the end: stops at the edge") << 10.0 << 900.0;
        QTest::newRow("before the start: stops at the edge") << -10.0 << 100.0;
    }
    void panning()
    {
        QFETCH(double, dx);
        QFETCH(double, expectedLeft);
        const PlaneExtent extent = extentOf(100, 999, heapAndStack());
        const PlaneViewport view { 200, 300, 0, 10 };
        const PlaneViewport panned = panViewport(view, extent, dx, 0);
        QCOMPARE(panned.left, expectedLeft);
        QCOMPARE(panned.width(), 100.0);
        QCOMPARE(panned.bottom, 0.0);
    }

    void viewRangeRoundTrip_data()
    {
        QTest::addColumn<quint64>("firstTransition");
        QTest::addColumn<quint64>("lastTransition");
        QTest::addColumn<quint64>("firstAddress");
        QTest::addColumn<quint64>("lastAddress");
        QTest::newRow("one region") << quint64(10) << quint64(20) << quint64(0x600010) << quint64(0x6000ff);
        QTest::newRow("across the fold") << quint64(0) << quint64(999) << quint64(0x600000) << quint64(0x7ffc1fff);
        QTest::newRow("one transition, one byte")
            << quint64(7) << quint64(7) << quint64(0x7ffc0100) << quint64(0x7ffc0100);
    }
    void viewRangeRoundTrip()
    {
        QFETCH(quint64, firstTransition);
        QFETCH(quint64, lastTransition);
        QFETCH(quint64, firstAddress);
        QFETCH(quint64, lastAddress);
        const AddressFold fold = heapAndStack();
        const ViewRange range { Transition { firstTransition }, Transition { lastTransition }, Address { firstAddress },
            Address { lastAddress } };
        QCOMPARE(toViewRange(toViewport(range, fold), fold), range);
    }

    void pixelMapping()
    {
        const PixelMapping mapping(PlaneViewport { 100, 200, 1000, 2000 }, QSizeF(500, 250));
        QCOMPARE(mapping.xToPixel(100), 0.0);
        QCOMPARE(mapping.xToPixel(200), 500.0);
        QCOMPARE(mapping.yToPixel(2000), 0.0); // addresses grow upward: the top is row 0
        QCOMPARE(mapping.yToPixel(1000), 250.0);
        QCOMPARE(mapping.pixelToX(mapping.xToPixel(123.25)), 123.25);
        QCOMPARE(mapping.pixelToY(mapping.yToPixel(1500.5)), 1500.5);
        QCOMPARE(mapping.anchorAt(QPointF(125, 50)), QPointF(0.25, 0.8));
        const PlaneViewport band = mapping.viewportOf(QPointF(250, 200), QPointF(50, 25));
        QCOMPARE(band, (PlaneViewport { 110, 150, 1200, 1900 }));
    }

    void tickSteps_data()
    {
        QTest::addColumn<double>("minStep");
        QTest::addColumn<double>("transitionStep");
        QTest::addColumn<quint64>("addressStep");
        QTest::newRow("below one") << 0.3 << 1.0 << quint64(1);
        QTest::newRow("exact power") << 100.0 << 100.0 << quint64(128);
        QTest::newRow("between 1 and 2") << 130.0 << 200.0 << quint64(256);
        QTest::newRow("between 2 and 5") << 2100.0 << 5000.0 << quint64(4096);
        QTest::newRow("between 5 and 10") << 7.0 << 10.0 << quint64(8);
        QTest::newRow("beyond 2^63 caps") << 1e19 << 1e19 << (quint64(1) << 63);
    }
    void tickSteps()
    {
        QFETCH(double, minStep);
        QFETCH(double, transitionStep);
        QFETCH(quint64, addressStep);
        QCOMPARE(transitionTickStep(minStep), transitionStep);
        QCOMPARE(addressTickStep(minStep), addressStep);
    }

    void labels_data()
    {
        QTest::addColumn<quint64>("value");
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("transition");
        QTest::newRow("zero") << quint64(0) << QStringLiteral("0x0") << QStringLiteral("0");
        QTest::newRow("four digits") << quint64(0xffff) << QStringLiteral("0xffff") << QStringLiteral("65,535");
        QTest::newRow("stack address") << quint64(0x7ffd4c3ba000) << QStringLiteral("0x7ffd4c3ba000")
                                       << QStringLiteral("140,725,882,429,440");
        QTest::newRow("2^64-1") << quint64(maxAddress) << QStringLiteral("0xffffffffffffffff")
                                << QStringLiteral("18,446,744,073,709,551,615");
    }
    void labels()
    {
        QFETCH(quint64, value);
        QFETCH(QString, address);
        QFETCH(QString, transition);
        QCOMPARE(hexText(value), address);
        QCOMPARE(countText(value), transition);
    }

    void byteCounts()
    {
        QCOMPARE(formatByteCount(512), QStringLiteral("512 B"));
        QCOMPARE(formatByteCount(1536), QStringLiteral("1.5 KiB"));
        QCOMPARE(formatByteCount(2.0 * (1ull << 30)), QStringLiteral("2.0 GiB"));
        QCOMPARE(formatByteCount(0x1p64), QStringLiteral("16 EiB"));
    }
};

QTEST_GUILESS_MAIN(TestPlaneCoordinates)
#include "tst_planecoordinates.moc"
