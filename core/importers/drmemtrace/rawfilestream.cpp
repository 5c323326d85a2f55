// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/rawfilestream.h"

namespace memhist::drmemtrace {

RawFileStream::RawFileStream(const QString &path, FileHandlePool *pool)
    : m_file(path, pool)
{ }

bool RawFileStream::open()
{
    if (!m_file.open())
        return fail(QStringLiteral("cannot open: ") + m_file.errorString());
    return true;
}

bool RawFileStream::nextPart()
{
    // One part: the whole file.
    if (m_started)
        return false;
    m_started = true;
    return true;
}

qint64 RawFileStream::read(char *data, qint64 maxSize)
{
    const qint64 n = m_file.read(data, maxSize);
    if (n < 0) {
        fail(QStringLiteral("read error: ") + m_file.errorString());
        return -1;
    }
    m_consumed += n;
    return n;
}

} // namespace memhist::drmemtrace
