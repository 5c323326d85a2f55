// SPDX-License-Identifier: MIT
#include "widgets/plane/planewidget.h"

#include "core/summary/historysummarizer.h"
#include "core/summary/summarycache.h"
#include "widgets/plane/planecontext.h"
#include "widgets/plane/planehittest.h"
#include "widgets/plane/planeoverlays.h"
#include "widgets/plane/planeoverview.h"
#include "widgets/plane/planerenderer.h"
#include "widgets/plane/planethreadfilter.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStandardPaths>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace memhist {

using namespace plane;

namespace {

// Wheel steps closer together than this are one gesture: one entry in the zoom history.
constexpr qint64 wheelGestureMs = 600;
// A press that moves less than this (Manhattan, pixels) is a click, not a drag.
constexpr int clickSlop = 4;
// Repaint at most this often while marked accesses stream in (25 Hz).
constexpr int markerRepaintMs = 40;
constexpr int rangeSignalMs = 50;
// Summarising reports its progress at most this often, and only moves of at least 0.1 %.
constexpr int summaryProgressMs = 100;
constexpr double summaryProgressStep = 0.001;
// The brackets of the regions' names stand at this column of the plot, the symbols' this far right
// of the regions' widest name.
constexpr int regionLabelsX = 2;
constexpr int symbolLabelsGap = 6;

// What a summarising job ends with.
struct SummaryOutcome
{
    bool ok = false;
    bool cancelled = false;
    QString message;
};

// Summarises `path` into the cache in `directory`, in a JobTracker job: nothing here may refer to
// the widget.
SummaryOutcome summarise(const QString &path, const QString &directory, const JobTicket &ticket)
{
    const summary::SummaryCache cache(directory);
    QString error;
    if (!cache.prepare(&error))
        return { false, false, error };
    const std::optional<summary::SummaryCache::Entry> entry = cache.entryFor(path, &error);
    if (!entry)
        return { false, false, error };
    summary::SummarizeOptions options;
    options.sourceIdentity = entry->identity.toString();
    options.progress = [&ticket](double fraction) {
        ticket.report({ fraction, 0, {} });
        return !ticket.cancelled();
    };
    if (!summary::summarizeHistory(path, entry->path, options, &error))
        return { false, ticket.cancelled(), error };
    cache.removeStale(*entry);
    return { true, false, {} };
}

} // namespace

PlaneWidget::PlaneWidget(QWidget *parent)
    : QWidget(parent)
    , m_renderer(new PlaneRenderer(this))
    , m_context(new PlaneContext(this))
{
    qRegisterMetaType<memhist::ViewRange>();
    qRegisterMetaType<memhist::Access>();
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setFocusPolicy(Qt::WheelFocus);
    m_status = tr("No history");

    connect(m_renderer, &PlaneRenderer::rendered, this, &PlaneWidget::onRendered);
    connect(m_context, &PlaneContext::namesRead, this,
        [this](const QString &path, const std::shared_ptr<const AddressNames> &names) {
            if (path != m_path)
                return;
            m_names = names;
            requestThreadSpans();
            update();
            emit addressNamesRead();
        });
    connect(m_context, &PlaneContext::described, this, &PlaneWidget::accessDescribed);
    connect(m_context, &PlaneContext::threadSpansRead, this,
        [this](Transition, Transition, const QList<ThreadSpan> &spans) {
            m_threadSpans = spans;
            update();
            emit threadSpansRead();
        });
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(0);
    connect(&m_renderTimer, &QTimer::timeout, this, &PlaneWidget::startRender);
    m_targetTimer.setSingleShot(true);
    connect(&m_targetTimer, &QTimer::timeout, this, [this] {
        m_target.reset();
        update();
    });
    m_markerTimer.setSingleShot(true);
    m_markerTimer.setInterval(markerRepaintMs);
    connect(&m_markerTimer, &QTimer::timeout, this, [this] {
        if (m_markersDirty) {
            m_markersDirty = false;
            update();
        }
    });
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (!cache.isEmpty())
        m_cacheDirectory = cache + QStringLiteral("/summaries");
    m_summaryButton = new QPushButton(tr("Cancel"), this);
    m_summaryButton->setObjectName(QStringLiteral("summaryButton"));
    m_summaryButton->hide();
    connect(m_summaryButton, &QPushButton::clicked, this, [this] {
        if (m_summarising)
            cancelSummary();
        else if (!m_summaryToMake.isEmpty())
            startSummary(m_summaryToMake);
    });
    m_summarizer.onProgress(
        [this](const JobProgress &progress) {
            if (!m_summarising || progress.fraction < m_shownProgress + summaryProgressStep)
                return;
            m_shownProgress = progress.fraction;
            m_status = summaryStatus(
                tr("Summarising %1 for drawing: %2 %").arg(m_path).arg(progress.fraction * 100, 0, 'f', 1));
            update();
            emit summaryProgress(progress.fraction);
        },
        summaryProgressMs);
    m_rangeTimer.setSingleShot(true);
    m_rangeTimer.setInterval(rangeSignalMs);
    connect(&m_rangeTimer, &QTimer::timeout, this, [this] { emit visibleRangeChanged(visibleRange()); });
}

