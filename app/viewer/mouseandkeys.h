// SPDX-License-Identifier: MIT
// Help ▸ Mouse and Keys: every gesture of the plane and every shortcut of the window on one page.
// The shortcuts are read from the window's menus when the page opens, so the page lists what the
// keys do now, never a list kept by hand beside them.
#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>

class QMenuBar;

namespace memhist::viewer {

struct HelpEntry
{
    QString keys; // as shown: "Ctrl+click", "Alt+Left, Backspace"
    QString what;
    QList<QKeySequence> shortcuts; // the shortcuts of the action it describes (empty for a gesture)
};

// The mouse gestures on the plane.
QList<HelpEntry> mouseGestures();
// The shortcuts of every action in `menus`' menus and their submenus, in menu order.
QList<HelpEntry> menuShortcuts(const QMenuBar *menus);
// The page: a table of gestures, then one per menu of shortcuts.
QString mouseAndKeysHtml(const QList<HelpEntry> &gestures, const QList<HelpEntry> &shortcuts);

class MouseAndKeysDialog : public QDialog
{
    Q_OBJECT
public:
    MouseAndKeysDialog(const QMenuBar *menus, QWidget *parent = nullptr);

    const QList<HelpEntry> &shortcuts() const { return m_shortcuts; }
    const QList<HelpEntry> &gestures() const { return m_gestures; }

private:
    QList<HelpEntry> m_gestures;
    QList<HelpEntry> m_shortcuts;
};

} // namespace memhist::viewer
