// SPDX-License-Identifier: MIT
#include "core/recorder/recordstreamparser.h"

#include "core/importers/accesssink.h"
#include "core/recorder/recordformat.h"

#include <QtEndian>
#include <algorithm>
#include <cstring>

namespace memhist {

namespace {

// A kernel access is stored in pieces that do not cross a page: a read() of a megabyte would
// otherwise be one access that every query over any of its bytes returns whole, value and all.
constexpr std::uint64_t kernelPieceBytes = 4096;

QString permissionsText(quint8 permissions)
{
    return privatePermissionsText(
        permissions & MH_PERM_READ, permissions & MH_PERM_WRITE, permissions & MH_PERM_EXECUTE);
}

} // namespace

struct RecordStreamParser::Cursor
{
    const char *data;
    qsizetype size;
    qsizetype at = 1; // after the tag
    bool ok = true;

    template<typename T> T next()
    {
        if (size - at < qsizetype(sizeof(T))) {
            ok = false;
            return T {};
        }
        T value = qFromLittleEndian<T>(data + at);
        at += qsizetype(sizeof(T));
        return value;
    }
    QByteArrayView bytes(std::uint64_t count)
    {
        if (std::uint64_t(size - at) < count) {
            ok = false;
            return {};
        }
        const QByteArrayView view(data + at, qsizetype(count));
        at += qsizetype(count);
        return view;
    }
};

RecordStreamParser::RecordStreamParser(QString source, AccessSink &sink, const ImportOptions &options)
    : m_source(std::move(source))
    , m_sink(sink)
    , m_options(options)
    , m_window(TransitionWindow::of(options))
{
    m_needed = MH_STREAM_HEADER_SIZE;
}

bool RecordStreamParser::fail(const QString &reason)
{
    m_error = QStringLiteral("%1: byte %2: %3").arg(m_source).arg(m_offset).arg(reason);
    return false;
}

qsizetype RecordStreamParser::parse(QByteArrayView data)
{
    qsizetype used = 0;
    if (!m_headerRead) {
        if (data.size() < MH_STREAM_HEADER_SIZE) {
            m_needed = MH_STREAM_HEADER_SIZE;
            return 0;
        }
        if (std::memcmp(data.data(), MH_STREAM_MAGIC, MH_STREAM_MAGIC_SIZE) != 0) {
            fail(QStringLiteral("not a memhist record stream (it does not start with '%1')")
                     .arg(QLatin1StringView(MH_STREAM_MAGIC)));
            return -1;
        }
        const quint32 version = qFromLittleEndian<quint32>(data.data() + 8);
        if (version != MH_STREAM_VERSION) {
            fail(QStringLiteral("record stream version %1, but this memhist reads version %2 only")
                     .arg(version)
                     .arg(MH_STREAM_VERSION));
            return -1;
        }
        m_valgrindVersion = qFromLittleEndian<quint32>(data.data() + 12);
        m_headerRead = true;
        used = MH_STREAM_HEADER_SIZE;
        m_offset = used;
    }
    while (used < data.size() && !m_stopped && !m_end) {
        const qsizetype length = parseRecord(data.data() + used, data.size() - used);
        if (length < 0)
            return -1;
        if (length == 0)
            return used;
        used += length;
        m_offset += length;
        ++m_records;
    }
    m_needed = 1;
    return used;
}

qsizetype RecordStreamParser::parseRecord(const char *data, qsizetype size)
{
    Cursor cursor { data, size };
    // Needs `count` more bytes than the cursor has: the record is cut (or too large to be one).
    const auto cut = [&](std::uint64_t count) -> qsizetype {
        if (count > std::uint64_t(maxRecordBytes)) {
            fail(QStringLiteral("a record of %1 bytes (at most %2)").arg(count).arg(maxRecordBytes));
            return -1;
        }
        m_needed = qsizetype(count);
        return 0;
    };
    const quint8 tag = quint8(data[0]);
    switch (tag) {
    case MH_REC_BLOCK_DEF: {
        const quint32 id = cursor.next<quint32>();
        const quint16 count = cursor.next<quint16>();
        if (!cursor.ok)
            return cut(7);
        if (size < 7 + qsizetype(count) * 9)
            return cut(7 + std::uint64_t(count) * 9);
        std::vector<Instruction> instructions(count);
        for (Instruction &instruction : instructions) {
            instruction.pc = cursor.next<quint64>();
            instruction.length = cursor.next<quint8>();
        }
        m_blocks.insert_or_assign(id, std::move(instructions));
        return cursor.at;
    }
    case MH_REC_BLOCK_RUN: {
        const quint32 id = cursor.next<quint32>();
        const std::uint64_t transition = cursor.next<quint64>();
        if (!cursor.ok)
            return cut(13);
        const auto block = m_blocks.find(id);
        if (block == m_blocks.end())
            return fail(QStringLiteral("superblock %1 runs but was never defined").arg(id)), -1;
        if (transition < m_next)
            return fail(QStringLiteral("superblock %1 runs at transition %2, before the last instruction (%3)")
                            .arg(id)
                            .arg(transition)
                            .arg(m_next - 1)),
                   -1;
        if (transition > 0 && !emitInstructionsThrough(transition - 1))
            return -1;
        m_running = &block->second;
        m_runningStart = transition;
        m_runningEmitted = 0;
        return cursor.at;
    }
    case MH_REC_READ:
    case MH_REC_WRITE: {
        const quint32 accessSize = cursor.next<quint32>();
        const std::uint64_t address = cursor.next<quint64>();
        const std::uint64_t transition = cursor.next<quint64>();
        if (!cursor.ok)
            return cut(21);
        const std::uint64_t total = 21 + std::uint64_t(accessSize) * (tag == MH_REC_WRITE ? 2 : 1);
        if (std::uint64_t(size) < total)
            return cut(total);
        QByteArrayView before;
        if (tag == MH_REC_WRITE)
            before = cursor.bytes(accessSize);
        const QByteArrayView bytes = cursor.bytes(accessSize);
        if (accessSize == 0)
            return fail(QStringLiteral("an access of size 0")), -1;
        if (!addAccess(tag == MH_REC_WRITE ? Operation::Write : Operation::Read, address, transition, bytes, before,
                std::nullopt))
            return -1;
        return cursor.at;
    }
    case MH_REC_KERNEL_READ:
    case MH_REC_KERNEL_WRITE: {
        const quint32 accessSize = cursor.next<quint32>();
        const std::uint64_t address = cursor.next<quint64>();
        const std::uint64_t transition = cursor.next<quint64>();
        const quint32 syscall = cursor.next<quint32>();
        const quint8 hasBefore = tag == MH_REC_KERNEL_WRITE ? cursor.next<quint8>() : 0;
        if (!cursor.ok)
            return cut(tag == MH_REC_KERNEL_WRITE ? 26 : 25);
        const std::uint64_t total = std::uint64_t(cursor.at) + std::uint64_t(accessSize) * (hasBefore ? 2 : 1);
        if (std::uint64_t(size) < total)
            return cut(total);
        const QByteArrayView before = hasBefore ? cursor.bytes(accessSize) : QByteArrayView();
        const QByteArrayView bytes = cursor.bytes(accessSize);
        const Operation operation = tag == MH_REC_KERNEL_WRITE ? Operation::Write : Operation::Read;
        // In pieces that end at page boundaries (see kernelPieceBytes).
        std::uint64_t offset = 0;
        while (offset < accessSize) {
            const std::uint64_t first = address + offset;
            const std::uint64_t piece
                = std::min<std::uint64_t>(accessSize - offset, kernelPieceBytes - first % kernelPieceBytes);
            const auto slice = [&](QByteArrayView view) {
                return view.isEmpty() ? view : view.sliced(qsizetype(offset), qsizetype(piece));
            };
            if (!addAccess(operation, first, transition, slice(bytes), slice(before), syscall))
                return -1;
            offset += piece;
        }
        if (m_window.contains(transition))
            ++m_kernelAccesses;
        return cursor.at;
    }
    case MH_REC_MAP: {
        const std::uint64_t first = cursor.next<quint64>();
        const std::uint64_t length = cursor.next<quint64>();
        const std::uint64_t transition = cursor.next<quint64>();
        const quint8 permissions = cursor.next<quint8>();
        const std::uint64_t fileOffset = cursor.next<quint64>();
        const quint16 pathLength = cursor.next<quint16>();
        if (!cursor.ok)
            return cut(36);
        if (size < 36 + qsizetype(pathLength))
            return cut(36 + std::uint64_t(pathLength));
        const QString path = QString::fromUtf8(cursor.bytes(pathLength));
        if (length > 0 && first + (length - 1) >= first)
            mapRange(transition,
                Mapping { Address { first }, Address { first + length - 1 }, permissionsText(permissions), fileOffset,
                    path.isEmpty() ? anonymousMappingPath() : path });
        return cursor.at;
    }
    case MH_REC_UNMAP:
    case MH_REC_PROTECT: {
        const std::uint64_t first = cursor.next<quint64>();
        const std::uint64_t length = cursor.next<quint64>();
        const std::uint64_t transition = cursor.next<quint64>();
        const quint8 permissions = tag == MH_REC_PROTECT ? cursor.next<quint8>() : 0;
        if (!cursor.ok)
            return cut(tag == MH_REC_PROTECT ? 26 : 25);
        if (length > 0 && first + (length - 1) >= first) {
            if (tag == MH_REC_UNMAP)
                unmapRange(transition, first, first + length - 1);
            else
                protectRange(transition, first, first + length - 1, permissionsText(permissions));
        }
        return cursor.at;
    }
    case MH_REC_MODULE: {
        const std::uint64_t transition = cursor.next<quint64>();
        const std::uint64_t bias = cursor.next<quint64>();
        const quint16 pathLength = cursor.next<quint16>();
        if (!cursor.ok)
            return cut(19);
        if (size < 19 + qsizetype(pathLength))
            return cut(19 + std::uint64_t(pathLength));
        LoadedModule module;
        module.path = QString::fromUtf8(cursor.bytes(pathLength));
        module.bias = bias;
        module.first = Transition { transition };
        m_sink.addModule(module);
        ++m_modules;
        return cursor.at;
    }
    case MH_REC_THREAD: {
        const std::uint64_t thread = cursor.next<quint64>();
        const std::uint64_t transition = cursor.next<quint64>();
        if (!cursor.ok)
            return cut(17);
        switchThread(thread, transition);
        return cursor.at;
    }
    case MH_REC_START: {
        const std::uint64_t transition = cursor.next<quint64>();
        if (!cursor.ok)
            return cut(9);
        // Nothing before it was recorded: the window starts here at the earliest.
        m_window.begin = std::max(m_window.begin, transition);
        if (m_window.end < m_window.begin)
            m_window.end = m_window.begin;
        return cursor.at;
    }
    case MH_REC_END: {
        RecordStreamEnd end;
        end.instructions = cursor.next<quint64>();
        end.bySignal = cursor.next<quint8>() == MH_END_SIGNAL;
        end.status = cursor.next<qint32>();
        if (!cursor.ok)
            return cut(14);
        if (end.instructions > 0 && !emitInstructionsThrough(end.instructions - 1))
            return -1;
        m_end = end;
        return cursor.at;
    }
    default:
        return fail(QStringLiteral("unknown record type 0x%1").arg(tag, 2, 16, QLatin1Char('0'))), -1;
    }
}

bool RecordStreamParser::emitInstructionsThrough(std::uint64_t transition)
{
    if (!m_running || transition < m_runningStart)
        return true;
    const std::size_t through
        = std::size_t(std::min<std::uint64_t>(transition - m_runningStart, m_running->size() - 1));
    for (; m_runningEmitted <= through && m_runningEmitted < m_running->size(); ++m_runningEmitted) {
        const std::uint64_t at = m_runningStart + m_runningEmitted;
        m_next = at + 1;
        if (at < m_window.begin)
            continue;
        if (at >= m_window.end) {
            m_stopped = true;
            return true;
        }
        const Instruction &instruction = (*m_running)[m_runningEmitted];
        if (!m_sink.addInstruction(Transition { at }, Address { instruction.pc }, instruction.length))
            return fail(m_sink.errorString());
        if (m_options.withExecute) {
            Access execute;
            execute.transition = Transition { at };
            execute.operation = Operation::Execute;
            execute.physical = Address { instruction.pc };
            execute.linear = execute.physical;
            execute.size = std::max<quint32>(instruction.length, 1);
            if (!m_sink.add(execute))
                return fail(m_sink.errorString());
            ++m_accesses;
            ++m_executes;
        }
        ++m_instructions;
        m_lastInWindow = at;
    }
    return true;
}

bool RecordStreamParser::addAccess(Operation operation, std::uint64_t address, std::uint64_t transition,
    QByteArrayView bytes, QByteArrayView before, std::optional<quint32> syscall)
{
    if (transition < m_window.begin)
        return true;
    if (transition >= m_window.end) {
        // The window's last instructions ran before this access: they are the window's too.
        if (!emitInstructionsThrough(m_window.end - 1))
            return false;
        m_stopped = true;
        return true;
    }
    if (!emitInstructionsThrough(transition))
        return false;
    if (m_stopped)
        return true;
    Access access;
    access.transition = Transition { transition };
    access.operation = operation;
    access.physical = Address { address };
    access.linear = access.physical;
    access.size = quint32(bytes.size());
    if (!m_sink.add(access))
        return fail(m_sink.errorString());
    m_sink.addValue({ bytes, before, syscall });
    ++m_accesses;
    ++(operation == Operation::Write ? m_writes : m_reads);
    m_lastInWindow = std::max(m_lastInWindow.value_or(0), transition);
    return true;
}

void RecordStreamParser::switchThread(std::uint64_t thread, std::uint64_t transition)
{
    if (m_thread == thread)
        return;
    if (m_thread && transition > 0)
        closeThreadSpan(transition - 1);
    m_thread = thread;
    m_threadStart = transition;
}

void RecordStreamParser::closeThreadSpan(std::uint64_t end)
{
    const std::uint64_t first = std::max(m_threadStart, m_window.begin);
    const std::uint64_t last = std::min(end, m_window.end - 1);
    if (m_thread && first <= last)
        m_sink.addThreadSpan(qint64(*m_thread), Transition { first }, Transition { last });
}

void RecordStreamParser::mapRange(std::uint64_t transition, const Mapping &mapping)
{
    unmapRange(transition, mapping.first.value, mapping.last.value);
    m_map.emplace(mapping.first.value, mapping);
    m_sink.addMapping(Transition { transition }, mapping);
}

void RecordStreamParser::unmapRange(std::uint64_t transition, std::uint64_t first, std::uint64_t last)
{
    // Keeps the parts of the mappings [first, last] overlaps that lie outside it.
    bool removed = false;
    auto it = m_map.upper_bound(first);
    if (it != m_map.begin())
        --it;
    while (it != m_map.end() && it->second.first.value <= last) {
        const Mapping mapping = it->second;
        if (mapping.last.value < first) {
            ++it;
            continue;
        }
        it = m_map.erase(it);
        removed = true;
        if (mapping.first.value < first) {
            Mapping below = mapping;
            below.last = Address { first - 1 };
            m_map.emplace(below.first.value, below);
        }
        if (mapping.last.value > last) {
            Mapping above = mapping;
            above.first = Address { last + 1 };
            if (above.isFile())
                above.fileOffset += last + 1 - mapping.first.value;
            it = m_map.emplace(above.first.value, above).first;
            ++it;
        }
    }
    if (removed)
        m_sink.removeMapping(Transition { transition }, Address { first }, Address { last });
}

void RecordStreamParser::protectRange(
    std::uint64_t transition, std::uint64_t first, std::uint64_t last, const QString &permissions)
{
    std::vector<Mapping> changed;
    for (auto it = m_map.begin(); it != m_map.end(); ++it) {
        const Mapping &mapping = it->second;
        if (mapping.last.value < first || mapping.first.value > last || mapping.permissions == permissions)
            continue;
        Mapping part = mapping;
        part.first = Address { std::max(first, mapping.first.value) };
        part.last = Address { std::min(last, mapping.last.value) };
        if (part.isFile())
            part.fileOffset += part.first.value - mapping.first.value;
        part.permissions = permissions;
        changed.push_back(part);
    }
    for (const Mapping &part : changed)
        mapRange(transition, part);
}

bool RecordStreamParser::finish(QByteArrayView rest)
{
    if (!m_headerRead)
        return fail(rest.isEmpty() ? QStringLiteral("the record stream is empty (the tool wrote nothing)")
                                   : QStringLiteral("the record stream ends inside its header"));
    Q_UNUSED(rest); // a cut record: the report's warning says where the stream ends
    if (m_thread) {
        closeThreadSpan(std::max(m_next > 0 ? m_next - 1 : 0, m_lastInWindow.value_or(0)));
        m_thread.reset();
    }
    return true;
}

void RecordStreamParser::fillReport(ImportReport *report) const
{
    report->linesRead = m_records;
    report->accesses = m_accesses;
    report->reads = m_reads;
    report->writes = m_writes;
    report->executes = m_executes;
    report->instructions = m_instructions;
    report->nextTransition = Transition { m_lastInWindow ? *m_lastInWindow + 1 : m_window.begin };
    report->reachedWindowEnd = m_stopped;
    // A stream starts at transition 0: what comes before the window's start was not recorded (the
    // tool skips it without a record, the parser drops what the tool sent of it).
    if (m_window.begin > 0)
        report->skipped.insert(beforeWindowKind(), qint64(m_window.begin));
    if (m_headerRead && !m_end && !m_stopped)
        report->warnings << QStringLiteral("%1: the record stream ends at byte %2 without its end record (the tool "
                                           "was stopped or crashed): kept what it holds")
                                .arg(m_source)
                                .arg(m_offset);
    QStringList context;
    if (m_instructions > 0)
        context << QStringLiteral("pcs of %1 transitions").arg(m_instructions);
    context << QStringLiteral("values of %1 accesses").arg(m_accesses - m_executes);
    if (m_kernelAccesses > 0)
        context << QStringLiteral("%1 kernel accesses").arg(m_kernelAccesses);
    if (m_modules > 0)
        context << QStringLiteral("%1 modules").arg(m_modules);
    report->context << m_source + QStringLiteral(": ") + context.join(QStringLiteral(", "));
}

RecordStreamReadEnd readRecordStream(RecordStreamParser &parser,
    const std::function<qint64(char *data, qsizetype size)> &read,
    const std::function<bool(QByteArrayView piece)> &received, QByteArray *buffer, QByteArrayView *rest)
{
    constexpr qsizetype pieceBytes = 1 << 20;
    qsizetype filled = 0;
    const auto end = [&](RecordStreamReadEnd how) {
        *rest = QByteArrayView(buffer->constData(), filled);
        return how;
    };
    for (;;) {
        if (buffer->size() < std::max(filled + pieceBytes, parser.bytesNeeded()))
            buffer->resize(std::max(filled + pieceBytes, parser.bytesNeeded()));
        const qint64 count = read(buffer->data() + filled, buffer->size() - filled);
        if (count < 0)
            return end(RecordStreamReadEnd::ReadStopped);
        if (count == 0)
            return end(RecordStreamReadEnd::InputEnd);
        if (received && !received(QByteArrayView(buffer->constData() + filled, qsizetype(count))))
            return end(RecordStreamReadEnd::Failed);
        filled += qsizetype(count);
        const qsizetype used = parser.parse(QByteArrayView(buffer->constData(), filled));
        if (used < 0)
            return end(RecordStreamReadEnd::Failed);
        std::memmove(buffer->data(), buffer->constData() + used, std::size_t(filled - used));
        filled -= used;
        if (parser.stopped())
            return end(RecordStreamReadEnd::ParserStopped);
    }
}

} // namespace memhist