// An overview still loading sees itself cancelled and stops (~JobTracker).
PlaneWidget::~PlaneWidget() = default;

bool PlaneWidget::hasHistory() const
{
    return m_overview && m_overview->error.isEmpty();
}

bool PlaneWidget::showsAccesses() const
{
    return m_result && m_result->accessDetail;
}

bool PlaneWidget::isHistoryLoaded() const
{
    return hasHistory();
}

void PlaneWidget::setHistory(const QString &databasePath)
{
    m_loader.cancel();
    m_summarizer.cancel();
    m_summarising = false;
    m_summaryToMake.clear();
    m_summaryNotice.clear();
    m_summaryButton->hide();
    m_renderer->cancel();
    m_path = databasePath;
    m_overview.reset();
    m_result.reset();
    m_marked.clear();
    m_threadFilter.clear();
    m_current.reset();
    m_originPath.clear();
    m_target.reset();
    m_targetTimer.stop();
    m_position.reset();
    m_names.reset();
    m_threadSpans.clear();
    m_describedAccess.reset();
    m_describedText.clear();
    m_describing.reset();
    m_context->setHistory(databasePath);
    m_drag = Drag::None;
    m_state.reset(PlaneExtent {});
    emit navigationChanged();
    if (databasePath.isEmpty()) {
        m_status = tr("No history");
        update();
        return;
    }
    m_status = tr("Loading %1…").arg(databasePath);
    update();

    m_loader.start(
        [databasePath, cache = m_cacheDirectory](const JobTicket &) { return openOverview(databasePath, cache); },
        [this](std::shared_ptr<const HistoryOverview> overview) {
            if (overview)
                overviewOpened(std::move(overview));
        });
}

void PlaneWidget::overviewOpened(std::shared_ptr<const HistoryOverview> overview)
{
    m_summaryNotice = overview->summaryNotice;
    if (!overview->error.isEmpty() || overview->summaryInfo) {
        applyOverview(std::move(overview));
        return;
    }
    if (overview->summaryToMake.isEmpty()) {
        scanHistory(m_summaryNotice.isEmpty() ? tr("no cache directory for its summary") : m_summaryNotice);
        return;
    }
    // Summarised just now, yet no valid summary: the file changed meanwhile. Scan it instead of
    // summarising it for ever.
    if (overview->summaryToMake == m_summaryToMake) {
        scanHistory(tr("it changed while it was summarised"));
        return;
    }
    startSummary(overview->summaryToMake);
}

void PlaneWidget::startSummary(const QString &target)
{
    m_summarising = true;
    m_summaryToMake = target;
    m_shownProgress = 0;
    m_status = summaryStatus(tr("Summarising %1 for drawing…").arg(m_path));
    m_summaryButton->setText(tr("Cancel"));
    m_summaryButton->show();
    placeSummaryButton();
    update();
    emit summaryStarted();
    m_summarizer.start([path = m_path, directory = m_cacheDirectory](
                           const JobTicket &ticket) { return summarise(path, directory, ticket); },
        [this](const SummaryOutcome &outcome) {
            if (outcome.cancelled)
                summaryEnded(false, tr("cancelled"));
            else
                summaryEnded(outcome.ok, outcome.message);
        });
}

