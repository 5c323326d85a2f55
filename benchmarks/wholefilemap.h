// SPDX-License-Identifier: MIT
// An experiment for the query benchmark, not a part of memhist: a default SQLite VFS that serves
// the pages of read-only database files from one memory map of the whole file, where Debian's
// SQLite maps at most 2 GiB (SQLITE_MAX_MMAP_SIZE) and reads the rest with pread and a copy into its
// page cache. It measures what mapping the rest would save a query on a 10^8 history (7 GB).
#pragma once

namespace memhist::bench {

// Registers the VFS as the process's default; connections opened afterwards use it. False when it
// cannot be registered.
bool mapWholeFiles();

} // namespace memhist::bench
