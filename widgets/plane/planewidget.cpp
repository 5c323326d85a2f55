#include "planewidget.h"

#include "plane/planeoverview.h"
#include "plane/planerenderer.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace memhist {

using namespace plane;

namespace {

// Wheel: one notch (120 units) zooms by this factor.
constexpr double wheelZoomPerNotch = 1.25;
// Wheel steps closer together than this are one gesture: one entry in the zoom history.
constexpr qint64 wheelGestureMs = 600;
// A press that moves less than this (Manhattan, pixels) is a click, not a drag.
constexpr int clickSlop = 4;
constexpr int maxHistory = 100;
// Repaint at most this often while marked accesses stream in (25 Hz).
constexpr int markerRepaintMs = 40;
constexpr int rangeSignalMs = 50;

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
        float(a.blueF() * (1 - t) + b.blueF() * t));
}

// Read, write and execute colours that keep their contrast on the palette's base colour: a
// blue/orange pair (told apart with any common colour-vision deficiency) and a green, each in a
// deeper shade on light backgrounds and a lighter one on dark backgrounds.
PlaneColors colorsFor(const QPalette &palette)
{
    PlaneColors colors;
    colors.background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const bool dark = colors.background.lightness() < 128;
    colors.alternateBackground = palette.color(QPalette::AlternateBase);
    if (colors.alternateBackground == colors.background || colors.alternateBackground.alpha() < 255)
        colors.alternateBackground = mix(colors.background, text, 0.04);
    colors.sliceEdge = mix(colors.background, text, 0.14);
    colors.read = dark ? QColor(0x5c, 0xa8, 0xff) : QColor(0x1c, 0x64, 0xc8);
    colors.write = dark ? QColor(0xff, 0x8f, 0x4a) : QColor(0xe0, 0x55, 0x00);
    colors.execute = dark ? QColor(0x6b, 0xd6, 0x7c) : QColor(0x2b, 0x8a, 0x3e);
    return colors;
}

QString operationName(Operation op)
{
    switch (op) {
    case Operation::Read:
        return QStringLiteral("read");
    case Operation::Write:
        return QStringLiteral("write");
    case Operation::Execute:
        return QStringLiteral("execute");
    }
    return {};
}

std::uint64_t lastByteOf(const Access &access)
{
    const std::uint64_t size = std::max<std::uint32_t>(access.size, 1);
    return access.physical.value > ~std::uint64_t(0) - (size - 1) ? ~std::uint64_t(0)
                                                                  : access.physical.value + size - 1;
}

} // namespace

PlaneWidget::PlaneWidget(QWidget *parent)
    : QWidget(parent)
    , m_renderer(new PlaneRenderer(this))
{
    qRegisterMetaType<memhist::ViewRange>();
    qRegisterMetaType<memhist::Access>();
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setFocusPolicy(Qt::WheelFocus);
    m_status = tr("No history");

    connect(m_renderer, &PlaneRenderer::rendered, this, &PlaneWidget::onRendered);
    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(0);
    connect(&m_renderTimer, &QTimer::timeout, this, &PlaneWidget::startRender);
    m_markerTimer.setSingleShot(true);
    m_markerTimer.setInterval(markerRepaintMs);
    connect(&m_markerTimer, &QTimer::timeout, this, [this] {
        if (m_markersDirty) {
            m_markersDirty = false;
            update();
        }
    });
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
    m_renderer->cancel();
    m_path = databasePath;
    m_overview.reset();
    m_result.reset();
    m_back.clear();
    m_forward.clear();
    m_marked.clear();
    m_current.reset();
    m_drag = Drag::None;
    m_extent = PlaneExtent {};
    m_view = m_extent.bounds;
    emit navigationChanged();
    if (databasePath.isEmpty()) {
        m_status = tr("No history");
        update();
        return;
    }
    m_status = tr("Loading %1…").arg(databasePath);
    update();

    m_loader.start(
        [databasePath](const JobTicket &ticket) { return loadOverview(databasePath, ticket.cancelPredicate()); },
        [this](std::shared_ptr<const HistoryOverview> overview) {
            if (overview)
                applyOverview(std::move(overview));
        });
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
    m_extent = extentFor(first, last, m_overview->fold);
    m_view = m_extent.bounds;
    m_status = m_overview->slices.empty() ? tr("The history is empty") : QString();
    requestRender();
    update();
    emit historyLoaded();
    emit visibleRangeChanged(visibleRange());
    emit navigationChanged();
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
    if (access && hasHistory()) {
        const ViewRange range = visibleRange();
        const bool visible = access->transition >= range.firstTransition && access->transition <= range.lastTransition
            && access->physical <= range.lastAddress && Address { lastByteOf(*access) } >= range.firstAddress;
        if (!visible) {
            // Centre it at the current zoom: the surroundings stay as legible as they were.
            const AddressFold &fold = m_overview->fold;
            const double x = double(access->transition.value) + 0.5;
            const double y = (fold.toDisplay(access->physical.value) + fold.toDisplayEnd(lastByteOf(*access))) / 2;
            PlaneViewport view = m_view;
            view.left = x - m_view.width() / 2;
            view.right = view.left + m_view.width();
            view.bottom = y - m_view.height() / 2;
            view.top = view.bottom + m_view.height();
            setViewport(view, true);
        }
    }
    update();
}

