// SPDX-License-Identifier: MIT
#include "core/storage/historysources.h"

#include <QStringList>

namespace memhist {

QString sourcesMetaText(const QList<SourceDescription> &sources)
{
    QStringList lines;
    for (const SourceDescription &source : sources)
        lines << source.format + u'\t' + source.path;
    return lines.join(u'\n');
}

QList<SourceDescription> parseSourcesMeta(const QString &text)
{
    QList<SourceDescription> sources;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
        const qsizetype tab = line.indexOf(u'\t');
        sources << (tab < 0 ? SourceDescription { QString(), line }
                            : SourceDescription { line.left(tab), line.mid(tab + 1) });
    }
    return sources;
}

} // namespace memhist
