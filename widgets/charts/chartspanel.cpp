// SPDX-License-Identifier: MIT
#include "widgets/charts/chartspanel.h"

#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QEvent>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QResizeEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace memhist {

namespace {

// Long enough to swallow the steps of a wheel zoom or a drag, short enough to feel immediate.
constexpr int coalesceMilliseconds = 60;

QString regionSizeText(std::uint64_t bytes)
{
    return bytes >= 1024 ? ChartsPanel::tr("%1 KiB").arg(bytes / 1024) : ChartsPanel::tr("%1-byte").arg(bytes);
}

// Below this height the panel puts its two charts side by side when it is wide enough (at least
// sideBySideMinimumWidth): stacked, each would get too little height for its axis labels.
constexpr int sideBySideBelowHeight = 450;
constexpr int sideBySideMinimumWidth = 800;
// A chart shorter than this drops its axis titles and uses a smaller label font, so that the tick
// labels keep their room instead of collapsing to "…".
constexpr int compactChartHeight = 260;
// The most ticks on the transition axis, whatever the width: more would only crowd the labels.
constexpr int maxTimeTicks = 9;

// Series colours that keep their contrast on both a light and a dark background: the dark variant
// is the same hue, lighter.
struct SeriesColors
{
    QColor reads;
    QColor writes;
    QColor regions;
};

SeriesColors seriesColors(bool dark)
{
    if (dark)
        return { QColor(0x6c, 0xb4, 0xff), QColor(0xff, 0x8f, 0x5e), QColor(0x5f, 0xd3, 0xbc) };
    return { QColor(0x1f, 0x6f, 0xc5), QColor(0xd9, 0x48, 0x0f), QColor(0x1b, 0x8a, 0x7a) };
}

} // namespace

ChartsPanel::ChartsPanel(QWidget *parent)
    : QWidget(parent)
    , m_coalesceTimer(new QTimer(this))
{
    m_coalesceTimer->setSingleShot(true);
    m_coalesceTimer->setInterval(coalesceMilliseconds);
    connect(m_coalesceTimer, &QTimer::timeout, this, &ChartsPanel::startPending);
    m_jobs.onIdle([this] {
        if (m_pending && !m_coalesceTimer->isActive())
            startPending();
    });
    buildCharts();
    applyPalette();
}

ChartsPanel::~ChartsPanel()
{
    // The computation polls its ticket between buckets and stops within milliseconds.
    m_jobs.cancel();
    m_jobs.waitForFinished();
}

void ChartsPanel::buildCharts()
{
    m_readSeries = new QLineSeries;
    m_readSeries->setName(tr("Reads"));
    m_writeSeries = new QLineSeries;
    m_writeSeries->setName(tr("Writes"));
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("Transition"));
    m_timeAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_timeAxis->setTickAnchor(0);
    m_countAxis = new QValueAxis;
    m_countAxis->setTitleText(tr("Accesses per bucket"));
    m_countAxis->setLabelFormat(QStringLiteral("%.0f"));

    m_timeChart = new QChart;
    m_timeChart->addSeries(m_readSeries);
    m_timeChart->addSeries(m_writeSeries);
    m_timeChart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_timeChart->addAxis(m_countAxis, Qt::AlignLeft);
    for (QLineSeries *series : { m_readSeries, m_writeSeries }) {
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_countAxis);
    }
    m_timeChart->legend()->setAlignment(Qt::AlignTop);
    // Axis numbers grouped by three with ',' as countText() writes counts and transitions everywhere
    // else, whatever the system locale.
    m_timeChart->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    m_timeChart->setLocalizeNumbers(true);
    // Animations would replay on every range change while the user zooms.
    m_timeChart->setAnimationOptions(QChart::NoAnimation);

    m_regionSeries = new QHorizontalBarSeries;
    m_regionSeries->setBarWidth(0.7);
    m_regionAxis = new QBarCategoryAxis;
    m_regionCountAxis = new QValueAxis;
    m_regionCountAxis->setTitleText(tr("Accesses"));
    m_regionCountAxis->setLabelFormat(QStringLiteral("%.0f"));
    m_regionChart = new QChart;
    m_regionChart->addSeries(m_regionSeries);
    m_regionChart->addAxis(m_regionAxis, Qt::AlignLeft);
    m_regionChart->addAxis(m_regionCountAxis, Qt::AlignBottom);
    m_regionSeries->attachAxis(m_regionAxis);
    m_regionSeries->attachAxis(m_regionCountAxis);
    m_regionChart->legend()->hide();
    m_regionChart->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    m_regionChart->setLocalizeNumbers(true);
    // Addresses are the point of this chart: the axis makes room for them rather than eliding.
    m_regionAxis->setTruncateLabels(false);
    m_regionChart->setAnimationOptions(QChart::NoAnimation);

    const auto makeView = [this](QChart *chart, const QString &objectName) {
        auto *view = new QChartView(chart, this);
        view->setObjectName(objectName);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(160);
        return view;
    };
    m_timeView = makeView(m_timeChart, QStringLiteral("timeChartView"));
    m_regionView = makeView(m_regionChart, QStringLiteral("regionChartView"));
    // A line for each region's label, and room for the title and the count axis: shorter, the
    // category axis drops every other label, the busiest region's first.
    const int lineHeight = QFontMetrics(font()).height();
    m_regionView->setMinimumHeight(std::max(160, ChartOptions {}.topRegions * (lineHeight + 2) + 4 * lineHeight));

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("chartsStatusLabel"));
    m_statusLabel->setText(tr("No history open"));
    m_statusLabel->setIndent(8);
    // Wrapped: unwrapped, its long line would set the minimum width of every panel tabbed with it.
    m_statusLabel->setWordWrap(true);

    m_chartsLayout = new QBoxLayout(QBoxLayout::TopToBottom);
    m_chartsLayout->setSpacing(2);
    m_chartsLayout->addWidget(m_timeView, 3);
    m_chartsLayout->addWidget(m_regionView, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 6);
    layout->setSpacing(2);
    layout->addLayout(m_chartsLayout, 1);
    layout->addWidget(m_statusLabel);
    // The number of transition ticks follows the time chart's width.
    m_timeView->installEventFilter(this);
    showData();
}

