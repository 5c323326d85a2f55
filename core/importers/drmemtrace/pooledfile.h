// SPDX-License-Identifier: MIT
// A trace file read through a bounded set of open file descriptors. A trace directory may hold
// thousands of thread files, each read a little at a time as the interleaver switches threads; kept
// open all at once they would exceed the open-file limit (RLIMIT_NOFILE). Each PooledFile keeps its
// position and its decompression state in memory, and holds a descriptor only while it is among the
// most recently used: when the pool is full, opening one closes the least recently used other, which
// reopens itself (and reads on at its position) when it is read again. Small reads (minizip reads
// its directory a few bytes at a time) are served from a buffer held while the descriptor is.
#pragma once

#include <QByteArray>
#include <QString>
#include <list>
#include <vector>

namespace memhist::drmemtrace {

class PooledFile;

class FileHandlePool
{
public:
    // At most `maxOpen` (at least 1) descriptors open at once.
    explicit FileHandlePool(int maxOpen);
    FileHandlePool(const FileHandlePool &) = delete;
    FileHandlePool &operator=(const FileHandlePool &) = delete;

    // A quarter of the process's soft RLIMIT_NOFILE, between 8 and 256: leaves room for the
    // database, SQLite's journal and whatever else the process has open.
    static int defaultMaxOpen();

    int maxOpen() const { return m_maxOpen; }
    int openCount() const { return int(m_open.size()); }
    // How often a file had to be reopened after the pool closed it: for tests and benchmarks.
    qint64 reopenCount() const { return m_reopens; }

private:
    friend class PooledFile;
    // Makes room for one more descriptor, closing the least recently used files, then lists `file`
    // as the most recently used.
    void admit(PooledFile *file);
    void touch(PooledFile *file);
    void forget(PooledFile *file);

    int m_maxOpen;
    std::list<PooledFile *> m_open; // most recently used first
    qint64 m_reopens = 0;
};

class PooledFile
{
public:
    // Without a pool the file keeps its descriptor from open() to its destruction.
    explicit PooledFile(const QString &path, FileHandlePool *pool = nullptr);
    ~PooledFile();
    PooledFile(const PooledFile &) = delete;
    PooledFile &operator=(const PooledFile &) = delete;

    // Opens the file for reading. False + errorString() (the system's reason).
    bool open();
    // Reads up to maxSize bytes at the current position: the count, 0 at the end, -1 on an error.
    qint64 read(char *data, qint64 maxSize);
    // Moves the position (0 <= pos; beyond the end reads give 0).
    void seek(qint64 pos) { m_pos = pos; }
    qint64 pos() const { return m_pos; }
    // The size at open().
    qint64 size() const { return m_size; }
    // Moves forward by up to `count` bytes, stopping at the end of the file: how far it moved.
    qint64 skip(qint64 count);
    const QString &errorString() const { return m_error; }

private:
    friend class FileHandlePool;
    bool ensureOpen();
    void closeDescriptor();
    qint64 readAt(char *data, qint64 size, qint64 offset);

    QByteArray m_encodedPath;
    FileHandlePool *m_pool;
    std::list<PooledFile *>::iterator m_entry; // in the pool's list while m_fd >= 0
    int m_fd = -1;
    bool m_opened = false; // open() succeeded: the descriptor may come and go
    qint64 m_pos = 0;
    qint64 m_size = 0;
    std::vector<char> m_buffer; // the file's bytes from m_bufferStart, while the descriptor is held
    qint64 m_bufferStart = 0;
    QString m_error;
};

} // namespace memhist::drmemtrace
