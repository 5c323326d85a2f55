#include "zipchunkstream.h"

#include <QFile>
#include <unzip.h>

namespace memhist::drmemtrace {

ZipChunkStream::ZipChunkStream(const QString &path)
    : m_path(QFile::encodeName(path))
{ }

ZipChunkStream::~ZipChunkStream()
{
    if (m_zip) {
        if (m_memberOpen)
            unzCloseCurrentFile(m_zip);
        unzClose(m_zip);
    }
}

bool ZipChunkStream::isChunkName(QByteArrayView name)
{
    return name.startsWith("chunk.") && name.size() > 6;
}

bool ZipChunkStream::open()
{
    QFile probe(QString::fromLocal8Bit(m_path));
    if (!probe.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot open: ") + probe.errorString());
    probe.close();
    m_zip = unzOpen64(m_path.constData());
    // minizip finds the members through the central directory at the end of the archive: a zip cut
    // short (a copy interrupted, a tracer killed while zipping) has none.
    if (!m_zip)
        return fail(QStringLiteral("not a readable zip archive: truncated or corrupt (no central directory)"));
    return true;
}

bool ZipChunkStream::closeMember()
{
    if (!m_memberOpen)
        return true;
    m_memberOpen = false;
    const int status = unzCloseCurrentFile(m_zip);
    m_compressedDone += m_memberCompressedSize;
    if (status == UNZ_CRCERROR)
        return fail(QStringLiteral("zip member %1: CRC mismatch (corrupt data)").arg(m_memberName));
    if (status != UNZ_OK)
        return fail(QStringLiteral("zip member %1: cannot close (error %2)").arg(m_memberName).arg(status));
    return true;
}

bool ZipChunkStream::nextPart()
{
    if (!closeMember())
        return false;
    const int moved = m_started ? unzGoToNextFile(m_zip) : unzGoToFirstFile(m_zip);
    m_started = true;
    if (moved == UNZ_END_OF_LIST_OF_FILE)
        return false;
    if (moved != UNZ_OK)
        return fail(QStringLiteral("corrupt zip directory after member %1").arg(m_memberName));

    unz_file_info64 info {};
    char name[256] = {};
    if (unzGetCurrentFileInfo64(m_zip, &info, name, sizeof name - 1, nullptr, 0, nullptr, 0) != UNZ_OK)
        return fail(QStringLiteral("corrupt zip directory after member %1").arg(m_memberName));
    m_memberName = QString::fromUtf8(name);
    m_memberSize = qint64(info.uncompressed_size);
    m_memberCompressedSize = qint64(info.compressed_size);
    m_memberRead = 0;
    if (!isChunkName(QByteArrayView(name, qstrlen(name))))
        return fail(QStringLiteral("zip member %1 is not a drmemtrace chunk (chunk.NNNN)").arg(m_memberName));
    if (const int status = unzOpenCurrentFile(m_zip); status != UNZ_OK)
        return fail(QStringLiteral("zip member %1: cannot open (error %2)").arg(m_memberName).arg(status));
    m_memberOpen = true;
    return true;
}

qint64 ZipChunkStream::read(char *data, qint64 maxSize)
{
    if (!m_memberOpen)
        return 0;
    const int n = unzReadCurrentFile(m_zip, data, unsigned(std::min<qint64>(maxSize, 1 << 30)));
    if (n < 0) {
        fail(n == Z_DATA_ERROR
                ? QStringLiteral("zip member %1: corrupt compressed data").arg(m_memberName)
                : QStringLiteral("zip member %1: truncated or unreadable (error %2)").arg(m_memberName).arg(n));
        return -1;
    }
    m_memberRead += n;
    if (n == 0 && !closeMember())
        return -1;
    return n;
}

qint64 ZipChunkStream::inputBytesConsumed() const
{
    // minizip does not tell where in the file it is; the member's share of its stored size is as
    // good for a progress bar.
    if (!m_memberOpen || m_memberSize <= 0)
        return m_compressedDone;
    return m_compressedDone + qint64(double(m_memberCompressedSize) * double(m_memberRead) / double(m_memberSize));
}

} // namespace memhist::drmemtrace
