// SPDX-License-Identifier: MIT
// Reads the 12-byte records of one trace file from its ByteStream, a buffer at a time, and knows
// where each record is: the zip member, the record's index and byte offset (both 0-based, counted
// in the decompressed data of the member for a zip, of the whole file otherwise). Errors, of the
// container or of the records, come out as "FILE: [zip member M: ]record N (offset X): reason".
#pragma once

#include "core/importers/drmemtrace/bytestream.h"
#include "core/importers/drmemtrace/tracerecord.h"

#include <memory>
#include <vector>

namespace memhist::drmemtrace {

class RecordReader
{
public:
    // A multiple of the record size; large enough that the stream is asked rarely.
    static constexpr qsizetype defaultBufferRecords = 16384;

    // `bufferRecords`: how many records are decoded at a time (a trace directory of thousands of
    // threads gives each a smaller buffer, so that memory stays bounded).
    RecordReader(QString path, std::unique_ptr<ByteStream> stream, qsizetype bufferRecords = defaultBufferRecords);

    // Opens the file and its first part. False + error().
    bool open();
    // Containers of several parts (zip): goes on at the start of part `index`, without reading the
    // parts before it; whatever was buffered is dropped. False + error().
    bool seekPart(int index);
    // The container, to look at its parts before reading (ZipChunkStream::readPartHead).
    ByteStream &stream() { return *m_stream; }

    // The next record, or null at the end of the file or on an error (then error() is set).
    const TraceRecord *next()
    {
        if (m_pos < m_count)
            return &m_records[m_pos++];
        return refill();
    }
    // Gives back the record next() returned last, so that the next call returns it again.
    void unread() { --m_pos; }

    // True when the record returned last is the first of a zip member other than the first:
    // drmemtrace repeats context (timestamp and cpu) at the top of every chunk.
    bool atPartStart() const { return m_pos == 1 && m_partStart && m_partIndex > 0; }

    const QString &path() const { return m_path; }
    // "zip member chunk.0003: record 17 (offset 204)" for the record returned last.
    QString place() const;
    // path + ": " + place() + ": " + reason.
    QString errorAt(const QString &reason) const;
    const QString &error() const { return m_error; }
    // Records returned so far.
    qint64 recordsRead() const { return m_fileRecordBase + m_pos; }
    qint64 inputBytesConsumed() const { return m_stream->inputBytesConsumed(); }

private:
    const TraceRecord *refill();
    const TraceRecord *failWith(const QString &message);
    QString placeOf(qint64 partRecord) const;
    QString sizeError() const;

    QString m_path;
    std::unique_ptr<ByteStream> m_stream;
    std::vector<char> m_bytes;
    std::vector<TraceRecord> m_records;
    qsizetype m_carry = 0; // bytes of an incomplete record kept at the start of m_bytes
    qsizetype m_pos = 0;
    qsizetype m_count = 0;
    qint64 m_partRecordBase = 0; // records of the current part before m_records[0]
    qint64 m_fileRecordBase = 0; // records of the file before m_records[0]
    int m_partIndex = -1;
    bool m_partStart = false; // m_records[0] is the first record of its part
    bool m_freshPart = false; // a part was entered and none of its records is buffered yet
    bool m_atEnd = false;
    QString m_pendingError; // a container error, reported once the records before it are read
    QString m_error;
};

} // namespace memhist::drmemtrace
