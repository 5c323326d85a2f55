// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/pooledfile.h"

#include <QFile>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace memhist::drmemtrace {

namespace {

// Reads smaller than this go through the buffer.
constexpr qint64 bufferSize = 16 << 10;

QString systemReason(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace

FileHandlePool::FileHandlePool(int maxOpen)
    : m_maxOpen(std::max(1, maxOpen))
{ }

int FileHandlePool::defaultMaxOpen()
{
    rlimit limit {};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return 256;
    return int(std::clamp<rlim_t>(limit.rlim_cur / 4, 8, 256));
}

void FileHandlePool::admit(PooledFile *file)
{
    while (int(m_open.size()) >= m_maxOpen)
        m_open.back()->closeDescriptor();
    m_open.push_front(file);
    file->m_entry = m_open.begin();
}

void FileHandlePool::touch(PooledFile *file)
{
    if (file->m_entry != m_open.begin())
        m_open.splice(m_open.begin(), m_open, file->m_entry);
}

void FileHandlePool::forget(PooledFile *file)
{
    m_open.erase(file->m_entry);
}

PooledFile::PooledFile(const QString &path, FileHandlePool *pool)
    : m_encodedPath(QFile::encodeName(path))
    , m_pool(pool)
{ }

PooledFile::~PooledFile()
{
    closeDescriptor();
}

void PooledFile::closeDescriptor()
{
    if (m_fd < 0)
        return;
    ::close(m_fd);
    m_fd = -1;
    m_buffer.clear();
    m_buffer.shrink_to_fit();
    if (m_pool)
        m_pool->forget(this);
}

bool PooledFile::ensureOpen()
{
    if (m_fd >= 0) {
        if (m_pool)
            m_pool->touch(this);
        return true;
    }
    if (m_pool)
        m_pool->admit(this);
    const int fd = ::open(m_encodedPath.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        if (m_pool)
            m_pool->forget(this);
        m_error = systemReason(error);
        return false;
    }
    m_fd = fd;
    if (m_opened && m_pool)
        ++m_pool->m_reopens;
    return true;
}

bool PooledFile::open()
{
    if (!ensureOpen())
        return false;
    struct stat info
    {
    };
    if (::fstat(m_fd, &info) != 0) {
        m_error = systemReason(errno);
        return false;
    }
    if (S_ISDIR(info.st_mode)) {
        m_error = systemReason(EISDIR);
        return false;
    }
    m_size = qint64(info.st_size);
    m_opened = true;
    m_pos = 0;
    return true;
}

qint64 PooledFile::read(char *data, qint64 maxSize)
{
    if (!m_opened) {
        m_error = QStringLiteral("the file is not open");
        return -1;
    }
    if (!ensureOpen()) {
        m_error = QStringLiteral("cannot reopen: ") + m_error;
        return -1;
    }
    // As fread does: the whole request unless the file ends (minizip takes a short read for an error).
    qint64 done = 0;
    while (done < maxSize) {
        if (m_pos >= m_bufferStart && m_pos < m_bufferStart + qint64(m_buffer.size())) {
            const qint64 n = std::min(maxSize - done, m_bufferStart + qint64(m_buffer.size()) - m_pos);
            std::memcpy(data + done, m_buffer.data() + (m_pos - m_bufferStart), size_t(n));
            m_pos += n;
            done += n;
            continue;
        }
        if (maxSize - done >= bufferSize) {
            const qint64 n = readAt(data + done, maxSize - done, m_pos);
            if (n < 0)
                return done > 0 ? done : -1;
            m_pos += n;
            done += n;
            if (n == 0)
                break;
            continue;
        }
        m_buffer.resize(size_t(bufferSize));
        const qint64 n = readAt(m_buffer.data(), bufferSize, m_pos);
        m_buffer.resize(size_t(std::max<qint64>(n, 0)));
        m_bufferStart = m_pos;
        if (n < 0)
            return done > 0 ? done : -1;
        if (n == 0)
            break;
    }
    return done;
}

qint64 PooledFile::readAt(char *data, qint64 size, qint64 offset)
{
    for (;;) {
        const ssize_t n = ::pread(m_fd, data, size_t(size), off_t(offset));
        if (n >= 0)
            return qint64(n);
        if (errno != EINTR) {
            m_error = systemReason(errno);
            return -1;
        }
    }
}

qint64 PooledFile::skip(qint64 count)
{
    const qint64 moved = std::clamp<qint64>(m_size - m_pos, 0, count);
    m_pos += moved;
    return moved;
}

} // namespace memhist::drmemtrace
