// SPDX-License-Identifier: MIT
// The decompressed bytes of one trace file, whatever its container (raw, gzip, snappy framing,
// zip of chunks). A zip holds several parts (its members, read in archive order); the other
// containers hold one. The record reader sits on top and never sees the container.
#pragma once

#include <QString>

namespace memhist::drmemtrace {

class ByteStream
{
public:
    virtual ~ByteStream() = default;

    // Opens the file. False + errorString() (the reason only; the caller names the file).
    virtual bool open() = 0;
    // Moves to the next part; the first call moves to the first one. False at the end, or on an
    // error (then errorString() is set).
    virtual bool nextPart() = 0;
    // Reads up to maxSize bytes of the current part: the count, 0 at the end of the part, or -1 on
    // an error (then errorString() is set, the reason only: the reader names the place, the part's
    // name included).
    virtual qint64 read(char *data, qint64 maxSize) = 0;

    // The zip member name of the current part; empty for single-part containers.
    virtual QString partName() const { return {}; }
    // The part's decompressed size when the container states it up front (zip), or -1.
    virtual qint64 partSize() const { return -1; }
    // How much of the file (its stored, compressed bytes) has been consumed, for progress.
    virtual qint64 inputBytesConsumed() const = 0;

    // Containers of several parts known up front (zip) can start at any part without reading the
    // ones before it: how many parts, the decompressed size of one, and moving so that the next
    // nextPart() enters part `index`. The others cannot: one part of unknown size, no seeking.
    virtual int partCount() const { return -1; }
    virtual qint64 partSizeAt(int /*index*/) const { return -1; }
    virtual bool seekPart(int /*index*/) { return fail(QStringLiteral("this container cannot seek")); }

    const QString &errorString() const { return m_error; }

protected:
    bool fail(const QString &reason)
    {
        m_error = reason;
        return false;
    }

    QString m_error;
};

} // namespace memhist::drmemtrace
