// SPDX-License-Identifier: MIT
// ChartsPanel and its data: the bucketing and region arithmetic exactly, the computation against
// a brute-force count of the bundled example, sampling, coalescing of quick range changes.
#include "core/charts/chartdata.h"
#include "core/storage/historydatabase.h"
#include "widgets/charts/chartspanel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QFile>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QLocale>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QValueAxis>
#include <cmath>

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
    QFile file(QFINDTESTDATA("../../resources/examples/true.csv"));
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
    void largeHistoryReadsABoundedSample();

    void timeAxisTicksAreSafe_data();
    void timeAxisTicksAreSafe();
    void degenerateRangesAreShown_data();
    void degenerateRangesAreShown();
    void shortPanelKeepsItsLabels_data();
    void shortPanelKeepsItsLabels();
    void footerWritesNumbersAsTheViewerDoes();

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
        { QStringLiteral("import"), QFINDTESTDATA("../../resources/examples/true.csv"), QStringLiteral("-o"),
            m_example });
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
    // Nothing else may arrive: the panel is idle, with no computation running and none waiting for
    // its coalescing timer (its one direct QTimer child), so no further update can come.
    const QList<QTimer *> timers = panel.findChildren<QTimer *>(Qt::FindDirectChildrenOnly);
    QCOMPARE(timers.size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!panel.isComputing() && !timers.constFirst()->isActive(), 30000);
    QCOMPARE(updatedSpy.size(), 2);
    QCOMPARE(panel.chartData().range, range);
    QCOMPARE(panel.chartData().buckets.first, Transition { 45000 });
}

void TestChartsPanel::largeHistoryReadsABoundedSample()
{
    // A 10^7-access history is too large to generate in a unit test; point this at one made by
    // `memhist-bench --accesses 10000000 --keep --dir DIR` (DIR/bench.memhist).
    const QString path = qEnvironmentVariable("MEMHIST_LARGE_HISTORY");
    if (path.isEmpty())
        QSKIP("set MEMHIST_LARGE_HISTORY to a large .memhist file");
    ChartsPanel panel;
    QSignalSpy updatedSpy(&panel, &ChartsPanel::chartsUpdated);
    panel.setHistory(path);
    QVERIFY(updatedSpy.wait(60000));
    const ChartData &data = panel.chartData();
    qInfo("whole history: %lld accesses, %lld rows read", qlonglong(data.accessesInRange), qlonglong(data.rowsRead));
    // What keeps the whole history quick to chart, whatever its size: above the exact limit, every
    // bucket is estimated from at most samplesPerBucket rows.
    const ChartOptions options;
    QVERIFY(data.accessesInRange > options.exactRowLimit);
    QVERIFY(data.estimated);
    QCOMPARE(qRound64(sum(data.reads) + sum(data.writes)) > 0, true);
    QVERIFY2(data.rowsRead <= qint64(data.buckets.count) * options.samplesPerBucket,
        qPrintable(QString::number(data.rowsRead)));
}

// The ticks Qt Charts would lay out for a dynamic axis (the same walk from the anchor as its
// ChartValueAxisX), stopping at `cap` where Qt would not stop at all.
int dynamicTickCount(double min, double max, double interval, double anchor, int cap)
{
    const double first = anchor - std::floor((anchor - min) / interval) * interval;
    int count = 0;
    for (double value = first; value <= max && count < cap; value += interval) {
        ++count;
        if (value + interval == value)
            return cap; // stuck: Qt would loop forever here
    }
    return count;
}

void TestChartsPanel::timeAxisTicksAreSafe_data()
{
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("last");
    QTest::addColumn<int>("maxTicks");
    QTest::addColumn<double>("interval"); // 0: any

    const quint64 p53 = quint64(1) << 53;
    const quint64 p62 = quint64(1) << 62;
    QTest::newRow("the bundled example in 8 ticks") << quint64(1) << quint64(131062) << 8 << 20000.0;
    QTest::newRow("one transition") << quint64(10) << quint64(10) << 8 << 1.0;
    QTest::newRow("transition 0 alone") << quint64(0) << quint64(0) << 8 << 1.0;
    QTest::newRow("two transitions") << quint64(10) << quint64(11) << 8 << 1.0;
    QTest::newRow("reversed") << quint64(131062) << quint64(1) << 8 << 20000.0;
    QTest::newRow("one transition at 2^53 + 1 (not a double)") << p53 + 1 << p53 + 1 << 8 << 0.0;
    QTest::newRow("one transition at 2^62") << p62 << p62 << 8 << 0.0;
    QTest::newRow("100 transitions at 2^62: narrower than a double's step x 64") << p62 << p62 + 100 << 8 << 0.0;
    QTest::newRow("the last transition") << quint64(lastAddress) << quint64(lastAddress) << 8 << 0.0;
    QTest::newRow("the full 64-bit range") << quint64(0) << quint64(lastAddress) << 8 << 5e18;
    QTest::newRow("max ticks 0 counts as 2") << quint64(0) << quint64(1000) << 0 << 1000.0;
    QTest::newRow("max ticks 1000 counts as 50") << quint64(0) << quint64(1000) << 1000 << 50.0;
}

