// SPDX-License-Identifier: MIT
// Accesses by Function… (Ctrl+Shift+F): the accesses made by a function's instructions, or while it
// ran (with the functions it calls), of reads and/or writes, forward or backward from a transition
// — `memhist query --function NAME --accesses [--callees]` in a dialog. The name completes from the
// history's functions (those that ran); OK checks the fields and says what is wrong under them (the
// dialog stays open); the window then runs the query into the Results tab, marked on the plane.
#pragma once

#include "core/query/halfaxisquery.h"
#include "halfaxisfields.h"

#include <QDialog>
#include <QStringList>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace memhist::viewer {

class FunctionAccessesDialog : public QDialog
{
    Q_OBJECT

public:
    // `functionNames`: the history's functions (empty: it has no symbols, and OK says so).
    explicit FunctionAccessesDialog(const QStringList &functionNames, QWidget *parent = nullptr);

    // The query the fields describe, once accepted.
    const HalfAxisQuery &query() const { return m_query; }
    // Why the fields do not describe a query (empty when they do), as shown under them.
    QString errorText() const;

    // Starts with this name in the field (the function of the selected access, say).
    void setFunctionName(const QString &name);

    QLineEdit *nameEdit() const { return m_name; }
    QCheckBox *calleesCheck() const { return m_callees; }
    QCheckBox *readsCheck() const { return m_fields->readsCheck(); }
    QCheckBox *writesCheck() const { return m_fields->writesCheck(); }
    QComboBox *directionCombo() const { return m_fields->directionCombo(); }
    QLineEdit *transitionEdit() const { return m_fields->transitionEdit(); }

    void accept() override;

private:
    bool readFields(HalfAxisQuery *query, QString *error) const;
    // Whether a function named `typed` ran: a name of the list, or a C++ function's name without
    // its parameters (as the engine resolves it).
    bool isKnownName(const QString &typed) const;

    QStringList m_functionNames;
    HalfAxisQuery m_query;
    QLineEdit *m_name = nullptr;
    QCheckBox *m_callees = nullptr;
    std::optional<HalfAxisFields> m_fields; // built in the constructor, in focus order
};

} // namespace memhist::viewer
