// SPDX-License-Identifier: MIT
#include "widgets/sql/sqlresultsmodel.h"

#include "core/model/numbertext.h"

#include <QRegularExpression>

namespace memhist {

SqlResultsModel::SqlResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void SqlResultsModel::setResult(const QStringList &columns, const QList<QVariantList> &rows, bool more)
{
    beginResetModel();
    m_columns = columns;
    m_addressColumns.clear();
    for (const QString &column : columns)
        m_addressColumns << isAddressColumn(column);
    m_rows = rows;
    m_more = more;
    m_fetchPending = false;
    endResetModel();
}

void SqlResultsModel::appendRows(const QList<QVariantList> &rows, bool more)
{
    m_fetchPending = false;
    m_more = more;
    if (rows.isEmpty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    m_rows.append(rows);
    endInsertRows();
}

void SqlResultsModel::endFetching()
{
    m_more = false;
    m_fetchPending = false;
}

void SqlResultsModel::clear()
{
    setResult({}, {}, false);
}

void SqlResultsModel::setHexAddresses(bool hex)
{
    if (hex == m_hexAddresses)
        return;
    m_hexAddresses = hex;
    if (!m_rows.isEmpty() && !m_columns.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), { Qt::DisplayRole });
}

bool SqlResultsModel::isAddressColumn(const QString &name)
{
    static const QRegularExpression pattern(
        QStringLiteral("^(phy|phy_.*|.*_phy|linear|physical|pc|pc_.*|.*_pc|.*addr.*)$"),
        QRegularExpression::CaseInsensitiveOption);
    // SQLite names a result column without an alias by its expression's text, as typed.
    static const QRegularExpression minMax(QStringLiteral("^\\s*(?:min|max)\\s*\\(\\s*([A-Za-z_][\\w.]*)\\s*\\)\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    // Any other expression is not one ("phy_last - phy_first + 1" is a size): a name or an alias only.
    static const QRegularExpression plainName(QStringLiteral("^[\\w. ]+$"));
    if (const QRegularExpressionMatch aggregate = minMax.match(name); aggregate.hasMatch())
        return pattern.match(aggregate.captured(1).section(u'.', -1)).hasMatch();
    return plainName.match(name).hasMatch() && pattern.match(name.section(u'.', -1)).hasMatch();
}

int SqlResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SqlResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant SqlResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QVariant &value = m_rows.at(index.row()).at(index.column());
    switch (role) {
    case Qt::DisplayRole:
        // SQLite hands 64-bit addresses over as signed integers: their bits are the address.
        if (m_hexAddresses && m_addressColumns.value(index.column())
            && (value.typeId() == QMetaType::LongLong || value.typeId() == QMetaType::Int))
            return hexText(std::uint64_t(value.toLongLong()));
        return value;
    case Qt::EditRole:
        return value;
    case Qt::TextAlignmentRole: {
        // Numbers right-aligned, as in every other table of the viewer.
        const int type = value.typeId();
        const bool number = type == QMetaType::LongLong || type == QMetaType::Int || type == QMetaType::Double;
        return QVariant::fromValue(number ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    }
    default:
        return {};
    }
}

QVariant SqlResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < m_columns.size() ? QVariant(m_columns.at(section)) : QVariant();
    return section + 1;
}

bool SqlResultsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_more && !m_fetchPending;
}

void SqlResultsModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_fetchPending = true;
    emit fetchRequested();
}

} // namespace memhist