void PlaneWidget::summaryEnded(bool ok, const QString &message)
{
    m_summarising = false;
    if (ok) {
        m_summaryButton->hide();
        emit summaryFinished(true, QString());
        m_status = tr("Loading %1…").arg(m_path);
        update();
        m_loader.start(
            [path = m_path, cache = m_cacheDirectory](const JobTicket &) { return openOverview(path, cache); },
            [this](std::shared_ptr<const HistoryOverview> overview) {
                if (overview)
                    overviewOpened(std::move(overview));
            });
        return;
    }
    emit summaryFinished(false, message);
    if (message == tr("cancelled")) {
        m_status = tr("Summarising %1 was cancelled. The plane draws a history from its summary: click "
                      "Summarise to make it.")
                       .arg(m_path);
        m_summaryButton->setText(tr("Summarise"));
        m_summaryButton->show();
        placeSummaryButton();
        update();
        return;
    }
    m_summaryButton->hide();
    scanHistory(message);
}

void PlaneWidget::cancelSummary()
{
    if (m_summarising)
        m_summarizer.stop();
}

void PlaneWidget::scanHistory(const QString &reason)
{
    m_status = tr("Loading %1 without a summary (%2)…").arg(m_path, reason);
    update();
    m_loader.start([path = m_path](const JobTicket &ticket) { return loadOverview(path, ticket.cancelPredicate()); },
        [this](std::shared_ptr<const HistoryOverview> overview) {
            if (overview)
                applyOverview(std::move(overview));
        });
}

QString PlaneWidget::summaryStatus(const QString &text) const
{
    return m_summaryNotice.isEmpty() ? text : m_summaryNotice + u'\n' + text;
}

QString PlaneWidget::renderError() const
{
    return m_result ? m_result->error : QString();
}

QString PlaneWidget::summaryPath() const
{
    return m_overview && m_overview->summaryInfo ? m_overview->summaryPath : QString();
}

void PlaneWidget::placeSummaryButton()
{
    const QRect plot = plotRect();
    const QSize size = m_summaryButton->sizeHint();
    m_summaryButton->setGeometry(
        QRect(QPoint(plot.center().x() - size.width() / 2, plot.center().y() + 3 * fontMetrics().height()), size));
}

void PlaneWidget::applyOverview(std::shared_ptr<const HistoryOverview> overview)
{
    if (!overview->error.isEmpty()) {
        m_status = overview->error;
        update();
        emit historyFailed(overview->error);
        return;
    }
    m_overview = std::move(overview);
    std::optional<Transition> first;
    std::optional<Transition> last;
    if (!m_overview->slices.empty()) {
        first = Transition { m_overview->slices.front().first };
        last = Transition { m_overview->slices.back().last };
    }
    m_state.reset(extentFor(first, last, m_overview->fold));
    m_status = m_overview->slices.empty() ? tr("The history is empty") : QString();
    requestRender();
    update();
    emit historyLoaded();
    emit visibleRangeChanged(visibleRange());
    emit navigationChanged();
}

void PlaneWidget::setThreadFilter(const QList<qint64> &threads)
{
    // Not QList's ==: Qt 6.4's compares two empty lists with memcmp on null data, which UBSan
    // reports (the asan preset's tests fail on it).
    if (std::equal(threads.cbegin(), threads.cend(), m_threadFilter.cbegin(), m_threadFilter.cend()))
        return;
    m_threadFilter = threads;
    requestRender();
    update();
}

void PlaneWidget::setMarkedAccesses(const QList<Access> &accesses)
{
    m_marked = accesses;
    m_markersDirty = true;
    if (!m_markerTimer.isActive())
        m_markerTimer.start();
}

void PlaneWidget::setCurrentAccess(const std::optional<Access> &access)
{
    m_current = access;
    m_position = access ? std::optional<Transition>(access->transition) : std::nullopt;
    if (access && hasHistory() && !isInRange(*access, visibleRange())) {
        // Centre it at the current zoom: the surroundings stay as legible as they were.
        const AddressFold &fold = m_overview->fold;
        const double x = double(access->transition.value) + 0.5;
        const double y = (fold.toDisplay(access->physical.value) + fold.toDisplayEnd(access->lastByte().value)) / 2;
        setViewport(m_state.centredOn(x, y), true);
    }
    update();
}

