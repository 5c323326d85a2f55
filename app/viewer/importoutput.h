// Where a history imported or recorded by the viewer goes when the user is not asked.
#pragma once

#include <QString>

namespace memhist::viewer {

// "echo_hello.small.lackey.gz" -> "echo_hello.small", "run.tracedir" -> "run": the trace's name
// without its compression and trace-format suffixes.
QString historyBaseName(const QString &tracePath);

// NAME.memhist in `preferredDirectory` when it is writable, else in the application's data
// directory (QStandardPaths::AppDataLocation, created when missing).
QString defaultHistoryPath(const QString &baseName, const QString &preferredDirectory);

// The default output of importing `firstTrace` (and the traces after it): beside the first trace.
QString defaultImportOutput(const QString &firstTrace);

} // namespace memhist::viewer
