// SPDX-License-Identifier: MIT
// What the viewer says when a file cannot be opened or imported: the core's messages are written
// for the command line (they name its options); these say what to do in the viewer instead, and
// tell a damaged history from a file that is no history at all.
#pragma once

#include <QString>

namespace memhist::viewer {

// `path` is named like a history (.memhist) but does not start with the SQLite header.
QString notAHistoryMessage(const QString &path);

// Why the history at `path` did not open, from the core's `error` ("PATH: reason"): a file with the
// SQLite header that is cut short or that SQLite finds malformed is a damaged or truncated history,
// with `memhist check` advice and the core's reason; other errors are returned as they are.
QString openHistoryMessage(const QString &path, const QString &error);

// The core's import `error` without the command line's advice to name a format with --format: the
// viewer recognises traces by their content only, so it says which files it can take.
QString importMessage(const QString &error);

} // namespace memhist::viewer