ViewRange PlaneWidget::visibleRange() const
{
    if (!hasHistory())
        return {};
    return toViewRange(m_view, m_overview->fold);
}

void PlaneWidget::setVisibleRange(const ViewRange &range)
{
    if (!hasHistory())
        return;
    setViewport(toViewport(range, m_overview->fold), true);
}

QList<ViewRange> PlaneWidget::occupiedRegions() const
{
    QList<ViewRange> result;
    if (!hasHistory() || m_overview->fold.isEmpty())
        return result;
    const ViewRange all = toViewRange(m_extent.bounds, m_overview->fold);
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
    // As wide as the longest label can be: hex digits are not equally wide in most fonts.
    const QString widest = formatAddress(hasHistory() ? m_overview->fold.lastAddress() : 0x7fff'ffff'ffffull);
    int digitWidth = 0;
    for (const QChar digit : QStringLiteral("0123456789abcdef"))
        digitWidth = std::max(digitWidth, fm.horizontalAdvance(digit));
    const int separators = int(widest.count(u'\''));
    const int digits = int(widest.size()) - 2 - separators;
    const int labelWidth
        = fm.horizontalAdvance(QStringLiteral("0x")) + digits * digitWidth + separators * fm.horizontalAdvance(u'\'');
    const int left = labelWidth + 16;
    const int top = fm.height() + 12;
    const int bottom = 2 * fm.height() + 10;
    const int right = 14;
    return QRect(left, top, std::max(1, width() - left - right), std::max(1, height() - top - bottom));
}

PixelMapping PlaneWidget::mapping() const
{
    return PixelMapping(m_view, QSizeF(plotRect().size()));
}

std::optional<QPointF> PlaneWidget::positionOf(Transition t, Address a) const
{
    if (!hasHistory())
        return std::nullopt;
    const PixelMapping map = mapping();
    const QRect plot = plotRect();
    const AddressFold &fold = m_overview->fold;
    const QPointF local(
        map.xToPixel(double(t.value) + 0.5), map.yToPixel((fold.toDisplay(a.value) + fold.toDisplayEnd(a.value)) / 2));
    if (local.x() < 0 || local.y() < 0 || local.x() >= plot.width() || local.y() >= plot.height())
        return std::nullopt;
    return local + QPointF(plot.topLeft());
}

void PlaneWidget::setViewport(const PlaneViewport &view, bool recordHistory)
{
    const PlaneViewport clamped = clampViewport(view, m_extent);
    if (clamped == m_view)
        return;
    if (recordHistory)
        pushHistory(m_view);
    m_view = clamped;
    requestRender();
    if (!m_rangeTimer.isActive())
        m_rangeTimer.start();
    update();
}

