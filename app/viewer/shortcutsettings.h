// SPDX-License-Identifier: MIT
// The window's shortcuts as the user chose them. Every action of the menus (but the recent files')
// is named by its menu path ("Go/Previous Write"); the keys the code gave it are its defaults, and
// Help ▸ Keyboard Shortcuts may store others in QSettings under "shortcuts/<name>" (portable text,
// comma separated; an empty string: no key). The overrides are applied to the actions themselves,
// so the menus, the toolbar's tooltips and Help ▸ Mouse and Keys show the keys that work.
#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

class QAction;
class QMenuBar;
class QSettings;

namespace memhist::viewer {

struct ShortcutEntry
{
    QString name; // "Go/Previous Write": the settings key under shortcuts/
    QString title; // "Go ▸ Previous Write": as the dialog shows it
    QAction *action = nullptr;
    QList<QKeySequence> defaults; // the keys the code gave the action
};

// The actions of `menus`' menus and their submenus, in menu order. The first call on an action
// records its keys as its defaults (so call it before any override is applied).
QList<ShortcutEntry> shortcutEntries(const QMenuBar *menus);

// The keys stored for `name`, else `defaults`.
QList<QKeySequence> storedShortcuts(
    const QSettings &settings, const QString &name, const QList<QKeySequence> &defaults);
// Stores `keys` for `name`; keys equal to the defaults remove the override.
void storeShortcuts(
    QSettings &settings, const QString &name, const QList<QKeySequence> &keys, const QList<QKeySequence> &defaults);

// Sets `keys` on the action, and rewrites a tooltip that names its old keys ("… (F7)").
void setActionShortcuts(QAction *action, const QList<QKeySequence> &keys);
// Applies the stored keys of every entry to its action (defaults where none are stored).
void applyStoredShortcuts(const QList<ShortcutEntry> &entries);

// Two or more actions sharing a key: Qt runs none of them (an ambiguous shortcut).
struct ShortcutConflict
{
    QKeySequence keys;
    QStringList titles; // in the entries' order
};
// The conflicts among `keys` (one list per entry, in the entries' order), in the order of the first
// entry of each.
QList<ShortcutConflict> shortcutConflicts(const QList<ShortcutEntry> &entries, const QList<QList<QKeySequence>> &keys);

// "F7, Shift+F7" as shown in the menus.
QString shortcutsText(const QList<QKeySequence> &keys);

} // namespace memhist::viewer