void PlaneWidget::setOriginPath(const OriginTree &tree)
{
    m_originPath.clear();
    QList<int> pointOfHop; // the point of each hop, or of its nearest ancestor with one; -1: none
    pointOfHop.reserve(tree.hops.size());
    for (const OriginHop &hop : tree.hops) {
        const int parentPoint = hop.parent >= 0 && hop.parent < pointOfHop.size() ? pointOfHop[hop.parent] : -1;
        if (!hop.transition || !hop.address) {
            pointOfHop << parentPoint;
            continue;
        }
        Access access;
        access.rowId = hop.rowId.value_or(RowId {});
        access.transition = *hop.transition;
        access.operation = hop.kind == HopKind::Load ? Operation::Read : Operation::Write;
        access.physical = *hop.address;
        access.size = std::max<std::uint32_t>(hop.size, 1);
        pointOfHop << int(m_originPath.size());
        m_originPath.append({ access, parentPoint });
    }
    update();
}

void PlaneWidget::setCurrentTransition(Transition transition)
{
    m_position = transition;
    update();
}

ViewRange PlaneWidget::visibleRange() const
{
    if (!hasHistory())
        return {};
    return toViewRange(m_state.view(), m_overview->fold);
}

void PlaneWidget::setVisibleRange(const ViewRange &range, bool recordHistory)
{
    if (!hasHistory())
        return;
    setViewport(toViewport(range, m_overview->fold), recordHistory);
}

QList<ViewRange> PlaneWidget::occupiedRegions() const
{
    QList<ViewRange> result;
    if (!hasHistory() || m_overview->fold.isEmpty())
        return result;
    const ViewRange all = toViewRange(m_state.extent().bounds, m_overview->fold);
    for (const AddressInterval &region : m_overview->fold.regions()) {
        ViewRange range = all;
        range.firstAddress = Address { region.first };
        range.lastAddress = Address { region.last };
        result.append(range);
    }
    return result;
}

QRect PlaneWidget::plotRect() const
{
    const QFontMetrics fm(font());
    const int labelWidth = addressLabelWidth(hasHistory() ? m_overview->fold.lastAddress() : 0x7fff'ffff'ffffull,
        [&fm](const QString &text) { return fm.horizontalAdvance(text); });
    return plotArea(size(), labelWidth, fm.height());
}

PixelMapping PlaneWidget::mapping() const
{
    return PixelMapping(m_state.view(), QSizeF(plotRect().size()));
}

void PlaneWidget::frameBytes(Address first, Address last)
{
    if (!hasHistory())
        return;
    setViewport(framedViewport(m_state.view(), m_state.extent(), first.value, last.value), true);
}

void PlaneWidget::markTarget(const ViewRange &target, int milliseconds)
{
    m_target = target;
    m_targetTimer.start(milliseconds);
    update();
}

std::optional<QRect> PlaneWidget::targetOutline() const
{
    if (!m_target || !hasHistory())
        return std::nullopt;
    const std::optional<QRect> local = targetRect(*m_target, mapping(), m_overview->fold, plotRect().size());
    return local ? std::optional<QRect>(local->translated(plotRect().topLeft())) : std::nullopt;
}

std::optional<QPointF> PlaneWidget::positionOf(Transition t, Address a) const
{
    if (!hasHistory())
        return std::nullopt;
    const std::optional<QPointF> local = plane::positionOf(t, a, mapping(), m_overview->fold);
    return local ? std::optional<QPointF>(*local + QPointF(plotRect().topLeft())) : std::nullopt;
}

void PlaneWidget::setViewport(const PlaneViewport &view, bool recordHistory)
{
    if (!m_state.show(view, recordHistory))
        return;
    if (recordHistory)
        emit navigationChanged();
    requestRender();
    if (!m_rangeTimer.isActive())
        m_rangeTimer.start();
    update();
}

void PlaneWidget::home()
{
    if (hasHistory())
        setViewport(m_state.extent().bounds, true);
}

void PlaneWidget::zoomIn()
{
    if (hasHistory())
        setViewport(m_state.zoomed(QPointF(0.5, 0.5), keyZoomFactor, keyZoomFactor), true);
}

void PlaneWidget::zoomOut()
{
    if (hasHistory())
        setViewport(m_state.zoomed(QPointF(0.5, 0.5), 1 / keyZoomFactor, 1 / keyZoomFactor), true);
}