void PlaneWidget::pushHistory(const PlaneViewport &view)
{
    m_back.append(view);
    while (m_back.size() > maxHistory)
        m_back.removeFirst();
    m_forward.clear();
    emit navigationChanged();
}

void PlaneWidget::home()
{
    if (hasHistory())
        setViewport(m_extent.bounds, true);
}

void PlaneWidget::back()
{
    if (m_back.isEmpty())
        return;
    m_forward.append(m_view);
    m_view = clampViewport(m_back.takeLast(), m_extent);
    requestRender();
    m_rangeTimer.start();
    update();
    emit navigationChanged();
}

void PlaneWidget::forward()
{
    if (m_forward.isEmpty())
        return;
    m_back.append(m_view);
    m_view = clampViewport(m_forward.takeLast(), m_extent);
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
    request.view = m_view;
    request.pixels = plotRect().size() * devicePixelRatio();
    request.colors = colorsFor(palette());
    m_renderClock.restart();
    m_renderer->render(std::move(request));
}

void PlaneWidget::onRendered(const std::shared_ptr<const RenderResult> &result)
{
    // The renderer delivers only its newest request, but a result can still cross a newer request
    // in the event queue: never replace a newer image by an older one.
    if (result->generation <= m_shownGeneration && m_result)
        return;
    m_result = result;
    m_shownGeneration = result->generation;
    update();
    if (result->generation == m_requestedGeneration)
        emit renderFinished(m_renderClock.elapsed());
    if (underMouse())
        updateHover(mapFromGlobal(QCursor::pos()));
}

std::optional<Access> PlaneWidget::accessAt(QPointF position) const
{
    if (!hasHistory())
        return std::nullopt;
    const QRect plot = plotRect();
    const QPointF local = position - QPointF(plot.topLeft());
    if (local.x() < 0 || local.y() < 0 || local.x() >= plot.width() || local.y() >= plot.height())
        return std::nullopt;
    const PixelMapping map = mapping();
    const AddressFold &fold = m_overview->fold;

    // The accesses of the image shown, when it drew them: the last one drawn at the point wins (the
    // renderer draws by operation, writes last), then the closest within two pixels.
    if (m_result && m_result->accessDetail) {
        const auto &accesses = m_result->accesses;
        const double tFirst = std::floor(map.pixelToX(local.x() - 2));
        const double tLast = std::floor(map.pixelToX(local.x() + 2));
        auto it = std::partition_point(accesses.begin(), accesses.end(),
            [tFirst](const Access &a) { return double(a.transition.value) < tFirst; });
        const Access *best = nullptr;
        double bestDistance = 3;
        int bestRank = -1;
        for (; it != accesses.end() && double(it->transition.value) <= tLast; ++it) {
            const QRectF bar = accessBarRect(*it, map, fold);
            const double dx = std::max({ bar.left() - local.x(), local.x() - bar.right(), 0.0 });
            const double dy = std::max({ bar.top() - local.y(), local.y() - bar.bottom(), 0.0 });
            const double distance = std::max(dx, dy);
            const int rank = operationIndex(it->operation);
            if (distance < bestDistance || (distance == bestDistance && rank >= bestRank)) {
                best = &*it;
                bestDistance = distance;
                bestRank = rank;
            }
        }
        if (best)
            return *best;
    }
    // Otherwise a marked access whose marker is under the point.
    const Access *best = nullptr;
    double bestDistance = 5;
    for (const Access &access : m_marked) {
        const QPointF p(map.xToPixel(double(access.transition.value) + 0.5),
            map.yToPixel((fold.toDisplay(access.physical.value) + fold.toDisplayEnd(lastByteOf(access))) / 2));
        const double distance = std::max(std::abs(p.x() - local.x()), std::abs(p.y() - local.y()));
        if (distance < bestDistance) {
            best = &access;
            bestDistance = distance;
        }
    }
    return best ? std::optional<Access>(*best) : std::nullopt;
}

