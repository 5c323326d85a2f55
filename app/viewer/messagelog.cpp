// SPDX-License-Identifier: MIT
#include "messagelog.h"

#include <QFontDatabase>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTime>
#include <QVBoxLayout>

namespace memhist::viewer {

namespace {

// A recorded program can print without end: the log keeps its last this many blocks (lines).
constexpr int maxBlocks = 50000;

} // namespace

MessageLog::MessageLog(QWidget *parent)
    : QWidget(parent)
    , m_view(new QPlainTextEdit(this))
{
    m_view->setObjectName(QStringLiteral("logView"));
    m_view->setReadOnly(true);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setMaximumBlockCount(maxBlocks);
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->setPlaceholderText(tr("Import warnings and the output of recorded programs appear here."));
    auto *clear = new QPushButton(tr("Clear"), this);
    clear->setObjectName(QStringLiteral("clearLogButton"));
    connect(clear, &QPushButton::clicked, m_view, &QPlainTextEdit::clear);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(clear, 0, Qt::AlignRight);
}

void MessageLog::append(const QString &heading, const QString &text)
{
    m_view->appendPlainText(
        QStringLiteral("[%1] %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), heading));
    m_view->appendPlainText(text);
    m_view->appendPlainText(QString());
    m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->maximum());
    emit appended(heading);
}

QString MessageLog::text() const
{
    return m_view->toPlainText();
}

} // namespace memhist::viewer
