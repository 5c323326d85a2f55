// SPDX-License-Identifier: MIT
#include "core/summary/slicespool.h"

#include <QDir>
#include <QFile>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace memhist::summary {

namespace {

// Fragments are gathered up to this many bytes before a write(2).
constexpr qsizetype bufferBytes = qsizetype(4) << 20;

} // namespace

SliceSpool::~SliceSpool()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool SliceSpool::fail(int error)
{
    m_error = QString::fromLocal8Bit(std::strerror(error));
    return false;
}

bool SliceSpool::open(const QString &directory)
{
    const QByteArray dir = QFile::encodeName(directory.isEmpty() ? QDir::tempPath() : directory);
    // O_TMPFILE: a file without a name from the start. Where the file system cannot, a named one
    // removed at once.
    m_fd = ::open(dir.constData(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (m_fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        QByteArray name = dir + "/.memhist-summary-XXXXXX";
        m_fd = ::mkostemp(name.data(), O_CLOEXEC);
        if (m_fd >= 0)
            ::unlink(name.constData());
    }
    if (m_fd < 0)
        return fail(errno);
    m_buffer.reserve(bufferBytes);
    return true;
}

bool SliceSpool::flush()
{
    const char *data = m_buffer.constData();
    qsizetype left = m_buffer.size();
    while (left > 0) {
        const ssize_t n = ::write(m_fd, data, std::size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(n < 0 ? errno : ENOSPC);
        data += n;
        left -= n;
    }
    m_buffer.clear();
    return true;
}

bool SliceSpool::append(std::int64_t slice, const QByteArray &fragment)
{
    if (m_fd < 0)
        return fail(EBADF);
    m_entries.push_back({ slice, m_written, fragment.size() });
    m_written += fragment.size();
    if (m_buffer.size() + fragment.size() > bufferBytes && !flush())
        return false;
    if (fragment.size() > bufferBytes) {
        m_buffer = fragment;
        return flush();
    }
    m_buffer += fragment;
    return true;
}

bool SliceSpool::finishWriting()
{
    if (m_fd < 0)
        return fail(EBADF);
    if (!flush())
        return false;
    m_buffer = QByteArray();
    // Stable: a slice's fragments keep the order they came in.
    std::stable_sort(
        m_entries.begin(), m_entries.end(), [](const Entry &a, const Entry &b) { return a.slice < b.slice; });
    m_next = 0;
    return true;
}

bool SliceSpool::readSlice(std::int64_t slice, std::vector<QByteArray> *fragments)
{
    fragments->clear();
    while (m_next < m_entries.size() && m_entries[m_next].slice < slice)
        ++m_next; // fragments of slices nobody asked for (beyond a history's slices) are skipped
    for (; m_next < m_entries.size() && m_entries[m_next].slice == slice; ++m_next) {
        const Entry &entry = m_entries[m_next];
        QByteArray bytes(entry.size, Qt::Uninitialized);
        qint64 done = 0;
        while (done < entry.size) {
            const ssize_t n = ::pread(m_fd, bytes.data() + done, std::size_t(entry.size - done), entry.offset + done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return fail(n < 0 ? errno : EIO);
            done += n;
        }
        fragments->push_back(std::move(bytes));
    }
    return true;
}

} // namespace memhist::summary