QString PlaneWidget::describePoint(QPointF position) const
{
    if (!hasHistory() || m_overview->slices.empty())
        return {};
    const QRect plot = plotRect();
    if (!plot.contains(position.toPoint()))
        return {};
    const PixelMapping map = mapping();
    const QPointF local = position - QPointF(plot.topLeft());
    const AddressFold &fold = m_overview->fold;
    const std::uint64_t t = std::uint64_t(std::max(0.0, std::floor(map.pixelToX(local.x()))));
    const double display = map.pixelToY(local.y());
    const std::uint64_t address = fold.toAddress(display);
    const int index = fold.segmentIndexAtDisplay(display);
    const FoldSegment &segment = fold.segments()[std::size_t(index)];

    QString text = tr("transition %1").arg(formatTransition(t));
    if (segment.folded) {
        text += tr(" · folded gap %1–%2 (%3 without chunks)")
                    .arg(formatAddress(segment.addresses.first), formatAddress(segment.addresses.last),
                        formatByteCount(segment.addresses.bytes()));
    } else {
        text += tr(" · address %1 · region %2/%3 (%4–%5)")
                    .arg(formatAddress(address))
                    .arg(index / 2 + 1)
                    .arg(fold.regionCount())
                    .arg(formatAddress(segment.addresses.first), formatAddress(segment.addresses.last));
    }
    if (const std::optional<Access> access = accessAt(position)) {
        text += tr(" · %1 of %2 bytes at %3, transition %4 (row %5)")
                    .arg(operationName(access->operation))
                    .arg(access->size)
                    .arg(formatAddress(access->physical.value), formatTransition(access->transition.value))
                    .arg(access->rowId.value);
    }
    return text;
}

void PlaneWidget::updateHover(QPointF position)
{
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
    const double factor = std::pow(wheelZoomPerNotch, angle / 120.0);
    const Qt::KeyboardModifiers modifiers = event->modifiers();
    const double fx = (modifiers & Qt::ShiftModifier) ? 1.0 : factor;
    const double fy = (modifiers & Qt::ControlModifier) ? 1.0 : factor;
    const QPointF local = event->position() - QPointF(plotRect().topLeft());
    const bool newGesture = !m_lastWheel.isValid() || m_lastWheel.elapsed() > wheelGestureMs;
    m_lastWheel.restart();
    setViewport(zoomViewport(m_view, m_extent, mapping().anchorAt(local), fx, fy), newGesture);
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
    m_pressView = m_view;
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
        const QRect plot = plotRect();
        const QPoint delta = position - m_pressPosition;
        // Dragging moves the picture with the cursor: right shows earlier transitions, down shows
        // higher addresses.
        setViewport(
            panViewport(m_pressView, m_extent, -double(delta.x()) / plot.width(), double(delta.y()) / plot.height()),
            false);
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
            const PixelMapping map = mapping();
            const QPointF local = event->position() - QPointF(plot.topLeft());
            const Transition t { std::uint64_t(std::max(0.0, std::floor(map.pixelToX(local.x())))) };
            const Address a { m_overview->fold.toAddress(map.pixelToY(local.y())) };
            emit pointClicked(t, a, accessAt(event->position()), event->modifiers());
        } else if (!(m_pressView == m_view)) {
            // The whole drag is one step back.
            pushHistory(m_pressView);
        }
    } else if (drag == Drag::RubberBand) {
        update();
        const QRect plot = plotRect();
        const QPointF a = QPointF(m_pressPosition - plot.topLeft());
        const QPointF b = event->position() - QPointF(plot.topLeft());
        const bool wide = std::abs(a.x() - b.x()) >= 5;
        const bool tall = std::abs(a.y() - b.y()) >= 5;
        if (!wide && !tall)
            return;
        PlaneViewport view = mapping().viewportOf(a, b);
        if (!wide) {
            view.left = m_view.left;
            view.right = m_view.right;
        }
        if (!tall) {
            view.bottom = m_view.bottom;
            view.top = m_view.top;
        }
        setViewport(view, true);
    }
}

