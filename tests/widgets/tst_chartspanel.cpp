// ChartsPanel and its data: the bucketing and region arithmetic exactly, the computation against
// a brute-force count of the bundled example, sampling, coalescing of quick range changes.
#include "charts/chartdata.h"
#include "charts/chartspanel.h"
#include "storage/historydatabase.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QElapsedTimer>
#include <QFile>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;

namespace {

constexpr std::uint64_t lastAddress = ~std::uint64_t(0);

struct CsvAccess
{
    std::uint64_t transition;
    char operation;
    std::uint64_t address;
    std::uint64_t size;
};

QList<CsvAccess> readExampleCsv()
{
    QList<CsvAccess> accesses;
    QFile file(QStringLiteral(MEMHIST_TEST_DATA_DIR "/../../resources/examples/true.csv"));
    if (!file.open(QIODevice::ReadOnly))
        return accesses;
    file.readLine(); // header
    while (!file.atEnd()) {
        const QList<QByteArray> fields = file.readLine().trimmed().split(',');
        if (fields.size() != 6)
            continue;
        accesses.append({ fields[1].toULongLong(), fields[2].at(0), fields[3].mid(2).toULongLong(nullptr, 16),
            fields[5].toULongLong() });
    }
    return accesses;
}

// The charts of `range` counted the obvious way over every access of the CSV.
struct BruteForce
{
    QList<double> reads;
    QList<double> writes;
    QHash<std::uint64_t, double> regions;
};

BruteForce bruteForce(const QList<CsvAccess> &accesses, const TransitionBuckets &buckets, const ViewRange &range,
    std::uint64_t regionSize)
{
    BruteForce result;
    result.reads.fill(0, buckets.count);
    result.writes.fill(0, buckets.count);
    for (const CsvAccess &a : accesses) {
        if (a.transition < buckets.first.value || a.transition > buckets.last.value)
            continue;
        if (a.address > range.lastAddress.value || a.address + a.size - 1 < range.firstAddress.value)
            continue;
        const int bucket = int((a.transition - buckets.first.value) / buckets.width);
        (a.operation == 'R' ? result.reads : result.writes)[bucket] += 1;
        result.regions[std::max(a.address, range.firstAddress.value) / regionSize] += 1;
    }
    return result;
}

double sum(const QList<double> &values)
{
    return std::accumulate(values.cbegin(), values.cend(), 0.0);
}

} // namespace

class TestChartsPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void transitionBuckets_data();
    void transitionBuckets();
    void bucketEdges();
    void regionSize_data();
    void regionSize();
    void busiestRegionsOrder();

    void exactCountsMatchBruteForce_data();
    void exactCountsMatchBruteForce();
    void sampledEstimateKeepsBucketTotals();
    void panelShowsTheWholeHistory();
    void quickRangeChangesAreCoalesced();
    void largeHistoryWithinOneSecond();

private:
    QTemporaryDir m_dir;
    QString m_example;
    QList<CsvAccess> m_csv;
};

void TestChartsPanel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_example = m_dir.filePath(QStringLiteral("true.memhist"));
    QProcess import;
    import.start(QStringLiteral(MEMHIST_CLI_PATH),
        { QStringLiteral("import"), QStringLiteral(MEMHIST_TEST_DATA_DIR "/../../resources/examples/true.csv"),
            QStringLiteral("-o"), m_example });
    QVERIFY(import.waitForFinished(60000));
    QCOMPARE(import.exitCode(), 0);
    m_csv = readExampleCsv();
    QCOMPARE(m_csv.size(), 41797);
}

