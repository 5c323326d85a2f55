// SPDX-License-Identifier: MIT
// Two charts of the visible part of the history: reads and writes over transitions, and the
// busiest address regions. Computed in the background from the panel's own read-only connection.
#pragma once

#include "core/charts/chartdata.h"
#include "core/model/viewrange.h"
#include "widgets/common/jobtracker.h"

#include <QWidget>
#include <optional>

class QBarCategoryAxis;
class QBoxLayout;
class QChart;
class QChartView;
class QHorizontalBarSeries;
class QLabel;
class QLineSeries;
class QTimer;
class QValueAxis;

namespace memhist {

class ChartsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget *parent = nullptr);
    ~ChartsPanel() override;

    // Shows the whole history until setVisibleRange() narrows it.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }

    // Recomputes for `range`. Calls in quick succession (a zoom gesture) are coalesced into one
    // computation of the last range; a computation for an older range is cancelled and dropped.
    void setVisibleRange(const memhist::ViewRange &range);

    void setChartOptions(const ChartOptions &options) { m_options = options; }

    // The data the charts show (empty before the first computation completes).
    const ChartData &chartData() const { return m_data; }
    // How long the last computation shown took, in milliseconds.
    qint64 lastComputeMilliseconds() const { return m_lastMilliseconds; }
    bool isComputing() const { return m_jobs.isRunning(); }
    // The footer under the charts for `data`: the range, what was plotted (the reads and writes of
    // the visible addresses, exact or estimated) and how long it took.
    static QString footerText(const ChartData &data, qint64 milliseconds);

signals:
    void chartsUpdated();
    void computeFailed(const QString &message);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Request
    {
        QString historyPath;
        ViewRange range;
        bool wholeHistory = false;
    };
    struct Outcome
    {
        bool ok = false;
        ChartData data;
        QString error;
        qint64 milliseconds = 0;
    };

    void buildCharts();
    void applyPalette();
    void scheduleRequest(const Request &request);
    void startPending();
    void receive(const Outcome &outcome);
    void showData();
    // The transition axis's range and ticks for the current data and the time chart's width.
    void updateTimeAxis();
    // Side by side when the panel is short and wide; compact axes when a chart is short.
    void updateLayoutMode();

    QString m_historyPath;
    ChartOptions m_options;
    ChartData m_data;
    qint64 m_lastMilliseconds = 0;

    // The request waiting for the coalescing timer or for the running computation to stop.
    std::optional<Request> m_pending;
    QTimer *m_coalesceTimer = nullptr;
    // One computation at a time; a new request makes the running one stale (it stops within
    // milliseconds), and the pending request starts once it has.
    JobTracker m_jobs { this };

    QChart *m_timeChart = nullptr;
    QLineSeries *m_readSeries = nullptr;
    QLineSeries *m_writeSeries = nullptr;
    QValueAxis *m_timeAxis = nullptr;
    QValueAxis *m_countAxis = nullptr;
    QChart *m_regionChart = nullptr;
    QHorizontalBarSeries *m_regionSeries = nullptr;
    QBarCategoryAxis *m_regionAxis = nullptr;
    QValueAxis *m_regionCountAxis = nullptr;
    QChartView *m_timeView = nullptr;
    QChartView *m_regionView = nullptr;
    QLabel *m_statusLabel = nullptr;
    QBoxLayout *m_chartsLayout = nullptr;
    bool m_compact = false;
};

} // namespace memhist
