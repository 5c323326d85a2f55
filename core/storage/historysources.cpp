// SPDX-License-Identifier: MIT
#include "core/storage/historysources.h"

#include <QStringList>

namespace memhist {

namespace {

// A backslash, a tab and a newline in a format or path are stored as \\, \t and \n, so that a
// path holding them stays one source (histories before this stored them raw: a backslash that
// starts no such pair is read as itself).
QString escaped(const QString &text)
{
    QString result = text;
    result.replace(u'\\', QLatin1String("\\\\"))
        .replace(u'\t', QLatin1String("\\t"))
        .replace(u'\n', QLatin1String("\\n"));
    return result;
}

QString unescaped(const QString &text)
{
    QString result;
    result.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar next = i + 1 < text.size() ? text[i + 1] : QChar();
        if (text[i] == u'\\' && (next == u'\\' || next == u't' || next == u'n')) {
            result += next == u't' ? QChar(u'\t') : next == u'n' ? QChar(u'\n') : QChar(u'\\');
            ++i;
        } else {
            result += text[i];
        }
    }
    return result;
}

} // namespace

QString sourcesMetaText(const QList<SourceDescription> &sources)
{
    QStringList lines;
    for (const SourceDescription &source : sources)
        lines << escaped(source.format) + u'\t' + escaped(source.path);
    return lines.join(u'\n');
}

QList<SourceDescription> parseSourcesMeta(const QString &text)
{
    QList<SourceDescription> sources;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype tab = line.indexOf(u'\t');
        sources << (tab < 0 ? SourceDescription { QString(), unescaped(line) }
                            : SourceDescription { unescaped(line.left(tab)), unescaped(line.mid(tab + 1)) });
    }
    return sources;
}

} // namespace memhist
