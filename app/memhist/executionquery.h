// SPDX-License-Identifier: MIT
// `memhist query DB --pc ADDR | --function NAME [--at T] [--backward] [--limit N] [--resume T]`:
// the transitions at which an instruction (or a function's entry instruction: its calls) executed,
// from the PCs the history stores, with the thread when the history knows it.
#pragma once

#include "pageprinter.h"

#include <QCommandLineParser>
#include <QString>

namespace memhist::cli {

// Adds --pc and --function to `parser`.
void addExecutionOptions(QCommandLineParser &parser);
// True when --pc or --function was given: the query lists executions instead of accesses.
bool executionQueryRequested(const QCommandLineParser &parser);

// Runs the query the parsed command line asks for on `databasePath` and prints it; returns the
// exit status. Usage errors (--pc with --from, --resume with --at, ...) are reported as such.
int runExecutionQuery(
    const QCommandLineParser &parser, const QString &command, const QString &databasePath, OutputFormat format);

} // namespace memhist::cli
