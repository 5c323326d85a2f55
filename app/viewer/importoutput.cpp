// SPDX-License-Identifier: MIT
#include "importoutput.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
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

bool sameFile(const QString &a, const QString &b)
{
    const QFileInfo first(a);
    const QFileInfo second(b);
    if (first.exists() && second.exists())
        return first.canonicalFilePath() == second.canonicalFilePath();
    return first.absoluteFilePath() == second.absoluteFilePath();
}

QString freeHistoryPath(const QString &path)
{
    if (!QFileInfo::exists(path))
        return path;
    const QFileInfo info(path);
    QString base = info.fileName();
    QString suffix;
    if (base.endsWith(QLatin1String(".memhist"))) {
        base.chop(8);
        suffix = QStringLiteral(".memhist");
    }
    for (int n = 2;; ++n) {
        const QString candidate = info.dir().filePath(base + u'-' + QString::number(n) + suffix);
        if (!QFileInfo::exists(candidate))
            return candidate;
    }
}

QString replaceQuestion(const QString &output, const QString &openHistory, const QString &replacement)
{
    if (output.isEmpty() || !QFileInfo::exists(output))
        return QString();
    const QString name = QFileInfo(output).fileName();
    if (!openHistory.isEmpty() && sameFile(output, openHistory))
        return QObject::tr("%1 is the history open in this window — Replace it with %2?").arg(name, replacement);
    return QObject::tr("%1 exists — Replace it?").arg(name);
}

bool askToReplace(QWidget *parent, const QString &question)
{
    QMessageBox box(QMessageBox::Warning, QObject::tr("Replace the History?"), question, QMessageBox::NoButton, parent);
    box.setObjectName(QStringLiteral("replaceQuestion"));
    QPushButton *replace = box.addButton(QObject::tr("&Replace"), QMessageBox::DestructiveRole);
    box.setDefaultButton(box.addButton(QMessageBox::Cancel));
    box.exec();
    return box.clickedButton() == replace;
}

bool ReplaceConfirmation::ask(QWidget *parent, const QString &output, const QString &replacement)
{
    const QString question = replaceQuestion(output, m_openHistory, replacement);
    if (question.isEmpty())
        return true;
    if (!m_confirm || !m_confirm(parent, question))
        return false;
    m_confirmedOutput = output;
    return true;
}

} // namespace memhist::viewer
