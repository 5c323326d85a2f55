// SPDX-License-Identifier: MIT
// `memhist query DB --pc ADDR | --function NAME [--at T] [--backward] [--limit N] [--resume T]`:
// the transitions at which an instruction (or a function's entry instruction: its calls) executed,
// from the PCs the history stores, with the thread when the history knows it.
#pragma once

#include "core/query/halfaxisquery.h"
#include "pageprinter.h"

#include <QCommandLineParser>
#include <QString>

namespace memhist::cli {

// Adds --pc, --function, --accesses and --callees to `parser`.
void addExecutionOptions(QCommandLineParser &parser);
// True when --pc or --function was given without --accesses: the query lists executions instead of
// accesses.
bool executionQueryRequested(const QCommandLineParser &parser);

// Adds --function, --accesses and --callees alone: `export`'s function filter (without --pc, and
// --function only with --accesses).
void addFunctionFilterOptions(QCommandLineParser &parser);

// --function NAME --accesses [--callees]: sets the query's function filter (HalfAxisQuery::function),
// the other query options applying as without it. False + *error (a usage message) on --accesses
// without --function, with --pc or --batch, and --callees without --accesses. Without --accesses,
// leaves the query as it is.
bool readFunctionFilter(const QCommandLineParser &parser, HalfAxisQuery *query, QString *error);
// Checks the query's function filter against the history: false + *error ("no function named 'x'
// ran (...; did you mean ...?)", "the history has no PCs ...") when it cannot be answered. True
// without a filter.
bool checkQueryFunction(HistoryDatabase &database, const HalfAxisQuery &query, QString *error);

// Runs the query the parsed command line asks for on `databasePath` and prints it; returns the
// exit status. Usage errors (--pc with --from, --resume with --at, ...) are reported as such.
int runExecutionQuery(
    const QCommandLineParser &parser, const QString &command, const QString &databasePath, OutputFormat format);

} // namespace memhist::cli
