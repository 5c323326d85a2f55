// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/chunkseek.h"

#include "core/importers/drmemtrace/tracerecord.h"
#include "core/importers/drmemtrace/zipchunkstream.h"

#include <QtEndian>
#include <algorithm>
#include <tuple>

namespace memhist::drmemtrace {

namespace {

// A header is a dozen records; this many leaves room for what a tracer adds to it.
constexpr qint64 headerRecords = 64;
// RECORD_ORDINAL, TIMESTAMP, CPU_ID.
constexpr qint64 chunkTopRecords = 3;

TraceRecord recordAt(const QByteArray &bytes, qsizetype index)
{
    const char *p = bytes.constData() + index * recordSize;
    return { qFromLittleEndian<quint16>(p), qFromLittleEndian<quint16>(p + 2), qFromLittleEndian<quint64>(p + 4) };
}

bool isMarker(const TraceRecord &record, quint16 markerType)
{
    return record.type == type::marker && record.size == markerType;
}

} // namespace

bool readThreadChunks(RecordReader &reader, bool withTops, ThreadChunks *chunks, QString *error)
{
    *chunks = {};
    auto *zip = dynamic_cast<ZipChunkStream *>(&reader.stream());
    if (!zip)
        return true;
    chunks->chunkCount = zip->partCount();
    QByteArray head;
    if (!zip->readPartHead(0, headerRecords * recordSize, &head)) {
        *error = reader.path() + QStringLiteral(": ") + zip->errorString();
        return false;
    }
    for (qsizetype i = 0; i < head.size() / recordSize; ++i) {
        const TraceRecord record = recordAt(head, i);
        const RecordKind kind = recordKind(record.type);
        if (kind == RecordKind::Instruction || kind == RecordKind::Bundle)
            break;
        if (kind == RecordKind::Thread && chunks->threadId < 0)
            chunks->threadId = qint64(record.addr);
        else if (isMarker(record, marker::chunkInstructionCount))
            chunks->chunkInstructions = record.addr;
        else if (isMarker(record, marker::fileType))
            chunks->coreSharded = (record.addr & fileType::coreSharded) != 0;
    }
    if (chunks->chunkInstructions == 0 || chunks->coreSharded)
        return true;
    if (withTops) {
        chunks->topTimestamps.assign(size_t(chunks->chunkCount), 0);
        for (int c = 1; c < chunks->chunkCount; ++c) {
            if (!zip->readPartHead(c, chunkTopRecords * recordSize, &head)) {
                *error = reader.path() + QStringLiteral(": ") + zip->errorString();
                return false;
            }
            // The ordinal is missing in the chunks of the oldest chunked traces.
            qsizetype at = head.size() >= recordSize && isMarker(recordAt(head, 0), marker::recordOrdinal) ? 1 : 0;
            if (head.size() < (at + 2) * recordSize || !isMarker(recordAt(head, at), marker::timestamp)
                || !isMarker(recordAt(head, at + 1), marker::cpuId))
                return true; // a chunk without its restated context: read from the start
            chunks->topTimestamps[size_t(c)] = recordAt(head, at).addr;
        }
    }
    chunks->seekable = true;
    return true;
}

SeekPlan planChunkSeek(const std::vector<ThreadChunks> &threads, quint64 skip)
{
    SeekPlan plan;
    plan.startChunk.assign(threads.size(), 0);
    if (threads.empty() || skip == 0)
        return plan;
    for (const ThreadChunks &thread : threads) {
        if (!thread.seekable)
            return plan;
    }
    if (threads.size() == 1) {
        const ThreadChunks &thread = threads.front();
        const int chunk = int(std::min<quint64>(skip / thread.chunkInstructions, quint64(thread.chunkCount - 1)));
        plan.startChunk[0] = chunk;
        plan.instructionsBefore = quint64(chunk) * thread.chunkInstructions;
        return plan;
    }

    // Every chunk top is a candidate cut, in timeline order.
    struct Candidate
    {
        SegmentKey key;
        int chunk;
    };
    std::vector<Candidate> candidates;
    for (size_t index = 0; index < threads.size(); ++index) {
        const ThreadChunks &thread = threads[index];
        for (int c = 1; c < thread.chunkCount; ++c)
            candidates.push_back({ { thread.topTimestamps[size_t(c)], thread.threadId, index }, c });
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
        return std::tie(a.key.timestamp, a.key.threadId, a.key.index, a.chunk)
            < std::tie(b.key.timestamp, b.key.threadId, b.key.index, b.chunk);
    });

    // Sweeping the candidates in order, each thread's last chunk whose top is before the sweep, and
    // the most instructions each can hold before the sweep's position: up to the end of that chunk.
    std::vector<int> chunk(threads.size(), 0);
    const auto bound = [&](size_t index) {
        const ThreadChunks &thread = threads[index];
        return quint64(std::min(chunk[index] + 1, thread.chunkCount)) * thread.chunkInstructions;
    };
    quint64 most = 0;
    for (size_t index = 0; index < threads.size(); ++index)
        most += bound(index);
    std::optional<size_t> chosen;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const Candidate &candidate = candidates[i];
        const size_t index = candidate.key.index;
        // The candidate's own thread counts exactly chunk * chunk_instr_count, which is its bound.
        if (most > skip)
            break;
        chosen = i;
        most -= bound(index);
        chunk[index] = candidate.chunk;
        most += bound(index);
    }
    if (!chosen)
        return plan;

    // The chunks each thread starts in: those of the sweep that stopped at the chosen candidate.
    std::fill(chunk.begin(), chunk.end(), 0);
    for (size_t i = 0; i <= *chosen; ++i)
        chunk[candidates[i].key.index] = candidates[i].chunk;
    for (size_t index = 0; index < threads.size(); ++index) {
        plan.startChunk[index] = chunk[index];
        plan.instructionsBefore += quint64(chunk[index]) * threads[index].chunkInstructions;
    }
    plan.cut = candidates[*chosen].key;
    return plan;
}

} // namespace memhist::drmemtrace
