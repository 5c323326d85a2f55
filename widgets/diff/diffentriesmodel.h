// SPDX-License-Identifier: MIT
// The entries of a comparison (core/diff/diffresult.h) as the Differences tab's table, one row per
// control hunk, memory hunk or object, in the result's order (A's time). Each row says what kind
// it is, A's and B's transitions, where it is (the branch, the function, the object) and what each
// run did there, as `memhist diff`'s table says it.
#pragma once

#include "core/diff/diffresult.h"

#include <QAbstractTableModel>

namespace memhist {

class DiffEntriesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KindColumn,
        ATransitionsColumn,
        BTransitionsColumn,
        WhereColumn,
        AColumn,
        BColumn,
        ColumnCount,
    };

    explicit DiffEntriesModel(QObject *parent = nullptr);

    void setEntries(const QList<DiffEntry> &entries);
    const QList<DiffEntry> &entries() const { return m_entries; }
    const DiffEntry &entry(int row) const { return m_entries.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The texts of the cells, for the table and its tests.
    static QString kindText(DiffEntry::Kind kind);
    static QString transitionsText(const DiffEntry &entry, bool sideA);
    static QString whereText(const DiffEntry &entry);
    static QString sideText(const DiffEntry &entry, bool sideA);

private:
    QList<DiffEntry> m_entries;
};

} // namespace memhist
