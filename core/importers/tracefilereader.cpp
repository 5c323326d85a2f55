// SPDX-License-Identifier: MIT
#include "core/importers/tracefilereader.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <zlib.h>

namespace memhist {

namespace {

// Compressed input is read in pieces of this size: large enough that reading costs little next to
// inflating, small enough that progress moves smoothly.
constexpr qint64 inputChunkSize = 1 << 20;

} // namespace

struct TraceFileReader::Inflater
{
    z_stream stream {};
    bool initialised = false;
    ~Inflater()
    {
        if (initialised)
            inflateEnd(&stream);
    }
};

TraceFileReader::TraceFileReader(QString path)
    : m_path(std::move(path))
    , m_file(m_path)
{ }

TraceFileReader::~TraceFileReader() = default;

bool TraceFileReader::fail(const QString &reason)
{
    m_error = m_path + QStringLiteral(": ") + reason;
    return false;
}

qint64 TraceFileReader::failTruncated(qint64 produced)
{
    m_truncated = true;
    m_truncation = QStringLiteral("truncated gzip data: the file ends after %1 bytes, before the end of the "
                                  "compressed stream")
                       .arg(inputPosition());
    fail(m_truncation);
    // Hand out what inflated before the end first, so that the caller parses it and can name the
    // line the data stops in; the next call returns -1.
    return produced > 0 ? produced : -1;
}

QString TraceFileReader::errorString(qint64 line) const
{
    if (!m_truncated)
        return m_error;
    return m_path + u':' + QString::number(line) + QStringLiteral(": ") + m_truncation;
}

bool TraceFileReader::open()
{
    if (!m_file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot open: ") + m_file.errorString());
    m_inputSize = m_file.isSequential() ? 0 : m_file.size();
    // Peek without seeking, so that pipes and other unseekable files work too: the first chunk is
    // kept in m_input and handed out (plain) or inflated (gzip) before reading further.
    m_input.resize(inputChunkSize);
    const qint64 n = m_file.read(m_input.data(), inputChunkSize);
    if (n < 0)
        return fail(QStringLiteral("read error: ") + m_file.errorString());
    m_input.resize(n);
    m_inputRead = n;
    m_inputAtEnd = n == 0;
    m_gzip = n >= 2 && uchar(m_input[0]) == 0x1f && uchar(m_input[1]) == 0x8b;
    if (m_gzip) {
        m_inflater = std::make_unique<Inflater>();
        // 16 + MAX_WBITS: a gzip wrapper, with its header and CRC checked by zlib.
        if (inflateInit2(&m_inflater->stream, 16 + MAX_WBITS) != Z_OK)
            return fail(QStringLiteral("cannot initialise zlib"));
        m_inflater->initialised = true;
        m_inflater->stream.next_in = reinterpret_cast<Bytef *>(m_input.data());
        m_inflater->stream.avail_in = uInt(m_input.size());
    }
    return true;
}

qint64 TraceFileReader::inputPosition() const
{
    if (m_gzip)
        return m_inputRead - qint64(m_inflater->stream.avail_in);
    return m_inputRead - (m_input.size() - m_peeked);
}

bool TraceFileReader::fillInput()
{
    m_input.resize(inputChunkSize);
    const qint64 n = m_file.read(m_input.data(), inputChunkSize);
    if (n < 0)
        return fail(QStringLiteral("read error: ") + m_file.errorString());
    m_input.resize(n);
    m_inputRead += n;
    m_inputAtEnd = n == 0;
    m_inflater->stream.next_in = reinterpret_cast<Bytef *>(m_input.data());
    m_inflater->stream.avail_in = uInt(n);
    return true;
}

qint64 TraceFileReader::read(char *data, qint64 maxSize)
{
    if (!m_error.isEmpty())
        return -1;
    if (m_atEnd || maxSize <= 0)
        return 0;
    if (!m_gzip) {
        if (m_peeked < m_input.size()) {
            const qint64 n = std::min<qint64>(maxSize, m_input.size() - m_peeked);
            std::memcpy(data, m_input.constData() + m_peeked, size_t(n));
            m_peeked += n;
            return n;
        }
        const qint64 n = m_file.read(data, maxSize);
        if (n < 0) {
            fail(QStringLiteral("read error: ") + m_file.errorString());
            return -1;
        }
        m_inputRead += n;
        m_atEnd = n == 0;
        return n;
    }

    z_stream &stream = m_inflater->stream;
    maxSize = std::min<qint64>(maxSize, std::numeric_limits<uInt>::max());
    for (;;) {
        if (m_memberEnded) {
            // Concatenated gzip members (as `cat a.gz b.gz` makes) are one stream of content.
            if (stream.avail_in == 0 && !m_inputAtEnd && !fillInput())
                return -1;
            if (stream.avail_in == 0) {
                m_atEnd = true;
                return 0;
            }
            if (stream.next_in[0] != 0x1f) {
                fail(QStringLiteral("offset %1: data after the end of the gzip stream").arg(inputPosition()));
                return -1;
            }
            inflateReset(&stream);
            m_memberEnded = false;
        }
        if (stream.avail_in == 0 && !m_inputAtEnd && !fillInput())
            return -1;
        stream.next_out = reinterpret_cast<Bytef *>(data);
        stream.avail_out = uInt(maxSize);
        const int status = inflate(&stream, Z_NO_FLUSH);
        const qint64 produced = maxSize - qint64(stream.avail_out);
        switch (status) {
        case Z_STREAM_END:
            m_memberEnded = true;
            break;
        case Z_OK:
            break;
        case Z_BUF_ERROR:
            // No progress possible: zlib needs more input, and there is none left.
            if (m_inputAtEnd && stream.avail_in == 0)
                return failTruncated(produced);
            break;
        default:
            fail(QStringLiteral("offset %1: corrupt gzip data (%2)")
                     .arg(inputPosition())
                     .arg(QString::fromLatin1(stream.msg ? stream.msg : "zlib error")));
            return -1;
        }
        if (produced > 0)
            return produced;
        if (m_inputAtEnd && stream.avail_in == 0 && !m_memberEnded)
            return failTruncated(0);
    }
}

} // namespace memhist
