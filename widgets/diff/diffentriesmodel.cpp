// SPDX-License-Identifier: MIT
#include "diffentriesmodel.h"

#include "core/model/numbertext.h"

namespace memhist {

namespace {

// "choose+0x1c (diffpaths.c:10)", "0x401136" without a function, "" when unknown (PC 0: a
// memory-only comparison knows no instruction).
QString placeText(const std::optional<DiffPlace> &place)
{
    if (!place || (place->function.isEmpty() && place->pc.value == 0))
        return {};
    QString text = place->function.isEmpty() ? hexText(place->pc.value) : place->function;
    if (!place->source.isEmpty())
        text += QStringLiteral(" (%1)").arg(place->source);
    return text;
}

QString placeOf(const DiffAccess &access)
{
    return placeText(DiffPlace { access.transition, access.pc, access.function, access.source });
}

QString valueText(const DiffAccess &access)
{
    return access.value.isEmpty() ? QStringLiteral("?") : byteValuesText(access.value);
}

// "write 8 bytes at 0x4c0010 = 32 00 00 00 by main+0x5e (prog.c:12)".
QString accessText(const DiffAccess &access)
{
    QString text = (access.operation == Operation::Write ? DiffEntriesModel::tr("write %1 at %2 = %3")
                                                         : DiffEntriesModel::tr("read %1 at %2 = %3"))
                       .arg(bytesText(access.size), hexText(access.address.value), valueText(access));
    const QString by = placeOf(access);
    if (!by.isEmpty())
        text += DiffEntriesModel::tr(" by %1").arg(by);
    return text;
}

} // namespace

DiffEntriesModel::DiffEntriesModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void DiffEntriesModel::setEntries(const QList<DiffEntry> &entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int DiffEntriesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int DiffEntriesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString DiffEntriesModel::kindText(DiffEntry::Kind kind)
{
    switch (kind) {
    case DiffEntry::Kind::Control:
        return tr("control");
    case DiffEntry::Kind::Memory:
        return tr("memory");
    case DiffEntry::Kind::Object:
        return tr("object");
    }
    return {};
}

QString DiffEntriesModel::transitionsText(const DiffEntry &entry, bool sideA)
{
    switch (entry.kind) {
    case DiffEntry::Kind::Control: {
        const Transition first = sideA ? entry.control.aFirst : entry.control.bFirst;
        const std::uint64_t count = sideA ? entry.control.aCount : entry.control.bCount;
        if (count == 0)
            return tr("none (at %1)").arg(countText(first.value));
        if (count == 1)
            return countText(first.value);
        return QStringLiteral("%1..%2").arg(countText(first.value), countText(first.value + count - 1));
    }
    case DiffEntry::Kind::Memory: {
        const std::optional<DiffAccess> &access = sideA ? entry.memory.a : entry.memory.b;
        return access ? countText(access->transition.value) : tr("none");
    }
    case DiffEntry::Kind::Object: {
        // The first differing write, else the last (the runs wrote it the same up to the end).
        const ObjectDifference &object = entry.object;
        const std::optional<DiffAccess> &first = sideA ? object.aFirstDiffering : object.bFirstDiffering;
        const std::optional<DiffAccess> &last = sideA ? object.aLast : object.bLast;
        if (first)
            return countText(first->transition.value);
        return last ? countText(last->transition.value) : tr("none");
    }
    }
    return {};
}

QString DiffEntriesModel::whereText(const DiffEntry &entry)
{
    switch (entry.kind) {
    case DiffEntry::Kind::Control:
        return entry.control.branch ? tr("parted after %1").arg(placeText(entry.control.branch))
                                    : tr("parted at the start");
    case DiffEntry::Kind::Memory: {
        const DiffAccess &access = entry.memory.a ? *entry.memory.a : *entry.memory.b;
        return access.object.isEmpty() ? placeOf(access) : access.object;
    }
    case DiffEntry::Kind::Object:
        return entry.object.object;
    }
    return {};
}

QString DiffEntriesModel::sideText(const DiffEntry &entry, bool sideA)
{
    switch (entry.kind) {
    case DiffEntry::Kind::Control: {
        const ControlHunk &hunk = entry.control;
        const std::optional<DiffPlace> &start = sideA ? hunk.aStart : hunk.bStart;
        const std::optional<DiffPlace> &resync = sideA ? hunk.aResync : hunk.bResync;
        QString text = start ? tr("runs %1").arg(placeText(start)) : tr("runs nothing here");
        if (resync)
            text
                += tr("; meets again at %1, transition %2").arg(placeText(resync), countText(resync->transition.value));
        else if (!hunk.resyncFound && hunk.aCount > 0 && hunk.bCount > 0)
            text += tr("; not met again within the window");
        return text;
    }
    case DiffEntry::Kind::Memory: {
        const std::optional<DiffAccess> &access = sideA ? entry.memory.a : entry.memory.b;
        QString text = access ? accessText(*access) : tr("no such access");
        if (sideA && entry.memory.differingAccesses > 1)
            text += tr(" (%1 accesses of the stretch differ)").arg(countText(entry.memory.differingAccesses));
        return text;
    }
    case DiffEntry::Kind::Object: {
        const ObjectDifference &object = entry.object;
        const std::uint64_t writes = sideA ? object.aWrites : object.bWrites;
        const std::optional<DiffAccess> &last = sideA ? object.aLast : object.bLast;
        const std::optional<DiffAccess> &first = sideA ? object.aFirstDiffering : object.bFirstDiffering;
        QString text = writes == 1 ? tr("1 write") : tr("%1 writes").arg(countText(writes));
        if (object.firstDifferingWrite > 0)
            text += first
                ? tr("; write %1 = %2 at %3")
                      .arg(countText(object.firstDifferingWrite), valueText(*first), countText(first->transition.value))
                : tr("; no write %1").arg(countText(object.firstDifferingWrite));
        text += tr("; final %1").arg(last ? valueText(*last) : tr("none"));
        return text;
    }
    }
    return {};
}

QVariant DiffEntriesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const DiffEntry &entry = m_entries.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case KindColumn:
            return kindText(entry.kind);
        case ATransitionsColumn:
            return transitionsText(entry, true);
        case BTransitionsColumn:
            return transitionsText(entry, false);
        case WhereColumn:
            return whereText(entry);
        case AColumn:
            return sideText(entry, true);
        case BColumn:
            return sideText(entry, false);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == ATransitionsColumn || index.column() == BTransitionsColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DiffEntriesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case ATransitionsColumn:
        return tr("A transitions");
    case BTransitionsColumn:
        return tr("B transitions");
    case WhereColumn:
        return tr("Where");
    case AColumn:
        return tr("In A");
    case BColumn:
        return tr("In B");
    default:
        return {};
    }
}

} // namespace memhist
