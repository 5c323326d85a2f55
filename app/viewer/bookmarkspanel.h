// SPDX-License-Identifier: MIT
// The Bookmarks dock: the open history's bookmarks (bookmarks.h), each with its note (edited in
// place or with Edit Note…); a double-click or Go goes there; Delete removes one; Export… writes
// them to a CSV or JSON file. Every change is saved at once, outside the history.
#pragma once

#include "bookmarks.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace memhist::viewer {

class BookmarksPanel : public QWidget
{
    Q_OBJECT

public:
    explicit BookmarksPanel(QWidget *parent = nullptr);

    // Shows the bookmarks kept for `historyPath` (none for an empty path).
    void setHistory(const QString &historyPath);
    // The file they are kept in; empty without a history.
    QString storePath() const { return m_storePath; }

    // Interactive panels ask for confirmations and file names; tests turn this off.
    void setInteractive(bool interactive) { m_interactive = interactive; }

    const QList<Bookmark> &bookmarks() const { return m_model->bookmarks(); }
    BookmarksModel *model() const { return m_model; }
    void add(const Bookmark &bookmark);
    void remove(int row);
    void setNote(int row, const QString &note);
    void activate(int row);

    // Writes the bookmarks to `path`: JSON when it ends in ".json", else CSV. False + *error.
    bool exportTo(const QString &path, QString *error) const;

signals:
    void bookmarkActivated(const memhist::viewer::Bookmark &bookmark);
    void statusMessage(const QString &message);

private:
    void save();
    void updateButtons();
    int currentRow() const;
    void exportInteractively();
    void editCurrentNote();

    BookmarksModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_emptyLabel = nullptr;
    QPushButton *m_goButton = nullptr;
    QPushButton *m_editButton = nullptr;
    QPushButton *m_deleteButton = nullptr;
    QPushButton *m_exportButton = nullptr;
    QString m_historyPath;
    QString m_storePath;
    bool m_interactive = true;
    bool m_loading = false;
};

} // namespace memhist::viewer
