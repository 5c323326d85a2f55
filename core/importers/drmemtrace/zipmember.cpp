// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/zipmember.h"

#include <QtEndian>
#include <algorithm>

namespace memhist::drmemtrace {

namespace {

constexpr quint32 zip64Marker = 0xffffffffu;
constexpr quint16 zip64ExtraId = 0x0001;
constexpr int localHeaderSize = 30;
constexpr quint32 localHeaderSignature = 0x04034b50; // "PK\3\4"
constexpr qint64 inputBufferSize = 256 * 1024;
constexpr int centralEntrySize = 46;
constexpr quint32 centralEntrySignature = 0x02014b50; // "PK\1\2"

quint16 le16(const char *p)
{
    return qFromLittleEndian<quint16>(p);
}

} // namespace

bool readCentralEntry(PooledFile *file, quint64 offset, ZipMemberInfo *info, QString *error)
{
    char entry[centralEntrySize];
    file->seek(qint64(offset));
    if (file->read(entry, centralEntrySize) != centralEntrySize
        || qFromLittleEndian<quint32>(entry) != centralEntrySignature) {
        *error = QStringLiteral("corrupt zip directory");
        return false;
    }
    info->encrypted = (le16(entry + 8) & 1) != 0;
    info->method = le16(entry + 10);
    info->crc = qFromLittleEndian<quint32>(entry + 16);
    info->compressedSize = qFromLittleEndian<quint32>(entry + 20);
    info->size = qFromLittleEndian<quint32>(entry + 24);
    info->localHeaderOffset = qFromLittleEndian<quint32>(entry + 42);
    const quint16 nameLength = le16(entry + 28);
    const quint16 extraLength = le16(entry + 30);
    QByteArray extra(extraLength, Qt::Uninitialized);
    file->seek(qint64(offset) + centralEntrySize + nameLength);
    if (file->read(extra.data(), extraLength) != extraLength || !applyZip64Extra(extra, info)) {
        *error = QStringLiteral("corrupt zip directory (zip64 sizes missing)");
        return false;
    }
    if (info->size >= (quint64(1) << 62) || info->compressedSize >= (quint64(1) << 62)) {
        *error = QStringLiteral("corrupt zip directory (a size of %1 bytes)")
                     .arg(std::max(info->size, info->compressedSize));
        return false;
    }
    return true;
}

bool applyZip64Extra(QByteArrayView extra, ZipMemberInfo *info)
{
    const bool needSize = info->size == zip64Marker;
    const bool needCompressed = info->compressedSize == zip64Marker;
    const bool needOffset = info->localHeaderOffset == zip64Marker;
    if (!needSize && !needCompressed && !needOffset)
        return true;
    qsizetype at = 0;
    while (at + 4 <= extra.size()) {
        const quint16 id = le16(extra.data() + at);
        const quint16 length = le16(extra.data() + at + 2);
        const qsizetype body = at + 4;
        if (body + length > extra.size())
            return false;
        if (id == zip64ExtraId) {
            qsizetype field = body;
            const auto take = [&](quint64 *value) {
                if (field + 8 > body + length)
                    return false;
                *value = qFromLittleEndian<quint64>(extra.data() + field);
                field += 8;
                return true;
            };
            return (!needSize || take(&info->size)) && (!needCompressed || take(&info->compressedSize))
                && (!needOffset || take(&info->localHeaderOffset));
        }
        at = body + length;
    }
    return false;
}

ZipMemberReader::~ZipMemberReader()
{
    close();
}

void ZipMemberReader::close()
{
    if (m_inflating)
        inflateEnd(&m_inflate);
    m_inflating = false;
    m_file = nullptr;
}

bool ZipMemberReader::open(PooledFile *file, const ZipMemberInfo &info, QString *error)
{
    close();
    m_info = info;
    m_consumed = m_delivered = 0;
    m_crc = crc32(0, nullptr, 0);
    m_ended = false;
    m_input.clear();
    if (info.encrypted) {
        *error = QStringLiteral("encrypted (not supported)");
        return false;
    }
    if (info.method != 0 && info.method != Z_DEFLATED) {
        *error = QStringLiteral("compression method %1 is not supported (only stored and deflated)").arg(info.method);
        return false;
    }
    char header[localHeaderSize];
    file->seek(qint64(info.localHeaderOffset));
    if (info.localHeaderOffset > quint64(file->size()) || file->read(header, localHeaderSize) != localHeaderSize
        || qFromLittleEndian<quint32>(header) != localHeaderSignature) {
        *error = QStringLiteral("damaged member header (not a valid zip entry)");
        return false;
    }
    // The local header's own name and extra lengths (they may differ from the directory's).
    m_dataOffset = info.localHeaderOffset + localHeaderSize + le16(header + 26) + le16(header + 28);
    if (m_dataOffset > quint64(file->size()) || info.compressedSize > quint64(file->size()) - m_dataOffset) {
        *error = QStringLiteral("the data ends early (truncated)");
        return false;
    }
    if (info.method == Z_DEFLATED) {
        m_inflate = z_stream {};
        if (inflateInit2(&m_inflate, -MAX_WBITS) != Z_OK) {
            *error = QStringLiteral("out of memory");
            return false;
        }
        m_inflating = true;
    }
    m_file = file;
    return true;
}

bool ZipMemberReader::fillInput(QString *error)
{
    const qint64 wanted = qint64(std::min<quint64>(inputBufferSize, m_info.compressedSize - m_consumed));
    m_input.resize(wanted);
    m_file->seek(qint64(m_dataOffset + m_consumed));
    const qint64 n = m_file->read(m_input.data(), wanted);
    if (n != wanted) {
        *error = n < 0 ? QStringLiteral("cannot read the archive: ") + m_file->errorString()
                       : QStringLiteral("the data ends early (truncated)");
        return false;
    }
    m_consumed += quint64(n);
    return true;
}

qint64 ZipMemberReader::read(char *data, qint64 maxSize, QString *error)
{
    if (!m_file || m_ended || maxSize <= 0)
        return 0;
    if (m_delivered == m_info.size) {
        // The end, checked when it is reached rather than with the last bytes, so that those
        // bytes are delivered and a CRC mismatch is placed at the member's end.
        m_ended = true;
        if (m_crc != m_info.crc) {
            *error = QStringLiteral("CRC mismatch (corrupt data)");
            return -1;
        }
        return 0;
    }
    maxSize = std::min<qint64>(maxSize, 1 << 30);
    qint64 produced = 0;
    if (!m_inflating) {
        // Stored: the bytes as they are.
        const qint64 wanted = qint64(std::min<quint64>(quint64(maxSize), m_info.size - m_delivered));
        m_file->seek(qint64(m_dataOffset + m_delivered));
        produced = wanted > 0 ? m_file->read(data, wanted) : 0;
        if (produced != wanted) {
            *error = QStringLiteral("the data ends early (truncated)");
            return -1;
        }
    } else {
        m_inflate.next_out = reinterpret_cast<Bytef *>(data);
        m_inflate.avail_out = uInt(maxSize);
        while (m_inflate.avail_out > 0) {
            if (m_inflate.avail_in == 0) {
                if (m_consumed == m_info.compressedSize) {
                    *error = QStringLiteral("the compressed data ends early (truncated)");
                    return -1;
                }
                if (!fillInput(error))
                    return -1;
                m_inflate.next_in = reinterpret_cast<Bytef *>(m_input.data());
                m_inflate.avail_in = uInt(m_input.size());
            }
            const int status = inflate(&m_inflate, Z_NO_FLUSH);
            if (status == Z_STREAM_END)
                break;
            if (status != Z_OK) {
                *error = status == Z_MEM_ERROR ? QStringLiteral("out of memory")
                                               : QStringLiteral("corrupt compressed data");
                return -1;
            }
        }
        produced = maxSize - qint64(m_inflate.avail_out);
    }
    m_crc = crc32_z(m_crc, reinterpret_cast<const Bytef *>(data), size_t(produced));
    m_delivered += quint64(produced);
    if (m_delivered > m_info.size) {
        *error = QStringLiteral("holds more than the %1 bytes its directory entry states").arg(m_info.size);
        return -1;
    }
    if (produced == 0) {
        // The compressed stream ended before the size its directory entry states.
        *error = QStringLiteral("ends after %1 of the %2 bytes its directory entry states")
                     .arg(m_delivered)
                     .arg(m_info.size);
        return -1;
    }
    return produced;
}

} // namespace memhist::drmemtrace