void ChartsPanel::applyPalette()
{
    const QPalette palette = this->palette();
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlphaF(0.15f);
    QColor axisLine = text;
    axisLine.setAlphaF(0.45f);
    QFont labelFont = font();
    if (m_compact)
        labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    QFont titleFont = font();
    titleFont.setBold(true);

    for (QChart *chart : { m_timeChart, m_regionChart }) {
        // Our own colours throughout: a built-in chart theme would not follow the application's palette.
        chart->setBackgroundBrush(palette.color(QPalette::Window));
        chart->setBackgroundRoundness(0);
        chart->setPlotAreaBackgroundVisible(false);
        chart->setTitleBrush(text);
        chart->setTitleFont(titleFont);
        chart->legend()->setLabelColor(text);
        chart->legend()->setFont(labelFont);
        chart->setMargins(m_compact ? QMargins(4, 0, 8, 0) : QMargins(6, 4, 10, 4));
        const auto axes = chart->axes();
        for (QAbstractAxis *axis : axes) {
            axis->setLabelsBrush(text);
            axis->setLabelsFont(labelFont);
            axis->setTitleBrush(text);
            axis->setTitleFont(labelFont);
            // Short charts keep their tick labels rather than the titles: the chart titles say
            // what the axes count.
            axis->setTitleVisible(!m_compact);
            axis->setGridLineColor(grid);
            axis->setLinePenColor(axisLine);
            axis->setMinorGridLineVisible(false);
        }
    }
    m_regionAxis->setGridLineVisible(false);
    // Beside the plot rather than above it when height is short.
    m_timeChart->legend()->setAlignment(m_compact ? Qt::AlignRight : Qt::AlignTop);

    const SeriesColors colors = seriesColors(dark);
    QPen readPen(colors.reads, 1.6);
    QPen writePen(colors.writes, 1.6);
    m_readSeries->setPen(readPen);
    m_writeSeries->setPen(writePen);
    const auto sets = m_regionSeries->barSets();
    for (QBarSet *set : sets) {
        set->setColor(colors.regions);
        set->setBorderColor(colors.regions);
        set->setLabelColor(text);
    }
}

void ChartsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        applyPalette();
}

void ChartsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateLayoutMode();
}

bool ChartsPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_timeView && event->type() == QEvent::Resize)
        updateTimeAxis();
    return QWidget::eventFilter(watched, event);
}

