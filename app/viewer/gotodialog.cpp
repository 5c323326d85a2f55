// SPDX-License-Identifier: MIT
#include "gotodialog.h"

#include "core/model/numbertext.h"

#include <QCompleter>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <algorithm>

namespace memhist::viewer {

QString transitionOutOfRange(std::uint64_t value, Transition first, Transition last)
{
    if (value > last.value)
        return GoToDialog::tr("%1 is after the last transition (%2).").arg(countText(value), countText(last.value));
    if (value < first.value)
        return GoToDialog::tr("%1 is before the first transition (%2).").arg(countText(value), countText(first.value));
    return {};
}

QString transitionPlaceholder(Transition first, Transition last)
{
    const std::uint64_t middle = first.value + (last.value - std::min(first.value, last.value)) / 2;
    return countText(middle);
}

GoToDialog::GoToDialog(const QString &title, const QString &label, const QString &placeholder, Go go, QWidget *parent)
    : QDialog(parent)
    , m_go(std::move(go))
{
    setWindowTitle(title);
    setObjectName(QStringLiteral("goToDialog"));
    auto *prompt = new QLabel(label, this);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("goToEdit"));
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setPlaceholderText(placeholder);
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(320);
    prompt->setBuddy(m_edit);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("goToError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setFrameShape(QFrame::StyledPanel);
    m_error->setMargin(4);
    m_error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_edit, &QLineEdit::textEdited, m_error, &QWidget::hide);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(prompt);
    layout->addWidget(m_edit);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

void GoToDialog::setCompleter(QCompleter *completer)
{
    m_edit->setCompleter(completer);
}

QString GoToDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void GoToDialog::accept()
{
    QString error;
    if (!m_go(m_edit->text().trimmed(), &error)) {
        showError(error);
        m_edit->setFocus();
        return;
    }
    QDialog::accept();
}

void GoToDialog::showError(const QString &error)
{
    m_error->setText(error);
    m_error->show();
    // A top-level window's layout does not grow it for a word-wrapped label's height at its width
    // (heightForWidth): without this the message is cut after its first line.
    layout()->activate();
    const int needed = layout()->totalHeightForWidth(width());
    if (needed > height())
        resize(width(), needed);
}

} // namespace memhist::viewer
