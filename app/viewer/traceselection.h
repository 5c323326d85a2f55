// SPDX-License-Identifier: MIT
// What a selection of files in Import Trace… (or a drop) imports. A drmemtrace run is a directory:
// a file per thread and the schedule files (cpu_schedule.bin.zip, serial_schedule.bin.gz). Selected
// file by file, its schedule files are no trace ("unknown trace format") and its threads would be
// imported one after another rather than interleaved as they ran. So a selection made of one trace
// directory's files — its schedule files with any of its threads, or all its threads — imports the
// directory, as Import Trace Directory… does (the schedule files recognised and skipped).
#pragma once

#include <QStringList>

namespace memhist::viewer {

// `paths` as they are, or the one trace directory whose files they are (see above).
QStringList tracesToImport(const QStringList &paths);

} // namespace memhist::viewer