void ChartsPanel::updateLayoutMode()
{
    // The height in sight: in a scroll area (the viewer's Charts tab) the panel is at least as tall
    // as its least size, which depends on the mode chosen here; deciding from the viewport's
    // height keeps a tall, non-compact mode from holding itself in place behind a scroll bar.
    const int visibleHeight = parentWidget() ? std::min(height(), parentWidget()->height()) : height();
    const int chartsHeight = std::max(0, visibleHeight - m_statusLabel->sizeHint().height() - 8);
    const bool sideBySide = chartsHeight + 8 < sideBySideBelowHeight && width() >= sideBySideMinimumWidth;
    const QBoxLayout::Direction direction = sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_chartsLayout->direction() != direction)
        m_chartsLayout->setDirection(direction);
    // The time chart's share of the height: all of it beside the other chart, 3/5 above it.
    const int timeChartHeight = sideBySide ? chartsHeight : chartsHeight * 3 / 5;
    const bool compact = timeChartHeight < compactChartHeight;
    if (compact != m_compact) {
        m_compact = compact;
        applyPalette();
    }
}

void ChartsPanel::setHistory(const QString &path)
{
    m_historyPath = path;
    m_data = {};
    m_lastMilliseconds = 0;
    showData();
    if (path.isEmpty()) {
        // Drop any computation in flight: its history is gone.
        m_pending.reset();
        m_jobs.cancel();
        m_statusLabel->setText(tr("No history open"));
        return;
    }
    scheduleRequest({ path, ViewRange {}, true });
}

void ChartsPanel::setVisibleRange(const ViewRange &range)
{
    if (m_historyPath.isEmpty())
        return;
    scheduleRequest({ m_historyPath, range, false });
}

void ChartsPanel::scheduleRequest(const Request &request)
{
    m_pending = request;
    // Tells the computation in flight, if any, that its result will not be shown.
    m_jobs.cancel();
    // A change after a quiet period starts at once; the changes that follow it within the period
    // (a zoom gesture) are coalesced into one computation of the last range when it ends.
    const bool quiet = !m_coalesceTimer->isActive() && !m_jobs.isRunning();
    m_coalesceTimer->start();
    if (quiet)
        startPending();
}

void ChartsPanel::startPending()
{
    if (m_jobs.isRunning() || !m_pending)
        return; // the idle handler starts the pending request once the running one has stopped
    const Request request = *m_pending;
    m_pending.reset();
    m_statusLabel->setText(tr("Computing…"));

    const auto compute = [request, options = m_options](const JobTicket &ticket) {
        QElapsedTimer timer;
        timer.start();
        Outcome outcome;
        // Its own connection, opened and closed in this pool thread (one connection per thread).
        const auto database = HistoryDatabase::open(request.historyPath, &outcome.error);
        if (database) {
            outcome.ok = computeChartData(*database, request.range, request.wholeHistory, options, &outcome.data,
                &outcome.error, ticket.cancelPredicate());
        }
        outcome.milliseconds = timer.elapsed();
        return outcome;
    };
    m_jobs.start(compute, [this](const Outcome &outcome) { receive(outcome); });
}

void ChartsPanel::receive(const Outcome &outcome)
{
    if (outcome.ok) {
        m_data = outcome.data;
        m_lastMilliseconds = outcome.milliseconds;
        showData();
        emit chartsUpdated();
    } else if (!outcome.error.isEmpty()) {
        m_statusLabel->setText(tr("The charts could not be computed: %1").arg(outcome.error));
        emit computeFailed(outcome.error);
    }
}

void ChartsPanel::updateTimeAxis()
{
    // Every change happens under fixed ticks, and dynamic ticks come back only once the range and
    // the interval agree: QValueAxis::setRange() lays the axis out at once with whatever interval
    // it has, and an old interval over a new range can mean millions of ticks (or, with a
    // degenerate range, an endless loop).
    m_timeAxis->setTickType(QValueAxis::TicksFixed);
    if (m_data.reads.isEmpty()) {
        m_timeAxis->setRange(0, 1);
        return;
    }
    // Room for each label and as much again between labels.
    const QFontMetrics metrics(m_timeAxis->labelsFont());
    const int labelWidth = metrics.horizontalAdvance(countText(m_data.buckets.last.value)) + 8;
    const int plotWidth = std::max(0, m_timeView->width() - 100);
    const int ticks = std::clamp(plotWidth / (2 * labelWidth) + 1, 2, maxTimeTicks);
    const TimeAxisTicks axis = timeAxisTicks(m_data.buckets.first, m_data.buckets.last, ticks);
    m_timeAxis->setRange(axis.min, axis.max);
    m_timeAxis->setTickInterval(axis.interval);
    // Ticks at round transitions (multiples of 1, 2 or 5 x 10^k), as many as fit.
    m_timeAxis->setTickType(QValueAxis::TicksDynamic);
}

