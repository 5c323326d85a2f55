// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/zipchunkstream.h"

#include <unzip.h>

namespace memhist::drmemtrace {

namespace {

// minizip's status codes (unzip.h, and zlib's for inflate errors) in words: a user can do nothing
// with "error -103".
QString minizipReason(int status)
{
    switch (status) {
    case UNZ_ERRNO:
        return QStringLiteral("cannot read the archive");
    case UNZ_EOF:
        return QStringLiteral("the data ends early (truncated)");
    case UNZ_BADZIPFILE:
        return QStringLiteral("damaged member header (not a valid zip entry)");
    case UNZ_CRCERROR:
        return QStringLiteral("CRC mismatch (corrupt data)");
    case Z_DATA_ERROR:
        return QStringLiteral("corrupt compressed data");
    case Z_MEM_ERROR:
        return QStringLiteral("out of memory");
    case Z_BUF_ERROR:
        return QStringLiteral("the compressed data ends early (truncated)");
    default:
        return QStringLiteral("unreadable (minizip status %1)").arg(status);
    }
}

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
    m_zip = unzOpen2_64(&m_file, &functions);
    // minizip finds the members through the central directory at the end of the archive: a zip cut
    // short (a copy interrupted, a tracer killed while zipping) has none.
    if (!m_zip)
        return fail(QStringLiteral("not a readable zip archive: truncated or corrupt (no central directory)"));

    // The member table, from the central directory alone.
    quint64 nextEntry = 0; // where the central directory entry after the last one listed starts
    for (int status = unzGoToFirstFile(m_zip); status != UNZ_END_OF_LIST_OF_FILE; status = unzGoToNextFile(m_zip)) {
        const QString after = m_members.empty() ? QStringLiteral("the start") : m_members.back().name;
        if (status != UNZ_OK && m_members.size() >= 0xffff && endOfDirectoryAt(nextEntry))
            break;
        if (status != UNZ_OK)
            return fail(QStringLiteral("corrupt zip directory after member %1").arg(after));
        unz_file_info64 info {};
        char name[256] = {};
        unz64_file_pos position {};
        if (unzGetCurrentFileInfo64(m_zip, &info, name, sizeof name - 1, nullptr, 0, nullptr, 0) != UNZ_OK
            || unzGetFilePos64(m_zip, &position) != UNZ_OK)
            return fail(QStringLiteral("corrupt zip directory after member %1").arg(after));
        // The central directory entry's fixed part is 46 bytes.
        nextEntry = quint64(position.pos_in_zip_directory) + 46 + info.size_filename + info.size_file_extra
            + info.size_file_comment;
        const qint64 before
            = m_members.empty() ? 0 : m_members.back().compressedBefore + m_members.back().compressedSize;
        m_members.push_back({ QString::fromUtf8(name), qint64(info.uncompressed_size), qint64(info.compressed_size),
            before, quint64(position.pos_in_zip_directory), quint64(position.num_of_file) });
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

QString ZipChunkStream::closeMember()
{
    if (!m_memberOpen)
        return {};
    m_memberOpen = false;
    const int status = unzCloseCurrentFile(m_zip);
    if (status == UNZ_CRCERROR)
        return minizipReason(status);
    if (status != UNZ_OK)
        return QStringLiteral("cannot close: ") + minizipReason(status);
    return {};
}

bool ZipChunkStream::openMember(int index)
{
    const Member &member = m_members[size_t(index)];
    const unz64_file_pos position { ZPOS64_T(member.directoryOffset), ZPOS64_T(member.fileNumber) };
    if (unzGoToFilePos64(m_zip, &position) != UNZ_OK)
        return fail(QStringLiteral("zip member %1: corrupt zip directory").arg(member.name));
    if (!isChunkName(member.name.toUtf8()))
        return fail(QStringLiteral("zip member %1 is not a drmemtrace chunk (chunk.NNNN)").arg(member.name));
    if (const int status = unzOpenCurrentFile(m_zip); status != UNZ_OK)
        return fail(QStringLiteral("zip member %1: cannot open: %2").arg(member.name, minizipReason(status)));
    return true;
}

bool ZipChunkStream::nextPart()
{
    if (const QString reason = closeMember(); !reason.isEmpty())
        return fail(QStringLiteral("zip member %1: %2").arg(m_memberName, reason));
    if (m_next >= partCount())
        return false;
    const int index = m_next++;
    m_current = index;
    m_memberName = m_members[size_t(index)].name;
    m_memberSize = m_members[size_t(index)].size;
    m_memberRead = 0;
    if (!openMember(index))
        return false;
    m_memberOpen = true;
    return true;
}

bool ZipChunkStream::seekPart(int index)
{
    if (m_memberOpen) {
        // Left before its end: minizip checks no CRC for a member not read to the end.
        m_memberOpen = false;
        unzCloseCurrentFile(m_zip);
    }
    if (index < 0 || index >= partCount())
        return fail(QStringLiteral("no zip member %1 (the archive holds %2)").arg(index).arg(partCount()));
    m_next = index;
    return true;
}

bool ZipChunkStream::readPartHead(int index, qint64 size, QByteArray *head)
{
    if (m_memberOpen) {
        m_memberOpen = false;
        unzCloseCurrentFile(m_zip);
    }
    if (!openMember(index))
        return false;
    head->resize(size);
    qint64 filled = 0;
    while (filled < size) {
        const int n = unzReadCurrentFile(m_zip, head->data() + filled, unsigned(size - filled));
        if (n < 0) {
            unzCloseCurrentFile(m_zip);
            return fail(QStringLiteral("zip member %1: corrupt compressed data").arg(m_members[size_t(index)].name));
        }
        if (n == 0)
            break;
        filled += n;
    }
    head->truncate(filled);
    unzCloseCurrentFile(m_zip);
    return true;
}

qint64 ZipChunkStream::read(char *data, qint64 maxSize)
{
    if (!m_memberOpen)
        return 0;
    const int n = unzReadCurrentFile(m_zip, data, unsigned(std::min<qint64>(maxSize, 1 << 30)));
    // The reason only: the record reader places it, in this member.
    if (n < 0) {
        fail(minizipReason(n));
        return -1;
    }
    m_memberRead += n;
    if (n == 0) {
        if (const QString reason = closeMember(); !reason.isEmpty()) {
            fail(reason);
            return -1;
        }
    }
    return n;
}

qint64 ZipChunkStream::inputBytesConsumed() const
{
    // minizip does not tell where in the file it is; the member's share of its stored size is as
    // good for a progress bar.
    // Members skipped by a seek count as consumed.
    if (m_current < 0)
        return 0;
    const Member &member = m_members[size_t(m_current)];
    if (!m_memberOpen || m_memberSize <= 0)
        return member.compressedBefore + member.compressedSize;
    return member.compressedBefore
        + qint64(double(member.compressedSize) * double(m_memberRead) / double(m_memberSize));
}

} // namespace memhist::drmemtrace
