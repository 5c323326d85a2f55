// SPDX-License-Identifier: MIT
// An uncompressed trace file: the records as they are on disk.
#pragma once

#include "core/importers/drmemtrace/bytestream.h"
#include "core/importers/drmemtrace/pooledfile.h"

namespace memhist::drmemtrace {

class RawFileStream : public ByteStream
{
public:
    explicit RawFileStream(const QString &path, FileHandlePool *pool = nullptr);

    bool open() override;
    bool nextPart() override;
    qint64 read(char *data, qint64 maxSize) override;
    qint64 inputBytesConsumed() const override { return m_consumed; }

private:
    PooledFile m_file;
    qint64 m_consumed = 0;
    bool m_started = false;
};

} // namespace memhist::drmemtrace