void ChartsPanel::showData()
{
    const ChartData &data = m_data;
    const bool hasData = !data.reads.isEmpty();

    QList<QPointF> reads;
    QList<QPointF> writes;
    double highest = 0;
    if (hasData) {
        reads.reserve(data.buckets.count);
        writes.reserve(data.buckets.count);
        for (int i = 0; i < data.buckets.count; ++i) {
            const double x = double(data.buckets.bucketFirst(i).value);
            reads.append({ x, data.reads[i] });
            writes.append({ x, data.writes[i] });
            highest = std::max({ highest, data.reads[i], data.writes[i] });
        }
    }
    // One replace() per series: a single repaint instead of one per point.
    m_readSeries->replace(reads);
    m_writeSeries->replace(writes);
    updateTimeAxis();
    // An estimate could in principle be NaN or infinite; QValueAxis must never see either.
    if (!std::isfinite(highest))
        highest = 0;
    m_countAxis->setRange(0, std::max(1.0, highest * 1.05));
    if (hasData)
        m_countAxis->applyNiceNumbers();
    const QString estimate = data.estimated ? tr(", estimated") : QString();
    QString perBucket;
    if (hasData)
        perBucket = data.buckets.width == 1
            ? tr(" (one transition per bucket%1)").arg(estimate)
            : tr(" (%1 transitions per bucket%2)").arg(countText(data.buckets.width), estimate);
    m_timeChart->setTitle(tr("Reads and writes over transitions") + perBucket);

    // Busiest at the top: a horizontal bar series draws its first category at the bottom.
    QStringList categories;
    QList<qreal> counts;
    for (auto it = data.regions.crbegin(); it != data.regions.crend(); ++it) {
        categories.append(hexText(it->first.value));
        counts.append(it->accesses);
    }
    m_regionSeries->clear();
    m_regionAxis->clear();
    if (!counts.isEmpty()) {
        auto *set = new QBarSet(tr("Accesses"));
        set->append(counts);
        m_regionSeries->append(set);
        m_regionAxis->append(categories);
        const double most = *std::max_element(counts.cbegin(), counts.cend());
        m_regionCountAxis->setRange(0, std::isfinite(most) && most > 0 ? most * 1.05 : 1.0);
        m_regionCountAxis->applyNiceNumbers();
    } else {
        m_regionCountAxis->setRange(0, 1);
    }
    m_regionChart->setTitle(
        tr("Busiest %1 regions (reads and writes%2)").arg(regionSizeText(data.regionSize), estimate));
    applyPalette();

    if (data.emptyHistory) {
        m_statusLabel->setText(tr("The history holds no accesses"));
    } else if (hasData) {
        m_statusLabel->setText(footerText(data, m_lastMilliseconds));
    }
}

QString ChartsPanel::footerText(const ChartData &data, qint64 milliseconds)
{
    // What the charts plotted: the reads and writes of the visible addresses (not every access of
    // these transitions, which is what was read to count them).
    const auto sum = [](const QList<double> &values) { return std::accumulate(values.cbegin(), values.cend(), 0.0); };
    const auto count = [](double value) { return countText(quint64(std::max<long long>(0, std::llround(value)))); };
    const QString plotted = data.estimated
        ? tr("plotted about %1 reads and %2 writes of the visible addresses, estimated from %3 of the %4 accesses "
             "of these transitions")
              .arg(count(sum(data.reads)), count(sum(data.writes)), countText(quint64(data.rowsRead)),
                  countText(quint64(data.accessesInRange)))
        : tr("plotted %1 reads and %2 writes of the visible addresses, counted exactly in the %3 accesses of these "
             "transitions")
              .arg(count(sum(data.reads)), count(sum(data.writes)), countText(quint64(data.accessesInRange)));
    return tr("Transitions %1–%2 · addresses %3–%4 · %5 · %6 ms")
        .arg(countText(data.range.firstTransition.value), countText(data.range.lastTransition.value),
            hexText(data.range.firstAddress.value), hexText(data.range.lastAddress.value), plotted)
        .arg(milliseconds);
}

} // namespace memhist
