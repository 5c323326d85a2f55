// SPDX-License-Identifier: MIT
#include "functionaccessesdialog.h"

#include "core/model/numbertext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStringListModel>

namespace memhist::viewer {

FunctionAccessesDialog::FunctionAccessesDialog(const QStringList &functionNames, QWidget *parent)
    : QDialog(parent)
    , m_functionNames(functionNames)
{
    setWindowTitle(tr("Accesses by Function"));
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("functionEdit"));
    m_name->setPlaceholderText(functionNames.isEmpty() ? tr("this history has no function names")
                                                       : tr("main, or a C++ name without its parameters"));
    auto *completer = new QCompleter(new QStringListModel(functionNames, this), this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    completer->setMaxVisibleItems(16);
    m_name->setCompleter(completer);
    m_callees = new QCheckBox(tr("Include the functions it calls (everything from each call to its return)"), this);
    m_callees->setObjectName(QStringLiteral("calleesCheck"));

    m_reads = new QCheckBox(tr("Reads"), this);
    m_reads->setObjectName(QStringLiteral("readsCheck"));
    m_reads->setChecked(true);
    m_writes = new QCheckBox(tr("Writes"), this);
    m_writes->setObjectName(QStringLiteral("writesCheck"));
    m_writes->setChecked(true);
    auto *operations = new QHBoxLayout;
    operations->addWidget(m_reads);
    operations->addWidget(m_writes);
    operations->addStretch(1);
    m_direction = new QComboBox(this);
    m_direction->setObjectName(QStringLiteral("directionCombo"));
    m_direction->addItem(tr("Forward from"));
    m_direction->addItem(tr("Backward from"));
    m_transition = new QLineEdit(this);
    m_transition->setObjectName(QStringLiteral("transitionEdit"));
    m_transition->setPlaceholderText(tr("the start (forward) or the end (backward)"));
    auto *time = new QHBoxLayout;
    time->addWidget(m_direction);
    time->addWidget(m_transition, 1);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Function:"), m_name);
    form->addRow(QString(), m_callees);
    form->addRow(tr("Accesses:"), operations);
    form->addRow(tr("Time:"), time);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Show Accesses"));
    connect(buttons, &QDialogButtonBox::accepted, this, &FunctionAccessesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &FunctionAccessesDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

QString FunctionAccessesDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void FunctionAccessesDialog::setFunctionName(const QString &name)
{
    m_name->setText(name);
    m_name->selectAll();
}

bool FunctionAccessesDialog::isKnownName(const QString &typed) const
{
    const QString withParameters = typed + u'(';
    for (const QString &name : m_functionNames) {
        if (name == typed || name.startsWith(withParameters))
            return true;
    }
    return false;
}

bool FunctionAccessesDialog::readFields(HalfAxisQuery *query, QString *error) const
{
    if (m_functionNames.isEmpty()) {
        *error = tr("This history has no function names (no symbols): import a trace with its program's modules, "
                    "or record the program with memhist record.");
        return false;
    }
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) {
        *error = tr("Type the name of a function.");
        return false;
    }
    if (!isKnownName(name)) {
        QStringList close;
        for (const QString &known : m_functionNames) {
            if (known.contains(name, Qt::CaseInsensitive))
                close << known;
        }
        std::sort(close.begin(), close.end(),
            [](const QString &a, const QString &b) { return a.size() != b.size() ? a.size() < b.size() : a < b; });
        *error = close.isEmpty() ? tr("No function named '%1' ran in this history.").arg(name)
                                 : tr("No function named '%1' ran in this history; did you mean %2?")
                                       .arg(name, close.mid(0, 5).join(QStringLiteral(", ")));
        return false;
    }
    query->function = FunctionFilter { name, m_callees->isChecked() };
    query->operations = {};
    if (m_reads->isChecked())
        query->operations |= Operation::Read;
    if (m_writes->isChecked())
        query->operations |= Operation::Write;
    if (query->operations == Operations()) {
        *error = tr("Choose reads, writes or both.");
        return false;
    }
    query->direction = m_direction->currentIndex() == 0 ? Direction::Forward : Direction::Backward;
    const QString transition = m_transition->text().trimmed();
    if (!transition.isEmpty()) {
        std::uint64_t at = 0;
        if (!parseTypedNumber(transition, &at)) {
            *error = tr("'%1' is not a transition (a number, decimal or 0x hex).").arg(transition);
            return false;
        }
        query->at = Transition { at };
    }
    return true;
}

void FunctionAccessesDialog::accept()
{
    HalfAxisQuery query;
    QString error;
    if (!readFields(&query, &error)) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    m_error->hide();
    m_query = query;
    QDialog::accept();
}

} // namespace memhist::viewer
