// SPDX-License-Identifier: MIT
#include "screenshotdirector.h"

#include "mainwindow.h"
#include "widgets/detail/detailpane.h"
#include "widgets/detail/originview.h"
#include "widgets/memory/memorypane.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/resultsmodel.h"
#include "widgets/sql/sqlconsole.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QTableView>

namespace memhist::viewer {

namespace {
// Quiet time after the last render or page of results before the picture is taken: the charts
// and the results table finish their own background work in well under this.
constexpr int settleMilliseconds = 1500;
constexpr int timeoutMilliseconds = 120000;
} // namespace

ScreenshotDirector::ScreenshotDirector(MainWindow *window, ScreenshotScene scene, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_scene(std::move(scene))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(settleMilliseconds);
    connect(&m_settle, &QTimer::timeout, this, &ScreenshotDirector::settled);
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(timeoutMilliseconds);
    connect(&m_timeout, &QTimer::timeout, this,
        [this] { fail(QStringLiteral("the history was not shown within %1 s").arg(timeoutMilliseconds / 1000)); });
}

void ScreenshotDirector::start()
{
    m_timeout.start();
    // Staged once both happened, in either order: the window handed the history to every panel
    // (historyOpened) and the plane has its overview (historyLoaded).
    connect(m_window, &MainWindow::historyOpened, this, [this] {
        m_windowOpened = true;
        if (m_window->plane()->isHistoryLoaded())
            historyLoaded();
    });
    connect(m_window->plane(), &PlaneWidget::historyLoaded, this, [this] {
        if (m_windowOpened)
            historyLoaded();
    });
    connect(m_window->plane(), &PlaneWidget::renderFinished, this, [this] {
        if (m_staged)
            m_renderedAfterStaging = true;
        somethingChanged();
    });
    connect(m_window->queryPanel(), &QueryPanel::resultsChanged, this, [this] {
        selectRowWhenLoaded();
        somethingChanged();
    });
    connect(m_window->detailPane(), &DetailPane::detailShown, this, [this] {
        // The origin of the selected row, once its detail is shown (the pane's actions need it).
        if (m_scene.origin && m_rowSelected && !m_originAsked) {
            m_originAsked = true;
            m_window->detailPane()->showOrigin(*m_scene.origin);
        }
        somethingChanged();
    });
    connect(m_window->detailPane()->originView(), &OriginView::originShown, this, [this] {
        m_originShown = true;
        somethingChanged();
    });
    connect(m_window->memoryPane(), &MemoryPane::memoryShown, this, &ScreenshotDirector::somethingChanged);
    // The console runs its statement in the background: its rows count as a change too.
    connect(m_window->sqlConsole(), &SqlConsole::statementFinished, this, &ScreenshotDirector::somethingChanged);
}

void ScreenshotDirector::historyLoaded()
{
    if (m_staged || m_stagingQueued)
        return;
    // From the event loop, not from inside the plane's or the window's signal: staging runs
    // statements and queries, which should not nest in another widget's handler.
    m_stagingQueued = true;
    QTimer::singleShot(0, this, &ScreenshotDirector::stage);
}

void ScreenshotDirector::stage()
{
    if (m_scene.zoomFirstTransition) {
        ViewRange range;
        range.firstTransition = *m_scene.zoomFirstTransition;
        range.lastTransition = m_scene.zoomLastTransition;
        range.firstAddress = m_scene.zoomFirstAddress;
        range.lastAddress = m_scene.zoomLastAddress;
        m_window->plane()->setVisibleRange(range);
    }
    if (m_scene.clickTransition) {
        m_window->runClickQuery(*m_scene.clickTransition, m_scene.clickAddress, std::nullopt,
            m_scene.clickBackward ? Qt::KeyboardModifiers(backwardModifier) : Qt::KeyboardModifiers(Qt::NoModifier));
    }
    if (m_scene.panel == QLatin1String("charts"))
        m_window->showPanel(MainWindow::Panel::Charts);
    else if (m_scene.panel == QLatin1String("sql"))
        m_window->showPanel(MainWindow::Panel::Sql);
    else
        m_window->showPanel(MainWindow::Panel::Results);
    if (m_scene.panel == QLatin1String("memory"))
        m_window->showMemoryPane();
    if (!m_scene.sql.isEmpty()) {
        m_window->sqlConsole()->setStatement(m_scene.sql);
        m_window->sqlConsole()->runStatement();
    }
    m_staged = true;
    selectRowWhenLoaded();
    somethingChanged();
}

void ScreenshotDirector::selectRowWhenLoaded()
{
    if (!m_staged || m_scene.selectRow == 0 || m_rowSelected)
        return;
    QTableView *view = m_window->queryPanel()->resultsView();
    if (view->model()->rowCount() < m_scene.selectRow)
        return;
    m_rowSelected = true;
    view->setCurrentIndex(view->model()->index(m_scene.selectRow - 1, 0));
}

void ScreenshotDirector::somethingChanged()
{
    if (m_staged && !m_done)
        m_settle.start();
}

void ScreenshotDirector::settled()
{
    if (m_done)
        return;
    // The plane renders in the background: wait for a picture of the staged view, not of the
    // previous one scaled.
    if (m_scene.selectRow > 0 && !m_rowSelected) {
        // Fewer rows than asked: more pages while the query has them, else say so at once rather
        // than wait for the timeout.
        ResultsModel *model = m_window->queryPanel()->resultsModel();
        if (!model->isLoading()) {
            if (!model->canFetchMore(QModelIndex())) {
                fail(QStringLiteral("--select-row %1: the results have %2 rows%3")
                         .arg(m_scene.selectRow)
                         .arg(model->rowCount())
                         .arg(model->rowCount() == 0 && !m_scene.clickTransition
                                 ? QStringLiteral(" (no query ran: give --click)")
                                 : QString()));
                return;
            }
            model->fetchMore(QModelIndex());
        }
    }
    if (!m_renderedAfterStaging || (m_scene.selectRow > 0 && !m_rowSelected) || (m_scene.origin && !m_originShown)) {
        m_settle.start();
        return;
    }
    m_done = true;
    m_timeout.stop();
    if (m_scene.outputPath.isEmpty()) {
        emit screenshotFinished(true, QStringLiteral("scene ready"));
        return;
    }
    const QImage image = m_window->grab().toImage();
    QDir().mkpath(QFileInfo(m_scene.outputPath).absolutePath());
    if (!image.save(m_scene.outputPath)) {
        fail(QStringLiteral("%1: cannot write the screenshot").arg(m_scene.outputPath));
        return;
    }
    emit screenshotFinished(
        true, QStringLiteral("saved %1 (%2x%3)").arg(m_scene.outputPath).arg(image.width()).arg(image.height()));
    QCoreApplication::exit(0);
}

void ScreenshotDirector::fail(const QString &message)
{
    m_done = true;
    emit screenshotFinished(false, message);
    if (!m_scene.outputPath.isEmpty())
        QCoreApplication::exit(1);
}

} // namespace memhist::viewer
