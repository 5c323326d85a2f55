// SPDX-License-Identifier: MIT
#include "machinecontext.h"

#include <QDateTime>
#include <QFile>
#include <QSysInfo>
#include <sched.h>
#include <sqlite3.h>
#include <thread>

namespace memhist::bench {

namespace {

QByteArray readProcFile(const char *path)
{
    QFile file(QString::fromLatin1(path));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return file.readAll(); // sequential: readAll() reads to the end despite the reported size 0
}

// The value of the first "key<tabs>: value" line of a /proc file.
QString procField(const QByteArray &content, const QByteArray &key)
{
    for (const QByteArray &line : content.split('\n')) {
        if (line.startsWith(key)) {
            const qsizetype colon = line.indexOf(':');
            if (colon >= 0)
                return QString::fromUtf8(line.mid(colon + 1).trimmed());
        }
    }
    return {};
}

int availableProcessors()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    return int(std::thread::hardware_concurrency());
}

} // namespace

MachineContext collectMachineContext()
{
    MachineContext context;
    context.date = QDateTime::currentDateTime().toString(Qt::ISODate);
    context.processors = availableProcessors();
    context.cpuModel = procField(readProcFile("/proc/cpuinfo"), QByteArrayLiteral("model name"));
    const QString memTotal = procField(readProcFile("/proc/meminfo"), QByteArrayLiteral("MemTotal"));
    context.memoryBytes = memTotal.section(u' ', 0, 0).toLongLong() * 1024;
    context.loadAverage = QString::fromLatin1(readProcFile("/proc/loadavg")).section(u' ', 0, 2);
    context.kernel = QSysInfo::kernelType() + u' ' + QSysInfo::kernelVersion();
    context.qtVersion = QString::fromLatin1(qVersion());
    context.sqliteVersion = QString::fromLatin1(sqlite3_libversion());
    return context;
}

} // namespace memhist::bench