void PlaneWidget::back()
{
    if (m_state.back())
        viewStepped();
}

void PlaneWidget::forward()
{
    if (m_state.forward())
        viewStepped();
}

void PlaneWidget::viewStepped()
{
    requestRender();
    m_rangeTimer.start();
    update();
    emit navigationChanged();
}

void PlaneWidget::requestRender()
{
    if (hasHistory() && !m_renderTimer.isActive())
        m_renderTimer.start();
}

void PlaneWidget::startRender()
{
    if (!hasHistory() || m_overview->slices.empty())
        return;
    RenderRequest request;
    request.generation = ++m_requestedGeneration;
    request.overview = m_overview;
    request.view = m_state.view();
    request.pixels = plotRect().size() * devicePixelRatio();
    request.colors = planeColors(palette());
    request.threads = m_threadFilter;
    m_renderClock.restart();
    m_renderer->render(std::move(request));
    requestThreadSpans();
}

void PlaneWidget::requestThreadSpans()
{
    if (!hasHistory() || !m_names || m_names->threads.size() < 2)
        return;
    const TransitionWindow window = visibleTransitions(m_state.view());
    m_context->readThreadSpans(Transition { window.first }, Transition { window.last });
}

std::vector<RangeLabel> PlaneWidget::regionLabels() const
{
    if (!m_names || !hasHistory())
        return {};
    return rangeLabels(m_names->regions, mapping(), m_overview->fold, fontMetrics().height());
}

std::vector<RangeLabel> PlaneWidget::symbolLabels() const
{
    if (!m_names || !hasHistory())
        return {};
    return rangeLabels(m_names->symbols, mapping(), m_overview->fold, fontMetrics().height());
}

std::optional<int> PlaneWidget::currentLineX() const
{
    if (!m_position || !hasHistory())
        return std::nullopt;
    const std::optional<int> column = currentLineColumn(*m_position, mapping());
    return column ? std::optional<int>(*column + plotRect().left()) : std::nullopt;
}

void PlaneWidget::onRendered(const std::shared_ptr<const RenderResult> &result)
{
    // The renderer delivers only results of its newest request (one overtaken on its way is dropped
    // on arrival); a newer image is never replaced by an older one all the same.
    if (result->generation <= m_shownGeneration && m_result)
        return;
    m_result = result;
    m_shownGeneration = result->generation;
    update();
    if (!result->error.isEmpty())
        emit renderFailed(result->error);
    if (result->generation == m_requestedGeneration)
        emit renderFinished(m_renderClock.elapsed());
    if (underMouse())
        updateHover(mapFromGlobal(QCursor::pos()));
}

std::optional<Access> PlaneWidget::accessAt(QPointF position) const
{
    if (!hasHistory())
        return std::nullopt;
    static const std::vector<Access> none;
    const QPointF local = position - QPointF(plotRect().topLeft());
    if (m_threadFilter.isEmpty())
        return plane::accessAt(local, mapping(), m_overview->fold, m_result ? m_result->accesses : none, m_marked);
    // The image shown must be drawn with this filter: an older one may show other threads' accesses.
    if (!imageHasThreadFilter())
        return std::nullopt;
    return plane::accessAt(local, mapping(), m_overview->fold, m_result->accesses, shownMarkers());
}

bool PlaneWidget::imageHasThreadFilter() const
{
    // std::equal, not QList's == (setThreadFilter() says why).
    return m_result
        && std::equal(m_result->kept.threads.cbegin(), m_result->kept.threads.cend(), m_threadFilter.cbegin(),
            m_threadFilter.cend());
}

QList<Access> PlaneWidget::shownMarkers() const
{
    if (m_threadFilter.isEmpty() || !imageHasThreadFilter())
        return m_marked;
    const TransitionWindow drawn = plane::visibleTransitions(m_result->view);
    QList<Access> shown;
    for (const Access &access : m_marked) {
        // Outside the image's transitions its spans say nothing: kept until the next image.
        const bool outside = access.transition.value < drawn.first || access.transition.value > drawn.last;
        if (outside || m_result->kept.keeps(access.transition))
            shown.append(access);
    }
    return shown;
}

std::vector<Access> PlaneWidget::drawnAccesses() const
{
    return m_result ? m_result->accesses : std::vector<Access> {};
}

