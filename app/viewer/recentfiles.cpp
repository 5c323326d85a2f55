// SPDX-License-Identifier: MIT
#include "recentfiles.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace memhist::viewer {

namespace {
constexpr auto recentKey = "recentFiles";
}

RecentFiles::RecentFiles(QMenu *menu, QObject *parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuildMenu();
}

QStringList RecentFiles::paths() const
{
    return QSettings().value(QLatin1String(recentKey)).toStringList();
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = paths();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > maximum)
        list.removeLast();
    store(list);
}

void RecentFiles::clear()
{
    store({});
}

void RecentFiles::store(const QStringList &paths)
{
    QSettings().setValue(QLatin1String(recentKey), paths);
    rebuildMenu();
}

void RecentFiles::rebuildMenu()
{
    m_menu->clear();
    const QStringList list = paths();
    int number = 1;
    for (const QString &path : list) {
        // Numbered for the keyboard; the full path where the menu has room for it.
        const QString label = (number < 10 ? QStringLiteral("&%1 ").arg(number) : QString())
            + QFileInfo(path).fileName() + QStringLiteral("  —  ") + QDir::toNativeSeparators(QFileInfo(path).path());
        QAction *action = m_menu->addAction(label);
        action->setData(path);
        action->setEnabled(QFileInfo::exists(path));
        connect(action, &QAction::triggered, this, [this, path] { emit fileChosen(path); });
        ++number;
    }
    if (!list.isEmpty())
        m_menu->addSeparator();
    QAction *clearAction = m_menu->addAction(tr("Clear List"));
    clearAction->setEnabled(!list.isEmpty());
    connect(clearAction, &QAction::triggered, this, &RecentFiles::clear);
}

} // namespace memhist::viewer
