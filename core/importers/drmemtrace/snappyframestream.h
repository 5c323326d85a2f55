// SPDX-License-Identifier: MIT
// A trace compressed with snappy's framing format (DynamoRIO's .trace.sz): a stream identifier
// chunk, then compressed or uncompressed chunks of at most 64 KiB of data, each with the masked
// CRC-32C of its uncompressed bytes, plus padding and reserved chunks. The framing is parsed here;
// snappy itself only decompresses each chunk's raw block.
#pragma once

#include "core/importers/drmemtrace/bytestream.h"
#include "core/importers/drmemtrace/pooledfile.h"

#include <QByteArray>

namespace memhist::drmemtrace {

class SnappyFrameStream : public ByteStream
{
public:
    explicit SnappyFrameStream(const QString &path, FileHandlePool *pool = nullptr);

    bool open() override;
    bool nextPart() override;
    qint64 read(char *data, qint64 maxSize) override;
    qint64 inputBytesConsumed() const override { return m_consumed; }

    // The decompressed data of the first data chunk of `framed` (the start of a file), for
    // recognising a trace by content; empty when it is not a snappy stream or the chunk is cut off.
    static QByteArray firstChunk(QByteArrayView framed);

private:
    // Reads and decodes chunks until one holds data (or the file ends): false on error.
    bool fillData();
    bool readExactly(char *data, qint64 size, const char *what);

    PooledFile m_file;
    QByteArray m_chunk; // one chunk's stored bytes
    QByteArray m_data; // one chunk's decompressed bytes
    qsizetype m_dataPos = 0;
    qint64 m_consumed = 0;
    bool m_started = false;
    bool m_sawIdentifier = false;
    bool m_atEnd = false;
};

} // namespace memhist::drmemtrace
