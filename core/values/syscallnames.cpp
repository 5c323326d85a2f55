// SPDX-License-Identifier: MIT
#include "core/values/syscallnames.h"

#include "core/values/accessvalue.h"

#include <algorithm>
#include <iterator>

namespace memhist {

namespace {

struct SyscallName
{
    quint32 number;
    const char *name;
};

// Generated at configure time from the kernel headers' asm/unistd_64.h (core/CMakeLists.txt), in
// number order.
constexpr SyscallName syscallNames[] = {
#include "syscallnames.inc"
};

} // namespace

QString kernelAccessText(quint32 syscall)
{
    if (syscall == signalFrameSyscall)
        return QStringLiteral("the signal frame");
    const auto found = std::lower_bound(std::begin(syscallNames), std::end(syscallNames), syscall,
        [](const SyscallName &entry, quint32 number) { return entry.number < number; });
    if (found != std::end(syscallNames) && found->number == syscall)
        return QLatin1StringView(found->name) + QStringLiteral("()");
    return QStringLiteral("system call %1").arg(syscall);
}

} // namespace memhist
