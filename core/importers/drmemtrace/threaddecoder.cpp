// SPDX-License-Identifier: MIT
#include "core/importers/drmemtrace/threaddecoder.h"

#include "core/importers/accesssink.h"

namespace memhist::drmemtrace {

namespace {

// How often (in records) the decoder calls DecodeContext::tick for progress and cancellation.
constexpr qint64 tickInterval = 1 << 16;

constexpr std::array<RecordKind, 64> makeKindTable()
{
    std::array<RecordKind, 64> table {};
    for (quint16 t = 0; t < table.size(); ++t)
        table[t] = recordKind(t);
    return table;
}
constexpr std::array<RecordKind, 64> kindTable = makeKindTable();

RecordKind kindOf(quint16 recordType)
{
    return recordType < kindTable.size() ? kindTable[recordType] : RecordKind::Unknown;
}

} // namespace

ThreadDecoder::ThreadDecoder(std::unique_ptr<RecordReader> reader)
    : m_reader(std::move(reader))
{ }

void ThreadDecoder::startInChunk(qint64 threadId)
{
    m_fileThread = m_currentThread = threadId;
    m_startsInChunk = true;
}

ThreadDecoder::Stop ThreadDecoder::fail(const QString &message)
{
    m_error = message;
    return Stop::Failed;
}

bool ThreadDecoder::addAccess(DecodeContext &context, Operation operation, quint64 address, quint16 size)
{
    if (size == 0) {
        // DynamoRIO writes size 0 where the size depends on processor state (xsave, xrstor and their
        // kin). The address is real: it is stored as one byte, so that a query on that address still
        // finds the access.
        ++context.unknownSizeAccesses;
        size = 1;
    }
    Access access;
    access.transition = m_lastTransition;
    access.operation = operation;
    // User-mode traces know virtual addresses only: stored as both (DESIGN.md §1).
    access.physical = Address { address };
    access.linear = Address { address };
    access.size = size;
    if (!context.sink.add(access)) {
        m_error = m_reader->errorAt(context.sink.errorString());
        return false;
    }
    switch (operation) {
    case Operation::Read:
        ++context.reads;
        break;
    case Operation::Write:
        ++context.writes;
        break;
    case Operation::Execute:
        ++context.executes;
        break;
    }
    return true;
}

bool ThreadDecoder::addEncoding(const TraceRecord &record)
{
    if (record.size > sizeof(record.addr)) {
        m_error = m_reader->errorAt(
            QStringLiteral("encoding record of %1 bytes (at most %2)").arg(record.size).arg(sizeof(record.addr)));
        return false;
    }
    if (m_encodingSize + record.size > maxEncodingBytes) {
        m_error = m_reader->errorAt(
            QStringLiteral("encoding records of more than %1 bytes for one instruction").arg(maxEncodingBytes));
        return false;
    }
    // The bytes are those of `addr` in memory order: little-endian.
    for (quint16 i = 0; i < record.size; ++i)
        m_encoding[size_t(m_encodingSize++)] = char((record.addr >> (8 * i)) & 0xff);
    return true;
}

void ThreadDecoder::takeEncoding(DecodeContext &context, quint64 pc)
{
    if (m_encodingSize == 0)
        return;
    context.sink.addInstructionBytes(Address { pc }, QByteArrayView(m_encoding.data(), m_encodingSize));
    ++context.encodedInstructions;
    m_encodingSize = 0;
}

bool ThreadDecoder::beginInstruction(DecodeContext &context, quint64 pc, quint16 size)
{
    m_hasInstruction = true;
    m_lastPc = pc;
    m_lastLength = size;
    m_dataReferences = 0;
    m_lastStored = false;
    if (context.beforeCut) {
        ++context.instructionsBeforeCut;
        return true;
    }
    const Transition transition = context.next;
    context.next = Transition { transition.value + 1 };
    if (transition.value < context.window.begin) {
        ++context.instructionsBeforeWindow;
        return true;
    }
    ++context.instructions;
    m_lastStored = true;
    m_lastTransition = transition;
    // Lengths above 255 bytes are no instruction's: stored as unknown (the run ends there).
    if (!context.sink.addInstruction(transition, Address { pc }, size <= 0xff ? quint8(size) : 0)) {
        m_error = m_reader->errorAt(context.sink.errorString());
        return false;
    }

    const std::optional<qint64> thread = m_currentThread >= 0 ? std::optional<qint64>(m_currentThread) : std::nullopt;
    if (context.spanThread != thread) {
        if (context.spanThread && transition > context.spanFirst)
            context.sink.addThreadSpan(*context.spanThread, context.spanFirst, Transition { transition.value - 1 });
        context.spanThread = thread;
        context.spanFirst = transition;
    }
    if (!context.withExecute)
        return true;
    return addAccess(context, Operation::Execute, pc, size);
}

ThreadDecoder::Stop ThreadDecoder::finish(DecodeContext &context)
{
    // A core-sharded file holds a footer for every thread that ends in it: complete is ending with one.
    if (m_coreSharded ? !m_lastWasFooter : !m_sawFooter) {
        context.warnings << m_reader->path()
                + QStringLiteral(": the trace ends early after %1 records, without its footer record (the tracer was "
                                 "stopped?): imported what it holds")
                      .arg(m_reader->recordsRead());
    }
    return Stop::End;
}

std::optional<ThreadDecoder::Stop> ThreadDecoder::handleFooter(DecodeContext &context)
{
    m_sawFooter = true;
    if (m_coreSharded) {
        // One thread's end: the core goes on with the next thread or its idle time.
        m_lastWasFooter = true;
        return std::nullopt;
    }
    qint64 after = 0;
    while (m_reader->next())
        ++after;
    if (!m_reader->error().isEmpty())
        return fail(m_reader->error());
    if (after > 0)
        context.warnings << m_reader->path()
                + QStringLiteral(": %1 records after the footer record ignored").arg(after);
    return finish(context);
}

ThreadDecoder::Stop ThreadDecoder::run(DecodeContext &context)
{
    for (;;) {
        const TraceRecord *record = m_reader->next();
        if (!record) {
            if (!m_reader->error().isEmpty())
                return fail(m_reader->error());
            return finish(context);
        }
        if (++m_sinceTick >= tickInterval) {
            m_sinceTick = 0;
            if (context.tick && !context.tick())
                return fail(m_reader->path() + QStringLiteral(": import cancelled"));
        }
        const RecordKind kind = kindOf(record->type);

        if (m_reader->atPartStart())
            m_chunkTop = ChunkTop::ExpectTimestamp;
        if (m_chunkTop != ChunkTop::No) [[unlikely]] {
            const bool isMarker = kind == RecordKind::Marker;
            if (isMarker && record->size == marker::recordOrdinal) {
                // The ordinal comes first at the top of a chunk; the repeated pair follows.
            } else if (isMarker && m_chunkTop == ChunkTop::ExpectTimestamp && record->size == marker::timestamp) {
                m_chunkTop = ChunkTop::ExpectCpu;
                ++context.repeatedChunkHeaders;
                ++context.records;
                // A reader that starts in this chunk: the segment in progress runs at this time.
                if (m_startsInChunk && !m_started)
                    m_nextTimestamp = record->addr;
                continue;
            } else if (isMarker && m_chunkTop == ChunkTop::ExpectCpu && record->size == marker::cpuId) {
                m_chunkTop = ChunkTop::No;
                ++context.repeatedChunkHeaders;
                ++context.records;
                continue;
            } else {
                m_chunkTop = ChunkTop::No;
            }
        }

        const bool startsInstruction = kind == RecordKind::Instruction || kind == RecordKind::Bundle;
        if (startsInstruction) [[likely]] {
            if (!m_started || m_pendingTimestamp) [[unlikely]] {
                // A scheduling point: the interleaver decides who runs this instruction's transition.
                m_reader->unread();
                if (m_pendingTimestamp)
                    m_nextTimestamp = *m_pendingTimestamp;
                m_pendingTimestamp.reset();
                m_started = true;
                return Stop::Yield;
            }
            if (!context.beforeCut && context.next.value >= context.window.end) [[unlikely]] {
                m_reader->unread();
                return Stop::WindowEnd;
            }
        }

        ++context.records;
        m_lastWasFooter = false;
        if (kind == RecordKind::Marker && record->size == marker::coreIdle)
            ++context.coreIdleMarkers;
        else
            ++context.kinds[size_t(kind)];
        switch (kind) {
        case RecordKind::Read:
        case RecordKind::Write:
            if (!m_hasInstruction) {
                ++context.accessesBeforeFirstInstruction;
                break;
            }
            if (!m_lastStored)
                break; // the instruction is before the window
            if (++m_dataReferences == 3)
                ++context.multiReferenceInstructions;
            if (!addAccess(
                    context, kind == RecordKind::Read ? Operation::Read : Operation::Write, record->addr, record->size))
                return Stop::Failed;
            break;
        case RecordKind::Instruction:
            takeEncoding(context, record->addr);
            if (!beginInstruction(context, record->addr, record->size))
                return Stop::Failed;
            break;
        case RecordKind::NoFetch:
            takeEncoding(context, record->addr);
            break;
        case RecordKind::Encoding:
            if (!addEncoding(*record))
                return Stop::Failed;
            break;
        case RecordKind::Bundle: {
            // Old traces: `size` instructions following the previous fetch, their lengths in the bytes
            // of addr.
            if (!m_hasInstruction)
                return fail(m_reader->errorAt(QStringLiteral("instruction bundle without a preceding instruction")));
            if (record->size > sizeof(record->addr))
                return fail(m_reader->errorAt(QStringLiteral("instruction bundle of %1 instructions (at most %2)")
                                                  .arg(record->size)
                                                  .arg(sizeof(record->addr))));
            for (quint16 i = 0; i < record->size; ++i) {
                if (!context.beforeCut && context.next.value >= context.window.end)
                    return Stop::WindowEnd;
                const auto length = quint16((record->addr >> (8 * i)) & 0xff);
                if (!beginInstruction(context, m_lastPc + m_lastLength, length))
                    return Stop::Failed;
                if (m_lastStored)
                    ++context.bundledInstructions;
            }
            break;
        }
        case RecordKind::Marker:
            if (record->size == marker::timestamp)
                m_pendingTimestamp = record->addr;
            else if (record->size == marker::chunkFooter)
                m_chunkTop = ChunkTop::ExpectTimestamp;
            else if (record->size == marker::fileType) {
                m_coreSharded = m_coreSharded || (record->addr & fileType::coreSharded) != 0;
                if (const std::optional<InstructionSet> set = fileType::instructionSet(record->addr))
                    context.sink.setInstructionSet(*set);
            }
            break;
        case RecordKind::Thread:
            if (m_fileThread < 0)
                m_fileThread = qint64(record->addr);
            // In a core's schedule, another thread's records follow: the previous instruction is
            // not theirs.
            if (m_coreSharded && qint64(record->addr) != m_currentThread)
                m_hasInstruction = false;
            m_currentThread = qint64(record->addr);
            break;
        case RecordKind::Footer:
            if (const std::optional<Stop> stop = handleFooter(context))
                return *stop;
            break;
        case RecordKind::Prefetch:
        case RecordKind::Flush:
        case RecordKind::Bookkeeping:
        case RecordKind::Other:
            break;
        case RecordKind::Unknown:
            return fail(m_reader->errorAt(QStringLiteral("unknown record type %1").arg(record->type)));
        }
    }
}

} // namespace memhist::drmemtrace
