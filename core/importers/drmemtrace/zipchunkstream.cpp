// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/zipchunkstream.h"

#include <unzip.h>

namespace memhist::drmemtrace {

namespace {

// minizip reads the archive through these, with the PooledFile as its stream: it seeks before every
// read, so the file may lose and regain its descriptor between two reads.
voidpf ZCALLBACK openPooled(voidpf, const void *file, int)
{
    return const_cast<void *>(file);
}

uLong ZCALLBACK readPooled(voidpf, voidpf stream, void *buffer, uLong size)
{
    const qint64 n = static_cast<PooledFile *>(stream)->read(static_cast<char *>(buffer), qint64(size));
    return n < 0 ? 0 : uLong(n);
}

uLong ZCALLBACK writePooled(voidpf, voidpf, const void *, uLong)
{
    return 0; // read-only
}

ZPOS64_T ZCALLBACK tellPooled(voidpf, voidpf stream)
{
    return ZPOS64_T(static_cast<PooledFile *>(stream)->pos());
}

long ZCALLBACK seekPooled(voidpf, voidpf stream, ZPOS64_T offset, int origin)
{
    auto *file = static_cast<PooledFile *>(stream);
    qint64 base = 0;
    if (origin == ZLIB_FILEFUNC_SEEK_CUR)
        base = file->pos();
    else if (origin == ZLIB_FILEFUNC_SEEK_END)
        base = file->size();
    file->seek(base + qint64(offset));
    return 0;
}

int ZCALLBACK closePooled(voidpf, voidpf)
{
    return 0; // the ZipChunkStream owns the file
}

int ZCALLBACK errorPooled(voidpf, voidpf stream)
{
    return static_cast<PooledFile *>(stream)->errorString().isEmpty() ? 0 : 1;
}

} // namespace

ZipChunkStream::ZipChunkStream(const QString &path, FileHandlePool *pool)
    : m_file(path, pool)
{ }

ZipChunkStream::~ZipChunkStream() = default;

bool ZipChunkStream::isChunkName(QByteArrayView name)
{
    return name.startsWith("chunk.") && name.size() > 6;
}

bool ZipChunkStream::open()
{
    if (!m_file.open())
        return fail(QStringLiteral("cannot open: ") + m_file.errorString());
    zlib_filefunc64_def functions {};
    functions.zopen64_file = openPooled;
    functions.zread_file = readPooled;
    functions.zwrite_file = writePooled;
    functions.ztell64_file = tellPooled;
    functions.zseek64_file = seekPooled;
    functions.zclose_file = closePooled;
    functions.zerror_file = errorPooled;
    unzFile zip = unzOpen2_64(&m_file, &functions);
    // minizip finds the members through the central directory at the end of the archive: a zip cut
    // short (a copy interrupted, a tracer killed while zipping) has none.
    if (!zip)
        return fail(QStringLiteral("not a readable zip archive: truncated or corrupt (no central directory)"));
    const bool listed = listMembers(zip);
    unzClose(zip);
    return listed;
}

bool ZipChunkStream::listMembers(void *zip)
{
    // The member table, from the central directory alone: minizip walks the entries, each entry's
    // sizes and offsets are read here (zipmember.h says why).
    quint64 nextEntry = 0; // where the central directory entry after the last one listed starts
    for (int status = unzGoToFirstFile(zip); status != UNZ_END_OF_LIST_OF_FILE; status = unzGoToNextFile(zip)) {
        const QString after = m_members.empty() ? QStringLiteral("the start") : m_members.back().info.name;
        if (status != UNZ_OK && m_members.size() >= 0xffff && endOfDirectoryAt(nextEntry))
            break;
        if (status != UNZ_OK)
            return fail(QStringLiteral("corrupt zip directory after member %1").arg(after));
        unz_file_info64 info {};
        char name[256] = {};
        unz64_file_pos position {};
        if (unzGetCurrentFileInfo64(zip, &info, name, sizeof name - 1, nullptr, 0, nullptr, 0) != UNZ_OK
            || unzGetFilePos64(zip, &position) != UNZ_OK)
            return fail(QStringLiteral("corrupt zip directory after member %1").arg(after));
        // The central directory entry's fixed part is 46 bytes.
        nextEntry = quint64(position.pos_in_zip_directory) + 46 + info.size_filename + info.size_file_extra
            + info.size_file_comment;
        Member member;
        QString error;
        if (!readCentralEntry(&m_file, quint64(position.pos_in_zip_directory), &member.info, &error))
            return fail(QStringLiteral("%1 after member %2").arg(error, after));
        member.info.name = QString::fromUtf8(name);
        member.compressedBefore
            = m_members.empty() ? 0 : m_members.back().compressedBefore + qint64(m_members.back().info.compressedSize);
        m_members.push_back(std::move(member));
    }
    return true;
}

bool ZipChunkStream::endOfDirectoryAt(quint64 offset)
{
    // An archive of more than 65,534 members whose writer (minizip, as DynamoRIO's) left out the
    // zip64 end records says 0xffff members; minizip then reads on past the last entry and fails.
    // The end-of-directory record (or its zip64 form) where the next entry would be says the list
    // ended there.
    const qint64 saved = m_file.pos();
    char signature[4] = {};
    m_file.seek(qint64(offset));
    const qint64 n = m_file.read(signature, 4);
    m_file.seek(saved);
    return n == 4 && signature[0] == 'P' && signature[1] == 'K'
        && ((signature[2] == 5 && signature[3] == 6) || (signature[2] == 6 && signature[3] == 6));
}

bool ZipChunkStream::openMember(int index)
{
    const ZipMemberInfo &member = m_members[size_t(index)].info;
    if (!isChunkName(member.name.toUtf8()))
        return fail(QStringLiteral("zip member %1 is not a drmemtrace chunk (chunk.NNNN)").arg(member.name));
    QString reason;
    if (!m_reader.open(&m_file, member, &reason))
        return fail(QStringLiteral("zip member %1: cannot open: %2").arg(member.name, reason));
    return true;
}

bool ZipChunkStream::nextPart()
{
    m_memberOpen = false;
    m_reader.close();
    if (m_next >= partCount())
        return false;
    const int index = m_next++;
    m_current = index;
    m_memberName = m_members[size_t(index)].info.name;
    m_memberSize = qint64(m_members[size_t(index)].info.size);
    if (!openMember(index))
        return false;
    m_memberOpen = true;
    return true;
}

bool ZipChunkStream::seekPart(int index)
{
    m_memberOpen = false;
    m_reader.close();
    if (index < 0 || index >= partCount())
        return fail(QStringLiteral("no zip member %1 (the archive holds %2)").arg(index).arg(partCount()));
    m_next = index;
    return true;
}

bool ZipChunkStream::readPartHead(int index, qint64 size, QByteArray *head)
{
    m_memberOpen = false;
    if (!openMember(index))
        return false;
    head->resize(size);
    qint64 filled = 0;
    QString reason;
    while (filled < size) {
        const qint64 n = m_reader.read(head->data() + filled, size - filled, &reason);
        if (n < 0) {
            m_reader.close();
            return fail(QStringLiteral("zip member %1: %2").arg(m_members[size_t(index)].info.name, reason));
        }
        if (n == 0)
            break;
        filled += n;
    }
    head->truncate(filled);
    m_reader.close();
    return true;
}

qint64 ZipChunkStream::read(char *data, qint64 maxSize)
{
    if (!m_memberOpen)
        return 0;
    QString reason;
    const qint64 n = m_reader.read(data, maxSize, &reason);
    // The reason only: the record reader places it, in this member.
    if (n < 0) {
        m_memberOpen = false;
        fail(reason);
        return -1;
    }
    if (n == 0)
        m_memberOpen = false;
    return n;
}

qint64 ZipChunkStream::inputBytesConsumed() const
{
    // The member's share of its stored size, by the bytes inflated so far, is as good for a
    // progress bar. Members skipped by a seek count as consumed.
    if (m_current < 0)
        return 0;
    const Member &member = m_members[size_t(m_current)];
    const qint64 stored = qint64(member.info.compressedSize);
    if (!m_memberOpen || m_memberSize <= 0)
        return member.compressedBefore + stored;
    return member.compressedBefore + qint64(double(stored) * double(m_reader.delivered()) / double(m_memberSize));
}

} // namespace memhist::drmemtrace
