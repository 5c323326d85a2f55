// SPDX-License-Identifier: MIT
#include "boundedfile.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>

namespace memhist::cli {

namespace {

bool openRegular(QFile &file, QString *error)
{
    const QFileInfo info(file.fileName());
    if (info.exists() && !info.isFile()) {
        *error = file.fileName() + QStringLiteral(": not a regular file");
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.fileName() + QStringLiteral(": cannot open: ") + file.errorString();
        return false;
    }
    return true;
}

} // namespace

bool readBoundedLines(const QString &path, qsizetype maxLines, qint64 maxLineBytes, QStringList *lines, QString *error)
{
    QFile file(path);
    if (!openRegular(file, error))
        return false;
    lines->clear();
    while (!file.atEnd()) {
        if (lines->size() >= maxLines) {
            *error = QStringLiteral("%1: more than %2 lines").arg(path, QLocale::c().toString(maxLines));
            return false;
        }
        QByteArray line = file.readLine(maxLineBytes + 2);
        if (line.isEmpty() && file.error() != QFile::NoError) {
            *error = path + QStringLiteral(": cannot read: ") + file.errorString();
            return false;
        }
        if (line.endsWith('\n'))
            line.chop(1);
        else if (!file.atEnd()) {
            *error
                = QStringLiteral("%1:%2: line longer than %3 bytes").arg(path).arg(lines->size() + 1).arg(maxLineBytes);
            return false;
        }
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.size() > maxLineBytes) {
            *error
                = QStringLiteral("%1:%2: line longer than %3 bytes").arg(path).arg(lines->size() + 1).arg(maxLineBytes);
            return false;
        }
        lines->append(QString::fromUtf8(line));
    }
    return true;
}

bool readBoundedFile(const QString &path, qint64 maxBytes, QByteArray *contents, QString *error)
{
    QFile file(path);
    if (!openRegular(file, error))
        return false;
    if (file.size() > maxBytes) {
        *error = QStringLiteral("%1: %2 bytes, more than the %3 bytes read at most")
                     .arg(path, QString::number(file.size()), QString::number(maxBytes));
        return false;
    }
    *contents = file.read(maxBytes + 1);
    if (contents->size() > maxBytes) {
        *error = QStringLiteral("%1: more than the %2 bytes read at most").arg(path, QString::number(maxBytes));
        return false;
    }
    return true;
}

} // namespace memhist::cli
