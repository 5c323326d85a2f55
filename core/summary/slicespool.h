// SPDX-License-Identifier: MIT
// Where the summary's first pass puts its slice fragments until the second pass reads them back,
// slice by slice: an anonymous temporary file (unlinked from the start, so that nothing is left
// behind whatever happens to the process) in a given directory, written through a buffer.
// Fragments of one slice may come in several appends and in any order relative to other slices;
// the second pass gets each slice's fragments together, in slice order.
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <vector>

namespace memhist::summary {

class SliceSpool
{
public:
    SliceSpool() = default;
    ~SliceSpool();
    SliceSpool(const SliceSpool &) = delete;
    SliceSpool &operator=(const SliceSpool &) = delete;

    // Creates the file in `directory`. False + errorString() on failure.
    bool open(const QString &directory);
    bool append(std::int64_t slice, const QByteArray &fragment);
    // Ends the writing: flushes the buffer and orders the fragments by slice.
    bool finishWriting();
    // The fragments of `slice` (finishWriting() first; slices in increasing order).
    bool readSlice(std::int64_t slice, std::vector<QByteArray> *fragments);

    qint64 bytesWritten() const { return m_written; }
    // The system's reason for the last failure ("No space left on device"): the file has no name
    // worth showing, its user names the file it was writing.
    QString errorString() const { return m_error; }

private:
    bool flush();
    bool fail(int error);

    struct Entry
    {
        std::int64_t slice;
        qint64 offset;
        qint64 size;
    };

    int m_fd = -1;
    QString m_error;
    QByteArray m_buffer;
    qint64 m_written = 0; // bytes in the file and the buffer
    std::vector<Entry> m_entries;
    std::size_t m_next = 0; // the first entry readSlice() has not consumed
};

} // namespace memhist::summary
