#include "gotodialog.h"

#include <QCompleter>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace memhist::viewer {

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
        m_error->setText(error);
        m_error->show();
        m_edit->setFocus();
        return;
    }
    QDialog::accept();
}

} // namespace memhist::viewer
