// SPDX-License-Identifier: MIT
#include "bookmarks.h"

#include "core/csv/csvaccessformat.h"
#include "core/model/numbertext.h"
#include "core/summary/fileidentity.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace memhist::viewer {

namespace {

QString operationText(std::optional<Operation> operation)
{
    return operation ? QString(QLatin1Char(csv::operationLetter(*operation))) : QString();
}

std::optional<Operation> operationFromText(const QString &text)
{
    if (text == QLatin1String("R"))
        return Operation::Read;
    if (text == QLatin1String("W"))
        return Operation::Write;
    if (text == QLatin1String("X"))
        return Operation::Execute;
    return std::nullopt;
}

QByteArray csvField(const QString &text)
{
    QByteArray bytes = text.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r'))
        bytes = '"' + bytes.replace("\"", "\"\"") + '"';
    return bytes;
}

QJsonObject toJson(const Bookmark &bookmark)
{
    QJsonObject object;
    // Decimal text, not a JSON number: a double holds 53 bits, a transition 64.
    object.insert(QStringLiteral("transition"), QString::number(bookmark.transition.value));
    object.insert(QStringLiteral("address"), hexText(bookmark.address.value));
    object.insert(
        QStringLiteral("rowid"), bookmark.rowId ? QJsonValue(QString::number(bookmark.rowId->value)) : QJsonValue());
    object.insert(QStringLiteral("operation"), operationText(bookmark.operation));
    object.insert(QStringLiteral("size"), qint64(bookmark.size));
    object.insert(QStringLiteral("note"), bookmark.note);
    return object;
}

bool fromJson(const QJsonObject &object, Bookmark *bookmark)
{
    std::uint64_t transition = 0;
    std::uint64_t address = 0;
    if (!parseUnsigned(object.value(QStringLiteral("transition")).toString().toLatin1(), &transition)
        || !parseUnsigned(object.value(QStringLiteral("address")).toString().toLatin1(), &address))
        return false;
    bookmark->transition = Transition { transition };
    bookmark->address = Address { address };
    const QJsonValue rowId = object.value(QStringLiteral("rowid"));
    std::uint64_t row = 0;
    if (rowId.isString() && parseUnsigned(rowId.toString().toLatin1(), &row))
        bookmark->rowId = RowId { qint64(row) };
    bookmark->operation = operationFromText(object.value(QStringLiteral("operation")).toString());
    bookmark->size = std::uint32_t(std::max<qint64>(1, object.value(QStringLiteral("size")).toInteger(1)));
    bookmark->note = object.value(QStringLiteral("note")).toString();
    return true;
}

} // namespace

Bookmark bookmarkOf(const Access &access, const QString &note)
{
    return Bookmark { access.transition, access.physical, access.rowId, access.operation, access.size, note };
}

QString bookmarksFileFor(const QString &historyPath, QString *error)
{
    const QString absolute = QFileInfo(historyPath).absoluteFilePath();
    const std::optional<summary::FileIdentity> identity = summary::fileIdentity(absolute, error);
    if (!identity)
        return {};
    const QByteArray key
        = QCryptographicHash::hash((absolute + u'\n' + identity->toString()).toUtf8(), QCryptographicHash::Sha1)
              .toHex();
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/bookmarks/")
        + QString::fromLatin1(key) + QStringLiteral(".json");
}

bool loadBookmarks(const QString &file, QList<Bookmark> *bookmarks, QString *error)
{
    bookmarks->clear();
    QFile input(file);
    if (!input.exists())
        return true;
    if (!input.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file), input.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(input.readAll(), &parseError);
    if (!document.isObject()) {
        *error = QStringLiteral("%1: not a bookmarks file (%2)")
                     .arg(QDir::toNativeSeparators(file), parseError.errorString());
        return false;
    }
    for (const QJsonValue &value : document.object().value(QStringLiteral("bookmarks")).toArray()) {
        Bookmark bookmark;
        if (!fromJson(value.toObject(), &bookmark)) {
            *error = QStringLiteral("%1: a bookmark without a transition or an address")
                         .arg(QDir::toNativeSeparators(file));
            bookmarks->clear();
            return false;
        }
        *bookmarks << bookmark;
    }
    return true;
}