QString PlaneWidget::describePoint(QPointF position) const
{
    if (!hasHistory() || m_overview->slices.empty())
        return {};
    const QRect plot = plotRect();
    if (!plot.contains(position.toPoint()))
        return {};
    const QPointF local = position - QPointF(plot.topLeft());
    const std::optional<Access> access = accessAt(position);
    QString text = plane::hoverText(local, mapping(), m_overview->fold, access);
    if (access) {
        if (m_describedAccess && m_describedAccess->rowId == access->rowId && !m_describedText.isEmpty())
            text += QStringLiteral(" · ") + m_describedText;
    } else if (!m_threadSpans.isEmpty()) {
        if (const std::optional<qint64> thread
            = threadOf(m_threadSpans, pointAt(local, mapping(), m_overview->fold).transition))
            text += tr(" · thread %1").arg(*thread);
    }
    return text;
}

void PlaneWidget::accessDescribed(const Access &access, const QString &text)
{
    m_describing.reset();
    m_describedAccess = access;
    m_describedText = text;
    if (text.isEmpty() || !m_hoverPosition)
        return;
    const QPointF cursor = *m_hoverPosition;
    const std::optional<Access> hovered = accessAt(cursor);
    if (!hovered || hovered->rowId != access.rowId)
        return;
    updateHover(cursor);
    if (QToolTip::isVisible()) {
        QString tip = m_hoverText;
        QToolTip::showText(QCursor::pos(), tip.replace(QStringLiteral(" · "), QStringLiteral("\n")), this);
    }
}

void PlaneWidget::updateHover(QPointF position)
{
    m_hoverPosition = position;
    if (hasHistory()) {
        // The context of the access under the cursor, read in the background unless known.
        const std::optional<Access> access = accessAt(position);
        if (access && !(m_describedAccess && m_describedAccess->rowId == access->rowId)
            && !(m_describing && m_describing->rowId == access->rowId)) {
            m_describing = access;
            m_context->describe(*access);
        }
    }
    const QString text = describePoint(position);
    if (text != m_hoverText) {
        m_hoverText = text;
        emit hoverTextChanged(text);
    }
}

bool PlaneWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        QString text = describePoint(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text.replace(QStringLiteral(" · "), QStringLiteral("\n")), this);
        return true;
    }
    return QWidget::event(event);
}

void PlaneWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeSummaryButton();
    requestRender();
}

void PlaneWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::FontChange)
        requestRender();
}

void PlaneWidget::wheelEvent(QWheelEvent *event)
{
    if (!hasHistory()) {
        event->ignore();
        return;
    }
    // Some platforms turn Shift+wheel into a horizontal wheel: take whichever axis moved.
    const QPoint delta = event->angleDelta();
    const int angle = delta.y() != 0 ? delta.y() : delta.x();
    if (angle == 0) {
        event->ignore();
        return;
    }
    const ZoomFactors factors = wheelZoomFactors(angle, event->modifiers());
    const QPointF local = event->position() - QPointF(plotRect().topLeft());
    const bool newGesture = !m_lastWheel.isValid() || m_lastWheel.elapsed() > wheelGestureMs;
    m_lastWheel.restart();
    setViewport(m_state.zoomed(mapping().anchorAt(local), factors.x, factors.y), newGesture);
    updateHover(event->position());
    event->accept();
}

void PlaneWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::BackButton) {
        back();
        return;
    }
    if (event->button() == Qt::ForwardButton) {
        forward();
        return;
    }
    if (!hasHistory())
        return;
    m_pressPosition = event->position().toPoint();
    m_dragPosition = m_pressPosition;
    m_pressView = m_state.view();
    m_dragMoved = false;
    if (event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)))
        m_drag = Drag::RubberBand;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Pan;
}

void PlaneWidget::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint position = event->position().toPoint();
    if (m_drag != Drag::None && (position - m_pressPosition).manhattanLength() >= clickSlop)
        m_dragMoved = true;
    if (m_drag == Drag::Pan && m_dragMoved) {
        const QPointF pan = dragPanFractions(position - m_pressPosition, plotRect().size());
        setViewport(panViewport(m_pressView, m_state.extent(), pan.x(), pan.y()), false);
        setCursor(Qt::ClosedHandCursor);
    } else if (m_drag == Drag::RubberBand) {
        m_dragPosition = position;
        update();
    }
    updateHover(event->position());
}

