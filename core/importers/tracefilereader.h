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
    // 0 at the end of the content, -1 on a read error or corrupt gzip data (errorString() names the
    // file and the input offset, e.g. "t.gz: offset 1234: corrupt gzip data (invalid block type)").
    qint64 read(char *data, qint64 maxSize);

    bool isGzip() const { return m_gzip; }
    // The size of the file and how much of it has been consumed (compressed bytes for gzip): the
    // importers' progress is the ratio of the two.
    qint64 inputSize() const { return m_inputSize; }
    qint64 inputPosition() const;
    // True once read() returned 0 because a gzip stream stopped before its end (no trailer): what
    // was returned decompressed cleanly, the rest of the trace is missing. A stream whose data or
    // checksum is wrong is an error instead, since what it returned cannot be trusted.
    bool endedEarly() const { return m_endedEarly; }

    QString errorString() const { return m_error; }

private:
    bool fail(const QString &reason);
    bool fillInput();

    QString m_path;
    QFile m_file;
    QString m_error;
    qint64 m_inputSize = 0;
    bool m_gzip = false;
    bool m_endedEarly = false;
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
