// SPDX-License-Identifier: MIT
// A SQLite VFS for reading histories: it serves the pages of a database file opened read-only from
// one memory map of the whole file. SQLite maps at most SQLITE_MAX_MMAP_SIZE (2 GiB in Debian's
// build) and reads every page past it with pread(2) and a copy into its page cache; a history of
// 10^8 accesses is 7-8 GB, and a narrow query touches pages all over it. Measured on such a
// history (docs/benchmarks.md, issue 27): the copies were half of the CPU time of a 1-byte
// window's p99.
//
// Everything else goes to the default VFS: files opened for writing, journals, temporary files,
// and pages SQLite reads without its memory-mapping (mmap_size = 0, as the diff's streaming
// connections set it, turns the map off for that connection). A map is made when the file is
// opened and covers the file as it was then; pages past it (a file that grew) come from the default
// VFS. As with SQLite's own map, a file truncated by another process while it is mapped would end
// the reader with SIGBUS: histories are written once, to a temporary name, and renamed.
#pragma once

namespace memhist::sqlite {

// The VFS's name for sqlite3_open_v2(), registered once per process (not as the default); null
// when the default VFS cannot carry it (a VFS older than version 3 has no xFetch).
const char *wholeFileMapVfs();

} // namespace memhist::sqlite
