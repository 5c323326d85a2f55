// SPDX-License-Identifier: MIT
#include "core/storage/sqlitefileheader.h"

#include <QFile>
#include <QFileInfo>

namespace memhist {

namespace {

constexpr qint64 headerBytes = 100;
constexpr qint64 walHeaderBytes = 32;

std::uint32_t bigEndian16(const QByteArray &bytes, int offset)
{
    return (std::uint32_t(std::uint8_t(bytes[offset])) << 8) | std::uint8_t(bytes[offset + 1]);
}

std::uint32_t bigEndian32(const QByteArray &bytes, int offset)
{
    return (bigEndian16(bytes, offset) << 16) | bigEndian16(bytes, offset + 2);
}

} // namespace

std::optional<SqliteFileHeader> readSqliteFileHeader(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.read(headerBytes);
    if (bytes.size() < headerBytes || !bytes.startsWith(QByteArrayLiteral("SQLite format 3\0")))
        return std::nullopt;

    SqliteFileHeader header;
    const std::uint32_t storedPageSize = bigEndian16(bytes, 16);
    header.pageSize = storedPageSize == 1 ? 65536 : storedPageSize;
    // A power of two from 512 to 65536: anything else is not a database SQLite would read.
    if (header.pageSize < 512 || (header.pageSize & (header.pageSize - 1)) != 0)
        return std::nullopt;
    const std::uint32_t changeCounter = bigEndian32(bytes, 24);
    const std::uint32_t pageCount = bigEndian32(bytes, 28);
    const std::uint32_t versionValidFor = bigEndian32(bytes, 92);
    if (pageCount != 0 && versionValidFor == changeCounter)
        header.pageCount = pageCount;
    header.walMode = std::uint8_t(bytes[18]) == 2 && std::uint8_t(bytes[19]) == 2;
    return header;
}

bool hasWalFrames(const QString &databasePath)
{
    return QFileInfo(databasePath + QStringLiteral("-wal")).size() > walHeaderBytes;
}

bool hasRollbackJournal(const QString &databasePath)
{
    return QFileInfo(databasePath + QStringLiteral("-journal")).size() > 0;
}

std::optional<QString> truncationProblem(const SqliteFileHeader &header, std::int64_t fileBytes)
{
    if (!header.pageCount)
        return std::nullopt;
    const auto expected = std::int64_t(*header.pageCount) * std::int64_t(header.pageSize);
    if (fileBytes >= expected)
        return std::nullopt;
    return QStringLiteral("truncated: the header says %1 pages of %2 bytes (%3 bytes), the file has %4 bytes")
        .arg(*header.pageCount)
        .arg(header.pageSize)
        .arg(expected)
        .arg(fileBytes);
}

} // namespace memhist
