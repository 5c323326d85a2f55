// SPDX-License-Identifier: MIT
// One member of a zip archive, as its central directory entry describes it, and the reading of
// its data. minizip 1.1 (Debian 12's libminizip1) lists the members but does not apply the zip64
// extra field on 64-bit Linux (it compares the 32-bit 0xffffffff marker with (unsigned long)-1), so
// a member of 4 GiB or more, or one whose writer used zip64 anyway (Python's zipfile does from
// 2 GiB), showed a size of 4294967295 and could not be read past it. The sizes and the local
// header's offset are therefore taken from the zip64 extra field here (APPNOTE.TXT 4.5.3), and the
// member's bytes are read from its local header on and inflated with zlib, checked against the
// directory's size and CRC-32.
#pragma once

#include "core/importers/drmemtrace/pooledfile.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <zlib.h>

namespace memhist::drmemtrace {

struct ZipMemberInfo
{
    QString name;
    quint64 size = 0; // decompressed
    quint64 compressedSize = 0;
    quint64 localHeaderOffset = 0;
    quint32 crc = 0;
    int method = 0; // 0 stored, 8 deflated
    bool encrypted = false;
};

// Reads the central directory entry at `offset` of `file` (its name aside): sizes, CRC, method,
// the local header's offset, with the zip64 extra field applied. False + *error on a damaged entry.
bool readCentralEntry(PooledFile *file, quint64 offset, ZipMemberInfo *info, QString *error);

// Replaces each 32-bit field of `info` that holds the zip64 marker 0xffffffff with its 64-bit
// value from the central directory entry's extra field `extra` (the zip64 record, header id
// 0x0001, lists them in the order size, compressed size, local header offset). False when a marked
// field has no value there.
bool applyZip64Extra(QByteArrayView extra, ZipMemberInfo *info);

// The data of one member, read from `file` (positioned by the reader itself before each read, so
// other readers of the file may move it in between).
class ZipMemberReader
{
public:
    ZipMemberReader() = default;
    ~ZipMemberReader();
    ZipMemberReader(const ZipMemberReader &) = delete;
    ZipMemberReader &operator=(const ZipMemberReader &) = delete;

    // Checks the member's local header and prepares to read its data. False + *error (the reason
    // only; the caller names the member).
    bool open(PooledFile *file, const ZipMemberInfo &info, QString *error);
    // Up to maxSize decompressed bytes: the count, 0 at the member's end (once its size and CRC
    // have been checked), -1 on an error (*error says why).
    qint64 read(char *data, qint64 maxSize, QString *error);
    // The decompressed bytes delivered so far.
    quint64 delivered() const { return m_delivered; }
    void close();

private:
    bool fillInput(QString *error);

    PooledFile *m_file = nullptr;
    ZipMemberInfo m_info;
    z_stream m_inflate {};
    bool m_inflating = false;
    QByteArray m_input;
    quint64 m_dataOffset = 0; // in the file: where the member's stored bytes start
    quint64 m_consumed = 0; // stored bytes read into m_input so far
    quint64 m_delivered = 0;
    uLong m_crc = 0;
    bool m_ended = false;
};

} // namespace memhist::drmemtrace
