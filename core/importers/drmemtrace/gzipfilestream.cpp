// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/gzipfilestream.h"

namespace memhist::drmemtrace {

namespace {
constexpr qsizetype inputBufferSize = 256 << 10;
}

GzipFileStream::GzipFileStream(const QString &path, FileHandlePool *pool)
    : m_file(path, pool)
{ }

GzipFileStream::~GzipFileStream()
{
    if (m_zlibReady)
        inflateEnd(&m_zlib);
}

bool GzipFileStream::open()
{
    if (!m_file.open())
        return fail(QStringLiteral("cannot open: ") + m_file.errorString());
    // 16 + MAX_WBITS: expect a gzip header and trailer, not a bare zlib stream.
    if (inflateInit2(&m_zlib, 16 + MAX_WBITS) != Z_OK)
        return fail(QStringLiteral("cannot initialise zlib"));
    m_zlibReady = true;
    m_input.resize(inputBufferSize);
    return true;
}

bool GzipFileStream::nextPart()
{
    if (m_started)
        return false;
    m_started = true;
    return true;
}

qint64 GzipFileStream::read(char *data, qint64 maxSize)
{
    const qint64 wanted = std::min<qint64>(maxSize, 1 << 30);
    m_zlib.next_out = reinterpret_cast<Bytef *>(data);
    m_zlib.avail_out = uInt(wanted);
    // On an error, what was inflated before it is returned first and the error on the next call,
    // so that the reader can tell exactly which record the damage begins at.
    const auto failed = [&] { return wanted > qint64(m_zlib.avail_out) ? wanted - qint64(m_zlib.avail_out) : -1; };
    if (!m_error.isEmpty())
        return -1;
    while (m_zlib.avail_out > 0) {
        if (m_zlib.avail_in == 0 && !m_inputAtEnd) {
            const qint64 n = m_file.read(m_input.data(), m_input.size());
            if (n < 0) {
                fail(QStringLiteral("read error: ") + m_file.errorString());
                return failed();
            }
            m_consumed += n;
            m_inputAtEnd = n == 0;
            m_zlib.next_in = reinterpret_cast<Bytef *>(m_input.data());
            m_zlib.avail_in = uInt(n);
        }
        if (m_zlib.avail_in == 0 && m_inputAtEnd) {
            if (!m_streamEnded) {
                fail(QStringLiteral("truncated gzip data: the file ends after %1 bytes, before the end of the "
                                    "compressed stream")
                         .arg(m_consumed));
                return failed();
            }
            break;
        }
        if (m_streamEnded) {
            // More input after a complete member: another member follows.
            inflateReset(&m_zlib);
            m_streamEnded = false;
        }
        const int status = inflate(&m_zlib, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            m_streamEnded = true;
        } else if (status == Z_BUF_ERROR) {
            // No progress possible with this input; the loop reads more or reports truncation.
            continue;
        } else if (status != Z_OK) {
            fail(QStringLiteral("corrupt gzip data at compressed byte %1: %2")
                     .arg(m_consumed - qint64(m_zlib.avail_in))
                     .arg(QString::fromLatin1(m_zlib.msg ? m_zlib.msg : "inflate failed")));
            return failed();
        }
    }
    return wanted - qint64(m_zlib.avail_out);
}

} // namespace memhist::drmemtrace
