// SPDX-License-Identifier: MIT
// Writes drmemtrace traces for the drmemtrace tests and benchmark from the records of real ones:
// reading every record of a trace file, splitting one thread's records into chunks as DynamoRIO
// does (raw2trace, record_filter), and writing zip archives of chunk members. The record layout
// and the marker numbers are those of core/importers/drmemtrace/tracerecord.h.
#pragma once

#include "core/importers/drmemtrace/tracerecord.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <vector>

namespace memhist::test {

using Records = std::vector<drmemtrace::TraceRecord>;

drmemtrace::TraceRecord record(quint16 type, quint16 size, quint64 addr);
drmemtrace::TraceRecord marker(quint16 markerType, quint64 value);

// True for the records that start an instruction's group: an instruction (fetched or not) or a
// bundle, or the encodings and branch-target marker that come just before one, when the record
// before is none of those (a thread can be switched, or a chunk cut, only there).
bool startsInstructionGroup(const Records &records, size_t index);
bool isFetchedInstruction(const drmemtrace::TraceRecord &record);

// Every record of a trace file (all members of a zip, in order), as stored. False + *error.
bool readTraceRecords(const QString &path, Records *records, QString *error);

// The records as the 12-byte little-endian records of a file.
QByteArray recordBytes(const Records &records);
// The fetched instructions, reads and writes among `records` (bundles count as their instructions).
struct RecordCounts
{
    qint64 instructions = 0;
    qint64 reads = 0;
    qint64 writes = 0;
};
RecordCounts countRecords(const Records &records);

// Drops the chunk structure of a thread's records: chunk footers, record ordinals and the
// timestamp and cpu markers restated after them.
Records withoutChunkRecords(const Records &records);

// One thread's records split into chunks of `chunkInstructions` fetched instructions, as DynamoRIO
// writes them: once a chunk holds that many, it ends before the next instruction group, timestamp,
// thread exit or footer with a CHUNK_FOOTER marker (its ordinal), and the next chunk starts with
// RECORD_ORDINAL (the records before it), the last TIMESTAMP and the last CPU_ID. Every
// CHUNK_INSTR_COUNT marker is set to `chunkInstructions`. `records` must hold no chunk records.
std::vector<Records> splitIntoChunks(const Records &records, quint64 chunkInstructions);

// A zip archive written member by member (minizip), for traces too large to hold in memory.
class ZipWriter
{
public:
    ZipWriter() = default;
    ~ZipWriter();
    ZipWriter(const ZipWriter &) = delete;
    ZipWriter &operator=(const ZipWriter &) = delete;

    // `level`: zlib's compression level (1 = fastest, as a benchmark wants).
    bool open(const QString &path, int level = 6);
    bool addMember(const QString &name, const QByteArray &bytes);
    bool close();
    const QString &errorString() const { return m_error; }

private:
    void *m_zip = nullptr;
    int m_level = 6;
    QString m_path;
    QString m_error;
};

// Writes `chunks` as the members chunk.0000, chunk.0001, ... of a new zip at `path`.
bool writeChunkedZip(const QString &path, const std::vector<Records> &chunks, QString *error);

} // namespace memhist::test
