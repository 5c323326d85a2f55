// SPDX-License-Identifier: MIT
#include "filefilters.h"

#include "core/importers/traceformats.h"

#include <QCoreApplication>

namespace memhist::viewer {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::viewer::FileFilters", text);
}

QString tracesFilter()
{
    return tr("Traces (%1)").arg(traceFilePatterns().join(u' '));
}

} // namespace

QString openFileFilters()
{
    return QStringList { tr("Histories and traces (*.memhist %1)").arg(traceFilePatterns().join(u' ')),
        tr("Histories (*.memhist)"), tracesFilter(), tr("All files (*)") }
        .join(QStringLiteral(";;"));
}

QString importFileFilters()
{
    return QStringList { tracesFilter(), tr("All files (*)") }.join(QStringLiteral(";;"));
}

QString historyFileFilters()
{
    return QStringList { tr("Histories (*.memhist)"), tr("All files (*)") }.join(QStringLiteral(";;"));
}

} // namespace memhist::viewer