void PlaneWidget::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = std::exchange(m_drag, Drag::None);
    unsetCursor();
    if (drag == Drag::Pan) {
        if (!m_dragMoved) {
            const QRect plot = plotRect();
            if (!plot.contains(m_pressPosition))
                return;
            const PlanePoint point = pointAt(event->position() - QPointF(plot.topLeft()), mapping(), m_overview->fold);
            emit pointClicked(point.transition, point.address, accessAt(event->position()), event->modifiers());
        } else if (!(m_pressView == m_state.view())) {
            // The whole drag is one step back.
            m_state.record(m_pressView);
            emit navigationChanged();
        }
    } else if (drag == Drag::RubberBand) {
        update();
        const QRect plot = plotRect();
        const std::optional<PlaneViewport> band = rubberBandViewport(
            mapping(), QPointF(m_pressPosition - plot.topLeft()), event->position() - QPointF(plot.topLeft()));
        if (band)
            setViewport(*band, true);
    }
}

void PlaneWidget::keyPressEvent(QKeyEvent *event)
{
    const bool alt = event->modifiers() & Qt::AltModifier;
    switch (event->key()) {
    case Qt::Key_Escape:
        if (m_summarising) {
            cancelSummary();
            return;
        }
        break;
    case Qt::Key_Home:
        home();
        return;
    case Qt::Key_Backspace:
        back();
        return;
    case Qt::Key_Left:
        if (alt) {
            back();
            return;
        }
        break;
    case Qt::Key_Right:
        if (alt) {
            forward();
            return;
        }
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
        if (hasHistory()) {
            const double factor = event->key() == Qt::Key_Minus ? 1 / keyZoomFactor : keyZoomFactor;
            setViewport(m_state.zoomed(QPointF(0.5, 0.5), factor, factor), true);
            return;
        }
        break;
    default:
        break;
    }
    QWidget::keyPressEvent(event);
}

void PlaneWidget::leaveEvent(QEvent *event)
{
    QWidget::leaveEvent(event);
    m_hoverPosition.reset();
    if (!m_hoverText.isEmpty()) {
        m_hoverText.clear();
        emit hoverTextChanged(QString());
    }
}

