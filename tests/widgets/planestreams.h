// SPDX-License-Identifier: MIT
// The access streams the plane's tests write into histories, in one place.
#pragma once

#include "testsupport.h"

#include <QList>

namespace memhist::test {

inline constexpr std::uint64_t planeCodeBase = 0x401000;
inline constexpr std::uint64_t planeHeapBase = 0x601000;
inline constexpr std::uint64_t planeStackBase = 0x7ffc0000;

// 100 transitions, 170 accesses in one slice: an instruction fetch each, a heap read every other
// transition and a stack write every fifth. Three regions far apart, one operation in each.
inline QList<Access> smallPlaneStream()
{
    QList<Access> stream;
    for (std::uint64_t t = 0; t < 100; ++t) {
        stream << userAccess(t, Operation::Execute, planeCodeBase + 4 * t, 4);
        if (t % 2 == 0)
            stream << userAccess(t, Operation::Read, planeHeapBase + 8 * (t % 16), 8);
        if (t % 5 == 0)
            stream << userAccess(t, Operation::Write, planeStackBase + 0x10 + 8 * (t % 20), 8);
    }
    return stream;
}

} // namespace memhist::test
