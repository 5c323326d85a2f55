// SPDX-License-Identifier: MIT
// The memory map of a traced process: one mapping as /proc/PID/maps lists it, and a parser for
// that text (a `cat /proc/PID/maps` dump given to `memhist import --maps`, or read by a recorder).
#pragma once

#include "core/model/types.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <cstdint>

namespace memhist {

// One mapping: inclusive run-time addresses, permissions as /proc writes them ("r-xp", "rw-s"),
// the offset in the file of its first byte (0 for anonymous mappings), and the path: a file, or
// a name such as "[stack]", "[heap]", "[vdso]", and "[anon]" for an anonymous mapping (which
// /proc leaves unnamed).
struct Mapping
{
    Address first;
    Address last;
    QString permissions;
    std::uint64_t fileOffset = 0;
    QString path;

    bool contains(Address address) const { return first <= address && address <= last; }
    // A file rather than a name in brackets.
    bool isFile() const { return !path.isEmpty() && !path.startsWith(u'['); }
    friend bool operator==(const Mapping &, const Mapping &) = default;
};

// Permissions as /proc/PID/maps writes them for a private mapping: "r-xp", "rw-p", "---p".
inline QString privatePermissionsText(bool readable, bool writable, bool executable)
{
    QString text = QStringLiteral("---p");
    if (readable)
        text[0] = u'r';
    if (writable)
        text[1] = u'w';
    if (executable)
        text[2] = u'x';
    return text;
}

// The path of an anonymous mapping.
inline QString anonymousMappingPath()
{
    return QStringLiteral("[anon]");
}

// The client stack [first, last] as `memhist record` names it, and the import of a log it kept
// does again: the two must agree, row for row.
inline Mapping clientStackMapping(Address first, Address last)
{
    return Mapping { first, last, QStringLiteral("rw-p"), 0, QStringLiteral("[stack]") };
}

// Parses /proc/PID/maps text: "START-END PERMS OFFSET DEV INODE [PATH]" per line, addresses and
// offset in hex, END exclusive. Blank lines are skipped, a path keeps its inner spaces and " (deleted)"
// suffix. On a malformed line: false and *error = "SOURCE:LINE: reason"; *mappings then holds the
// lines before it.
bool parseProcessMaps(QByteArrayView text, const QString &sourceName, QList<Mapping> *mappings, QString *error);

} // namespace memhist
