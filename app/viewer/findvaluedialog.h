// SPDX-License-Identifier: MIT
// Find Value… (Ctrl+F): the accesses whose bytes contain a value (hex bytes in memory order, or an
// integer of 1, 2, 4 or 8 bytes), in an address range, of reads and/or writes, forward or backward
// from a transition — `memhist search` in a dialog. OK checks the fields and says what is wrong
// under them (the dialog stays open); the window then runs the search into the Results tab.
#pragma once

#include "core/search/valuesearch.h"
#include "halfaxisfields.h"

#include <QDialog>
#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace memhist::viewer {

class FindValueDialog : public QDialog
{
    Q_OBJECT

public:
    // `addressOf(text, &address, &error)`: an address or symbol, as Go to Address reads it.
    using AddressOf = std::function<bool(const QString &text, std::uint64_t *address, QString *error)>;

    explicit FindValueDialog(AddressOf addressOf, QWidget *parent = nullptr);

    // The search the fields describe, once accepted.
    const ValueSearch &search() const { return m_search; }
    // Why the fields do not describe a search (empty when they do), as shown under them.
    QString errorText() const;

    QLineEdit *valueEdit() const { return m_value; }
    QComboBox *kindCombo() const { return m_kind; }
    QComboBox *sizeCombo() const { return m_size; }
    QLineEdit *fromEdit() const { return m_from; }
    QLineEdit *toEdit() const { return m_to; }
    QLineEdit *transitionEdit() const { return m_fields->transitionEdit(); }
    QCheckBox *readsCheck() const { return m_fields->readsCheck(); }
    QCheckBox *writesCheck() const { return m_fields->writesCheck(); }
    QComboBox *directionCombo() const { return m_fields->directionCombo(); }

    void accept() override;

private:
    bool readFields(ValueSearch *search, QString *error) const;

    AddressOf m_addressOf;
    ValueSearch m_search;
    QComboBox *m_kind = nullptr;
    QLineEdit *m_value = nullptr;
    QComboBox *m_size = nullptr;
    QLineEdit *m_from = nullptr;
    QLineEdit *m_to = nullptr;
    std::optional<HalfAxisFields> m_fields; // built in the constructor, in focus order
};

} // namespace memhist::viewer
