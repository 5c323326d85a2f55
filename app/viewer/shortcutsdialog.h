// SPDX-License-Identifier: MIT
// Help ▸ Keyboard Shortcuts: every action of the menus with its keys, editable. A key pressed in the
// Key field becomes the selected action's key; Clear leaves it none, Default gives back its own.
// Keys that two actions share are named under the list (Qt would run neither), and OK waits until
// none are left. OK stores what differs from the defaults in QSettings and applies it at once.
#pragma once

#include "shortcutsettings.h"

#include <QDialog>

class QDialogButtonBox;
class QKeySequenceEdit;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace memhist::viewer {

class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(const QList<ShortcutEntry> &entries, QWidget *parent = nullptr);
    ~ShortcutsDialog() override;

    // The keys as edited so far, one list per entry.
    const QList<QList<QKeySequence>> &keys() const { return m_keys; }
    // The conflicts' text under the list (empty: none).
    QString conflictText() const;
    // Selects the entry named `name` ("Go/Previous Write"); false when there is none.
    bool selectEntry(const QString &name);

    void accept() override;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showSelected();
    void setSelectedKeys(const QList<QKeySequence> &keys);
    void restoreAllDefaults();
    void updateRows();

    QList<ShortcutEntry> m_entries;
    QList<QList<QKeySequence>> m_keys;
    QTreeWidget *m_list = nullptr;
    QKeySequenceEdit *m_keyEdit = nullptr;
    QPushButton *m_clearButton = nullptr;
    QPushButton *m_defaultButton = nullptr;
    QLabel *m_conflicts = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace memhist::viewer
