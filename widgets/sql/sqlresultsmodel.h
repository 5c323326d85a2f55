// SPDX-License-Identifier: MIT
// The SQL console's results: rows the worker delivered, held as plain values in the GUI thread.
// More rows are asked for (fetchRequested) when a view scrolls near the end; they arrive later with
// appendRows(). Nothing here touches a database, so a view may read the model at any time.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariantList>

namespace memhist {

class SqlResultsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    explicit SqlResultsModel(QObject *parent = nullptr);

    // A new result: its columns, first rows, and whether the statement has more.
    void setResult(const QStringList &columns, const QList<QVariantList> &rows, bool more);
    // The next rows of the same statement. Clears the pending request.
    void appendRows(const QList<QVariantList> &rows, bool more);
    // The statement ended early (a failure or Stop while fetching): no more rows will come.
    void endFetching();
    void clear();

    // Shows the integers of address columns (isAddressColumn()) as 0x hex, as the rest of the
    // viewer shows addresses; off: as SQLite gives them (decimal).
    void setHexAddresses(bool hex);
    bool hexAddresses() const { return m_hexAddresses; }
    // Named like an address: phy_first, phy_last, linear, pc, or anything with "addr" or a "pc"
    // word in it (after any "table." prefix, case-insensitive); or the min() or max() of such a
    // column, as SQLite names an unaliased aggregate ("min(phy_first)", "MAX(a.linear)"): the
    // smallest or largest of addresses is an address. Other expressions are not (phy_last -
    // phy_first + 1 is a size), nor an alias that is not named like an address ("AS lo").
    static bool isAddressColumn(const QString &name);

    bool hasMore() const { return m_more; }
    bool isFetching() const { return m_fetchPending; }
    QStringList columnNames() const { return m_columns; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // False while a request is pending: a view that calls fetchMore() on every scroll step must
    // not ask for the same rows twice.
    bool canFetchMore(const QModelIndex &parent = {}) const override;
    void fetchMore(const QModelIndex &parent = {}) override;

signals:
    // The view wants the next rows; the console asks the worker for them.
    void fetchRequested();

private:
    QStringList m_columns;
    QList<QVariantList> m_rows;
    bool m_more = false;
    bool m_fetchPending = false;
    bool m_hexAddresses = false;
    QList<bool> m_addressColumns; // per column: isAddressColumn()
};

} // namespace memhist
