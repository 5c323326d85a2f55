// SPDX-License-Identifier: MIT
#include "shortcutsettings.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>

namespace memhist::viewer {

namespace {

constexpr auto defaultsProperty = "memhistDefaultShortcuts";
const QString settingsGroup = QStringLiteral("shortcuts/");

QString plainText(const QAction *action)
{
    QString text = action->text();
    text.remove(u'&');
    if (text.endsWith(u'…'))
        text.chop(1);
    return text.trimmed();
}

void collect(const QMenu *menu, const QString &name, const QString &title, QList<ShortcutEntry> *entries)
{
    for (QAction *action : menu->actions()) {
        if (action->isSeparator())
            continue;
        // A settings key has no slash of its own: "/" separates its groups.
        const QString text = plainText(action);
        QString part = text;
        part.replace(u'/', u'-');
        if (QMenu *submenu = action->menu()) {
            // The recent files change with every history opened: no key of theirs is kept.
            if (submenu->property("memhistNoShortcuts").toBool())
                continue;
            collect(submenu, name + part + u'/', title + text + QStringLiteral(" ▸ "), entries);
            continue;
        }
        if (text.isEmpty())
            continue;
        QVariant defaults = action->property(defaultsProperty);
        if (!defaults.isValid()) {
            defaults = QVariant::fromValue(action->shortcuts());
            action->setProperty(defaultsProperty, defaults);
        }
        entries->append({ name + part, title + text, action, defaults.value<QList<QKeySequence>>() });
    }
}

QString portableText(const QList<QKeySequence> &keys)
{
    QStringList texts;
    for (const QKeySequence &key : keys)
        texts << key.toString(QKeySequence::PortableText);
    return texts.join(QStringLiteral(", "));
}

} // namespace

QList<ShortcutEntry> shortcutEntries(const QMenuBar *menus)
{
    QList<ShortcutEntry> entries;
    for (QAction *action : menus->actions()) {
        if (action->menu()) {
            const QString text = plainText(action);
            collect(action->menu(), text + u'/', text + QStringLiteral(" ▸ "), &entries);
        }
    }
    return entries;
}

QList<QKeySequence> storedShortcuts(const QSettings &settings, const QString &name, const QList<QKeySequence> &defaults)
{
    const QVariant stored = settings.value(settingsGroup + name);
    if (!stored.isValid())
        return defaults;
    QList<QKeySequence> keys;
    for (const QKeySequence &key : QKeySequence::listFromString(stored.toString(), QKeySequence::PortableText)) {
        if (!key.isEmpty())
            keys << key;
    }
    return keys;
}

void storeShortcuts(
    QSettings &settings, const QString &name, const QList<QKeySequence> &keys, const QList<QKeySequence> &defaults)
{
    if (keys == defaults)
        settings.remove(settingsGroup + name);
    else
        settings.setValue(settingsGroup + name, portableText(keys));
}

void setActionShortcuts(QAction *action, const QList<QKeySequence> &keys)
{
    const QString old = shortcutsText(action->shortcuts());
    QString tip = action->toolTip();
    const QString suffix = QStringLiteral(" (%1)").arg(old);
    if (!old.isEmpty() && tip.endsWith(suffix)) {
        tip.chop(suffix.size());
        action->setToolTip(keys.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, shortcutsText(keys)));
    }
    action->setShortcuts(keys);
}

void applyStoredShortcuts(const QList<ShortcutEntry> &entries)
{
    const QSettings settings;
    for (const ShortcutEntry &entry : entries) {
        const QList<QKeySequence> keys = storedShortcuts(settings, entry.name, entry.defaults);
        if (keys != entry.action->shortcuts())
            setActionShortcuts(entry.action, keys);
    }
}

QList<ShortcutConflict> shortcutConflicts(const QList<ShortcutEntry> &entries, const QList<QList<QKeySequence>> &keys)
{
    QList<ShortcutConflict> conflicts;
    for (qsizetype i = 0; i < entries.size() && i < keys.size(); ++i) {
        for (const QKeySequence &key : keys[i]) {
            const bool known = std::any_of(conflicts.cbegin(), conflicts.cend(),
                [&key](const ShortcutConflict &conflict) { return conflict.keys == key; });
            if (known)
                continue;
            ShortcutConflict conflict { key, { entries[i].title } };
            for (qsizetype j = i + 1; j < entries.size() && j < keys.size(); ++j) {
                // One action reached from two menus is no conflict.
                if (keys[j].contains(key) && entries[j].action != entries[i].action)
                    conflict.titles << entries[j].title;
            }
            if (conflict.titles.size() > 1)
                conflicts << conflict;
        }
    }
    return conflicts;
}

QString shortcutsText(const QList<QKeySequence> &keys)
{
    QStringList texts;
    for (const QKeySequence &key : keys)
        texts << key.toString(QKeySequence::NativeText);
    return texts.join(QStringLiteral(", "));
}

} // namespace memhist::viewer
