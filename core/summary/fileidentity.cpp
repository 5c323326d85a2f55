// SPDX-License-Identifier: MIT
#include "core/summary/fileidentity.h"

#include <QFile>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace memhist::summary {

QString FileIdentity::toString() const
{
    return QStringLiteral("%1:%2:%3:%4:%5").arg(device).arg(inode).arg(size).arg(modifiedNs).arg(changeCounter);
}

std::optional<FileIdentity> fileIdentity(const QString &path, QString *error)
{
    const QByteArray name = QFile::encodeName(path);
    const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = path + QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(errno));
        return std::nullopt;
    }
    // One descriptor for both: the stat and the header describe the same file even when the path
    // is replaced meanwhile.
    struct stat st
    {
    };
    FileIdentity identity;
    bool ok = ::fstat(fd, &st) == 0;
    if (ok) {
        identity.device = std::uint64_t(st.st_dev);
        identity.inode = std::uint64_t(st.st_ino);
        identity.size = std::int64_t(st.st_size);
        identity.modifiedNs = std::int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        unsigned char counter[4] = {};
        const ssize_t n = ::pread(fd, counter, sizeof counter, 24);
        if (n == sizeof counter)
            identity.changeCounter = std::uint32_t(counter[0]) << 24 | std::uint32_t(counter[1]) << 16
                | std::uint32_t(counter[2]) << 8 | counter[3];
        ok = n >= 0;
    }
    const int savedErrno = errno;
    ::close(fd);
    if (!ok) {
        *error = path + QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(savedErrno));
        return std::nullopt;
    }
    return identity;
}

} // namespace memhist::summary
