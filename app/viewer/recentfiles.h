// SPDX-License-Identifier: MIT
// File > Open Recent: the histories opened last, kept in QSettings, newest first.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace memhist::viewer {

class RecentFiles : public QObject
{
    Q_OBJECT
public:
    explicit RecentFiles(QMenu *menu, QObject *parent = nullptr);

    static constexpr int maximum = 10;

    QStringList paths() const;
    void add(const QString &path);
    void clear();

signals:
    void fileChosen(const QString &path);

private:
    void rebuildMenu();
    void store(const QStringList &paths);

    QMenu *m_menu;
};

} // namespace memhist::viewer