void TestChartsPanel::transitionBuckets_data()
{
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("last");
    QTest::addColumn<int>("maxBuckets");
    QTest::addColumn<quint64>("width");
    QTest::addColumn<int>("count");

    QTest::newRow("1000 transitions in 500: width 2") << quint64(0) << quint64(999) << 500 << quint64(2) << 500;
    QTest::newRow("1001 transitions in 500: width 3, 334 buckets")
        << quint64(0) << quint64(1000) << 500 << quint64(3) << 334;
    QTest::newRow("500 transitions: one each") << quint64(0) << quint64(499) << 500 << quint64(1) << 500;
    QTest::newRow("501 transitions: width 2, 251 buckets") << quint64(0) << quint64(500) << 500 << quint64(2) << 251;
    QTest::newRow("a single transition") << quint64(10) << quint64(10) << 500 << quint64(1) << 1;
    QTest::newRow("the bundled example, 1..131062") << quint64(1) << quint64(131062) << 500 << quint64(263) << 499;
    QTest::newRow("the full 64-bit range, no overflow")
        << quint64(0) << quint64(lastAddress) << 500 << quint64(36893488147419104ull) << 500;
    QTest::newRow("max buckets 0 counts as 1") << quint64(5) << quint64(14) << 0 << quint64(10) << 1;
}

void TestChartsPanel::transitionBuckets()
{
    QFETCH(quint64, first);
    QFETCH(quint64, last);
    QFETCH(int, maxBuckets);
    QFETCH(quint64, width);
    QFETCH(int, count);

    const TransitionBuckets buckets = makeTransitionBuckets(Transition { first }, Transition { last }, maxBuckets);
    QCOMPARE(buckets.width, width);
    QCOMPARE(buckets.count, count);
    QCOMPARE(buckets.bucketFirst(0), Transition { first });
    QCOMPARE(buckets.bucketLast(count - 1), Transition { last });
    QCOMPARE(buckets.bucketOf(Transition { last }), count - 1);
}

void TestChartsPanel::bucketEdges()
{
    const TransitionBuckets buckets = makeTransitionBuckets(Transition { 100 }, Transition { 1100 }, 500);
    // 1001 transitions: 333 buckets of 3 and a last bucket holding only 1099..1100.
    QCOMPARE(buckets.bucketOf(Transition { 100 }), 0);
    QCOMPARE(buckets.bucketOf(Transition { 102 }), 0);
    QCOMPARE(buckets.bucketOf(Transition { 103 }), 1);
    QCOMPARE(buckets.bucketLast(0), Transition { 102 });
    QCOMPARE(buckets.bucketFirst(333), Transition { 1099 });
    QCOMPARE(buckets.bucketLast(333), Transition { 1100 });
    QCOMPARE(buckets.bucketLast(332), Transition { 1098 });
}

void TestChartsPanel::regionSize_data()
{
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("last");
    QTest::addColumn<quint64>("size");

    QTest::newRow("every address: 4 KiB pages") << quint64(0) << quint64(lastAddress) << quint64(4096);
    QTest::newRow("1 MiB: still pages") << quint64(0) << quint64(0xfffff) << quint64(4096);
    QTest::newRow("100000 bytes: 2 KiB") << quint64(0) << quint64(100000) << quint64(2048);
    QTest::newRow("one page: 64 regions of 64 bytes") << quint64(0x1000) << quint64(0x1fff) << quint64(64);
    QTest::newRow("one byte: at least 16") << quint64(7) << quint64(7) << quint64(16);
}

void TestChartsPanel::regionSize()
{
    QFETCH(quint64, first);
    QFETCH(quint64, last);
    QFETCH(quint64, size);
    QCOMPARE(regionSizeFor(Address { first }, Address { last }), size);
}

void TestChartsPanel::busiestRegionsOrder()
{
    const QHash<std::uint64_t, double> counts { { 5, 10 }, { 1, 10 }, { 9, 3 }, { 2, 0 }, { 7, 12 } };
    const QList<RegionCount> top = busiestRegions(counts, 4096, 3);
    const QList<RegionCount> expected {
        { Address { 0x7000 }, Address { 0x7fff }, 12 },
        { Address { 0x1000 }, Address { 0x1fff }, 10 }, // a tie goes to the lower address
        { Address { 0x5000 }, Address { 0x5fff }, 10 },
    };
    QCOMPARE(top, expected);
    QCOMPARE(busiestRegions(counts, 4096, 10).size(), 4); // regions without accesses are never listed
    QVERIFY(busiestRegions({}, 4096, 10).isEmpty());
}

