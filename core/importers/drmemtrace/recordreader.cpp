// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/recordreader.h"

#include <QtEndian>
#include <cstring>

namespace memhist::drmemtrace {

RecordReader::RecordReader(QString path, std::unique_ptr<ByteStream> stream, qsizetype bufferRecords)
    : m_path(std::move(path))
    , m_stream(std::move(stream))
    , m_bytes(size_t(bufferRecords * recordSize))
    , m_records(size_t(bufferRecords))
{ }

bool RecordReader::open()
{
    if (!m_stream->open()) {
        m_error = m_path + QStringLiteral(": ") + m_stream->errorString();
        return false;
    }
    if (!m_stream->nextPart()) {
        m_error = m_path + QStringLiteral(": ")
            + (m_stream->errorString().isEmpty() ? QStringLiteral("empty zip archive (no chunks)")
                                                 : m_stream->errorString());
        return false;
    }
    if (const qint64 size = m_stream->partSize(); size >= 0 && size % recordSize != 0) {
        m_error = sizeError();
        return false;
    }
    m_partIndex = 0;
    m_freshPart = true;
    return true;
}

bool RecordReader::seekPart(int index)
{
    if (!m_stream->seekPart(index) || !m_stream->nextPart()) {
        m_error = m_path + QStringLiteral(": ") + m_stream->errorString();
        return false;
    }
    if (const qint64 size = m_stream->partSize(); size >= 0 && size % recordSize != 0) {
        m_error = sizeError();
        return false;
    }
    // The records of the parts before it, as the container states their sizes, keep the count of
    // records read true to the file.
    m_fileRecordBase = 0;
    for (int i = 0; i < index; ++i)
        m_fileRecordBase += m_stream->partSizeAt(i) / recordSize;
    m_partIndex = index;
    m_partRecordBase = 0;
    m_pos = m_count = 0;
    m_carry = 0;
    m_partStart = false;
    m_freshPart = true;
    m_atEnd = false;
    m_pendingError.clear();
    return true;
}

QString RecordReader::placeOf(qint64 partRecord) const
{
    QString text;
    if (!m_stream->partName().isEmpty())
        text = QStringLiteral("zip member ") + m_stream->partName() + QStringLiteral(": ");
    return text + QStringLiteral("record %1 (offset %2)").arg(partRecord).arg(partRecord * recordSize);
}

QString RecordReader::place() const
{
    return placeOf(m_partRecordBase + std::max<qsizetype>(m_pos - 1, 0));
}

QString RecordReader::sizeError() const
{
    return m_path
        + QStringLiteral(": zip member %1: size %2 is not a multiple of the %3-byte record size")
              .arg(m_stream->partName())
              .arg(m_stream->partSize())
              .arg(recordSize);
}

QString RecordReader::errorAt(const QString &reason) const
{
    return m_path + QStringLiteral(": ") + place() + QStringLiteral(": ") + reason;
}

const TraceRecord *RecordReader::failWith(const QString &message)
{
    m_error = message;
    m_atEnd = true;
    m_count = m_pos = 0;
    return nullptr;
}

const TraceRecord *RecordReader::refill()
{
    if (m_atEnd)
        return nullptr;
    if (!m_pendingError.isEmpty())
        return failWith(m_pendingError);
    m_partRecordBase += m_count;
    m_fileRecordBase += m_count;
    m_pos = m_count = 0;

    char *const bytes = m_bytes.data();
    const qsizetype capacity = qsizetype(m_bytes.size());
    qsizetype filled = m_carry;
    while (filled < capacity) {
        const qint64 n = m_stream->read(bytes + filled, capacity - filled);
        if (n < 0) {
            // The place of a container error is the first record it keeps from being read; the
            // complete records before it are handed out first, so they are imported as they are.
            const QString message = m_path + QStringLiteral(": ") + placeOf(m_partRecordBase + filled / recordSize)
                + QStringLiteral(": ") + m_stream->errorString();
            if (filled < recordSize)
                return failWith(message);
            m_pendingError = message;
            break;
        }
        if (n > 0) {
            filled += qsizetype(n);
            continue;
        }
        // End of the part: a record cut in two is an error, whatever the container.
        if (filled % recordSize != 0) {
            return failWith(m_path + QStringLiteral(": ") + placeOf(m_partRecordBase + filled / recordSize)
                + QStringLiteral(": incomplete record: the data ends after %1 of its %2 bytes")
                      .arg(filled % recordSize)
                      .arg(recordSize));
        }
        if (filled > 0)
            break; // hand out what this part holds before moving on
        if (!m_stream->nextPart()) {
            if (!m_stream->errorString().isEmpty())
                return failWith(m_path + QStringLiteral(": ") + m_stream->errorString());
            m_atEnd = true;
            return nullptr;
        }
        if (const qint64 size = m_stream->partSize(); size >= 0 && size % recordSize != 0)
            return failWith(sizeError());
        ++m_partIndex;
        m_partRecordBase = 0;
        m_freshPart = true;
    }

    const qsizetype count = filled / recordSize;
    for (qsizetype i = 0; i < count; ++i) {
        const char *p = bytes + i * recordSize;
        TraceRecord &record = m_records[size_t(i)];
        record.type = qFromLittleEndian<quint16>(p);
        record.size = qFromLittleEndian<quint16>(p + 2);
        record.addr = qFromLittleEndian<quint64>(p + 4);
    }
    m_carry = filled - count * recordSize;
    if (m_carry > 0)
        std::memmove(bytes, bytes + count * recordSize, size_t(m_carry));
    m_count = count;
    m_partStart = m_freshPart;
    m_freshPart = false;
    m_pos = 1;
    return &m_records[0];
}

} // namespace memhist::drmemtrace
