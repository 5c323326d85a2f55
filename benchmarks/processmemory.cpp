// SPDX-License-Identifier: MIT
#include "processmemory.h"

#include <QByteArray>
#include <QFile>
#include <sys/resource.h>

namespace memhist::bench {

namespace {

// A "Key:   1234 kB" line of /proc/self/status.
qint64 statusKilobytesField(const QByteArray &key)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly | QIODevice::Text))
        return -1;
    // /proc files report size 0, so atEnd() is true at once: readAll() reads to the real end.
    const QList<QByteArray> lines = status.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (!line.startsWith(key))
            continue;
        const QList<QByteArray> fields = line.mid(key.size()).simplified().split(' ');
        bool ok = false;
        const qint64 kilobytes = fields.value(0).toLongLong(&ok);
        return ok ? kilobytes * 1024 : -1;
    }
    return -1;
}

} // namespace

bool resetPeakRss()
{
    // Writing 5 to clear_refs resets VmHWM (Linux >= 4.0, Documentation/filesystems/proc.rst).
    QFile clearRefs(QStringLiteral("/proc/self/clear_refs"));
    if (!clearRefs.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return false;
    return clearRefs.write("5") == 1;
}

qint64 peakRssBytes()
{
    return statusKilobytesField(QByteArrayLiteral("VmHWM:"));
}

qint64 currentRssBytes()
{
    return statusKilobytesField(QByteArrayLiteral("VmRSS:"));
}

qint64 processCpuNanoseconds()
{
    rusage usage {};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return -1;
    const auto nanoseconds
        = [](const timeval &time) { return qint64(time.tv_sec) * 1'000'000'000 + qint64(time.tv_usec) * 1000; };
    return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime);
}

} // namespace memhist::bench
