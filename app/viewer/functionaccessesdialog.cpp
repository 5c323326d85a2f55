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

    // Created here, after the fields above: the focus moves through the widgets in that order.
    m_fields.emplace(this);
    auto *form = new QFormLayout;
    form->addRow(tr("Function:"), m_name);
    form->addRow(QString(), m_callees);
    form->addRow(tr("Accesses:"), m_fields->operationsRow());
    form->addRow(tr("Time:"), m_fields->timeRow());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Show Accesses"));
    connect(buttons, &QDialogButtonBox::accepted, this, &FunctionAccessesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &FunctionAccessesDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_fields->errorLabel());
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

QString FunctionAccessesDialog::errorText() const
{
    return m_fields->errorText();
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
    return m_fields->read(query, error);
}

void FunctionAccessesDialog::accept()
{
    HalfAxisQuery query;
    QString error;
    if (!readFields(&query, &error)) {
        m_fields->showError(error);
        return;
    }
    m_fields->hideError();
    m_query = query;
    QDialog::accept();
}

} // namespace memhist::viewer