void TestChartsPanel::exactCountsMatchBruteForce_data()
{
    QTest::addColumn<ViewRange>("range");
    QTest::addColumn<bool>("wholeHistory");

    QTest::newRow("whole history") << ViewRange {} << true;
    QTest::newRow("transitions 50000..60000, every address")
        << ViewRange { Transition { 50000 }, Transition { 60000 }, Address { 0 }, Address { lastAddress } } << false;
    QTest::newRow("a stack page, whole time")
        << ViewRange { Transition { 0 }, Transition { 131062 }, Address { 0x1fff000000 }, Address { 0x1fff000fff } }
        << false;
    QTest::newRow("past the end of the history")
        << ViewRange { Transition { 200000 }, Transition { 300000 }, Address { 0 }, Address { lastAddress } } << false;
}

void TestChartsPanel::exactCountsMatchBruteForce()
{
    QFETCH(ViewRange, range);
    QFETCH(bool, wholeHistory);

    QString error;
    const auto database = HistoryDatabase::open(m_example, &error);
    QVERIFY2(database, qPrintable(error));
    ChartData data;
    QVERIFY2(computeChartData(*database, range, wholeHistory, ChartOptions {}, &data, &error), qPrintable(error));
    QVERIFY(!data.estimated);
    if (wholeHistory) {
        QCOMPARE(data.range.firstTransition, Transition { 1 });
        QCOMPARE(data.range.lastTransition, Transition { 131062 });
        QCOMPARE(data.buckets.count, 499);
        QCOMPARE(data.accessesInRange, 41797);
        QCOMPARE(sum(data.reads), 30027.0);
        QCOMPARE(sum(data.writes), 11770.0);
    }
    QCOMPARE(data.rowsRead, data.accessesInRange);

    const BruteForce expected = bruteForce(m_csv, data.buckets, data.range, data.regionSize);
    QCOMPARE(data.reads, expected.reads);
    QCOMPARE(data.writes, expected.writes);
    QCOMPARE(data.regions, busiestRegions(expected.regions, data.regionSize, 10));
    QCOMPARE(data.regions.size(), std::min<qsizetype>(10, expected.regions.size()));
}

void TestChartsPanel::sampledEstimateKeepsBucketTotals()
{
    QString error;
    const auto database = HistoryDatabase::open(m_example, &error);
    QVERIFY(database);
    ChartOptions options;
    options.exactRowLimit = 1000; // force sampling on 41,797 accesses
    options.samplesPerBucket = 32;
    options.sampleRun = 8;
    ChartData data;
    QVERIFY(computeChartData(*database, ViewRange {}, true, options, &data, &error));
    QVERIFY(data.estimated);
    QVERIFY(data.rowsRead < data.accessesInRange / 2);
    // Every access of the example is a read or a write and the window is everything: each bucket's
    // estimate adds up to its exact size from the time index.
    QCOMPARE(qRound64(sum(data.reads) + sum(data.writes)), 41797);
    QVERIFY2(std::abs(sum(data.reads) - 30027) < 30027 * 0.05, qPrintable(QString::number(sum(data.reads))));
    QCOMPARE(data.regions.size(), 10);
}

