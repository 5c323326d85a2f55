// SPDX-License-Identifier: MIT
#include "elidedlabel.h"

#include <QPainter>
#include <QStyle>

namespace memhist::viewer {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QFrame(parent)
{
    // Expanding yet ignorable: the label takes the room there is and never pushes its neighbours.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void ElidedLabel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateToolTip();
    update();
}

QString ElidedLabel::shownText() const
{
    return fontMetrics().elidedText(m_text.section(u'\n', 0, 0), Qt::ElideRight, contentsRect().width());
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return { fontMetrics().horizontalAdvance(m_text.section(u'\n', 0, 0)) + m.left() + m.right(),
        fontMetrics().height() + m.top() + m.bottom() };
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QMargins m = contentsMargins();
    return { fontMetrics().horizontalAdvance(QStringLiteral("…")) * 8, fontMetrics().height() + m.top() + m.bottom() };
}

void ElidedLabel::paintEvent(QPaintEvent *event)
{
    QFrame::paintEvent(event);
    QPainter painter(this);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(contentsRect(), Qt::AlignLeft | Qt::AlignVCenter, shownText());
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    updateToolTip();
}

void ElidedLabel::updateToolTip()
{
    // The whole text whenever some of it is not shown: cut, or on further lines.
    setToolTip(isElided() || m_text.contains(u'\n') ? m_text : QString());
}

} // namespace memhist::viewer
