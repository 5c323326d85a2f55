// SPDX-License-Identifier: MIT
// The options of a half-axis query, shared by `query`, `export` and the lines of a --batch file:
// --at --backward --from --to --ops --limit --resume --thread (repeatable). Numbers are decimal or 0x hex, full 64-bit.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QCommandLineParser>

namespace memhist {
class HistoryDatabase;
}
#include <QString>

namespace memhist::cli {

// What --limit means when it is not given: the query's page of 100, or (export) every match.
enum class LimitDefault {
    FirstHundred,
    EveryMatch,
};
void addQueryOptions(QCommandLineParser &parser, LimitDefault limitDefault = LimitDefault::FirstHundred);

// True when any of the query options was given (--batch takes its queries from its file instead).
bool anyQueryOptionSet(const QCommandLineParser &parser);

// Fills *query from a parsed command line. Leaves `at` unset unless given, so that the engine
// applies its default (0 forward, the last transition backward). False + *error (a usage message
// naming the option) on a bad value, on --resume with --at, and on --from greater than --to.
bool readQueryOptions(const QCommandLineParser &parser, HalfAxisQuery *query, QString *error);

// Checks the query's thread filter against the history: false + *error ("no thread 4 in this
// history (its threads: 10506, 10510)"; a history without threads: "this history records no
// threads") when it names a thread the history does not know. True without a filter.
bool checkQueryThreads(HistoryDatabase &database, const HalfAxisQuery &query, QString *error);

// Decimal or 0x hex, full 64-bit unsigned range. *error names the option and the reason.
bool parseNumberOption(const QString &option, const QString &text, std::uint64_t *value, QString *error);

// Any non-empty combination of the letters r, w and x ("rw", "x", "wrx").
bool parseOperations(const QString &text, Operations *operations);

} // namespace memhist::cli
