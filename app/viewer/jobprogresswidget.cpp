// SPDX-License-Identifier: MIT
#include "jobprogresswidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace memhist::viewer {

JobProgressWidget::JobProgressWidget(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    // Permille, so the bar moves at the importer's 0.1 % steps.
    m_bar->setRange(0, 1000);
    m_bar->setFixedWidth(160);
    m_bar->setTextVisible(true);
    m_cancel->setObjectName(QStringLiteral("cancelJobButton"));
    m_cancel->setToolTip(tr("Stop the job; an import leaves nothing behind, a recording keeps what it recorded"));
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        // A job may take a moment to stop (a recording flushes what it has): one click is enough.
        m_cancel->setEnabled(false);
        emit cancelClicked();
    });
    hide();
}

void JobProgressWidget::begin(const QString &text)
{
    m_label->setText(text);
    m_bar->setRange(0, 0);
    m_cancel->setEnabled(true);
    show();
}

void JobProgressWidget::setProgress(double fraction, const QString &text)
{
    m_label->setText(text);
    if (fraction < 0) {
        m_bar->setRange(0, 0);
        return;
    }
    m_bar->setRange(0, 1000);
    m_bar->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
    m_bar->setFormat(QString::number(fraction * 100, 'f', 1) + QStringLiteral(" %"));
}

void JobProgressWidget::end()
{
    hide();
    setToolTip(QString()); // a phase's explanation goes with its job
    m_bar->setRange(0, 1000);
    m_bar->setValue(0);
}

} // namespace memhist::viewer
