// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/tracefileprobe.h"

#include "core/importers/drmemtrace/gzipfilestream.h"
#include "core/importers/drmemtrace/rawfilestream.h"
#include "core/importers/drmemtrace/snappyframestream.h"
#include "core/importers/drmemtrace/tracerecord.h"
#include "core/importers/drmemtrace/zipchunkstream.h"
#include "core/importers/gzipstart.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtEndian>

namespace memhist::drmemtrace {

namespace {

constexpr qsizetype headSize = 64 << 10;
constexpr QByteArrayView zipMagic("PK\x03\x04");
constexpr QByteArrayView gzipMagic("\x1f\x8b");
constexpr QByteArrayView snappyMagic("\xff\x06\x00\x00sNaPpY", 10);
// Versions so far are 1..7; a wider bound keeps newer traces recognised while a text file whose
// first bytes happen to match stays out.
constexpr quint64 maxPlausibleVersion = 1000;

bool zipStartsWithChunk(QByteArrayView head)
{
    // Local file header: the name's length at offset 26, the name at 30.
    if (head.size() < 30)
        return false;
    const quint16 nameLength = qFromLittleEndian<quint16>(head.data() + 26);
    if (head.size() < 30 + nameLength)
        return false;
    return ZipChunkStream::isChunkName(head.sliced(30, nameLength));
}

bool isSideFileName(const QString &name)
{
    return name.startsWith(QLatin1String("cpu_schedule.bin")) || name.startsWith(QLatin1String("serial_schedule.bin"));
}

bool isTraceFileName(const QString &name)
{
    for (const char *suffix : { ".trace", ".trace.zip", ".trace.gz", ".trace.sz" }) {
        if (name.endsWith(QLatin1String(suffix)))
            return true;
    }
    return false;
}

} // namespace

bool startsWithHeaderRecord(QByteArrayView records)
{
    if (records.size() < recordSize)
        return false;
    const quint16 first = qFromLittleEndian<quint16>(records.data());
    const quint64 version = qFromLittleEndian<quint64>(records.data() + 4);
    if (first != type::header || version == 0 || version > maxPlausibleVersion)
        return false;
    if (records.size() < 2 * recordSize)
        return true;
    const quint16 second = qFromLittleEndian<quint16>(records.data() + recordSize);
    return second == type::thread || second == type::pid || second == type::marker;
}

std::optional<Container> recogniseTraceHead(QByteArrayView head, QByteArrayView decompressedHead)
{
    if (head.startsWith(zipMagic))
        return zipStartsWithChunk(head) ? std::optional(Container::Zip) : std::nullopt;
    if (head.startsWith(gzipMagic))
        return startsWithHeaderRecord(decompressedHead) ? std::optional(Container::Gzip) : std::nullopt;
    if (head.startsWith(snappyMagic)) {
        const QByteArray first = SnappyFrameStream::firstChunk(head);
        // A first chunk longer than the head cannot be checked; the stream identifier has to do.
        if (first.isEmpty() || startsWithHeaderRecord(first))
            return Container::Snappy;
        return std::nullopt;
    }
    return startsWithHeaderRecord(head) ? std::optional(Container::Raw) : std::nullopt;
}

std::optional<Container> probeTraceFile(const QString &path, QString *reason)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *reason = QStringLiteral("cannot open: ") + file.errorString();
        return std::nullopt;
    }
    const QByteArray head = file.read(headSize);
    if (head.isEmpty()) {
        *reason = QStringLiteral("empty file");
        return std::nullopt;
    }
    const QByteArray decompressed = head.startsWith(gzipMagic) ? gunzipStart(head, 256) : QByteArray();
    const std::optional<Container> container = recogniseTraceHead(head, decompressed);
    if (!container)
        *reason = QStringLiteral("not a drmemtrace trace (expected a zip of chunk.NNNN members, or gzip, snappy or "
                                 "raw records starting with a header record)");
    return container;
}

std::unique_ptr<ByteStream> openContainer(const QString &path, Container container, FileHandlePool *pool)
{
    switch (container) {
    case Container::Raw:
        return std::make_unique<RawFileStream>(path, pool);
    case Container::Gzip:
        return std::make_unique<GzipFileStream>(path, pool);
    case Container::Snappy:
        return std::make_unique<SnappyFrameStream>(path, pool);
    case Container::Zip:
        return std::make_unique<ZipChunkStream>(path, pool);
    }
    return nullptr;
}

bool listTraceDirectory(const QString &path, TraceDirectory *directory, QString *error)
{
    *directory = {};
    directory->directory = path;
    const QDir dir(path);
    if (!dir.exists() || !QFileInfo(path).isReadable()) {
        *error = path + QStringLiteral(": cannot read the directory");
        return false;
    }
    const QFileInfoList entries = dir.entryInfoList(QDir::Files | QDir::Hidden, QDir::Name);
    for (const QFileInfo &entry : entries) {
        const QString name = entry.fileName();
        if (isSideFileName(name)) {
            directory->sideFiles << entry.filePath();
            continue;
        }
        QString reason;
        if (probeTraceFile(entry.filePath(), &reason)) {
            directory->traceFiles << entry.filePath();
        } else if (isTraceFileName(name)) {
            *error = entry.filePath() + QStringLiteral(": ") + reason;
            return false;
        } else {
            directory->otherFiles << entry.filePath();
        }
    }
    if (directory->traceFiles.isEmpty() && QFileInfo(dir.filePath(QStringLiteral("trace"))).isDir())
        return listTraceDirectory(dir.filePath(QStringLiteral("trace")), directory, error);
    return true;
}

bool isTraceDirectory(const QString &path)
{
    const QDir dir(path);
    const QFileInfoList entries = dir.entryInfoList(QDir::Files | QDir::Hidden, QDir::Name);
    for (const QFileInfo &entry : entries) {
        QString reason;
        if (!isSideFileName(entry.fileName()) && probeTraceFile(entry.filePath(), &reason))
            return true;
    }
    const QString traceSubdirectory = dir.filePath(QStringLiteral("trace"));
    return QFileInfo(traceSubdirectory).isDir() && isTraceDirectory(traceSubdirectory);
}

} // namespace memhist::drmemtrace
