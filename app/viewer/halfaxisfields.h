// SPDX-License-Identifier: MIT
// The fields Find Value… and Accesses by Function… share: which operations (reads, writes), which
// direction from which transition, and the line under the form that says what is wrong. One place
// builds them, reads them into a HalfAxisQuery and shows the error, so both dialogs ask and answer
// alike.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QCoreApplication>
#include <QString>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QWidget;

namespace memhist::viewer {

class HalfAxisFields
{
    Q_DECLARE_TR_FUNCTIONS(memhist::viewer::HalfAxisFields)

public:
    // The widgets, children of `parent`; the rows are laid out by the dialog's form.
    explicit HalfAxisFields(QWidget *parent);

    // "Reads  Writes" and "Forward from [transition]", for the form's "Accesses:" and "Time:" rows.
    QHBoxLayout *operationsRow() const { return m_operationsRow; }
    QHBoxLayout *timeRow() const { return m_timeRow; }
    // Below the form; hidden while there is nothing to say.
    QLabel *errorLabel() const { return m_error; }

    // The operations, direction and start into *query (its other fields untouched). False and
    // *error when they do not describe a query.
    bool read(HalfAxisQuery *query, QString *error) const;

    void showError(const QString &error);
    void hideError();
    // The error shown, or empty.
    QString errorText() const;

    QCheckBox *readsCheck() const { return m_reads; }
    QCheckBox *writesCheck() const { return m_writes; }
    QComboBox *directionCombo() const { return m_direction; }
    QLineEdit *transitionEdit() const { return m_transition; }

private:
    QCheckBox *m_reads = nullptr;
    QCheckBox *m_writes = nullptr;
    QComboBox *m_direction = nullptr;
    QLineEdit *m_transition = nullptr;
    QLabel *m_error = nullptr;
    QHBoxLayout *m_operationsRow = nullptr;
    QHBoxLayout *m_timeRow = nullptr;
};

} // namespace memhist::viewer
