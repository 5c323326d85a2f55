// SPDX-License-Identifier: MIT
// The traces a history was made from, as the `sources` meta value keeps them: one "FORMAT\tPATH"
// line per trace, in import order (DESIGN.md §1), with a backslash, tab or newline inside either
// stored as \\, \t or \n. The writer writes the text; `memhist info` and
// the viewer read it back through the same pair of functions.
#pragma once

#include <QList>
#include <QString>

namespace memhist {

struct SourceDescription
{
    QString format; // "csv", "lackey", ...; empty for a line without a tab (another writer's)
    QString path;

    friend bool operator==(const SourceDescription &, const SourceDescription &) = default;
};

QString sourcesMetaText(const QList<SourceDescription> &sources);

// The lines of a `sources` meta value; empty lines are skipped. A line without a tab is a path.
QList<SourceDescription> parseSourcesMeta(const QString &text);

} // namespace memhist
