// SPDX-License-Identifier: MIT
// The bytes an access moved, as a history keeps them where its trace or recording has them: the
// bytes read or written, for a write the bytes it overwrote, and whether the kernel made the access
// (a system call's buffer, a signal frame) rather than an instruction of the program.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <optional>

namespace memhist {

// The syscall number of a kernel access that is not a system call's: the signal frame the kernel
// writes when it delivers a signal (core/recorder/recordformat.h's MH_SYSCALL_SIGNAL_FRAME).
inline constexpr quint32 signalFrameSyscall = 0xffffffffu;

struct AccessValue
{
    QByteArray bytes; // in memory order
    QByteArray before; // a write's overwritten bytes, as many as `bytes`; empty when unknown (or a read)
    std::optional<quint32> kernelSyscall; // the system call that made the access; none for the program's own

    bool hasBefore() const { return !before.isEmpty(); }
    friend bool operator==(const AccessValue &, const AccessValue &) = default;
};

// The same, borrowed, as the importers and the recorder hand it to the writer.
struct AccessValueView
{
    QByteArrayView bytes;
    QByteArrayView before; // empty, or as long as `bytes`
    std::optional<quint32> kernelSyscall;
};

} // namespace memhist
