// SPDX-License-Identifier: MIT
// A chunked drmemtrace trace (.trace.zip): a zip archive whose members chunk.0000, chunk.0001, ...
// hold consecutive pieces of one thread's records. Members are read in archive order, each
// inflated as it is read (zipmember.h), so memory stays at zlib's window plus one buffer. The
// members are listed from the archive's central directory (minizip) when it is opened, so that a
// reader can start at
// any member without inflating the ones before it (seekPart), or look at the first records of each
// (readPartHead) to find where a window of the trace begins. The file is read through a PooledFile.
#pragma once

#include "core/importers/drmemtrace/bytestream.h"
#include "core/importers/drmemtrace/pooledfile.h"
#include "core/importers/drmemtrace/zipmember.h"

#include <QByteArray>
#include <vector>

namespace memhist::drmemtrace {

class ZipChunkStream : public ByteStream
{
public:
    explicit ZipChunkStream(const QString &path, FileHandlePool *pool = nullptr);
    ~ZipChunkStream() override;
    ZipChunkStream(const ZipChunkStream &) = delete;
    ZipChunkStream &operator=(const ZipChunkStream &) = delete;

    bool open() override;
    bool nextPart() override;
    qint64 read(char *data, qint64 maxSize) override;
    QString partName() const override { return m_memberName; }
    qint64 partSize() const override { return m_memberSize; }
    qint64 inputBytesConsumed() const override;

    // The members of the archive (known once open).
    int partCount() const override { return int(m_members.size()); }
    // A member's decompressed size, as the central directory states it.
    qint64 partSizeAt(int index) const override { return qint64(m_members[size_t(index)].info.size); }
    // Makes the next nextPart() move to member `index` (0-based), without inflating the members
    // before it. Any member being read is closed first.
    bool seekPart(int index) override;
    // Reads the first `size` bytes of member `index` into *head (fewer when the member is shorter),
    // for a look at its first records; the member is closed again, and so is the one being read:
    // reading goes on only after seekPart(). False + errorString() on an error.
    bool readPartHead(int index, qint64 size, QByteArray *head);

    // True when the zip member name is one drmemtrace gives its chunks ("chunk.0000").
    static bool isChunkName(QByteArrayView name);

private:
    struct Member
    {
        ZipMemberInfo info;
        qint64 compressedBefore = 0; // stored bytes of the members before it
    };

    bool listMembers(void *zip); // an unzFile
    bool endOfDirectoryAt(quint64 offset);
    bool openMember(int index);

    PooledFile m_file;
    ZipMemberReader m_reader;
    std::vector<Member> m_members;
    int m_next = 0; // the member nextPart() opens
    int m_current = -1;
    bool m_memberOpen = false;
    QString m_memberName;
    qint64 m_memberSize = -1;
};

} // namespace memhist::drmemtrace
