// SPDX-License-Identifier: MIT
#include "core/summary/summarycache.h"

#include "core/storage/sqlite.h"
#include "core/summary/summarystore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>

namespace memhist::summary {

namespace {

// 16 hex digits of a SHA-1: names stay short, and a collision would only cost a summary that is
// then found invalid (its recorded identity differs) and made again.
QString shortHash(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
}

} // namespace

SummaryCache::SummaryCache(QString directory)
    : m_directory(std::move(directory))
{ }

QString SummaryCache::prefixFor(const QString &historyPath) const
{
    return shortHash(historyPath) + u'-';
}

std::optional<SummaryCache::Entry> SummaryCache::entryFor(const QString &historyPath, QString *error) const
{
    const QString absolute = QFileInfo(historyPath).absoluteFilePath();
    const std::optional<FileIdentity> identity = fileIdentity(absolute, error);
    if (!identity)
        return std::nullopt;
    Entry entry { absolute, *identity, {} };
    entry.path
        = QDir(m_directory)
              .filePath(prefixFor(absolute) + shortHash(identity->toString()) + QLatin1String(summaryFileSuffix));
    return entry;
}

bool SummaryCache::isValid(const Entry &entry) const
{
    if (!QFileInfo::exists(entry.path))
        return false;
    sqlite::Connection db;
    if (!db.open(entry.path, sqlite::Connection::Mode::ReadOnly))
        return false;
    QString why;
    const std::optional<SummaryInfo> info = readSummaryInfo(db, &why);
    return info && info->sourceIdentity == entry.identity.toString();
}

bool SummaryCache::prepare(QString *error) const
{
    if (QDir().mkpath(m_directory))
        return true;
    *error = m_directory + QStringLiteral(": cannot create the directory");
    return false;
}

int SummaryCache::removeStale(const Entry &entry) const
{
    const QDir dir(m_directory);
    const QString own = QFileInfo(entry.path).fileName();
    int removed = 0;
    const QStringList names = dir.entryList(
        { prefixFor(entry.historyPath) + u'*' + QLatin1String(summaryFileSuffix) }, QDir::Files | QDir::Hidden);
    for (const QString &name : names) {
        if (name != own && QFile::remove(dir.filePath(name)))
            ++removed;
    }
    return removed;
}

} // namespace memhist::summary
