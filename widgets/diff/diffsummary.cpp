// SPDX-License-Identifier: MIT
#include "diffsummary.h"

#include "core/model/numbertext.h"

#include <QCoreApplication>

namespace memhist {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::DiffSummary", text);
}

QString counted(std::uint64_t n, const char *one, const char *many)
{
    return countText(n) + u' ' + tr(n == 1 ? one : many);
}

} // namespace

QString diffCountsText(const DiffResult &result)
{
    const QString sizes = tr("(A ran %1, B %2)").arg(countText(result.aInstructions), countText(result.bInstructions));
    QString text;
    if (!result.differ()) {
        text = tr("No differences: %1 %2")
                   .arg(counted(result.alignedInstructions, "instruction aligned", "instructions aligned"), sizes);
    } else {
        text = counted(result.controlHunks, "control hunk", "control hunks") + QStringLiteral(", ")
            + counted(result.memoryHunks, "memory hunk", "memory hunks") + QStringLiteral(", ")
            + counted(result.objects, "object differs", "objects differ") + QStringLiteral("; ")
            + counted(result.alignedInstructions, "instruction aligned", "instructions aligned") + u' ' + sizes;
    }
    const std::uint64_t found = result.controlHunks + result.memoryHunks + result.objects;
    if (found > std::uint64_t(result.entries.size()))
        text += tr("; first %1 of %2 listed").arg(countText(result.entries.size()), countText(found));
    if (result.ignored > 0)
        text += tr("; %1 left out (the baseline has them too)").arg(countText(result.ignored));
    return text;
}

QString diffSummaryText(const DiffResult &result)
{
    QString text = diffCountsText(result);
    for (const QString &note : result.notes)
        text += u'\n' + tr("Note: %1").arg(note);
    return text;
}

} // namespace memhist
