// SPDX-License-Identifier: MIT
// The mappings an ELF loader makes for an object file: each PT_LOAD segment from the page holding
// its first byte to the page holding its last (p_memsz, so .bss included), at a load bias, with
// /proc's permissions ("r-xp") and the page offset in the file. What a trace source uses when it
// knows that a file was loaded and where (valgrind's "Reading syms from" with its avma), rather
// than reading /proc/PID/maps at some moment: the program headers say the same every time.
#pragma once

#include "core/context/processmap.h"

#include <QList>
#include <QString>
#include <cstdint>

namespace memhist {

// The load mappings of `path` at `bias` (run-time address = ELF address + bias), in program
// header order; segments of size 0 are left out. False + *error ("not found", "not an ELF file",
// ...) when the file cannot be read as ELF; *mappings is then empty.
bool elfLoadMappings(const QString &path, std::uint64_t bias, QList<Mapping> *mappings, QString *error);

} // namespace memhist
