// SPDX-License-Identifier: MIT
#include "traceselection.h"

#include "core/importers/drmemtrace/tracefileprobe.h"

#include <QFileInfo>
#include <QSet>

namespace memhist::viewer {

namespace {

QSet<QString> absolutePaths(const QStringList &paths)
{
    QSet<QString> set;
    for (const QString &path : paths)
        set.insert(QFileInfo(path).absoluteFilePath());
    return set;
}

} // namespace

QStringList tracesToImport(const QStringList &paths)
{
    if (paths.size() < 2)
        return paths;
    const QString directoryPath = QFileInfo(paths.constFirst()).absolutePath();
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (!info.isFile() || info.absolutePath() != directoryPath)
            return paths;
    }
    drmemtrace::TraceDirectory directory;
    QString error;
    if (!drmemtrace::listTraceDirectory(directoryPath, &directory, &error) || directory.traceFiles.isEmpty()
        || QFileInfo(directory.directory).absoluteFilePath() != directoryPath)
        return paths;
    const QSet<QString> selected = absolutePaths(paths);
    const QSet<QString> threads = absolutePaths(directory.traceFiles);
    const QSet<QString> schedules = absolutePaths(directory.sideFiles);
    if (!(selected - threads - schedules).isEmpty() || !selected.intersects(threads))
        return paths;
    // Some threads alone are a choice of threads; with a schedule file, or all of them, the run.
    if (!selected.intersects(schedules) && !selected.contains(threads))
        return paths;
    return { directoryPath };
}

} // namespace memhist::viewer
