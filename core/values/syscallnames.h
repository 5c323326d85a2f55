// SPDX-License-Identifier: MIT
// The names of x86-64 Linux system calls, for saying which one made a kernel access ("read()").
#pragma once

#include <QString>

namespace memhist {

// "read()" for 0; "the signal frame" for signalFrameSyscall; "system call N" for a number the kernel
// headers memhist was built with do not name.
QString kernelAccessText(quint32 syscall);

} // namespace memhist