void TestChartsPanel::timeAxisTicksAreSafe()
{
    QFETCH(quint64, first);
    QFETCH(quint64, last);
    QFETCH(int, maxTicks);
    QFETCH(double, interval);

    const TimeAxisTicks axis = timeAxisTicks(Transition { first }, Transition { last }, maxTicks);
    QVERIFY(std::isfinite(axis.min) && std::isfinite(axis.max) && std::isfinite(axis.interval));
    QVERIFY2(axis.min < axis.max, qPrintable(QStringLiteral("%1 %2").arg(axis.min).arg(axis.max)));
    QVERIFY(axis.interval >= 1);
    QCOMPARE(axis.min, double(std::min(first, last)));
    QVERIFY(axis.max >= double(std::max(first, last)));
    if (interval > 0)
        QCOMPARE(axis.interval, interval);
    // Qt's walk ends, with no more than the ticks asked for (one more where rounding puts the
    // first tick a hair below min), and at least one.
    const int allowed = std::clamp(maxTicks, 2, 50);
    for (const double anchor : { 0.0, axis.min, axis.max }) {
        const int ticks = dynamicTickCount(axis.min, axis.max, axis.interval, anchor, 1'000'000);
        QVERIFY2(ticks >= 1 && ticks <= allowed + 1, qPrintable(QString::number(ticks)));
    }
}

void TestChartsPanel::degenerateRangesAreShown_data()
{
    QTest::addColumn<QString>("csv"); // empty: the bundled example
    QTest::addColumn<ViewRange>("range");
    QTest::addColumn<bool>("wholeHistory");
    QTest::addColumn<qint64>("accesses");

    const QString header = QStringLiteral("rowid,transition,operation,address,linear,size\n");
    const ViewRange everything { Transition { 0 }, Transition { lastAddress }, Address { 0 }, Address { lastAddress } };
    QTest::newRow("a visible range of one transition")
        << QString() << ViewRange { Transition { 5000 }, Transition { 5000 }, Address { 0 }, Address { lastAddress } }
        << false << qint64(1);
    QTest::newRow("an empty range past the end")
        << QString()
        << ViewRange { Transition { 200000 }, Transition { 200000 }, Address { 0 }, Address { lastAddress } } << false
        << qint64(0);
    QTest::newRow("the last 64-bit transition")
        << QString()
        << ViewRange { Transition { lastAddress }, Transition { lastAddress }, Address { 0 }, Address { lastAddress } }
        << false << qint64(0);
    QTest::newRow("an empty address window")
        << QString() << ViewRange { Transition { 1 }, Transition { 131062 }, Address { 16 }, Address { 16 } } << false
        << qint64(41797);
    QTest::newRow("a history with one access")
        << header + QStringLiteral("1,7,R,0x1000,0x1000,8\n") << everything << true << qint64(1);
    QTest::newRow("a history with one access at transition 2^62")
        << header + QStringLiteral("1,4611686018427387904,W,0x1000,0x1000,8\n") << everything << true << qint64(1);
}

