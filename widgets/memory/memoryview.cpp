// SPDX-License-Identifier: MIT
#include "widgets/memory/memoryview.h"

#include "core/model/numbertext.h"
#include "widgets/memory/memoryshades.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <QtMath>
#include <limits>

namespace memhist {

namespace {

constexpr std::uint64_t maxAddress = std::numeric_limits<std::uint64_t>::max();

// Rows a wheel notch (120 units) and a Page key move.
constexpr int rowsPerNotch = 3;

std::uint64_t alignedDown(std::uint64_t address)
{
    return address & ~std::uint64_t(memoryBytesPerRow - 1);
}

} // namespace

qreal MemoryView::Geometry::hexX(int column) const
{
    // Three characters a byte ("00 "), one more between the two halves of the row.
    return hexLeft + column * 3 * charWidth + (column >= memoryBytesPerRow / 2 ? charWidth : 0);
}

QRect MemoryView::Geometry::hexCell(int column, int y) const
{
    const int left = qRound(hexX(column) - charWidth / 2);
    const int right = qRound(hexX(column) + 2.5 * charWidth);
    return QRect(left, y, right - left, lineHeight);
}

QRect MemoryView::Geometry::charCell(int column, int y) const
{
    const int left = qRound(charsLeft + column * charWidth);
    const int right = qRound(charsLeft + (column + 1) * charWidth);
    return QRect(left, y, right - left, lineHeight);
}

MemoryView::MemoryView(QWidget *parent)
    : QWidget(parent)
{
    // A tenth smaller than the fixed font: a row of 16 bytes and their characters then fits beside
    // the results in a 1280 px wide window.
    // Every property set: a painter would otherwise fill the unset ones from the widget's (fixed) font.
    m_messageFont = font();
    m_messageFont.setResolveMask(QFont::AllPropertiesResolved);
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    fixed.setPointSizeF(fixed.pointSizeF() * 0.9);
    setFont(fixed);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
    updateGeometryHint();
}

MemoryView::Geometry MemoryView::geometry() const
{
    Geometry g;
    const QFontMetricsF metrics(font());
    g.charWidth = metrics.horizontalAdvance(u'0');
    g.lineHeight = qCeil(metrics.height()) + 3;
    g.headerHeight = g.lineHeight + 2;
    g.addressDigits = addressDigits(lastShown());
    g.hexLeft = g.margin + (2 + g.addressDigits + 2) * g.charWidth;
    // Two spaces after the last byte's digits, as after the address.
    g.charsLeft = g.hexX(memoryBytesPerRow) + g.charWidth;
    g.width = qCeil(g.charsLeft + memoryBytesPerRow * g.charWidth) + g.margin;
    return g;
}

void MemoryView::updateGeometryHint()
{
    const Geometry g = geometry();
    setMinimumWidth(g.width);
    updateGeometry();
}

QSize MemoryView::sizeHint() const
{
    const Geometry g = geometry();
    return { g.width, g.rowY(16) + g.margin };
}

QSize MemoryView::minimumSizeHint() const
{
    const Geometry g = geometry();
    return { g.width, g.rowY(2) + g.margin };
}

void MemoryView::setTop(Address top)
{
    const Address aligned { alignedDown(top.value) };
    if (aligned == m_top)
        return;
    const int digits = geometry().addressDigits;
    m_top = aligned;
    if (geometry().addressDigits != digits)
        updateGeometryHint();
    update();
}

int MemoryView::rowCount() const
{
    return m_rows;
}

Address MemoryView::lastShown() const
{
    const std::uint64_t span = std::uint64_t(m_rows) * memoryBytesPerRow - 1;
    return Address { m_top.value > maxAddress - span ? maxAddress : m_top.value + span };
}

void MemoryView::setSnapshot(const MemorySnapshot &snapshot)
{
    m_snapshot = snapshot;
    update();
    if (QToolTip::isVisible() && underMouse()) {
        // The byte under a tooltip may have changed with the transition: say what it is now.
        const QPoint position = mapFromGlobal(QCursor::pos());
        if (const std::optional<Address> address = byteAt(position))
            QToolTip::showText(QCursor::pos(), describeByte(*address), this);
    }
}

void MemoryView::setSelection(std::optional<std::pair<Address, Address>> bytes)
{
    if (bytes == m_selection)
        return;
    m_selection = bytes;
    update();
}

void MemoryView::setMessage(const QString &message)
{
    if (message == m_message)
        return;
    m_message = message;
    setCursor(m_message.isEmpty() ? Qt::PointingHandCursor : Qt::ArrowCursor);
    update();
}

std::optional<Address> MemoryView::byteAt(QPointF position) const
{
    if (!m_message.isEmpty())
        return std::nullopt;
    const Geometry g = geometry();
    const int row = int(std::floor((position.y() - g.rowY(0)) / g.lineHeight));
    if (position.y() < g.rowY(0) || row >= m_rows)
        return std::nullopt;
    int column = -1;
    const qreal x = position.x();
    for (int i = 0; i < memoryBytesPerRow && column < 0; ++i) {
        if (g.hexCell(i, 0).left() <= x && x < g.hexCell(i, 0).left() + g.hexCell(i, 0).width())
            column = i;
        else if (g.charCell(i, 0).left() <= x && x < g.charCell(i, 0).left() + g.charCell(i, 0).width())
            column = i;
    }
    if (column < 0)
        return std::nullopt;
    const std::uint64_t offset = std::uint64_t(row) * memoryBytesPerRow + std::uint64_t(column);
    if (m_top.value > maxAddress - offset)
        return std::nullopt;
    const Address address { m_top.value + offset };
    if (!m_snapshot.contains(address))
        return std::nullopt;
    return address;
}

QRect MemoryView::hexRect(Address address) const
{
    if (address < m_top || address > lastShown())
        return {};
    const Geometry g = geometry();
    const std::uint64_t offset = address.value - m_top.value;
    const int row = int(offset / memoryBytesPerRow);
    const int column = int(offset % memoryBytesPerRow);
    return g.hexCell(column, g.rowY(row));
}

QString MemoryView::text() const
{
    if (!m_message.isEmpty())
        return {};
    const int digits = geometry().addressDigits;
    QStringList lines;
    for (int row = 0; row < m_rows; ++row) {
        const std::uint64_t offset = std::uint64_t(row) * memoryBytesPerRow;
        if (m_top.value > maxAddress - offset)
            break;
        const Address address { m_top.value + offset };
        if (!m_snapshot.contains(address))
            continue;
        lines << rowText(m_snapshot, int((address.value - m_snapshot.first.value) / memoryBytesPerRow), digits);
    }
    return lines.join(u'\n');
}

QString MemoryView::describeByte(Address address) const
{
    if (!m_snapshot.contains(address))
        return {};
    const MemoryByte &byte = m_snapshot.byteAt(address);
    const QString at = countText(m_snapshot.at.value);
    const QString head = tr("%1: %2").arg(hexText(address.value), byteHex(byte));
    const QString row = countText(quint64(byte.rowId.value));
    switch (byte.knownBy) {
    case KnownBy::Write: {
        const std::uint64_t age = m_snapshot.at.value - byte.transition.value;
        const QString when = age == 0
            ? tr("at transition %1 itself").arg(at)
            : tr("at transition %1, %2 before %3")
                  .arg(countText(byte.transition.value),
                      age == 1 ? tr("1 transition") : tr("%1 transitions").arg(countText(age)), at);
        return tr("%1, written %2 (row %3).\nClick: select that write.").arg(head, when, row);
    }
    case KnownBy::Read:
        return tr("%1, as read at transition %2 (row %3), its last access up to %4.\nClick: select that read.")
            .arg(head, countText(byte.transition.value), row, at);
    case KnownBy::LaterRead:
        return tr("%1, as read later, at transition %2 (row %3): no access before, and no write in between.\n"
                  "Click: select that read.")
            .arg(head, countText(byte.transition.value), row);
    case KnownBy::Unknown:
        break;
    }
    return tr("%1: unknown after transition %2 (no access up to it, and the first one after writes it or has no "
              "value).")
        .arg(hexText(address.value), at);
}

bool MemoryView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        if (const std::optional<Address> address = byteAt(help->pos()))
            QToolTip::showText(help->globalPos(), describeByte(*address), this, hexRect(*address));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void MemoryView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const Geometry g = geometry();
    const QPalette &pal = palette();
    const MemoryShadeColors colors = memoryShadeColors(pal);
    painter.fillRect(rect(), pal.color(QPalette::Base));
    if (!m_message.isEmpty()) {
        // In the visible part (the view may be wider than the scroll area showing it).
        QRect visible = visibleRegion().boundingRect();
        if (visible.isEmpty())
            visible = rect();
        painter.setFont(m_messageFont);
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(visible.adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }

    const QFontMetricsF metrics(font());
    const qreal ascent = metrics.ascent() + (g.lineHeight - metrics.height()) / 2;
    QFont bold = font();
    bold.setBold(true);
    QFont italic = font();
    italic.setItalic(true);

    // The header: each column's offset in the row.
    painter.setPen(colors.muted);
    for (int i = 0; i < memoryBytesPerRow; ++i) {
        const QString offset = QString::number(i, 16);
        painter.drawText(QPointF(g.hexX(i), g.margin + ascent), QStringLiteral("%1").arg(offset, 2, u'0'));
        painter.drawText(QPointF(g.charsLeft + i * g.charWidth, g.margin + ascent), offset);
    }
    painter.setPen(colors.grid);
    painter.drawLine(g.margin, g.rowY(0) - 1, g.width - g.margin, g.rowY(0) - 1);

    for (int row = 0; row < m_rows; ++row) {
        const std::uint64_t rowOffset = std::uint64_t(row) * memoryBytesPerRow;
        if (m_top.value > maxAddress - rowOffset)
            break;
        const Address rowAddress { m_top.value + rowOffset };
        const int y = g.rowY(row);
        painter.setFont(font());
        painter.setPen(colors.muted);
        painter.drawText(QPointF(g.margin, y + ascent), rowAddressText(rowAddress, g.addressDigits));
        if (!m_snapshot.contains(rowAddress))
            continue;
        for (int i = 0; i < memoryBytesPerRow; ++i) {
            const Address address { rowAddress.value + std::uint64_t(i) };
            const MemoryByte &byte = m_snapshot.byteAt(address);
            const ByteShade shade = byteShade(byte, m_snapshot.at);
            const MemoryShadeColors::Shade &look = colors.of(shade);
            // The fill covers the byte's digits and half the space on each side, so that a run of
            // bytes written together reads as one block; the character gets the same fill.
            const QRect hexCell = g.hexCell(i, y);
            const QRect charCell = g.charCell(i, y);
            if (look.fill.isValid()) {
                painter.fillRect(hexCell, look.fill);
                painter.fillRect(charCell, look.fill);
            }
            painter.setFont(shade == ByteShade::WrittenNow ? bold : shade == ByteShade::LaterRead ? italic : font());
            painter.setPen(look.text);
            painter.drawText(QPointF(g.hexX(i), y + ascent), byteHex(byte));
            painter.drawText(QPointF(g.charsLeft + i * g.charWidth, y + ascent), QString(byteCharacter(byte)));
        }
    }

    // The selected access's bytes: a frame around each row's run of them, in the hex and the
    // character columns.
    if (m_selection) {
        painter.setFont(font());
        painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        const Address first = std::max(m_selection->first, m_top);
        const Address last = std::min(m_selection->second, lastShown());
        for (std::uint64_t address = first.value; first <= last && address <= last.value;) {
            const int row = int((address - m_top.value) / memoryBytesPerRow);
            const int begin = int((address - m_top.value) % memoryBytesPerRow);
            const std::uint64_t rowLast = std::min(last.value, alignedDown(address) + memoryBytesPerRow - 1);
            const int end = int((rowLast - m_top.value) % memoryBytesPerRow);
            const int y = g.rowY(row);
            const QRect hex = g.hexCell(begin, y).united(g.hexCell(end, y));
            const QRect characters = g.charCell(begin, y).united(g.charCell(end, y));
            painter.drawRect(hex.adjusted(1, 1, -1, -1));
            painter.drawRect(characters.adjusted(1, 1, -1, -1));
            if (rowLast == maxAddress)
                break;
            address = rowLast + 1;
        }
    }
    if (hasFocus()) {
        painter.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DotLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

void MemoryView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const Geometry g = geometry();
    const int rows = std::max(1, (height() - g.rowY(0) - g.margin) / g.lineHeight);
    if (rows != m_rows) {
        m_rows = rows;
        emit rowCountChanged();
    }
}

void MemoryView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateGeometryHint();
}

void MemoryView::wheelEvent(QWheelEvent *event)
{
    // Fractions of a notch (touchpads) add up to whole rows.
    m_wheelRemainder += -event->angleDelta().y() / 120.0 * rowsPerNotch;
    const qint64 rows = qint64(m_wheelRemainder);
    m_wheelRemainder -= qreal(rows);
    if (rows != 0)
        emit scrollRequested(rows);
    event->accept();
}

void MemoryView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Up:
        emit scrollRequested(-1);
        break;
    case Qt::Key_Down:
        emit scrollRequested(1);
        break;
    case Qt::Key_PageUp:
        emit scrollRequested(-std::max(1, m_rows - 1));
        break;
    case Qt::Key_PageDown:
        emit scrollRequested(std::max(1, m_rows - 1));
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void MemoryView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    setFocus(Qt::MouseFocusReason);
    if (const std::optional<Address> address = byteAt(event->position()))
        emit byteClicked(*address);
    event->accept();
}

} // namespace memhist