void PlaneWidget::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRect plot = plotRect();
    const QFontMetrics fm(font());
    painter.fillRect(rect(), palette().color(QPalette::Window));
    painter.fillRect(plot, planeColors(palette()).background);

    const QString renderError = m_result ? m_result->error : QString();
    if (!hasHistory() || !m_status.isEmpty() || !renderError.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, m_status.isEmpty() ? renderError : m_status);
        paintLegend(painter, plot, legendDetail(), palette(), fm);
        return;
    }

    const PixelMapping map = mapping();
    const AddressFold &fold = m_overview->fold;
    painter.save();
    painter.setClipRect(plot);
    painter.translate(plot.topLeft());
    if (m_result) {
        // The last image, scaled and moved to where its viewport lies in the current one (the
        // planes are linear, so this is exact up to resampling) until the new one arrives.
        // Only the part of the image that lands in the plot is drawn: after a deep zoom the whole
        // image would be scaled to millions of pixels.
        const PlaneViewport &v = m_result->view;
        const QRectF target(
            QPointF(map.xToPixel(v.left), map.yToPixel(v.top)), QPointF(map.xToPixel(v.right), map.yToPixel(v.bottom)));
        const QRectF visible = target.intersected(QRectF(QPointF(0, 0), QSizeF(plot.size())));
        if (!visible.isEmpty()) {
            const QImage &image = m_result->image;
            const double sx = image.width() / target.width();
            const double sy = image.height() / target.height();
            const QRectF source((visible.left() - target.left()) * sx, (visible.top() - target.top()) * sy,
                visible.width() * sx, visible.height() * sy);
            painter.drawImage(visible, image, source);
        }
    }
    // The names of regions along the plot's left edge, the data symbols' beside them, and the fold
    // bands' captions where no name is.
    const auto textWidth = [&fm](const QString &text) { return fm.horizontalAdvance(text); };
    std::vector<RangeLabel> regions;
    std::vector<RangeLabel> symbols;
    std::vector<QRect> plates;
    int symbolsX = regionLabelsX + symbolLabelsGap;
    if (m_names) {
        regions = regionLabels();
        symbols = symbolLabels();
        plates = rangeLabelPlates(regions, regionLabelsX, fm.height(), textWidth);
        for (const QRect &plate : plates)
            symbolsX = std::max(symbolsX, plate.right() + 1 + symbolLabelsGap);
        const std::vector<QRect> symbolPlates = rangeLabelPlates(symbols, symbolsX, fm.height(), textWidth);
        plates.insert(plates.end(), symbolPlates.begin(), symbolPlates.end());
    }
    const std::vector<FoldBand> bands = foldBands(fold, map);
    paintFoldBands(painter, bands, foldCaptions(bands, plates, plot.width(), plot.height(), fm.height(), textWidth),
        plot.width(), palette());
    const std::optional<QPointF> current
        = m_current ? std::optional<QPointF>(accessCentre(*m_current, map, fold)) : std::nullopt;
    paintMarkers(painter, markerPositions(shownMarkers(), map, fold), current, map.pixels(), palette());
    if (!m_originPath.isEmpty()) {
        QList<QPointF> points;
        QList<int> joins;
        for (const auto &[access, join] : std::as_const(m_originPath)) {
            points << accessCentre(access, map, fold);
            joins << join;
        }
        paintOriginPath(painter, points, joins, palette());
    }
    if (m_target) {
        if (const std::optional<QRect> outline = targetRect(*m_target, map, fold, plot.size()))
            paintTargetOutline(painter, *outline, palette());
    }
    if (m_names) {
        paintRangeLabels(painter, regions, regionLabelsX, palette(), fm);
        paintRangeLabels(painter, symbols, symbolsX, palette(), fm);
        if (m_names->threads.size() > 1) {
            QList<int> chosen;
            for (const qint64 thread : std::as_const(m_threadFilter))
                chosen << int(m_names->threads.indexOf(thread));
            paintThreadStrip(
                painter, threadRuns(m_threadSpans, m_names->threads, map), map.pixels(), palette(), chosen);
        }
    }

    if (m_drag == Drag::RubberBand && m_dragMoved) {
        const QRect band = QRect(m_pressPosition, m_dragPosition).normalized().translated(-plot.topLeft());
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(40);
        painter.fillRect(band, fill);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        painter.drawRect(band.adjusted(0, 0, -1, -1));
    }
    painter.restore();

    painter.setPen(planeColors(palette()).sliceEdge);
    painter.drawRect(plot.adjusted(-1, -1, 0, 0));
    paintAxes(painter, addressTicks(m_state.view(), fold, plot, fm.height()),
        transitionTicks(m_state.view(), plot, width(), textWidth), plot, palette(), fm);
    if (m_position) {
        // Over the grid lines: the current position is never mistaken for a tick's line.
        if (const std::optional<int> column = currentLineColumn(*m_position, map)) {
            painter.save();
            painter.setClipRect(plot);
            painter.translate(plot.topLeft());
            paintCurrentLine(painter, *column, *m_position, map.pixels(), palette(), fm);
            painter.restore();
        }
    }
    paintLegend(painter, plot, legendDetail(), palette(), fm, m_names ? m_names->threads : QList<qint64>());
}

QString PlaneWidget::legendDetail() const
{
    if (!hasHistory())
        return {};
    QString detail;
    // What the image shows: accesses that stand out, accesses blended into deep chunk fill (near
    // the access limit, as echo's first view), or chunks alone.
    if (m_result && m_result->accessesStandOut)
        detail = tr("accesses as size bars");
    else if (m_result && m_result->accessDetail)
        detail = tr("chunks over their accesses (zoom in to tell accesses apart)");
    else if (m_result)
        detail = tr("chunks (zoom in to see accesses)");
    if (m_result && m_result->kept.isFiltered())
        detail += QStringLiteral(" · ") + threadFilterLegend(m_result->kept.threads, m_result->accessDetail);
    if (m_shownGeneration != m_requestedGeneration)
        detail += (detail.isEmpty() ? QString() : QStringLiteral(" · ")) + tr("rendering…");
    return detail;
}

} // namespace memhist
