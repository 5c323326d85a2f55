// SPDX-License-Identifier: MIT
#include "halfaxisfields.h"

#include "core/model/numbertext.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace memhist::viewer {

HalfAxisFields::HalfAxisFields(QWidget *parent)
{
    m_reads = new QCheckBox(tr("Reads"), parent);
    m_reads->setObjectName(QStringLiteral("readsCheck"));
    m_reads->setChecked(true);
    m_writes = new QCheckBox(tr("Writes"), parent);
    m_writes->setObjectName(QStringLiteral("writesCheck"));
    m_writes->setChecked(true);
    m_operationsRow = new QHBoxLayout;
    m_operationsRow->addWidget(m_reads);
    m_operationsRow->addWidget(m_writes);
    m_operationsRow->addStretch(1);

    m_direction = new QComboBox(parent);
    m_direction->setObjectName(QStringLiteral("directionCombo"));
    m_direction->addItem(tr("Forward from"));
    m_direction->addItem(tr("Backward from"));
    m_transition = new QLineEdit(parent);
    m_transition->setObjectName(QStringLiteral("transitionEdit"));
    m_transition->setPlaceholderText(tr("the start (forward) or the end (backward)"));
    m_timeRow = new QHBoxLayout;
    m_timeRow->addWidget(m_direction);
    m_timeRow->addWidget(m_transition, 1);

    m_error = new QLabel(parent);
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->hide();
}

bool HalfAxisFields::read(HalfAxisQuery *query, QString *error) const
{
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

void HalfAxisFields::showError(const QString &error)
{
    m_error->setText(error);
    m_error->show();
}

void HalfAxisFields::hideError()
{
    m_error->hide();
}

QString HalfAxisFields::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

} // namespace memhist::viewer
