// SPDX-License-Identifier: MIT
// The plane's renderer: the level-of-detail planner's decisions on hand-made overviews (exact, at
// every threshold), then every way of drawing (coverage, chunk rows, a row scan, per-chunk queries)
// run with lowered limits on small real histories, with the pixels each paints, and cancellation in
// each read and paint pass.
#include "core/storage/historydatabase.h"
#include "core/writer/historywriter.h"
#include "planestreams.h"
#include "testsupport.h"
#include "widgets/plane/planeblockpipeline.h"
#include "widgets/plane/planedetail.h"
#include "widgets/plane/planeoperationraster.h"
#include "widgets/plane/planeoverview.h"
#include "widgets/plane/planepainting.h"
#include "widgets/plane/planereads.h"
#include "widgets/plane/planerenderer.h"
#include "widgets/plane/planesummaryraster.h"

#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <tuple>

using namespace memhist;
using namespace memhist::plane;
using namespace memhist::test;

Q_DECLARE_METATYPE(memhist::plane::ChunkSource)
Q_DECLARE_METATYPE(memhist::plane::AccessSource)
Q_DECLARE_METATYPE(memhist::plane::DetailLimits)

namespace {

// 6000 transitions, 14,000 accesses in four slices (a slice cap of 4096) and about two thousand
// chunks: more rows than any pass reads between two cancellation checks.
QList<Access> denseStream()
{
    QList<Access> stream;
    for (std::uint64_t t = 0; t < 6000; ++t) {
        stream << userAccess(t, Operation::Execute, planeCodeBase + 4 * (t % 512), 4);
        stream << userAccess(t, Operation::Read, planeHeapBase + 8 * ((t * 37) % 2048), 8);
        if (t % 3 == 0)
            stream << userAccess(t, Operation::Write, planeStackBase + 8 * (t % 64), 8);
    }
    return stream;
}

const PlaneColors testColors { QColor(255, 255, 255), QColor(232, 232, 232), QColor(128, 128, 128), QColor(0, 0, 255),
    QColor(255, 0, 0), QColor(0, 160, 0) };

QColor colorOf(Operation op)
{
    return testColors.ofOperation(operationIndex(op));
}

// `color` at `alpha` over `under`, blended exactly as the renderer's QPainter blends it.
QRgb blended(QColor color, int alpha, const QColor &under)
{
    QImage pixel(1, 1, QImage::Format_RGB32);
    pixel.fill(under);
    color.setAlpha(alpha);
    QPainter painter(&pixel);
    painter.fillRect(QRect(0, 0, 1, 1), color);
    painter.end();
    return pixel.pixel(0, 0);
}

bool never()
{
    return false;
}

bool always()
{
    return true;
}

// 4000 transitions over one 1 KiB heap region, one access each, in the same bytes: 7 reads, then 3
// writes, of every 10 transitions (70 % reads, issue 13, 4e).
QList<Access> mostlyReadStream()
{
    QList<Access> stream;
    for (std::uint64_t t = 0; t < 4000; ++t)
        stream << userAccess(t, t % 10 < 7 ? Operation::Read : Operation::Write, planeHeapBase + 8 * (t % 128), 8);
    return stream;
}

// The pixels of `image` in operation `op`'s colour at `alpha` over any of the slice band colours.
int pixelsOf(const QImage &image, Operation op, int alpha)
{
    const QRgb over[3] = { blended(colorOf(op), alpha, testColors.background),
        blended(colorOf(op), alpha, testColors.alternateBackground),
        blended(colorOf(op), alpha, testColors.sliceEdge) };
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb pixel = image.pixel(x, y);
            count += pixel == over[0] || pixel == over[1] || pixel == over[2];
        }
    }
    return count;
}

// The pixels where `a` and `b` differ by more than `tolerance` in some channel.
int differingPixels(const QImage &a, const QImage &b, int tolerance)
{
    int count = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y);
            const QRgb q = b.pixel(x, y);
            count += std::abs(qRed(p) - qRed(q)) > tolerance || std::abs(qGreen(p) - qGreen(q)) > tolerance
                || std::abs(qBlue(p) - qBlue(q)) > tolerance;
        }
    }
    return count;
}

// Accesses compared by what the trace says (rowids are the writer's).
using AccessKey = std::tuple<std::uint64_t, int, std::uint64_t, std::uint32_t>;
QList<AccessKey> keysOf(const std::vector<Access> &accesses)
{
    QList<AccessKey> keys;
    for (const Access &a : accesses)
        keys << AccessKey { a.transition.value, int(a.operation), a.physical.value, a.size };
    std::sort(keys.begin(), keys.end());
    return keys;
}

// The accesses of `stream` a plan's windows show: the oracle of the row scan.
std::vector<Access> inWindows(const QList<Access> &stream, const DetailPlan &plan)
{
    std::vector<Access> shown;
    for (const Access &a : stream) {
        if (a.transition.value >= plan.transitions.first && a.transition.value <= plan.transitions.last
            && a.physical.value <= plan.addresses.last && a.lastByte().value >= plan.addresses.first)
            shown.push_back(a);
    }
    return shown;
}

// `count` reads of `size` bytes, one a transition, sweeping `footprint` bytes of the heap in order:
// every read aligned, the whole footprint read count * size / footprint times.
QList<Access> sweepingReads(int count, std::uint32_t size, std::uint64_t footprint)
{
    QList<Access> stream;
    for (int i = 0; i < count; ++i)
        stream << userAccess(
            std::uint64_t(i), Operation::Read, planeHeapBase + (std::uint64_t(i) * size) % footprint, size);
    return stream;
}

// Two slices of 100 transitions over one region of 4096 bytes, with 256 coverage bins (16 bytes
// each): each slice has `chunksPerSlice` read chunks, all in the lowest coarse bin (bins 0..63).
HistoryOverview handMadeOverview(quint32 chunksPerSlice, double accessesPerChunk, bool coverage)
{
    HistoryOverview overview;
    overview.slices = { { 1, 0, 99 }, { 2, 100, 199 } };
    overview.fold = AddressFold(std::vector<AddressInterval> { { 0x1000, 0x1fff } });
    overview.accessesPerChunk = accessesPerChunk;
    if (coverage) {
        overview.summaryBins = 256;
        overview.summaries.resize(2);
        for (SliceSummary &slice : overview.summaries) {
            OperationCoverage &reads = slice.ops[operationIndex(Operation::Read)];
            reads.bits = { ~quint64(0), 0, 0, 0 };
            reads.coarseChunks = { chunksPerSlice, 0, 0, 0 };
            reads.chunks = chunksPerSlice;
        }
    }
    return overview;
}

// A history written with HistoryWriter, its overview and a read-only connection.
struct Fixture
{
    QString path;
    QList<Access> stream;
    std::shared_ptr<const HistoryOverview> overview;
    std::unique_ptr<HistoryDatabase> db;

