// SPDX-License-Identifier: MIT
#include "findvaluedialog.h"

#include "core/model/numbertext.h"
#include "core/search/valuetext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace memhist::viewer {

FindValueDialog::FindValueDialog(AddressOf addressOf, QWidget *parent)
    : QDialog(parent)
    , m_addressOf(std::move(addressOf))
{
    setWindowTitle(tr("Find Value"));
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kindCombo"));
    m_kind->addItem(tr("Integer"));
    m_kind->addItem(tr("Hex bytes"));
    m_value = new QLineEdit(this);
    m_value->setObjectName(QStringLiteral("valueEdit"));
    m_size = new QComboBox(this);
    m_size->setObjectName(QStringLiteral("sizeCombo"));
    m_size->addItem(tr("1 byte"), 1);
    for (const int size : { 2, 4, 8 })
        m_size->addItem(tr("%1 bytes").arg(size), size);
    m_size->setCurrentIndex(2);
    const auto updateKind = [this] {
        const bool integer = m_kind->currentIndex() == 0;
        m_size->setEnabled(integer);
        m_value->setPlaceholderText(
            integer ? tr("42, -1 or 0x2a: stored little-endian") : tr("68 65 6c 6c 6f: bytes in memory order"));
    };
    connect(m_kind, &QComboBox::currentIndexChanged, this, updateKind);
    updateKind();
    auto *valueRow = new QHBoxLayout;
    valueRow->addWidget(m_kind);
    valueRow->addWidget(m_value, 1);
    valueRow->addWidget(m_size);

    m_from = new QLineEdit(this);
    m_from->setObjectName(QStringLiteral("fromEdit"));
    m_from->setPlaceholderText(tr("every address"));
    m_to = new QLineEdit(this);
    m_to->setObjectName(QStringLiteral("toEdit"));
    m_to->setPlaceholderText(tr("the first address + the value's size - 1"));

    // Created here, after the fields above: the focus moves through the widgets in that order.
    m_fields.emplace(this);
    auto *form = new QFormLayout;
    form->addRow(tr("Value:"), valueRow);
    form->addRow(tr("From address:"), m_from);
    form->addRow(tr("To address:"), m_to);
    form->addRow(tr("Accesses:"), m_fields->operationsRow());
    form->addRow(tr("Time:"), m_fields->timeRow());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Find"));
    connect(buttons, &QDialogButtonBox::accepted, this, &FindValueDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &FindValueDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_fields->errorLabel());
    layout->addWidget(buttons);
    setMinimumWidth(600);
}

QString FindValueDialog::errorText() const
{
    return m_fields->errorText();
}

bool FindValueDialog::readFields(ValueSearch *search, QString *error) const
{
    const QString value = m_value->text().trimmed();
    if (value.isEmpty()) {
        *error = tr("Type the value to find.");
        return false;
    }
    const bool integer = m_kind->currentIndex() == 0;
    if (integer ? !integerValue(tr("Value"), value, m_size->currentData().toInt(), &search->value, error)
                : !parseHexValue(tr("Value"), value, &search->value, error))
        return false;
    HalfAxisQuery &query = search->query;
    const QString from = m_from->text().trimmed();
    const QString to = m_to->text().trimmed();
    if (!from.isEmpty()) {
        std::uint64_t first = 0;
        if (!m_addressOf(from, &first, error))
            return false;
        std::uint64_t last = first + std::uint64_t(search->value.size()) - 1;
        if (!to.isEmpty() && !m_addressOf(to, &last, error))
            return false;
        if (last < first) {
            *error = tr("The last address is before the first.");
            return false;
        }
        query.first = Address { first };
        query.last = Address { last };
    } else if (!to.isEmpty()) {
        *error = tr("Give the first address too (or neither, for every address).");
        return false;
    }
    return m_fields->read(&query, error);
}

void FindValueDialog::accept()
{
    ValueSearch search;
    QString error;
    if (!readFields(&search, &error)) {
        m_fields->showError(error);
        return;
    }
    m_fields->hideError();
    m_search = search;
    QDialog::accept();
}

} // namespace memhist::viewer
