// SPDX-License-Identifier: MIT
// Bookmarks with notes on a history, kept outside it (a history is opened read-only): one JSON file
// per history under QStandardPaths::AppDataLocation ("bookmarks/<key>.json"), the key derived from
// the history's absolute path and its FileIdentity (device, inode, size, modification time, SQLite
// change counter: what the plane's summary cache keys by), so that a rewritten or replaced history
// does not show bookmarks that no longer fit it. Exported to CSV or JSON.
#pragma once

#include "core/model/types.h"

#include <QAbstractTableModel>
#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace memhist::viewer {

struct Bookmark
{
    Transition transition;
    Address address;
    // The access bookmarked; none for a bookmark on a point (transition, address) of the plane.
    std::optional<RowId> rowId;
    std::optional<Operation> operation;
    std::uint32_t size = 1;
    QString note;

    friend bool operator==(const Bookmark &, const Bookmark &) = default;
};

// The bookmark of `access`.
Bookmark bookmarkOf(const Access &access, const QString &note);

// Where the bookmarks of the history at `historyPath` are kept; empty (and *error) when the history
// cannot be read.
QString bookmarksFileFor(const QString &historyPath, QString *error);

// The bookmarks in `file`; none when it does not exist. False + *error when it is not a bookmarks file.
bool loadBookmarks(const QString &file, QList<Bookmark> *bookmarks, QString *error);
// Writes `bookmarks` (and the history's path, for people who look) to `file` atomically, creating
// its directory. False + *error when it cannot be written.
bool saveBookmarks(const QString &file, const QString &historyPath, const QList<Bookmark> &bookmarks, QString *error);

// "transition,address,rowid,operation,size,note": one line per bookmark, addresses as 0x hex, rowid
// and operation empty for a point, the note quoted as CSV quotes (RFC 4180) when it needs it.
QByteArray bookmarksCsv(const QList<Bookmark> &bookmarks);
// {"history": path, "bookmarks": [{"transition", "address", "rowid", "operation", "size", "note"}]},
// indented; the store's own form.
QByteArray bookmarksJson(const QString &historyPath, const QList<Bookmark> &bookmarks);

class BookmarksModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Columns {
        TransitionColumn,
        AddressColumn,
        OperationColumn,
        NoteColumn, // editable
        ColumnCount
    };

    explicit BookmarksModel(QObject *parent = nullptr);

    void setBookmarks(const QList<Bookmark> &bookmarks);
    const QList<Bookmark> &bookmarks() const { return m_bookmarks; }
    void append(const Bookmark &bookmark);
    void removeAt(int row);
    void setNote(int row, const QString &note);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

signals:
    // The list changed (added, removed, a note edited): the panel saves it.
    void bookmarksEdited();

private:
    QList<Bookmark> m_bookmarks;
};

} // namespace memhist::viewer