bool saveBookmarks(const QString &file, const QString &historyPath, const QList<Bookmark> &bookmarks, QString *error)
{
    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        *error = QStringLiteral("%1: cannot create the folder").arg(QDir::toNativeSeparators(file));
        return false;
    }
    QSaveFile output(file);
    if (!output.open(QIODevice::WriteOnly) || output.write(bookmarksJson(historyPath, bookmarks)) < 0
        || !output.commit()) {
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file), output.errorString());
        return false;
    }
    return true;
}

QByteArray bookmarksCsv(const QList<Bookmark> &bookmarks)
{
    QByteArray csv = "transition,address,rowid,operation,size,note\n";
    for (const Bookmark &bookmark : bookmarks) {
        csv += QByteArray::number(bookmark.transition.value) + ',' + hexBytes(bookmark.address.value) + ','
            + (bookmark.rowId ? QByteArray::number(bookmark.rowId->value) : QByteArray()) + ','
            + operationText(bookmark.operation).toLatin1() + ',' + QByteArray::number(bookmark.size) + ','
            + csvField(bookmark.note) + '\n';
    }
    return csv;
}

QByteArray bookmarksJson(const QString &historyPath, const QList<Bookmark> &bookmarks)
{
    QJsonArray array;
    for (const Bookmark &bookmark : bookmarks)
        array.append(toJson(bookmark));
    QJsonObject root;
    root.insert(QStringLiteral("history"), QFileInfo(historyPath).absoluteFilePath());
    root.insert(QStringLiteral("bookmarks"), array);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

// --- The model -----------------------------------------------------------------------------------

BookmarksModel::BookmarksModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void BookmarksModel::setBookmarks(const QList<Bookmark> &bookmarks)
{
    beginResetModel();
    m_bookmarks = bookmarks;
    endResetModel();
}

void BookmarksModel::append(const Bookmark &bookmark)
{
    beginInsertRows({}, int(m_bookmarks.size()), int(m_bookmarks.size()));
    m_bookmarks << bookmark;
    endInsertRows();
    emit bookmarksEdited();
}

void BookmarksModel::removeAt(int row)
{
    if (row < 0 || row >= m_bookmarks.size())
        return;
    beginRemoveRows({}, row, row);
    m_bookmarks.removeAt(row);
    endRemoveRows();
    emit bookmarksEdited();
}

void BookmarksModel::setNote(int row, const QString &note)
{
    setData(index(row, NoteColumn), note);
}

int BookmarksModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_bookmarks.size());
}

int BookmarksModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BookmarksModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_bookmarks.size())
        return {};
    const Bookmark &bookmark = m_bookmarks.at(index.row());
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case TransitionColumn:
            return role == Qt::DisplayRole ? countText(bookmark.transition.value)
                                           : QString::number(bookmark.transition.value);
        case AddressColumn:
            return hexText(bookmark.address.value);
        case OperationColumn:
            return bookmark.operation ? tr("%1 (%2)").arg(operationText(bookmark.operation), bytesText(bookmark.size))
                                      : tr("point");
        case NoteColumn:
            return bookmark.note;
        }
    }
    if (role == Qt::FontRole && index.column() != NoteColumn)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::TextAlignmentRole && index.column() == TransitionColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BookmarksModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TransitionColumn:
        return tr("Transition");
    case AddressColumn:
        return tr("Address");
    case OperationColumn:
        return tr("Access");
    case NoteColumn:
        return tr("Note");
    }
    return {};
}

Qt::ItemFlags BookmarksModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == NoteColumn)
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool BookmarksModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || index.column() != NoteColumn || role != Qt::EditRole || index.row() >= m_bookmarks.size())
        return false;
    m_bookmarks[index.row()].note = value.toString();
    emit dataChanged(index, index, { Qt::DisplayRole, Qt::EditRole });
    emit bookmarksEdited();
    return true;
}

} // namespace memhist::viewer