void TestChartsPanel::degenerateRangesAreShown()
{
    QFETCH(QString, csv);
    QFETCH(ViewRange, range);
    QFETCH(bool, wholeHistory);
    QFETCH(qint64, accesses);

    QString path = m_example;
    if (!csv.isEmpty()) {
        const QString csvPath = m_dir.filePath(
            QStringLiteral("%1.csv").arg(QString::fromUtf8(QTest::currentDataTag()).replace(u' ', u'-')));
        QFile file(csvPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(csv.toUtf8());
        file.close();
        path = m_dir.filePath(
            QStringLiteral("%1.memhist").arg(QString::fromUtf8(QTest::currentDataTag()).replace(u' ', u'-')));
        QFile::remove(path);
        QProcess import;
        import.start(
            QStringLiteral(MEMHIST_CLI_PATH), { QStringLiteral("import"), csvPath, QStringLiteral("-o"), path });
        QVERIFY(import.waitForFinished(60000));
        QCOMPARE(import.exitCode(), 0);
    }

    ChartsPanel panel;
    panel.resize(900, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy updatedSpy(&panel, &ChartsPanel::chartsUpdated);
    QSignalSpy failedSpy(&panel, &ChartsPanel::computeFailed);
    panel.setHistory(path);
    QVERIFY(updatedSpy.wait());
    if (!wholeHistory) {
        panel.setVisibleRange(range);
        QVERIFY(updatedSpy.wait());
    }
    QCOMPARE(failedSpy.size(), 0);
    QCOMPARE(panel.chartData().accessesInRange, accesses);
    // Lay the charts out and paint them, narrow and wide: where Qt Charts would hang.
    for (const QSize size : { QSize(900, 500), QSize(300, 200), QSize(1600, 300) }) {
        panel.resize(size);
        QTest::qWait(20);
        QVERIFY(!panel.grab().isNull());
    }
    auto *timeAxis = qobject_cast<QValueAxis *>(
        panel.findChild<QChartView *>(QStringLiteral("timeChartView"))->chart()->axes(Qt::Horizontal).at(0));
    QVERIFY(timeAxis->min() < timeAxis->max());
    QVERIFY(timeAxis->tickType() == QValueAxis::TicksDynamic);
    QVERIFY(timeAxis->min() + timeAxis->tickInterval() > timeAxis->min());
    QVERIFY((timeAxis->max() - timeAxis->min()) / timeAxis->tickInterval() <= 50);
}

void TestChartsPanel::shortPanelKeepsItsLabels_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("sideBySide");
    QTest::addColumn<bool>("axisTitles");

    QTest::newRow("tall: stacked, with titles") << QSize(1000, 700) << false << true;
    QTest::newRow("wide and short: side by side") << QSize(1280, 320) << true << true;
    QTest::newRow("narrow and short: stacked, compact") << QSize(600, 320) << false << false;
}

void TestChartsPanel::shortPanelKeepsItsLabels()
{
    QFETCH(QSize, size);
    QFETCH(bool, sideBySide);
    QFETCH(bool, axisTitles);

    ChartsPanel panel;
    panel.resize(size);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy updatedSpy(&panel, &ChartsPanel::chartsUpdated);
    panel.setHistory(m_example);
    QVERIFY(updatedSpy.wait());
    // The layouts (the panel's, then each chart's in its scene) settle in posted events after the
    // data: each check waits for that, failing only if the layout never gets there.
    auto *timeView = panel.findChild<QChartView *>(QStringLiteral("timeChartView"));
    auto *regionView = panel.findChild<QChartView *>(QStringLiteral("regionChartView"));
    QTRY_COMPARE(regionView->geometry().left() > timeView->geometry().right(), sideBySide);
    auto *timeAxis = qobject_cast<QValueAxis *>(timeView->chart()->axes(Qt::Horizontal).at(0));
    QTRY_COMPARE(timeAxis->isTitleVisible(), axisTitles);
    // Every transition label fits the width its tick leaves it: no "…".
    const auto ticks = [timeAxis] { return int((timeAxis->max() - timeAxis->min()) / timeAxis->tickInterval()) + 1; };
    const QFontMetrics metrics(timeAxis->labelsFont());
    QTRY_VERIFY2(ticks() * metrics.horizontalAdvance(QStringLiteral("131062")) < timeView->chart()->plotArea().width(),
        qPrintable(QStringLiteral("%1 ticks in %2 px").arg(ticks()).arg(timeView->chart()->plotArea().width())));
    // The plot keeps a usable height between the title, the legend and the labels.
    QTRY_VERIFY2(timeView->chart()->plotArea().height() >= 60,
        qPrintable(QString::number(timeView->chart()->plotArea().height())));
    const QString shots = qEnvironmentVariable("MEMHIST_CHART_SHOTS");
    if (!shots.isEmpty())
        panel.grab().save(QStringLiteral("%1/charts-%2x%3.png").arg(shots).arg(size.width()).arg(size.height()));
}

// The footer's counts and transitions grouped as on the status line, its addresses as hexText()
// writes them, whatever the system locale.
void TestChartsPanel::footerWritesNumbersAsTheViewerDoes()
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    ChartData data;
    data.range
        = ViewRange { Transition { 1000 }, Transition { 2345678 }, Address { 0x1fff000000 }, Address { 0x1fff00ffff } };
    data.reads = { 1200, 34 };
    data.writes = { 5, 1000 };
    data.accessesInRange = 104680;
    data.rowsRead = 104680;
    const QString exact = ChartsPanel::footerText(data, 12);
    data.estimated = true;
    data.rowsRead = 2000;
    const QString estimated = ChartsPanel::footerText(data, 7);
    QLocale::setDefault(before);
    QCOMPARE(exact,
        QStringLiteral("Transitions 1,000–2,345,678 · addresses 0x1fff000000–0x1fff00ffff · plotted 1,234 reads and "
                       "1,005 writes of the visible addresses, counted exactly in the 104,680 accesses of these "
                       "transitions · 12 ms"));
    QCOMPARE(estimated,
        QStringLiteral("Transitions 1,000–2,345,678 · addresses 0x1fff000000–0x1fff00ffff · plotted about 1,234 reads "
                       "and 1,005 writes of the visible addresses, estimated from 2,000 of the 104,680 accesses of "
                       "these transitions · 7 ms"));
}

QTEST_MAIN(TestChartsPanel)
#include "tst_chartspanel.moc"
