// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/snappyframestream.h"

#include "core/importers/drmemtrace/crc32c.h"

#include <cstring>
#include <snappy-c.h>

namespace memhist::drmemtrace {

namespace {

constexpr uchar compressedChunk = 0x00;
constexpr uchar uncompressedChunk = 0x01;
constexpr uchar lastReservedUnskippable = 0x7f;
constexpr uchar streamIdentifierChunk = 0xff;
constexpr QByteArrayView streamIdentifier("sNaPpY");
// The format caps a chunk's uncompressed data at 64 KiB; a compressed chunk can exceed it a little.
constexpr qsizetype maxDataSize = 65536;
constexpr qsizetype chunkHeaderSize = 4;

enum class ChunkResult {
    Data,
    Skipped, // padding, reserved skippable chunk, or a repeated stream identifier
    Failed,
};

quint32 readLittle32(const char *p)
{
    const auto *b = reinterpret_cast<const uchar *>(p);
    return quint32(b[0]) | quint32(b[1]) << 8 | quint32(b[2]) << 16 | quint32(b[3]) << 24;
}

// Decodes the body of one chunk of type `type` into *data (replacing it).
ChunkResult decodeChunk(uchar type, QByteArrayView body, QByteArray *data, QString *error)
{
    if (type == streamIdentifierChunk) {
        if (body != streamIdentifier) {
            *error = QStringLiteral("bad snappy stream identifier chunk");
            return ChunkResult::Failed;
        }
        return ChunkResult::Skipped;
    }
    if (type == compressedChunk || type == uncompressedChunk) {
        if (body.size() < 4) {
            *error = QStringLiteral("snappy chunk of %1 bytes is too short to hold its checksum").arg(body.size());
            return ChunkResult::Failed;
        }
        const quint32 storedCrc = readLittle32(body.data());
        const QByteArrayView payload = body.sliced(4);
        if (type == compressedChunk) {
            size_t length = 0;
            if (snappy_uncompressed_length(payload.data(), size_t(payload.size()), &length) != SNAPPY_OK) {
                *error = QStringLiteral("corrupt snappy chunk (bad length header)");
                return ChunkResult::Failed;
            }
            if (length > size_t(maxDataSize)) {
                *error = QStringLiteral("snappy chunk holds %1 bytes, more than the 65536 the format allows")
                             .arg(qulonglong(length));
                return ChunkResult::Failed;
            }
            data->resize(qsizetype(length));
            if (snappy_uncompress(payload.data(), size_t(payload.size()), data->data(), &length) != SNAPPY_OK) {
                *error = QStringLiteral("corrupt snappy chunk (cannot decompress)");
                return ChunkResult::Failed;
            }
        } else {
            if (payload.size() > maxDataSize) {
                *error = QStringLiteral("uncompressed snappy chunk holds %1 bytes, more than the 65536 the format "
                                        "allows")
                             .arg(payload.size());
                return ChunkResult::Failed;
            }
            *data = payload.toByteArray();
        }
        if (maskCrc32c(crc32c(data->constData(), data->size())) != storedCrc) {
            *error = QStringLiteral("snappy chunk checksum mismatch (corrupt data)");
            return ChunkResult::Failed;
        }
        return ChunkResult::Data;
    }
    if (type <= lastReservedUnskippable) {
        *error = QStringLiteral("reserved unskippable snappy chunk type 0x%1").arg(type, 2, 16, QLatin1Char('0'));
        return ChunkResult::Failed;
    }
    return ChunkResult::Skipped; // 0x80..0xfe: reserved skippable and padding
}

} // namespace

SnappyFrameStream::SnappyFrameStream(const QString &path, FileHandlePool *pool)
    : m_file(path, pool)
{ }

bool SnappyFrameStream::open()
{
    if (!m_file.open())
        return fail(QStringLiteral("cannot open: ") + m_file.errorString());
    return true;
}

bool SnappyFrameStream::nextPart()
{
    if (m_started)
        return false;
    m_started = true;
    return true;
}

bool SnappyFrameStream::readExactly(char *data, qint64 size, const char *what)
{
    const qint64 n = m_file.read(data, size);
    if (n < 0)
        return fail(QStringLiteral("read error: ") + m_file.errorString());
    m_consumed += n;
    if (n < size)
        return fail(QStringLiteral("truncated snappy stream: the file ends after %1 bytes, inside %2")
                        .arg(m_consumed)
                        .arg(QLatin1String(what)));
    return true;
}

bool SnappyFrameStream::fillData()
{
    while (m_dataPos >= m_data.size() && !m_atEnd) {
        char header[chunkHeaderSize];
        const qint64 n = m_file.read(header, chunkHeaderSize);
        if (n < 0)
            return fail(QStringLiteral("read error: ") + m_file.errorString());
        if (n == 0) {
            m_atEnd = true;
            if (!m_sawIdentifier)
                return fail(QStringLiteral("empty snappy stream"));
            break;
        }
        m_consumed += n;
        if (n < chunkHeaderSize)
            return fail(QStringLiteral("truncated snappy stream: the file ends after %1 bytes, inside a chunk header")
                            .arg(m_consumed));
        const auto type = uchar(header[0]);
        const qint64 length = qint64(uchar(header[1])) | qint64(uchar(header[2])) << 8 | qint64(uchar(header[3])) << 16;
        if (!m_sawIdentifier && type != streamIdentifierChunk)
            return fail(QStringLiteral("not a snappy framed stream (no stream identifier chunk)"));
        if (type >= 0x80 && type != streamIdentifierChunk) {
            // Padding or reserved skippable: up to 16 MiB that nobody needs in memory. Skipping stops
            // at the end of the file: a chunk cut short there is a truncated stream, not its end.
            const qint64 skipped = m_file.skip(length);
            if (skipped < 0)
                return fail(QStringLiteral("read error: ") + m_file.errorString());
            m_consumed += skipped;
            if (skipped < length)
                return fail(
                    QStringLiteral("truncated snappy stream: the file ends after %1 bytes, inside a skippable chunk")
                        .arg(m_consumed));
            continue;
        }
        m_chunk.resize(length);
        if (!readExactly(m_chunk.data(), length, "a chunk"))
            return false;
        QString error;
        m_dataPos = 0;
        const ChunkResult result = decodeChunk(type, m_chunk, &m_data, &error);
        if (result == ChunkResult::Failed)
            return fail(error + QStringLiteral(" (chunk at byte %1)").arg(m_consumed - length - chunkHeaderSize));
        if (type == streamIdentifierChunk)
            m_sawIdentifier = true;
        if (result == ChunkResult::Skipped)
            m_data.clear();
    }
    return true;
}

qint64 SnappyFrameStream::read(char *data, qint64 maxSize)
{
    if (!m_error.isEmpty())
        return -1;
    qint64 copied = 0;
    while (copied < maxSize) {
        if (m_dataPos >= m_data.size()) {
            // On an error, the data before it goes out first and the error on the next call.
            if (!fillData())
                return copied > 0 ? copied : -1;
            if (m_dataPos >= m_data.size())
                break; // end of the stream
        }
        const qint64 n = std::min<qint64>(maxSize - copied, m_data.size() - m_dataPos);
        std::memcpy(data + copied, m_data.constData() + m_dataPos, size_t(n));
        m_dataPos += n;
        copied += n;
    }
    return copied;
}

QByteArray SnappyFrameStream::firstChunk(QByteArrayView framed)
{
    qsizetype pos = 0;
    bool sawIdentifier = false;
    while (pos + chunkHeaderSize <= framed.size()) {
        const auto type = uchar(framed[pos]);
        const qsizetype length = qsizetype(uchar(framed[pos + 1])) | qsizetype(uchar(framed[pos + 2])) << 8
            | qsizetype(uchar(framed[pos + 3])) << 16;
        if (!sawIdentifier && type != streamIdentifierChunk)
            return {};
        if (pos + chunkHeaderSize + length > framed.size())
            return {};
        QByteArray data;
        QString error;
        const ChunkResult result = decodeChunk(type, framed.sliced(pos + chunkHeaderSize, length), &data, &error);
        if (result == ChunkResult::Failed)
            return {};
        if (type == streamIdentifierChunk)
            sawIdentifier = true;
        if (result == ChunkResult::Data && !data.isEmpty())
            return data;
        pos += chunkHeaderSize + length;
    }
    return {};
}

} // namespace memhist::drmemtrace
