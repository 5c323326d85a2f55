// SPDX-License-Identifier: MIT
// A gzip-compressed trace file (DynamoRIO's .trace.gz), inflated as it is read: only the input
// buffer and zlib's window are held, whatever the file's size. Concatenated gzip members are read
// one after another, as gzip(1) does.
#pragma once

#include "core/importers/drmemtrace/bytestream.h"
#include "core/importers/drmemtrace/pooledfile.h"

#include <QByteArray>
#include <zlib.h>

namespace memhist::drmemtrace {

class GzipFileStream : public ByteStream
{
public:
    explicit GzipFileStream(const QString &path, FileHandlePool *pool = nullptr);
    ~GzipFileStream() override;

    bool open() override;
    bool nextPart() override;
    qint64 read(char *data, qint64 maxSize) override;
    qint64 inputBytesConsumed() const override { return m_consumed; }

private:
    PooledFile m_file;
    QByteArray m_input;
    z_stream m_zlib {};
    bool m_zlibReady = false;
    bool m_started = false;
    bool m_inputAtEnd = false;
    bool m_streamEnded = false; // the last member seen ended with its trailer
    qint64 m_consumed = 0; // compressed bytes read from the file
};

} // namespace memhist::drmemtrace