void TestChartsPanel::panelShowsTheWholeHistory()
{
    ChartsPanel panel;
    QSignalSpy updatedSpy(&panel, &ChartsPanel::chartsUpdated);
    QSignalSpy failedSpy(&panel, &ChartsPanel::computeFailed);
    panel.setHistory(m_example);
    QVERIFY(updatedSpy.wait());
    QCOMPARE(updatedSpy.size(), 1);
    QCOMPARE(failedSpy.size(), 0);

    const ChartData &data = panel.chartData();
    QCOMPARE(data.buckets.count, 499);
    auto *timeView = panel.findChild<QChartView *>(QStringLiteral("timeChartView"));
    const auto series = timeView->chart()->series();
    QCOMPARE(series.size(), 2);
    auto *reads = qobject_cast<QLineSeries *>(series.at(0));
    auto *writes = qobject_cast<QLineSeries *>(series.at(1));
    QCOMPARE(reads->count(), 499);
    QCOMPARE(writes->count(), 499);
    QCOMPARE(reads->at(1), QPointF(1 + 263, data.reads.at(1)));

    auto *regionView = panel.findChild<QChartView *>(QStringLiteral("regionChartView"));
    auto *bars = qobject_cast<QHorizontalBarSeries *>(regionView->chart()->series().at(0));
    QCOMPARE(bars->count(), 1);
    QCOMPARE(bars->barSets().at(0)->count(), 10);
    // The busiest region is drawn last (at the top).
    QCOMPARE(bars->barSets().at(0)->at(9), data.regions.at(0).accesses);
    auto *categories = qobject_cast<QBarCategoryAxis *>(regionView->chart()->axes(Qt::Vertical).at(0));
    QCOMPARE(categories->count(), 10);
    QCOMPARE(categories->at(9), QStringLiteral("0x") + QString::number(data.regions.at(0).first.value, 16));
}

void TestChartsPanel::quickRangeChangesAreCoalesced()
{
    ChartsPanel panel;
    QSignalSpy updatedSpy(&panel, &ChartsPanel::chartsUpdated);
    panel.setHistory(m_example);
    QVERIFY(updatedSpy.wait());
    QCOMPARE(updatedSpy.size(), 1);

    ViewRange range { Transition { 0 }, Transition { 131062 }, Address { 0 }, Address { lastAddress } };
    for (int i = 0; i < 10; ++i) { // a zoom gesture: ten ranges within a few milliseconds
        range.firstTransition = Transition { std::uint64_t(i) * 5000 };
        panel.setVisibleRange(range);
    }
    QVERIFY(updatedSpy.wait());
    QTest::qWait(300); // nothing else may arrive
    QCOMPARE(updatedSpy.size(), 2);
    QCOMPARE(panel.chartData().range, range);
    QCOMPARE(panel.chartData().buckets.first, Transition { 45000 });
}

void TestChartsPanel::largeHistoryWithinOneSecond()
{
    // A 10^7-access history is too large to generate in a unit test; point this at one made by
    // `memhist-bench --accesses 10000000 --keep --dir DIR` (DIR/bench.memhist).
    const QString path = qEnvironmentVariable("MEMHIST_LARGE_HISTORY");
    if (path.isEmpty())
        QSKIP("set MEMHIST_LARGE_HISTORY to a large .memhist file");
    ChartsPanel panel;
    QSignalSpy updatedSpy(&panel, &ChartsPanel::chartsUpdated);
    QElapsedTimer timer;
    timer.start();
    panel.setHistory(path);
    QVERIFY(updatedSpy.wait(10000));
    const qint64 wall = timer.elapsed();
    const ChartData &data = panel.chartData();
    qInfo("whole history: %lld accesses, %lld rows read, computed in %lld ms, shown after %lld ms",
        qlonglong(data.accessesInRange), qlonglong(data.rowsRead), qlonglong(panel.lastComputeMilliseconds()),
        qlonglong(wall));
    QVERIFY(data.estimated);
    QCOMPARE(qRound64(sum(data.reads) + sum(data.writes)) > 0, true);
    QVERIFY2(wall < 1000, qPrintable(QString::number(wall)));
}

QTEST_MAIN(TestChartsPanel)
#include "tst_chartspanel.moc"
