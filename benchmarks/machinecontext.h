// SPDX-License-Identifier: MIT
// Where a benchmark ran, printed beside its figures: they mean little without it.
#pragma once

#include <QString>

namespace memhist::bench {

struct MachineContext
{
    QString date; // local time, ISO 8601
    int processors = 0; // as nproc counts them: those this process may run on
    QString cpuModel;
    qint64 memoryBytes = 0;
    QString loadAverage; // 1, 5 and 15 minutes: other work competing for the processors
    QString kernel;
    QString qtVersion;
    QString sqliteVersion;
};

MachineContext collectMachineContext();

} // namespace memhist::bench
