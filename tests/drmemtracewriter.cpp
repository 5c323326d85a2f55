// SPDX-License-Identifier: MIT
#include "drmemtracewriter.h"

#include "core/importers/drmemtrace/recordreader.h"
#include "core/importers/drmemtrace/tracefileprobe.h"

#include <QFile>
#include <QtEndian>
#include <zip.h>

namespace memhist::test {

using namespace drmemtrace;

TraceRecord record(quint16 recordType, quint16 size, quint64 addr)
{
    return { recordType, size, addr };
}

TraceRecord marker(quint16 markerType, quint64 value)
{
    return { type::marker, markerType, value };
}

namespace {

bool isMarkerOf(const TraceRecord &r, quint16 markerType)
{
    return r.type == type::marker && r.size == markerType;
}

// DynamoRIO's BRANCH_TARGET marker: the target of the indirect branch that follows.
constexpr quint16 branchTargetMarker = 29;

bool isPreInstruction(const TraceRecord &r)
{
    return r.type == type::encoding || isMarkerOf(r, branchTargetMarker);
}

bool isAnyInstruction(const TraceRecord &r)
{
    const RecordKind kind = recordKind(r.type);
    return kind == RecordKind::Instruction || kind == RecordKind::Bundle || kind == RecordKind::NoFetch;
}

} // namespace

bool isFetchedInstruction(const TraceRecord &r)
{
    return recordKind(r.type) == RecordKind::Instruction;
}

bool startsInstructionGroup(const Records &records, size_t index)
{
    const TraceRecord &r = records[index];
    if (!isAnyInstruction(r) && !isPreInstruction(r))
        return false;
    return index == 0 || !isPreInstruction(records[index - 1]);
}

bool readTraceRecords(const QString &path, Records *records, QString *error)
{
    records->clear();
    QString reason;
    const std::optional<Container> container = probeTraceFile(path, &reason);
    if (!container) {
        *error = path + QStringLiteral(": ") + reason;
        return false;
    }
    RecordReader reader(path, openContainer(path, *container));
    if (!reader.open()) {
        *error = reader.error();
        return false;
    }
    while (const TraceRecord *r = reader.next())
        records->push_back(*r);
    if (!reader.error().isEmpty()) {
        *error = reader.error();
        return false;
    }
    return true;
}

QByteArray recordBytes(const Records &records)
{
    QByteArray bytes(qsizetype(records.size()) * recordSize, Qt::Uninitialized);
    char *p = bytes.data();
    for (const TraceRecord &r : records) {
        qToLittleEndian(r.type, p);
        qToLittleEndian(r.size, p + 2);
        qToLittleEndian(r.addr, p + 4);
        p += recordSize;
    }
    return bytes;
}

RecordCounts countRecords(const Records &records)
{
    RecordCounts counts;
    for (const TraceRecord &r : records) {
        if (r.type == type::read)
            ++counts.reads;
        else if (r.type == type::write)
            ++counts.writes;
        else if (isFetchedInstruction(r))
            ++counts.instructions;
        else if (r.type == type::instructionBundle)
            counts.instructions += r.size;
    }
    return counts;
}

Records withoutChunkRecords(const Records &records)
{
    Records kept;
    kept.reserve(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        const TraceRecord &r = records[i];
        if (isMarkerOf(r, marker::chunkFooter))
            continue;
        if (isMarkerOf(r, marker::recordOrdinal)) {
            // The restated timestamp and cpu follow the ordinal.
            if (i + 1 < records.size() && isMarkerOf(records[i + 1], marker::timestamp))
                ++i;
            if (i + 1 < records.size() && isMarkerOf(records[i + 1], marker::cpuId))
                ++i;
            continue;
        }
        kept.push_back(r);
    }
    return kept;
}

std::vector<Records> splitIntoChunks(const Records &records, quint64 chunkInstructions)
{
    std::vector<Records> chunks(1);
    quint64 inChunk = 0;
    quint64 ordinal = 0;
    quint64 recordsBefore = 0;
    quint64 lastTimestamp = 0;
    quint64 lastCpu = 0;
    for (size_t i = 0; i < records.size(); ++i) {
        TraceRecord r = records[i];
        if (isMarkerOf(r, marker::chunkInstructionCount))
            r.addr = chunkInstructions;
        const bool boundary = startsInstructionGroup(records, i) || isMarkerOf(r, marker::timestamp)
            || r.type == type::threadExit || r.type == type::footer;
        if (inChunk >= chunkInstructions && boundary) {
            chunks.back().push_back(marker(marker::chunkFooter, ordinal++));
            chunks.push_back({ marker(marker::recordOrdinal, recordsBefore), marker(marker::timestamp, lastTimestamp),
                marker(marker::cpuId, lastCpu) });
            inChunk = 0;
        }
        chunks.back().push_back(r);
        ++recordsBefore;
        if (isMarkerOf(r, marker::timestamp))
            lastTimestamp = r.addr;
        else if (isMarkerOf(r, marker::cpuId))
            lastCpu = r.addr;
        else if (isFetchedInstruction(r))
            ++inChunk;
        else if (r.type == type::instructionBundle)
            inChunk += r.size;
    }
    return chunks;
}

ZipWriter::~ZipWriter()
{
    if (m_zip)
        zipClose(m_zip, nullptr);
}

bool ZipWriter::open(const QString &path, int level)
{
    m_path = path;
    m_level = level;
    m_zip = zipOpen64(QFile::encodeName(path).constData(), APPEND_STATUS_CREATE);
    if (!m_zip) {
        m_error = path + QStringLiteral(": cannot create the zip archive");
        return false;
    }
    return true;
}

bool ZipWriter::addMember(const QString &name, const QByteArray &bytes)
{
    zip_fileinfo info {};
    const QByteArray encodedName = name.toUtf8();
    if (zipOpenNewFileInZip64(m_zip, encodedName.constData(), &info, nullptr, 0, nullptr, 0, nullptr, Z_DEFLATED,
            m_level, bytes.size() >= 0xffffffffLL ? 1 : 0)
            != ZIP_OK
        || zipWriteInFileInZip(m_zip, bytes.constData(), unsigned(bytes.size())) != ZIP_OK
        || zipCloseFileInZip(m_zip) != ZIP_OK) {
        m_error = m_path + QStringLiteral(": cannot write zip member ") + name;
        return false;
    }
    return true;
}

bool ZipWriter::close()
{
    const int status = zipClose(m_zip, nullptr);
    m_zip = nullptr;
    if (status != ZIP_OK) {
        m_error = m_path + QStringLiteral(": cannot finish the zip archive");
        return false;
    }
    return true;
}

bool writeChunkedZip(const QString &path, const std::vector<Records> &chunks, QString *error)
{
    ZipWriter zip;
    bool ok = zip.open(path);
    for (size_t c = 0; ok && c < chunks.size(); ++c)
        ok = zip.addMember(QStringLiteral("chunk.%1").arg(c, 4, 10, QLatin1Char('0')), recordBytes(chunks[c]));
    ok = ok && zip.close();
    if (!ok)
        *error = zip.errorString();
    return ok;
}

} // namespace memhist::test