    PlaneViewport whole() const
    {
        return extentFor(overview->summary.firstTransition, overview->summary.lastTransition, overview->fold).bounds;
    }
    // All transitions over the occupied region holding `address`.
    // The segments of the occupied region holding `address` (a region with an access hotspot is
    // several pieces), first and last index.
    std::pair<std::size_t, std::size_t> regionSegments(std::uint64_t address) const
    {
        const auto &segments = overview->fold.segments();
        std::size_t first = std::size_t(overview->fold.segmentIndexOf(address));
        std::size_t last = first;
        while (first > 0 && !segments[first - 1].folded)
            --first;
        while (last + 1 < segments.size() && !segments[last + 1].folded)
            ++last;
        return { first, last };
    }
    PlaneViewport regionOf(std::uint64_t address) const
    {
        const auto [first, last] = regionSegments(address);
        PlaneViewport view = whole();
        view.bottom = overview->fold.segments()[first].displayStart;
        view.top = overview->fold.segments()[last].displayEnd();
        return view;
    }
    // The middle of the folded gap above the region holding `address`, in display units.
    double gapAbove(std::uint64_t address) const
    {
        const FoldSegment &gap = overview->fold.segments()[regionSegments(address).second + 1];
        return gap.displayStart + gap.displayLength / 2;
    }
    std::shared_ptr<RenderResult> render(const PlaneViewport &view, QSize pixels, const DetailLimits &limits,
        const std::function<bool()> &cancelled = never) const
    {
        RenderRequest request;
        request.overview = overview;
        request.view = view;
        request.pixels = pixels;
        request.colors = testColors;
        request.limits = limits;
        return renderPlane(request, db->connection(), cancelled);
    }
};

bool writeFixture(const QString &path, const QList<Access> &stream, const WriterOptions &options, Fixture *fixture)
{
    HistoryWriter writer(path, options);
    if (!writer.open())
        return false;
    for (const Access &access : stream) {
        if (!writer.add(access))
            return false;
    }
    if (!writer.finish())
        return false;
    fixture->path = path;
    fixture->stream = stream;
    fixture->overview = loadOverview(path, never);
    QString error;
    fixture->db = HistoryDatabase::open(path, &error);
    return fixture->overview && fixture->overview->error.isEmpty() && fixture->db;
}

// The chunks of operation `op` the overview counted, over all slices.
qint64 chunksOf(const HistoryOverview &overview, Operation op)
{
    qint64 count = 0;
    for (const SliceSummary &slice : overview.summaries)
        count += slice.ops[operationIndex(op)].chunks;
    return count;
}

DetailLimits limitsWith(double accessDetailLimit, double chunkReadLimit, double perQueryCost)
{
    DetailLimits limits;
    limits.accessDetailLimit = accessDetailLimit;
    limits.chunkReadLimit = chunkReadLimit;
    limits.perQueryCost = perQueryCost;
    return limits;
}

const DetailLimits defaults;
const DetailLimits noAccesses = limitsWith(-1, defaults.chunkReadLimit, defaults.perQueryCost);

} // namespace

