#include "importoutput.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace memhist::viewer {

QString historyBaseName(const QString &tracePath)
{
    QString name = QFileInfo(QDir::cleanPath(tracePath)).fileName();
    for (const char *suffix : { ".gz", ".zip", ".sz", ".zst" }) {
        if (name.endsWith(QLatin1String(suffix), Qt::CaseInsensitive)) {
            name.chop(qsizetype(qstrlen(suffix)));
            break;
        }
    }
    for (const char *suffix : { ".csv", ".lackey", ".log", ".trace", ".tracedir", ".txt", ".out", ".memhist" }) {
        if (name.endsWith(QLatin1String(suffix), Qt::CaseInsensitive)) {
            name.chop(qsizetype(qstrlen(suffix)));
            break;
        }
    }
    return name.isEmpty() ? QStringLiteral("history") : name;
}

QString defaultHistoryPath(const QString &baseName, const QString &preferredDirectory)
{
    const QString fileName = baseName + QStringLiteral(".memhist");
    const QFileInfo directory(preferredDirectory);
    if (directory.isDir() && directory.isWritable())
        return QDir(preferredDirectory).absoluteFilePath(fileName);
    const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(appData);
    return QDir(appData).absoluteFilePath(fileName);
}

QString defaultImportOutput(const QString &firstTrace)
{
    return defaultHistoryPath(historyBaseName(firstTrace), QFileInfo(QDir::cleanPath(firstTrace)).absolutePath());
}

} // namespace memhist::viewer
