// SPDX-License-Identifier: MIT
// The commands of the memhist command line. Each takes its own arguments, the command name first
// (as QCommandLineParser expects the program name there), and returns the process exit status.
#pragma once

#include <QStringList>

namespace memhist::cli {

int runImport(const QStringList &arguments);
int runRecord(const QStringList &arguments);
int runQuery(const QStringList &arguments);
int runExport(const QStringList &arguments);
int runCheck(const QStringList &arguments);
int runInfo(const QStringList &arguments);
int runAt(const QStringList &arguments);
int runMemory(const QStringList &arguments);
int runSearch(const QStringList &arguments);
int runOrigin(const QStringList &arguments);
int runDiff(const QStringList &arguments);

} // namespace memhist::cli