void PlaneWidget::keyPressEvent(QKeyEvent *event)
{
    const bool alt = event->modifiers() & Qt::AltModifier;
    switch (event->key()) {
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
            const double factor = event->key() == Qt::Key_Minus ? 1 / 1.5 : 1.5;
            setViewport(zoomViewport(m_view, m_extent, QPointF(0.5, 0.5), factor, factor), true);
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
    const PlaneColors colors = colorsFor(palette());
    painter.fillRect(rect(), palette().color(QPalette::Window));
    painter.fillRect(plot, colors.background);

    if (!hasHistory() || !m_status.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, m_status);
        paintLegend(painter);
        return;
    }

    const PixelMapping map = mapping();
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
    paintFolds(painter, map);
    paintMarkers(painter, map);

    if (m_drag == Drag::RubberBand && m_dragMoved) {
        const QRect band = QRect(m_pressPosition, m_dragPosition).normalized().translated(-plot.topLeft());
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(40);
        painter.fillRect(band, fill);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        painter.drawRect(band.adjusted(0, 0, -1, -1));
    }
    painter.restore();

    painter.setPen(colors.sliceEdge);
    painter.drawRect(plot.adjusted(-1, -1, 0, 0));
    paintAxes(painter, map);
    paintLegend(painter);
}

void PlaneWidget::paintFolds(QPainter &painter, const PixelMapping &map) const
{
    const QSizeF size = map.pixels();
    const QColor band = mix(palette().color(QPalette::Window), palette().color(QPalette::Base), 0.3);
    const QColor edge = palette().color(QPalette::Mid);
    const QFontMetrics fm(font());
    for (const FoldSegment &segment : m_overview->fold.segments()) {
        if (!segment.folded)
            continue;
        const double top = map.yToPixel(segment.displayEnd());
        const double bottom = map.yToPixel(segment.displayStart);
        if (bottom < 0 || top > size.height())
            continue;
        const int y0 = int(std::floor(top));
        const int y1 = std::max(y0 + 3, int(std::ceil(bottom)));
        painter.fillRect(QRect(0, y0, int(size.width()), y1 - y0), band);
        // A zig-zag along both edges: the axis is cut here, as on a broken-axis chart.
        const int amplitude = std::min(3, (y1 - y0) / 2);
        painter.setPen(edge);
        for (const int y : { y0, y1 - 1 }) {
            QPolygon zigzag;
            for (int x = 0, i = 0; x <= int(size.width()) + 6; x += 6, ++i)
                zigzag << QPoint(x, y + ((i % 2) ? amplitude : 0) - (y == y0 ? 0 : amplitude));
            painter.drawPolyline(zigzag);
        }
        if (y1 - y0 >= fm.height() + 2) {
            painter.setPen(palette().color(QPalette::PlaceholderText));
            painter.drawText(QRect(8, y0, int(size.width()) - 16, y1 - y0), Qt::AlignVCenter | Qt::AlignLeft,
                tr("%1 without chunks folded").arg(formatByteCount(segment.addresses.bytes())));
        }
    }
}

