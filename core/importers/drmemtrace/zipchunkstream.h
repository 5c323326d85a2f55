// A chunked drmemtrace trace (.trace.zip): a zip archive whose members chunk.0000, chunk.0001, ...
// hold consecutive pieces of one thread's records. Members are read in archive order, each
// inflated as it is read (minizip), so memory stays at zlib's window plus one buffer.
#pragma once

#include "importers/drmemtrace/bytestream.h"

#include <QByteArray>

namespace memhist::drmemtrace {

class ZipChunkStream : public ByteStream
{
public:
    explicit ZipChunkStream(const QString &path);
    ~ZipChunkStream() override;
    ZipChunkStream(const ZipChunkStream &) = delete;
    ZipChunkStream &operator=(const ZipChunkStream &) = delete;

    bool open() override;
    bool nextPart() override;
    qint64 read(char *data, qint64 maxSize) override;
    QString partName() const override { return m_memberName; }
    qint64 partSize() const override { return m_memberSize; }
    qint64 inputBytesConsumed() const override;

    // True when the zip member name is one drmemtrace gives its chunks ("chunk.0000").
    static bool isChunkName(QByteArrayView name);

private:
    bool closeMember();

    QByteArray m_path; // in the local 8-bit encoding, for fopen
    void *m_zip = nullptr; // unzFile
    bool m_memberOpen = false;
    bool m_started = false;
    QString m_memberName;
    qint64 m_memberSize = -1;
    qint64 m_memberCompressedSize = 0;
    qint64 m_memberRead = 0;
    qint64 m_compressedDone = 0; // stored bytes of the members already read
};

} // namespace memhist::drmemtrace