class TestPlaneRenderer : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    Fixture m_small;
    Fixture m_dense;
    Fixture m_smallSummary; // m_small's history drawn from its display summary (openOverview())
    Fixture m_mostlyRead; // mostlyReadStream(), drawn from the scanned coverage
    Fixture m_mostlyReadSummary; // the same drawn from its display summary
    int m_sweeps = 0; // the histories of smallFoldsShowTheirAccesses()

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(writeFixture(m_dir.filePath(QStringLiteral("small.memhist")), smallPlaneStream(), {}, &m_small));
        WriterOptions dense;
        dense.sliceAccessCap = 4096;
        QVERIFY(writeFixture(m_dir.filePath(QStringLiteral("dense.memhist")), denseStream(), dense, &m_dense));
        QCOMPARE(m_small.overview->summary.accesses, 170);
        QCOMPARE(m_small.overview->slices.size(), std::size_t(1));
        QCOMPARE(m_small.overview->fold.regionCount(), 3);
        QCOMPARE(m_dense.overview->summary.accesses, 14000);
        QCOMPARE(m_dense.overview->slices.size(), std::size_t(4));
        QCOMPARE(m_dense.overview->fold.regionCount(), 3);
        // Enough rows for each pass to reach its first cancellation check.
        QVERIFY(m_dense.overview->summary.chunks > qint64(chunkRowsPerCancelCheck));
        QVERIFY(m_dense.overview->summary.accesses > scannedRowsPerCancelCheck);

        m_smallSummary.path = m_small.path;
        m_smallSummary.stream = m_small.stream;
        m_smallSummary.overview = openOverview(m_small.path, QString());
        QString error;
        m_smallSummary.db = HistoryDatabase::open(m_small.path, &error);
        QVERIFY(m_smallSummary.db);
        QVERIFY(m_smallSummary.overview->error.isEmpty());
        QVERIFY(m_smallSummary.overview->summaryInfo);
        QCOMPARE(m_smallSummary.overview->summaryPath, m_small.path);
        QCOMPARE(m_smallSummary.overview->summary.accesses, 170);
        QCOMPARE(m_smallSummary.overview->summary.chunks, m_small.overview->summary.chunks);
        QCOMPARE(m_smallSummary.overview->fold.regions(), m_small.overview->fold.regions());
        QVERIFY(m_smallSummary.overview->summaries.empty()); // the summary's tiles stand in for coverage

        const QString mostlyRead = m_dir.filePath(QStringLiteral("mostlyread.memhist"));
        QVERIFY(writeFixture(mostlyRead, mostlyReadStream(), {}, &m_mostlyRead));
        m_mostlyReadSummary.path = mostlyRead;
        m_mostlyReadSummary.stream = m_mostlyRead.stream;
        m_mostlyReadSummary.overview = openOverview(mostlyRead, QString());
        m_mostlyReadSummary.db = HistoryDatabase::open(mostlyRead, &error);
        QVERIFY(m_mostlyReadSummary.db);
        QVERIFY2(m_mostlyReadSummary.overview->summaryInfo, qPrintable(m_mostlyReadSummary.overview->summaryNotice));
    }

    // --- The planner, on hand-made overviews ----------------------------------------------------

    void visibleWindows_data()
    {
        QTest::addColumn<double>("left");
        QTest::addColumn<double>("right");
        QTest::addColumn<double>("bottom");
        QTest::addColumn<double>("top");
        QTest::addColumn<quint64>("firstTransition");
        QTest::addColumn<quint64>("lastTransition");
        QTest::addColumn<quint64>("firstAddress");
        QTest::addColumn<quint64>("lastAddress");
        // One region of 4096 bytes: one display unit per byte.
        QTest::newRow("whole transitions and bytes")
            << 10.0 << 20.0 << 16.0 << 32.0 << quint64(10) << quint64(19) << quint64(0x1010) << quint64(0x101f);
        QTest::newRow("partial transitions and bytes count whole")
            << 10.5 << 19.5 << 16.5 << 31.5 << quint64(10) << quint64(19) << quint64(0x1010) << quint64(0x101f);
        QTest::newRow("left of transition 0: from 0")
            << -5.0 << 3.0 << 0.0 << 1.0 << quint64(0) << quint64(2) << quint64(0x1000) << quint64(0x1000);
        QTest::newRow("top at the axis' end: its last address")
            << 0.0 << 1.0 << 4000.0 << 4096.0 << quint64(0) << quint64(0) << quint64(0x1fa0) << quint64(0x1fff);
    }
    void visibleWindows()
    {
        QFETCH(double, left);
        QFETCH(double, right);
        QFETCH(double, bottom);
        QFETCH(double, top);
        const AddressFold fold(std::vector<AddressInterval> { { 0x1000, 0x1fff } });
        QCOMPARE(fold.displayLength(), 4096.0);
        const PlaneViewport view { left, right, bottom, top };
        const TransitionWindow transitions = visibleTransitions(view);
        QTEST(quint64(transitions.first), "firstTransition");
        QTEST(quint64(transitions.last), "lastTransition");
        const AddressWindow addresses = visibleAddresses(view, fold);
        QTEST(quint64(addresses.first), "firstAddress");
        QTEST(quint64(addresses.last), "lastAddress");
    }

    void coverageBinsOfARange_data()
    {
        QTest::addColumn<double>("bottom");
        QTest::addColumn<double>("top");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        // 256 bins over 4096 display units: 16 units a bin.
        QTest::newRow("one bin exactly") << 16.0 << 32.0 << 1 << 1;
        QTest::newRow("parts of two bins") << 20.0 << 40.0 << 1 << 2;
        QTest::newRow("thinner than a bin: still one") << 20.0 << 21.0 << 1 << 1;
        QTest::newRow("below the axis: clamped to bin 0") << -100.0 << 8.0 << 0 << 0;
        QTest::newRow("above the axis: clamped to the last bin") << 4090.0 << 9000.0 << 255 << 255;
    }
    void coverageBinsOfARange()
    {
        QFETCH(double, bottom);
        QFETCH(double, top);
        const auto [first, last] = coverageBins(bottom, top, 256, 256 / 4096.0);
        QTEST(first, "first");
        QTEST(last, "last");
    }

    void plan_data()
    {
        QTest::addColumn<int>("chunksPerSlice");
        QTest::addColumn<double>("accessesPerChunk");
        QTest::addColumn<bool>("coverage");
        QTest::addColumn<double>("right"); // left is 0
        QTest::addColumn<double>("top"); // bottom is 0
        QTest::addColumn<int>("pixelHeight");
        QTest::addColumn<double>("rowsInRange");
        QTest::addColumn<DetailLimits>("limits");
        QTest::addColumn<int>("endSlice");
        QTest::addColumn<double>("estimatedChunks");
        QTest::addColumn<double>("estimatedAccesses");
        QTest::addColumn<double>("pixelsPerBin");
        QTest::addColumn<ChunkSource>("chunks");
        QTest::addColumn<AccessSource>("accesses");

        const auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };
        const DetailLimits lowChunkLimit = limitsWith(defaults.accessDetailLimit, 10, defaults.perQueryCost);
        // The whole view: 2 slices x 200 transitions, 4096 display units (256 bins) in 300 pixels.
        const double ppb = 300.0 / 256;
        row("a few chunks, a cheap scan: chunk rows and the scan")
            << 100 << 3.0 << true << 200.0 << 4096.0 << 300 << 600.0 << defaults << 2 << 200.0 << 600.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("the scan dearer than 20 rows per chunk: per-chunk queries")
            << 100 << 3.0 << true << 200.0 << 4096.0 << 300 << 1e6 << defaults << 2 << 200.0 << 600.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::ChunkQueries;
        row("a tie goes to the scan") << 100 << 3.0 << true << 200.0 << 4096.0 << 300 << 4600.0 << defaults << 2
                                      << 200.0 << 600.0 << ppb << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("half the second slice: half its accesses")
            << 100 << 3.0 << true << 150.0 << 4096.0 << 300 << 450.0 << defaults << 2 << 200.0 << 450.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("the first slice only") << 100 << 3.0 << true << 100.0 << 4096.0 << 300 << 300.0 << defaults << 1 << 100.0
                                    << 300.0 << ppb << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("half a coarse bin of addresses: its share of the chunks")
            << 100 << 3.0 << true << 200.0 << 512.0 << 300 << 300.0 << defaults << 2 << 100.0 << 300.0 << 300.0 / 32
            << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("150,000 accesses: still one by one")
            << 25000 << 3.0 << true << 200.0 << 4096.0 << 300 << 150000.0 << defaults << 2 << 50000.0 << 150000.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("150,006 accesses: chunks only")
            << 25001 << 3.0 << true << 200.0 << 4096.0 << 300 << 150006.0 << defaults << 2 << 50002.0 << 150006.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::None;
        row("scan and per-chunk queries over budget: chunks only")
            << 10000 << 1.0 << true << 200.0 << 4096.0 << 300 << 400001.0 << defaults << 2 << 20000.0 << 20000.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::None;
        row("60,000 chunks: still read") << 30000 << 3.0 << true << 200.0 << 4096.0 << 300 << 180000.0 << defaults << 2
                                         << 60000.0 << 180000.0 << ppb << ChunkSource::ChunkRows << AccessSource::None;
        row("60,002 chunks, bins of 1.2 px: coverage")
            << 30001 << 3.0 << true << 200.0 << 4096.0 << 300 << 180006.0 << defaults << 2 << 60002.0 << 180006.0 << ppb
            << ChunkSource::Coverage << AccessSource::None;
        row("60,002 chunks, bins of 2 px: chunk rows")
            << 30001 << 3.0 << true << 200.0 << 4096.0 << 512 << 180006.0 << defaults << 2 << 60002.0 << 180006.0 << 2.0
            << ChunkSource::ChunkRows << AccessSource::None;
        row("240,002 chunks, bins of 2 px: coarse coverage")
            << 120001 << 3.0 << true << 200.0 << 4096.0 << 512 << 720006.0 << defaults << 2 << 240002.0 << 720006.0
            << 2.0 << ChunkSource::Coverage << AccessSource::None;
        row("240,002 chunks, bins of 4 px: coarse coverage")
            << 120001 << 3.0 << true << 200.0 << 4096.0 << 1024 << 720006.0 << defaults << 2 << 240002.0 << 720006.0
            << 4.0 << ChunkSource::Coverage << AccessSource::None;
        row("240,002 chunks, bins of 5 px: chunk rows")
            << 120001 << 3.0 << true << 200.0 << 4096.0 << 1280 << 720006.0 << defaults << 2 << 240002.0 << 720006.0
            << 5.0 << ChunkSource::ChunkRows << AccessSource::None;
        row("no coverage: the scan priced alone")
            << 100 << 3.0 << false << 200.0 << 4096.0 << 300 << 400000.0 << defaults << 2 << 0.0 << 0.0 << 0.0
            << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("no coverage, the scan over budget: chunk rows only")
            << 100 << 3.0 << false << 200.0 << 4096.0 << 300 << 400001.0 << defaults << 2 << 0.0 << 0.0 << 0.0
            << ChunkSource::ChunkRows << AccessSource::None;
        row("more accesses per chunk than rows: the rows")
            << 100 << 3.0 << true << 200.0 << 4096.0 << 300 << 500.0 << defaults << 2 << 200.0 << 500.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::RowScan;
        row("a lowered chunk limit under a scan: coverage")
            << 100 << 3.0 << true << 200.0 << 4096.0 << 300 << 600.0 << lowChunkLimit << 2 << 200.0 << 600.0 << ppb
            << ChunkSource::Coverage << AccessSource::RowScan;
        row("a lowered chunk limit under per-chunk queries: they keep the chunk rows")
            << 100 << 3.0 << true << 200.0 << 4096.0 << 300 << 1e6 << lowChunkLimit << 2 << 200.0 << 600.0 << ppb
            << ChunkSource::ChunkRows << AccessSource::ChunkQueries;
    }
    void plan()
    {
        QFETCH(int, chunksPerSlice);
        QFETCH(double, accessesPerChunk);
        QFETCH(bool, coverage);
        QFETCH(double, right);
        QFETCH(double, top);
        QFETCH(int, pixelHeight);
        QFETCH(double, rowsInRange);
        QFETCH(DetailLimits, limits);
        const HistoryOverview overview = handMadeOverview(quint32(chunksPerSlice), accessesPerChunk, coverage);
        const DetailPlan plan = planDetail(overview, { 0, right, 0, top }, pixelHeight, rowsInRange, limits);
        QCOMPARE(plan.firstSlice, std::size_t(0));
        QTEST(int(plan.endSlice), "endSlice");
        QTEST(plan.estimatedChunks, "estimatedChunks");
        QTEST(plan.estimatedAccesses, "estimatedAccesses");
        QTEST(plan.pixelsPerBin, "pixelsPerBin");
        QTEST(plan.chunks, "chunks");
        QTEST(plan.accesses, "accesses");
    }

    void planPastTheLastSlice()
    {
        // Nothing to draw, and an empty row range scanned for nothing (costs nothing).
        const HistoryOverview overview = handMadeOverview(100, 3, true);
        const DetailPlan plan = planDetail(overview, { 300, 400, 0, 4096 }, 300, 0, defaults);
        QCOMPARE(plan.firstSlice, std::size_t(2));
        QCOMPARE(plan.endSlice, std::size_t(2));
        QCOMPARE(plan.estimatedChunks, 0.0);
        QCOMPARE(plan.chunks, ChunkSource::None);
        QCOMPARE(plan.accesses, AccessSource::RowScan);
        QCOMPARE(chunkAlpha(plan), chunkAlphaBehindAccesses);
    }

    void planCapsTheSummaryEstimateAtTheRows()
    {
        // The display summary's estimate is at most the rows of the visible transitions: 160,000
        // accesses estimated over 10,000 rows are drawn one by one; over 160,000 rows they are not.
        const HistoryOverview overview = handMadeOverview(100, 3, false);
        const PlaneViewport view { 0, 200, 0, 4096 };
        const SummaryEstimate estimate { 200, 160000 };
        const DetailPlan few = planDetail(overview, view, 10000, estimate, 1.0, defaults);
        QCOMPARE(few.estimatedChunks, 200.0);
        QCOMPARE(few.estimatedAccesses, 10000.0);
        QCOMPARE(few.accesses, AccessSource::RowScan);
        const DetailPlan many = planDetail(overview, view, 160000, estimate, 1.0, defaults);
        QCOMPARE(many.estimatedAccesses, 160000.0);
        QCOMPARE(many.accesses, AccessSource::None);
    }

    void summaryEstimateCountsAnAccessOnceABinPerByte_data()
    {
        QTest::addColumn<quint64>("footprint"); // one region of this many bytes
        QTest::addColumn<int>("addressLevel");
        QTest::addColumn<quint64>("offset"); // of the access in the region
        QTest::addColumn<quint32>("size");
        QTest::addColumn<int>("bins"); // the bins the access touches
        QTest::addColumn<double>("accesses"); // what the estimate makes of them
        // A byte is at least one display unit tall: on bins narrower than that, every access touches
        // at least 1 / (bin height) of them, and counts that many times less.
        QTest::newRow("a byte on bins of half a byte: once") << quint64(512) << 10 << quint64(0) << 1u << 2 << 1.0;
        QTest::newRow("a byte on bins of an eighth of a byte: once")
            << quint64(512) << 12 << quint64(5) << 1u << 8 << 1.0;
        QTest::newRow("8 bytes on bins of half a byte: 8 times") << quint64(512) << 10 << quint64(8) << 8u << 16 << 8.0;
        QTest::newRow("8 bytes on bins of 4 bytes, unaligned: in each of its 3 bins")
            << quint64(4096) << 10 << quint64(2) << 8u << 3 << 3.0;
    }
    void summaryEstimateCountsAnAccessOnceABinPerByte()
    {
        QFETCH(quint64, footprint);
        QFETCH(int, addressLevel);
        QFETCH(quint64, offset);
        QFETCH(quint32, size);
        HistoryOverview overview;
        overview.slices = { { 1, 0, 99 } };
        overview.fold = AddressFold(std::vector<AddressInterval> { { 0x1000, 0x1000 + footprint - 1 } });
        QCOMPARE(overview.fold.displayLength(), double(footprint));
        auto info = std::make_shared<summary::SummaryInfo>();
        info->levels.slices = 1;
        overview.summaryInfo = info;

        const summary::BinRange range
            = summary::binsOf(overview.fold, 0x1000 + offset, 0x1000 + offset + size - 1, addressLevel);
        QTEST(int(range.last - range.first + 1), "bins");
        std::vector<summary::Cell> cells;
        for (std::uint32_t bin = range.first; bin <= range.last; ++bin) {
            summary::Cell cell;
            cell.bin = bin;
            cell.accesses[summary::operationSlot(4)] = 1;
            cell.chunks[summary::operationSlot(4)] = bin == range.first;
            cells.push_back(cell);
        }
        SummaryRaster raster(overview, PixelMapping({ 0, 100, 0, overview.fold.displayLength() }, QSizeF(100, 100)));
        raster.add({ 0, addressLevel, 0, 0 }, cells);
        QTEST(raster.estimate().accesses, "accesses");
        QCOMPARE(raster.estimate().chunks, 1.0);
    }

    void smallFoldsShowTheirAccesses_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<quint32>("size");
        QTest::addColumn<quint64>("footprint");
        QTest::addColumn<double>("accessDetailLimit");
        QTest::addColumn<double>("estimatedAccesses");
        QTest::addColumn<AccessSource>("accesses");
        // The display summary's bins are half a byte tall on 512 bytes and 2 bytes on 2 KiB: it counts
        // these reads 16 and 2 times over (160,000 and 200,000), beyond the 150,000 accesses drawn
        // one by one; the rows of the view are the estimate.
        const double limit = defaults.accessDetailLimit;
        QTest::newRow("10,000 reads of 8 bytes in 512 bytes: one by one")
            << 10000 << 8u << quint64(512) << limit << 10000.0 << AccessSource::RowScan;
        QTest::newRow("100,000 reads of 4 bytes in 2 KiB: one by one")
            << 100000 << 4u << quint64(2048) << limit << 100000.0 << AccessSource::RowScan;
        QTest::newRow("10,000 reads of 8 bytes in 512 bytes, a limit of 9,999: chunks")
            << 10000 << 8u << quint64(512) << 9999.0 << 10000.0 << AccessSource::None;
        QTest::newRow("160,000 reads of 8 bytes in 512 bytes: chunks")
            << 160000 << 8u << quint64(512) << limit << 160000.0 << AccessSource::None;
    }
    void smallFoldsShowTheirAccesses()
    {
        QFETCH(int, count);
        QFETCH(quint32, size);
        QFETCH(quint64, footprint);
        QFETCH(double, accessDetailLimit);
        const QString path = m_dir.filePath(QStringLiteral("sweep%1.memhist").arg(++m_sweeps));
        Fixture f;
        QVERIFY(writeFixture(path, sweepingReads(count, size, footprint), {}, &f));
        f.overview = openOverview(path, QString()); // drawn from the display summary
        QVERIFY(f.overview && f.overview->summaryInfo);
        QCOMPARE(f.overview->summary.accesses, qint64(count));
        QCOMPARE(f.overview->fold.regions(),
            (std::vector<AddressInterval> { { planeHeapBase, planeHeapBase + footprint - 1 } }));

        const auto result = f.render(
            f.whole(), QSize(400, 300), limitsWith(accessDetailLimit, defaults.chunkReadLimit, defaults.perQueryCost));
        QVERIFY(result);
        QTEST(result->plan.estimatedAccesses, "estimatedAccesses");
        QTEST(result->plan.accesses, "accesses");
        QCOMPARE(result->accessesRead, result->plan.accessDetail() ? qint64(count) : 0);
        QCOMPARE(qint64(result->accesses.size()), result->plan.accessDetail() ? qint64(count) : 0);
    }

    // --- Every way of drawing, on real histories --------------------------------------------------

    void everyPathDraws_data()
    {
        QTest::addColumn<DetailLimits>("limits");
        QTest::addColumn<bool>("stackOnly"); // the stack region rather than the whole history
        QTest::addColumn<ChunkSource>("chunks");
        QTest::addColumn<AccessSource>("accesses");
        QTest::addColumn<bool>("fromSummary"); // the overview of openOverview(): the display summary's tiles
        for (const bool fromSummary : { false, true }) {
            const auto name = [fromSummary](const char *path) {
                return QByteArray(path).append(
                    fromSummary ? ", from the display summary" : ", from the scanned coverage");
            };
            QTest::newRow(name("chunk rows alone").constData())
                << noAccesses << false << ChunkSource::ChunkRows << AccessSource::None << fromSummary;
            QTest::newRow(name("coverage alone").constData())
                << limitsWith(-1, 0, defaults.perQueryCost) << false << ChunkSource::Coverage << AccessSource::None
                << fromSummary;
            QTest::newRow(name("chunk rows under a row scan").constData())
                << defaults << false << ChunkSource::ChunkRows << AccessSource::RowScan << fromSummary;
            QTest::newRow(name("coverage under a row scan").constData())
                << limitsWith(defaults.accessDetailLimit, 0, defaults.perQueryCost) << false << ChunkSource::Coverage
                << AccessSource::RowScan << fromSummary;
            // The stack's few chunks cost less than the 170 rows of all transitions when a query is free.
            QTest::newRow(name("chunk rows under per-chunk queries").constData())
                << limitsWith(defaults.accessDetailLimit, defaults.chunkReadLimit, 0) << true << ChunkSource::ChunkRows
                << AccessSource::ChunkQueries << fromSummary;
        }
    }
    void everyPathDraws()
    {
        QFETCH(DetailLimits, limits);
        QFETCH(bool, stackOnly);
        QFETCH(ChunkSource, chunks);
        QFETCH(AccessSource, accesses);
        QFETCH(bool, fromSummary);
        const Fixture &f = fromSummary ? m_smallSummary : m_small;
        const PlaneViewport view = stackOnly ? f.regionOf(planeStackBase + 0x10) : f.whole();
        const QSize pixels(400, 300);
        const auto result = f.render(view, pixels, limits);
        QVERIFY(result);
        QCOMPARE(result->plan.chunks, chunks);
        QCOMPARE(result->plan.accesses, accesses);
        QCOMPARE(result->accessDetail, accesses != AccessSource::None);
        QCOMPARE(result->view, view);
        QCOMPARE(result->image.size(), pixels);

        // The chunk rows read: every chunk of the view (of the writes alone in the stack).
        const qint64 expectedChunks
            = stackOnly ? chunksOf(*m_small.overview, Operation::Write) : m_small.overview->summary.chunks;
        QCOMPARE(result->chunksRead, chunks == ChunkSource::ChunkRows ? expectedChunks : 0);

        // The accesses: exactly those of the stream in view, in rowid order.
        const std::vector<Access> expected = inWindows(f.stream, result->plan);
        QCOMPARE(expected.size(), std::size_t(stackOnly ? 20 : 170));
        if (accesses == AccessSource::None) {
            QVERIFY(result->accesses.empty());
            QCOMPARE(result->accessesRead, 0);
        } else {
            QCOMPARE(keysOf(result->accesses), keysOf(expected));
            QVERIFY(std::is_sorted(result->accesses.begin(), result->accesses.end(),
                [](const Access &a, const Access &b) { return a.rowId < b.rowId; }));
            // The scan reads every row of the 100 transitions; the per-chunk queries only the stack's.
            QCOMPARE(result->accessesRead, accesses == AccessSource::RowScan ? 170 : 20);
        }

        // The pixels: each access's bar in its colour, or the chunk under it; the folded gaps empty.
        const PixelMapping mapping(view, QSizeF(pixels));
        const AddressFold &fold = f.overview->fold;
        const int alpha = accesses == AccessSource::None ? chunkAlphaAlone : chunkAlphaBehindAccesses;
        for (const Access &access : expected) {
            const QRect bar = accessBarRect(access, mapping, fold);
            QVERIFY(QRect(QPoint(0, 0), pixels).contains(bar.center()));
            if (accesses != AccessSource::None) {
                QCOMPARE(result->image.pixel(bar.center()), colorOf(access.operation).rgb());
                if (access.operation == Operation::Read) {
                    // The next transition reads nothing: the read's chunk shows faintly behind.
                    const int x = int(mapping.xToPixel(double(access.transition.value) + 1.5));
                    QCOMPARE(result->image.pixel(x, bar.center().y()),
                        blended(colorOf(access.operation), alpha, testColors.background));
                }
            } else {
                QCOMPARE(result->image.pixel(bar.center()),
                    blended(colorOf(access.operation), alpha, testColors.background));
            }
        }
        if (!stackOnly) {
            for (const std::uint64_t region : { planeCodeBase, planeHeapBase }) {
                const int y = int(mapping.yToPixel(f.gapAbove(region)));
                for (const int x : { 1, 200, 399 }) // column 0 is the slice's edge
                    QCOMPARE(result->image.pixel(x, y), testColors.background.rgb());
            }
        }
    }

    void sliceBandsAlternate()
    {
        const Fixture &f = m_dense;
        const QSize pixels(400, 600);
        const auto result = f.render(f.whole(), pixels, noAccesses);
        QVERIFY(result);
        QCOMPARE(result->plan.chunks, ChunkSource::ChunkRows);
        const PixelMapping mapping(f.whole(), QSizeF(pixels));
        // In the folded gap between code and heap: no chunk, only the bands.
        const int y = int(mapping.yToPixel(f.gapAbove(planeCodeBase)));
        for (std::size_t i = 0; i < f.overview->slices.size(); ++i) {
            const auto [x0, x1] = sliceColumns(f.overview->slices[i], mapping, pixels.width());
            QVERIFY2(x1 - x0 >= minEdgedBandPixels, "each band is wide enough for its edge");
            QCOMPARE(result->image.pixel(x0, y), testColors.sliceEdge.rgb());
            const QColor band = i % 2 ? testColors.alternateBackground : testColors.background;
            QCOMPARE(result->image.pixel((x0 + x1) / 2, y), band.rgb());
        }
    }

    void rowScanAndChunkQueriesAgree_data()
    {
        QTest::addColumn<quint64>("region");
        QTest::addColumn<quint64>("firstTransition");
        QTest::addColumn<quint64>("lastTransition");
        QTest::newRow("the heap, every transition") << quint64(planeHeapBase) << quint64(0) << quint64(5999);
        QTest::newRow("the heap, transitions 1000 to 1999") << quint64(planeHeapBase) << quint64(1000) << quint64(1999);
        QTest::newRow("the code across two slices") << quint64(planeCodeBase) << quint64(3900) << quint64(4300);
    }
    void rowScanAndChunkQueriesAgree()
    {
        QFETCH(quint64, region);
        QFETCH(quint64, firstTransition);
        QFETCH(quint64, lastTransition);
        const Fixture &f = m_dense;
        PlaneViewport view = f.regionOf(region);
        view.left = double(firstTransition);
        view.right = double(lastTransition) + 1;
        const QSize pixels(500, 300);
        DetailLimits scan;
        scan.accessDetailLimit = 1e9;
        scan.accessCostBudget = 1e12;
        scan.perQueryCost = 1e9;
        DetailLimits perChunk = scan;
        perChunk.perQueryCost = 0;
        const auto scanned = f.render(view, pixels, scan);
        const auto queried = f.render(view, pixels, perChunk);
        QVERIFY(scanned && queried);
        QCOMPARE(scanned->plan.accesses, AccessSource::RowScan);
        QCOMPARE(queried->plan.accesses, AccessSource::ChunkQueries);
        QCOMPARE(scanned->plan.chunks, ChunkSource::ChunkRows);
        QCOMPARE(queried->plan.chunks, ChunkSource::ChunkRows);
        const std::vector<Access> expected = inWindows(f.stream, scanned->plan);
        QVERIFY(!expected.empty());
        QCOMPARE(keysOf(scanned->accesses), keysOf(expected));
        // Per chunk, accesses of a visible chunk outside the window come too (drawn off the image).
        QCOMPARE(keysOf(inWindows(QList<Access>(queried->accesses.begin(), queried->accesses.end()), queried->plan)),
            keysOf(expected));
        QCOMPARE(queried->image, scanned->image);
    }

    // --- Cancellation, pass by pass -----------------------------------------------------------------

    void readChunksStopsAtItsCheck()
    {
        const Fixture &f = m_dense;
        const DetailPlan plan = planDetail(*f.overview, f.whole(), 300, 0, noAccesses);
        QCOMPARE(plan.chunks, ChunkSource::ChunkRows);
        std::vector<ChunkRow> chunks;
        QVERIFY(readChunks(f.db->connection(), *f.overview, plan, never, &chunks));
        QCOMPARE(qint64(chunks.size()), f.overview->summary.chunks);
        chunks.clear();
        QVERIFY(!readChunks(f.db->connection(), *f.overview, plan, always, &chunks));
        QCOMPARE(chunks.size(), chunkRowsPerCancelCheck);
    }

    void rowScanStopsAtItsCheck()
    {
        const Fixture &f = m_dense;
        const DetailPlan plan = planDetail(*f.overview, f.whole(), 300, 0, defaults);
        const std::optional<RowWindow> rows = readRowWindow(f.db->connection(), plan.transitions);
        QVERIFY(rows);
        QCOMPARE(rows->count(), 14000.0);
        AccessRows read;
        QVERIFY(readAccessesInRows(f.db->connection(), *rows, plan, never, &read));
        QCOMPARE(read.rowsRead, 14000);
        QCOMPARE(read.accesses.size(), std::size_t(14000));
        AccessRows stopped;
        QVERIFY(!readAccessesInRows(f.db->connection(), *rows, plan, always, &stopped));
        QCOMPARE(stopped.rowsRead, scannedRowsPerCancelCheck);
    }

    void chunkQueriesStopAtTheirCheck()
    {
        const Fixture &f = m_dense;
        const DetailPlan plan = planDetail(*f.overview, f.whole(), 300, 0, defaults);
        std::vector<ChunkRow> chunks;
        QVERIFY(readChunks(f.db->connection(), *f.overview, plan, never, &chunks));
        AccessRows read;
        QVERIFY(readAccessesOfChunks(f.db->connection(), chunks, plan, never, &read));
        QCOMPARE(read.rowsRead, 14000); // every access is in exactly one chunk
        AccessRows stopped;
        QVERIFY(!readAccessesOfChunks(f.db->connection(), chunks, plan, always, &stopped));
        QCOMPARE(stopped.rowsRead, chunkAccessesPerCancelCheck);
        QCOMPARE(qint64(stopped.accesses.size()), chunkAccessesPerCancelCheck);
    }

    // The summary's blocks read on the render thread and visited on another arrive as the plain read
    // gives them: the same blocks with the same cells, in the same order (so the same raster), and
    // nothing after a cancel.
    void summaryBlocksAlongsideArriveAsRead()
    {
        // The finest address level: 32 blocks of 2048 cells, handed over in many batches.
        const int addressLevel = 16;
        const Fixture &f = m_mostlyReadSummary;
        summary::TileWindow window;
        window.addressLevel = addressLevel;
        window.lastTile = f.overview->summaryInfo->levels.tilesAt(0) - 1;
        window.lastBin = (1u << addressLevel) - 1;
        using Block = std::pair<std::int64_t, QList<std::uint32_t>>; // tile, its cells' bins and counts
        const auto recorder = [](QList<Block> *blocks) {
            return [blocks](const summary::TileKey &key, std::span<const summary::Cell> cells) {
                QList<std::uint32_t> values;
                for (const summary::Cell &cell : cells)
                    values << cell.bin << cell.accesses[0] << cell.accesses[1] << cell.accesses[2] << cell.chunks[1];
                blocks->append({ key.tile * 64 + key.addressLevel, values });
            };
        };
        QList<Block> plain;
        QString error;
        QVERIFY(readSummaryBlocks(f.db->connection(), *f.overview, window, never, recorder(&plain), &error));
        QList<Block> alongside;
        QVERIFY(
            readSummaryBlocksAlongside(f.db->connection(), *f.overview, window, never, recorder(&alongside), &error));
        QVERIFY(error.isEmpty());
        QCOMPARE(plain.size(), 32);
        qsizetype cells = 0;
        for (const Block &block : plain)
            cells += block.second.size() / 5;
        QCOMPARE(cells, 65536);
        QCOMPARE(alongside, plain);

        QList<Block> stopped;
        int checks = 0;
        QVERIFY(!readSummaryBlocksAlongside(
            f.db->connection(), *f.overview, window, [&checks] { return ++checks > 1; }, recorder(&stopped), &error));
        QVERIFY(error.isEmpty());
        QVERIFY(stopped.size() < plain.size());
    }

    void coverageStopsAtOnce()
    {
        const Fixture &f = m_dense;
        const QSize pixels(400, 300);
        const DetailPlan plan = planDetail(*f.overview, f.whole(), pixels.height(), 0, limitsWith(-1, 0, 20));
        QCOMPARE(plan.chunks, ChunkSource::Coverage);
        OperationRaster raster(pixels.width(), pixels.height());
        int checks = 0;
        const PixelMapping mapping(f.whole(), QSizeF(pixels));
        QVERIFY(!addCoverage(raster, *f.overview, plan, mapping, [&checks] { return ++checks > 0; }));
        QCOMPARE(checks, 1);
        checks = 0;
        QVERIFY(addCoverage(raster, *f.overview, plan, mapping, [&checks] { return ++checks < 0; }));
        QCOMPARE(checks, 3 * 4); // once per operation and slice
    }

    void cancelledRenderDeliversNothing_data()
    {
        QTest::addColumn<DetailLimits>("limits");
        QTest::newRow("chunk rows") << noAccesses;
        QTest::newRow("coverage") << limitsWith(-1, 0, defaults.perQueryCost);
        QTest::newRow("chunk rows and a row scan") << limitsWith(1e9, 1e9, 1e9);
    }
    void cancelledRenderDeliversNothing()
    {
        QFETCH(DetailLimits, limits);
        limits.accessCostBudget = 1e12;
        const Fixture &f = m_dense;
        QVERIFY(f.render(f.whole(), QSize(400, 300), limits, never));
        QVERIFY(!f.render(f.whole(), QSize(400, 300), limits, always));
    }

    void nothingToRender()
    {
        RenderRequest request;
        request.pixels = QSize(100, 100);
        QVERIFY(!renderPlane(request, m_small.db->connection(), never)); // no history
        request.overview = m_small.overview;
        request.pixels = QSize(0, 100);
        QVERIFY(!renderPlane(request, m_small.db->connection(), never)); // no pixels
    }

    // --- Both operations visible zoomed out, and a gradual switch to accesses (issue 13, 4e) ---------

    void operationWeightsDither_data()
    {
        QTest::addColumn<float>("executes");
        QTest::addColumn<float>("reads");
        QTest::addColumn<float>("writes");
        QTest::addColumn<int>("readPixels"); // of a 4x4 block
        QTest::addColumn<int>("writePixels");
        QTest::newRow("reads alone") << 0.0f << 5.0f << 0.0f << 16 << 0;
        QTest::newRow("writes alone, however few") << 0.0f << 0.0f << 0.001f << 0 << 16;
        QTest::newRow("70 % reads") << 0.0f << 7.0f << 3.0f << 11 << 5;
        QTest::newRow("half and half") << 0.0f << 1.0f << 1.0f << 8 << 8;
        QTest::newRow("a quarter each, half executes") << 2.0f << 1.0f << 1.0f << 4 << 4;
        QTest::newRow("nothing") << 0.0f << 0.0f << 0.0f << 0 << 0;
    }
    void operationWeightsDither()
    {
        QFETCH(float, executes);
        QFETCH(float, reads);
        QFETCH(float, writes);
        int counts[3] = {};
        int none = 0;
        for (int y = 0; y < 4; ++y) {
            for (int x = 0; x < 4; ++x) {
                const int op = OperationRaster::ditheredOperation({ executes, reads, writes }, x + 8, y + 4);
                if (op < 0)
                    ++none;
                else
                    ++counts[op];
            }
        }
        QTEST(counts[operationIndex(Operation::Read)], "readPixels");
        QTEST(counts[operationIndex(Operation::Write)], "writePixels");
        QCOMPARE(counts[0] + counts[1] + counts[2] + none, 16);
        QCOMPARE(none, executes + reads + writes > 0 ? 0 : 16);
    }

    void mostlyReadHistoryLooksMostlyRead_data()
    {
        QTest::addColumn<bool>("fromSummary");
        QTest::addColumn<DetailLimits>("limits");
        QTest::addColumn<ChunkSource>("chunks");
        QTest::addColumn<int>("readPixels");
        QTest::addColumn<int>("writePixels");
        QTest::addColumn<double>("minimumReadShare");
        // 400 x 300 pixels, all of them the region's. The display summary counts each operation's
        // accesses per bin; chunk rows are weighed by their operation's accesses per chunk; the
        // scanned coverage knows only how many chunks of each operation reach a bin (a write chunk
        // spans more bytes than a read chunk of this history), so its share is the lowest.
        QTest::newRow("chunk rows") << false << noAccesses << ChunkSource::ChunkRows << 83500 << 36500 << 0.65;
        QTest::newRow("scanned coverage")
            << false << limitsWith(-1, 0, defaults.perQueryCost) << ChunkSource::Coverage << 67500 << 52500 << 0.55;
        QTest::newRow("display summary") << true << limitsWith(-1, 0, defaults.perQueryCost) << ChunkSource::Coverage
                                         << 83900 << 36100 << 0.65;
    }
    void mostlyReadHistoryLooksMostlyRead()
    {
        // Reads and writes share every byte, so every chunk pixel holds both: painted one
        // operation after another, every one of them was the write colour.
        QFETCH(bool, fromSummary);
        QFETCH(DetailLimits, limits);
        const Fixture &f = fromSummary ? m_mostlyReadSummary : m_mostlyRead;
        const auto result = f.render(f.whole(), QSize(400, 300), limits);
        QVERIFY(result);
        QTEST(result->plan.chunks, "chunks");
        QCOMPARE(result->plan.accesses, AccessSource::None);
        const int reads = pixelsOf(result->image, Operation::Read, chunkAlphaAlone);
        const int writes = pixelsOf(result->image, Operation::Write, chunkAlphaAlone);
        QTEST(reads, "readPixels");
        QTEST(writes, "writePixels");
        QCOMPARE(reads + writes, 400 * 300); // every pixel in one of the two colours
        // 70 % of the accesses are reads: at least this share of the pixels is read-coloured.
        QFETCH(double, minimumReadShare);
        QVERIFY(reads >= minimumReadShare * (reads + writes));
    }

    void accessFadeIsGradual_data()
    {
        QTest::addColumn<double>("estimated");
        QTest::addColumn<double>("fade");
        QTest::addColumn<int>("chunks");
        QTest::addColumn<int>("accesses");
        QTest::addColumn<bool>("standOut"); // what the legend calls "accesses as size bars"
        QTest::newRow("none") << 0.0 << 0.0 << chunkAlphaBehindAccesses << 255 << true;
        QTest::newRow("a quarter of the limit") << 250.0 << 0.0 << chunkAlphaBehindAccesses << 255 << true;
        QTest::newRow("a quarter into the fade") << 437.5 << 0.15625 << 55 << 245 << true;
        QTest::newRow("halfway into the fade") << 625.0 << 0.5 << 110 << 223 << false;
        QTest::newRow("at the limit") << 1000.0 << 1.0 << chunkAlphaAlone << chunkAlphaAlone << false;
    }
    void accessFadeIsGradual()
    {
        QFETCH(double, estimated);
        QTEST(accessFade(estimated, 1000), "fade");
        DetailPlan plan;
        plan.accesses = AccessSource::RowScan;
        plan.estimatedAccesses = estimated;
        QTEST(chunkAlpha(plan, 1000), "chunks");
        QTEST(accessAlpha(plan, 1000), "accesses");
        QTEST(accessesStandOut(plan, 1000), "standOut");
        plan.accesses = AccessSource::None;
        QCOMPARE(chunkAlpha(plan, 1000), chunkAlphaAlone);
        QVERIFY(!accessesStandOut(plan, 1000));
    }

    void noAbruptChangeAtTheAccessLimit()
    {
        // The same view drawn just below the access limit (accesses over the chunks) and just above
        // it (chunks alone) differ in few pixels; without the fade (accesses opaque over faint
        // chunks, as before) in many.
        const Fixture &f = m_mostlyRead;
        const QSize pixels(400, 300);
        const auto probe = f.render(f.whole(), pixels, defaults);
        QVERIFY(probe);
        const double estimated = probe->plan.estimatedAccesses;
        QVERIFY(estimated > 0);
        const auto below = f.render(f.whole(), pixels, limitsWith(estimated * 1.001, 0, defaults.perQueryCost));
        const auto above = f.render(f.whole(), pixels, limitsWith(estimated * 0.999, 0, defaults.perQueryCost));
        const auto unfaded = f.render(f.whole(), pixels, limitsWith(estimated * 1e6, 0, defaults.perQueryCost));
        QVERIFY(below && above && unfaded);
        QVERIFY(below->accessDetail);
        QVERIFY(!above->accessDetail);
        QVERIFY(unfaded->accessDetail);
        // Just below the limit the accesses are blended into the chunks: not "size bars".
        QVERIFY(!below->accessesStandOut);
        QVERIFY(!above->accessesStandOut);
        QVERIFY(unfaded->accessesStandOut);
        const int changed = differingPixels(below->image, above->image, 48);
        const int changedUnfaded = differingPixels(unfaded->image, above->image, 48);
        QCOMPARE(estimated, 4000.0);
        QCOMPARE(changed, 6473); // 5.4 % of the 120,000 pixels
        QCOMPARE(changedUnfaded, 119988); // all but 12
        QVERIFY(changed * 10 < changedUnfaded);
    }

    void accessBars_data()
    {
        QTest::addColumn<double>("pixelsPerTransition");
        QTest::addColumn<quint64>("address");
        QTest::addColumn<quint32>("size");
        QTest::addColumn<QRect>("bar");
        // 100 bytes at 0x1000.. over 100 pixels: a pixel per byte; the bar of transition 2.
        QTest::newRow("4 px per transition: a one-pixel gap") << 4.0 << quint64(0x1010) << 8u << QRect(8, 76, 3, 8);
        QTest::newRow("2 px per transition: no gap") << 2.0 << quint64(0x1010) << 8u << QRect(4, 76, 2, 8);
        QTest::newRow("a fraction of a pixel: one pixel wide") << 0.25 << quint64(0x1010) << 8u << QRect(0, 76, 1, 8);
        QTest::newRow("size 0 draws as one byte") << 4.0 << quint64(0x1010) << 0u << QRect(8, 83, 3, 1);
    }
    void accessBars()
    {
        QFETCH(double, pixelsPerTransition);
        QFETCH(quint64, address);
        QFETCH(quint32, size);
        const AddressFold fold(std::vector<AddressInterval> { { 0x1000, 0x1063 } });
        QCOMPARE(fold.displayLength(), 100.0);
        const PixelMapping mapping({ 0, 100 / pixelsPerTransition, 0, 100 }, QSizeF(100, 100));
        Access access = userAccess(2, Operation::Read, address, size);
        QTEST(accessBarRect(access, mapping, fold), "bar");
    }
};

QTEST_MAIN(TestPlaneRenderer)
#include "tst_planerenderer.moc"