void PlaneWidget::paintMarkers(QPainter &painter, const PixelMapping &map) const
{
    const AddressFold &fold = m_overview->fold;
    const QSizeF size = map.pixels();
    const auto centreOf = [&](const Access &access) {
        return QPointF(map.xToPixel(double(access.transition.value) + 0.5),
            map.yToPixel((fold.toDisplay(access.physical.value) + fold.toDisplayEnd(lastByteOf(access))) / 2));
    };
    if (!m_marked.isEmpty()) {
        // One marker per 3x3 cell at most: a million results cost a million cheap tests, not a
        // million drawn shapes.
        const int cellsX = int(size.width()) / 3 + 1;
        const int cellsY = int(size.height()) / 3 + 1;
        std::vector<bool> taken(std::size_t(cellsX) * std::size_t(cellsY), false);
        QPolygon shapes;
        painter.setPen(QPen(palette().color(QPalette::Text), 1));
        painter.setBrush(Qt::NoBrush);
        for (const Access &access : m_marked) {
            const QPointF p = centreOf(access);
            if (p.x() < -4 || p.y() < -4 || p.x() > size.width() + 4 || p.y() > size.height() + 4)
                continue;
            const int cx = std::clamp(int(p.x()) / 3, 0, cellsX - 1);
            const int cy = std::clamp(int(p.y()) / 3, 0, cellsY - 1);
            const std::size_t cell = std::size_t(cy) * std::size_t(cellsX) + std::size_t(cx);
            if (taken[cell])
                continue;
            taken[cell] = true;
            const QPoint c = p.toPoint();
            // A small hollow diamond: the bar under it stays visible.
            const QPoint diamond[5]
                = { c + QPoint(0, -4), c + QPoint(4, 0), c + QPoint(0, 4), c + QPoint(-4, 0), c + QPoint(0, -4) };
            painter.drawPolyline(diamond, 5);
        }
    }
    if (m_current) {
        const QPointF p = centreOf(*m_current);
        const QColor highlight = palette().color(QPalette::Highlight);
        QColor guide = highlight;
        guide.setAlpha(110);
        painter.setPen(QPen(guide, 1, Qt::DashLine));
        painter.drawLine(QPointF(p.x(), 0), QPointF(p.x(), size.height()));
        painter.drawLine(QPointF(0, p.y()), QPointF(size.width(), p.y()));
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(highlight, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(p, 7, 7);
        painter.setRenderHint(QPainter::Antialiasing, false);
    }
}

void PlaneWidget::paintAxes(QPainter &painter, const PixelMapping &map) const
{
    const QRect plot = plotRect();
    const QFontMetrics fm(font());
    const QColor text = palette().color(QPalette::WindowText);
    QColor grid = palette().color(QPalette::Text);
    grid.setAlpha(22);
    const AddressFold &fold = m_overview->fold;

    // Address axis: per visible region, power-of-two steps at least ~2.5 lines apart. Labels that
    // would overlap one already placed (at a region's edge) are skipped.
    const double labelSpacing = fm.height() * 2.5;
    const double pixelsPerDisplay = plot.height() / m_view.height();
    std::vector<std::pair<int, int>> placed; // label extents, top..bottom
    const auto overlaps = [&placed](int top, int bottom) {
        return std::any_of(
            placed.begin(), placed.end(), [&](const auto &p) { return top < p.second + 2 && bottom > p.first - 2; });
    };
    // First each visible region's lowest address at its lower edge (where a fold ends, the reader
    // needs to know where the axis picks up again), then the regular ticks around them.
    for (const FoldSegment &segment : fold.segments()) {
        if (segment.folded || segment.displayStart < m_view.bottom || segment.displayStart >= m_view.top)
            continue;
        const int y = plot.top() + int(std::lround(map.yToPixel(segment.displayStart)));
        const int labelTop = std::min(y - fm.height() / 2, plot.bottom() - fm.height() / 2);
        if (overlaps(labelTop, labelTop + fm.height()))
            continue;
        placed.emplace_back(labelTop, labelTop + fm.height());
        painter.setPen(text);
        painter.drawLine(plot.left() - 8, y, plot.left() - 1, y);
        painter.drawText(QRect(0, labelTop, plot.left() - 11, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            formatAddress(segment.addresses.first));
    }
    for (const FoldSegment &segment : fold.segments()) {
        if (segment.folded)
            continue;
        const double bottom = std::max(segment.displayStart, m_view.bottom);
        const double top = std::min(segment.displayEnd(), m_view.top);
        if (top <= bottom)
            continue;
        const double bytesPerPixel = 1.0 / (segment.scale() * pixelsPerDisplay);
        const std::uint64_t step = addressTickStep(labelSpacing * bytesPerPixel);
        const std::uint64_t first = fold.toAddress(bottom);
        const std::uint64_t last = fold.toAddress(std::nextafter(top, bottom));
        std::uint64_t tick = first % step == 0 ? first : first - first % step + step;
        if (tick < first)
            continue; // wrapped past 2^64 - 1
        for (int n = 0; tick <= last && n < 256; ++n) {
            const int y = plot.top() + int(std::lround(map.yToPixel(fold.toDisplay(tick))));
            const int labelTop = y - fm.height() / 2;
            if (y >= plot.top() && y <= plot.bottom() && !overlaps(labelTop, labelTop + fm.height())) {
                placed.emplace_back(labelTop, labelTop + fm.height());
                painter.setPen(text);
                painter.drawLine(plot.left() - 5, y, plot.left() - 1, y);
                painter.drawText(QRect(0, labelTop, plot.left() - 8, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                    formatAddress(tick));
                painter.setPen(grid);
                painter.drawLine(plot.left(), y, plot.right(), y);
            }
            if (last - tick < step)
                break;
            tick += step;
        }
    }

    // Transition axis: 1-2-5 steps with room for the widest label; ticks at the transition's centre.
    painter.setPen(text);
    const double pixelsPerTransition = plot.width() / m_view.width();
    const int labelWidth = fm.horizontalAdvance(formatTransition(std::uint64_t(std::max(0.0, m_view.right)))) + 28;
    const double step = transitionTickStep(labelWidth / pixelsPerTransition);
    double tick = std::ceil((m_view.left - 0.5) / step) * step;
    int lastRight = std::numeric_limits<int>::min();
    for (int n = 0; tick < m_view.right && n < 512; ++n, tick += step) {
        const int x = plot.left() + int(std::lround(map.xToPixel(tick + 0.5)));
        if (x < plot.left() || x > plot.right())
            continue;
        painter.setPen(text);
        painter.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 5);
        const QString label = formatTransition(std::uint64_t(tick));
        const int w = fm.horizontalAdvance(label);
        const int left = std::clamp(x - w / 2, plot.left() - 8, width() - w - 2);
        if (left > lastRight + 12) {
            painter.drawText(QRect(left, plot.bottom() + 6, w, fm.height()), Qt::AlignCenter, label);
            lastRight = left + w;
        }
        painter.setPen(grid);
        painter.drawLine(x, plot.top(), x, plot.bottom());
    }
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRect(plot.left(), plot.bottom() + 6 + fm.height(), plot.width(), fm.height() + 2),
        Qt::AlignRight | Qt::AlignVCenter, tr("transition →"));
    painter.drawText(QRect(4, 2, plot.left(), fm.height() + 6), Qt::AlignLeft | Qt::AlignVCenter, tr("address ↑"));
}

void PlaneWidget::paintLegend(QPainter &painter) const
{
    const PlaneColors colors = colorsFor(palette());
    const QRect plot = plotRect();
    const QFontMetrics fm(font());
    const int y = (plot.top() - fm.height()) / 2;
    int x = plot.left();
    const std::pair<QColor, QString> items[]
        = { { colors.read, tr("read") }, { colors.write, tr("write") }, { colors.execute, tr("execute") } };
    for (const auto &[color, label] : items) {
        const int box = fm.height() - 4;
        painter.fillRect(QRect(x, y + 2, box, box), color);
        x += box + 5;
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(x, y, fm.horizontalAdvance(label) + 2, fm.height()), Qt::AlignVCenter, label);
        x += fm.horizontalAdvance(label) + 16;
    }
    if (!hasHistory())
        return;
    QString detail;
    if (m_result)
        detail = m_result->accessDetail ? tr("accesses as size bars") : tr("chunks (zoom in to see accesses)");
    if (m_shownGeneration != m_requestedGeneration)
        detail += (detail.isEmpty() ? QString() : QStringLiteral(" · ")) + tr("rendering…");
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(QRect(x, y, plot.right() - x, fm.height()), Qt::AlignRight | Qt::AlignVCenter, detail);
}

} // namespace memhist
