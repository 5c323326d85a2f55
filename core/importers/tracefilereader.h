// SPDX-License-Identifier: MIT
// Reads a text trace file as a stream of bytes, gunzipping it on the fly when it starts with the
// gzip magic, in bounded memory whatever the file's size. Shared by the text importers (Lackey,
// Tenet), which parse what it returns line by line.
#pragma once

#include <QFile>
#include <QString>
#include <memory>

namespace memhist {

class TraceFileReader
{
public:
    explicit TraceFileReader(QString path);
    ~TraceFileReader();
    TraceFileReader(const TraceFileReader &) = delete;
    TraceFileReader &operator=(const TraceFileReader &) = delete;

    // False + errorString() ("PATH: cannot open: ...") when the file cannot be opened.
    bool open();

    // Reads up to maxSize bytes of the (decompressed) content into data. Returns the number read,
    // 0 at the end of the content, -1 on a read error, corrupt gzip data (errorString() names the
    // file and the input offset, e.g. "t.gz: offset 1234: corrupt gzip data (invalid block type)")
    // or truncated gzip data (see truncated()). What inflated before a gzip stream was found
    // truncated is returned first and the -1 on the next call, so that the caller can name the line
    // the data stops in.
    qint64 read(char *data, qint64 maxSize);

    bool isGzip() const { return m_gzip; }
    // The size of the file and how much of it has been consumed (compressed bytes for gzip): the
    // importers' progress is the ratio of the two.
    qint64 inputSize() const { return m_inputSize; }
    qint64 inputPosition() const;
    // True once read() failed because the file ends before the end of a gzip stream (no trailer).
    // That is an error, not a trace that ends early: a killed tracer leaves a plain log cut
    // mid-line, or a complete gzip stream of cut content, whereas a gzip stream without its end is
    // a damaged copy of the file, whose checksum cannot be verified.
    bool truncated() const { return m_truncated; }

    QString errorString() const { return m_error; }
    // errorString() placed at a line of the content for the errors the line helps to find: for
    // truncated gzip data, "PATH:LINE: truncated gzip data: the file ends after N bytes, before the
    // end of the compressed stream" (as drmemtrace names the record). Other errors are unchanged.
    QString errorString(qint64 line) const;

private:
    bool fail(const QString &reason);
    qint64 failTruncated(qint64 produced);
    bool fillInput();

    QString m_path;
    QFile m_file;
    QString m_error;
    QString m_truncation; // the reason alone, to be placed at a line by errorString(line)
    qint64 m_inputSize = 0;
    bool m_gzip = false;
    bool m_truncated = false;
    bool m_inputAtEnd = false;
    bool m_memberEnded = false;
    bool m_atEnd = false;
    // gzip only: compressed input and the zlib state (z_stream, kept opaque here).
    QByteArray m_input;
    qsizetype m_peeked = 0; // plain files: bytes of m_input (the first chunk) already handed out
    qint64 m_inputRead = 0; // bytes of the file read into m_input so far
    struct Inflater;
    std::unique_ptr<Inflater> m_inflater;
};

} // namespace memhist
