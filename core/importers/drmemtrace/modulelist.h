// SPDX-License-Identifier: MIT
// DynamoRIO's module list: the `modules.log` its offline tracer writes beside the raw trace
// (DIR/raw/modules.log; the final trace is in DIR/trace), as drcovlib's module tracker dumps it:
//
//   Module Table: version 5, count 3
//   Columns: id, containing_id, start, end, entry, offset, preferred_base, (custom fields), path
//     0,   0, 0x0000555555554000, 0x0000555555555000, 0x0000555555555040, 0000000000000000, 0x0000000000000000, v#1,0,
//     /app
//
// One entry per segment of each loaded module, ids from 0; a module's further segments name its
// first one as containing_id. Columns by version: 2 = id, base, end, entry; 3 adds containing_id
// (and says start for base); 4 adds offset (the segment's file offset, hex without 0x); 5 adds
// preferred_base (the ELF address the module asks to be loaded at: 0 for PIE executables and
// shared libraries). Windows lists add checksum and timestamp; drmemtrace's custom field is
// `v#1,SIZE,` followed by SIZE raw bytes of the module's contents (the vdso's), which may hold any
// byte, newlines included. The columns line says which are present, and is followed here.
//
// The list is a dump at the process's exit: it says where each module was, not when it was loaded
// or unloaded.
#pragma once

#include "core/model/types.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <cstdint>
#include <optional>

namespace memhist::drmemtrace {

struct ModuleListEntry
{
    int id = 0;
    int containingId = 0; // == id for a module's first segment (and in version 2 lists)
    std::uint64_t start = 0;
    std::uint64_t end = 0; // exclusive
    std::uint64_t fileOffset = 0; // 0 before version 4
    std::optional<std::uint64_t> preferredBase; // version 5 on
    QString path; // "<unknown>" or "[vdso]" for memory without a file

    bool isFirstSegment() const { return containingId == id; }
    friend bool operator==(const ModuleListEntry &, const ModuleListEntry &) = default;
};

struct ModuleList
{
    int version = 0;
    QList<ModuleListEntry> entries; // in id order
};

// Parses the text of a module list. False on a malformed list, with *error = "SOURCE:LINE: reason"
// (an unknown version, a header or column line that is not one, a field that is no number, ids
// out of order, an end not after its start, a containing id that names no first segment, fewer
// entries than the count says).
bool parseModuleList(QByteArrayView text, const QString &sourceName, ModuleList *list, QString *error);

// The bias (run-time address minus ELF address) of the module whose first segment is `first`:
// start - preferred_base when the list has it; before version 5, start minus the segment's file
// offset rounded down to its page, i.e. the module is taken to be linked at ELF address 0 (true of
// PIE executables and shared libraries, not of a non-PIE executable).
std::uint64_t moduleBias(const ModuleListEntry &first);

} // namespace memhist::drmemtrace
