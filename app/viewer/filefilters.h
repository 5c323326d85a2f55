// SPDX-License-Identifier: MIT
// The name filters of the viewer's file dialogs, built from the one list of trace patterns
// (core/importers/traceformats.h).
#pragma once

#include <QString>

namespace memhist::viewer {

// File ▸ Open: histories and traces together first (the dialog opens either), then each alone,
// then all files.
QString openFileFilters();
// File ▸ Import Trace: traces first, then all files.
QString importFileFilters();
// File ▸ Compare With…: histories (only a history is compared), then all files.
QString historyFileFilters();

} // namespace memhist::viewer
