// SPDX-License-Identifier: MIT
#include "statuspanel.h"

#include "elidedlabel.h"

#include <QApplication>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>

namespace memhist::viewer {

QString StatusPanel::defaultHoverText()
{
    return tr("Point at the plane: the transition, the address and the access under the cursor");
}

QString StatusPanel::clickHintText()
{
    return tr("Click: the accesses from then on · Ctrl+click: those before it · F1: mouse and keys");
}

StatusPanel::StatusPanel(QWidget *parent)
    : QWidget(parent)
    , m_hover(new ElidedLabel(this))
    , m_hint(new QLabel(clickHintText(), this))
    , m_warningsBox(new QWidget(this))
    , m_warningsText(new ElidedLabel(m_warningsBox))
    , m_summary(new QLabel(this))
    , m_summaryText(tr("No history open: File ▸ Open, or drop a .memhist or a trace here"))
    , m_tipCheck(new QTimer(this))
{
    setObjectName(QStringLiteral("statusPanel"));
    m_hover->setObjectName(QStringLiteral("hoverLabel"));
    m_hover->setText(defaultHoverText());
    m_tipCheck->setInterval(250);
    connect(m_tipCheck, &QTimer::timeout, this, &StatusPanel::checkStatusTip);
    m_hint->setObjectName(QStringLiteral("clickHintLabel"));
    m_hint->setToolTip(tr("Click and Ctrl+click query the bytes of the access under the cursor (else the toolbar's "
                          "window around the point); Help ▸ Mouse and Keys lists every gesture"));
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_warningsBox->setObjectName(QStringLiteral("importWarnings"));
    m_warningsText->setObjectName(QStringLiteral("importWarningsLabel"));
    auto *icon = new QLabel(m_warningsBox);
    const int iconSize = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize, iconSize));
    auto *warningsLayout = new QHBoxLayout(m_warningsBox);
    warningsLayout->setContentsMargins(0, 0, 0, 0);
    warningsLayout->setSpacing(4);
    warningsLayout->addWidget(icon);
    warningsLayout->addWidget(m_warningsText, 1);
    m_warningsBox->hide();

    auto *firstLine = new QHBoxLayout;
    firstLine->addWidget(m_hover, 1);
    firstLine->addSpacing(12);
    firstLine->addWidget(m_hint);
    auto *secondLine = new QHBoxLayout;
    secondLine->addWidget(m_warningsBox, 1);
    secondLine->addStretch(0);
    secondLine->addSpacing(12);
    secondLine->addWidget(m_summary);
    auto *lines = new QVBoxLayout(this);
    lines->setContentsMargins(2, 0, 2, 0);
    lines->setSpacing(1);
    lines->addLayout(firstLine);
    lines->addLayout(secondLine);
    fitSummary();
}

void StatusPanel::setHoverText(const QString &text)
{
    m_hoverText = text;
    m_tip.clear();
    m_tipCheck->stop();
    m_hover->setText(text.isEmpty() ? defaultHoverText() : text);
}

void StatusPanel::showStatusTip(const QString &tip)
{
    m_tip = tip;
    if (tip.isEmpty()) {
        m_tipCheck->stop();
        m_hover->setText(m_hoverText.isEmpty() ? defaultHoverText() : m_hoverText);
        return;
    }
    m_tipCheck->start();
    m_hover->setText(tip);
}

void StatusPanel::checkStatusTip()
{
    for (const QWidget *widget = QApplication::widgetAt(QCursor::pos()); widget; widget = widget->parentWidget()) {
        if (widget->statusTip() == m_tip || qobject_cast<const QMenu *>(widget))
            return;
    }
    showStatusTip(QString());
}

QString StatusPanel::hoverText() const
{
    return m_hover->text().section(u'\n', 0, 0);
}

void StatusPanel::setSummary(const QString &text, const QString &toolTip)
{
    m_summaryText = text;
    m_summaryToolTip = toolTip;
    fitSummary();
}

void StatusPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSummary();
}

void StatusPanel::fitSummary()
{
    // The line's width less its margins, the gap before the summary and the warnings beside it.
    const QMargins margins = layout()->contentsMargins();
    int room = width() - margins.left() - margins.right() - 12;
    if (!m_warningsBox->isHidden())
        room -= m_warningsBox->minimumSizeHint().width();
    const QString shown = m_summary->fontMetrics().elidedText(m_summaryText, Qt::ElideRight, std::max(room, 0));
    m_summary->setText(shown);
    const bool elided = shown != m_summaryText;
    m_summary->setToolTip(elided && !m_summaryText.isEmpty()
            ? m_summaryText + (m_summaryToolTip.isEmpty() ? QString() : QStringLiteral("\n\n") + m_summaryToolTip)
            : m_summaryToolTip);
}

void StatusPanel::setImportWarnings(const QStringList &warnings)
{
    m_warnings = warnings;
    m_warningsBox->setVisible(!warnings.isEmpty());
    fitSummary();
    if (warnings.isEmpty())
        return;
    const QString &first = warnings.constFirst();
    m_warningsText->setText(warnings.size() == 1 ? tr("Import warning: %1").arg(first)
                                                 : tr("%1 import warnings: %2 …").arg(warnings.size()).arg(first));
    m_warningsBox->setToolTip(
        warnings.join(u'\n') + QStringLiteral("\n\n") + tr("They are also in the Log panel (View ▸ Log)."));
}

} // namespace memhist::viewer
