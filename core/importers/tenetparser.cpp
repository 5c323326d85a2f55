// SPDX-License-Identifier: MIT
#include "core/importers/tenetparser.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace memhist {

namespace {

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Reads a hex number of at most 64 bits, with or without 0x. False when `text` is not one.
bool parseHex(QByteArrayView text, std::uint64_t *value)
{
    if (text.startsWith("0x") || text.startsWith("0X"))
        text = text.sliced(2);
    if (text.isEmpty() || text.size() > 16)
        return false;
    std::uint64_t result = 0;
    for (const char c : text) {
        if (!isHexDigit(c))
            return false;
        result = (result << 4) | std::uint64_t(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    *value = result;
    return true;
}

bool isRegisterName(QByteArrayView name)
{
    if (name.isEmpty())
        return false;
    for (const char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

QString latin1(QByteArrayView text)
{
    QString result;
    for (const char c : text.first(std::min<qsizetype>(text.size(), 60)))
        result += (c >= 0x20 && c < 0x7f) ? QLatin1Char(c) : QLatin1Char('?');
    if (text.size() > 60)
        result += QStringLiteral("...");
    return result;
}

QByteArrayView withoutLineEnd(QByteArrayView line)
{
    while (!line.isEmpty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.chop(1);
    return line;
}

enum class FieldKind {
    Register,
    ProgramCounter,
    Memory,
};

using MemoryField = TenetParser::MemoryField;

// Parses one field; false + *reason when it is malformed.
bool parseField(QByteArrayView field, FieldKind *kind, std::uint64_t *value, MemoryField *memory, QString *reason)
{
    const qsizetype equals = field.indexOf('=');
    if (equals <= 0 || !isRegisterName(field.first(equals))) {
        *reason = QStringLiteral("not NAME=VALUE");
        return false;
    }
    const QByteArrayView name = field.first(equals);
    const QByteArrayView text = field.sliced(equals + 1);
    if (name == "mr" || name == "mw" || name == "mrw") {
        const qsizetype colon = text.indexOf(':');
        if (colon < 0) {
            *reason = QStringLiteral("expected ADDRESS:HEXBYTES");
            return false;
        }
        if (!parseHex(text.first(colon), &memory->address)) {
            *reason = QStringLiteral("'%1' is not a 64-bit hex address").arg(latin1(text.first(colon)));
            return false;
        }
        const QByteArrayView bytes = text.sliced(colon + 1);
        if (bytes.isEmpty()) {
            *reason = QStringLiteral("no bytes after the address (size 0)");
            return false;
        }
        for (const char c : bytes) {
            if (!isHexDigit(c)) {
                *reason = QStringLiteral("'%1' is not hex bytes").arg(latin1(bytes));
                return false;
            }
        }
        if (bytes.size() % 2 != 0) {
            *reason = QStringLiteral("odd number of hex digits (%1) in the bytes").arg(bytes.size());
            return false;
        }
        memory->size = std::uint32_t(bytes.size() / 2);
        memory->hexBytes = bytes;
        memory->read = name != "mw";
        memory->write = name != "mr";
        *kind = FieldKind::Memory;
        return true;
    }
    // Registers may be wider than 64 bits in some tracers: only their form is checked, and only the
    // program counter's value is read.
    QByteArrayView digits = text;
    if (!digits.startsWith("0x") && !digits.startsWith("0X")) {
        *reason = QStringLiteral("'%1' is not a 0x hex value").arg(latin1(text));
        return false;
    }
    digits = digits.sliced(2);
    if (digits.isEmpty() || !std::all_of(digits.begin(), digits.end(), isHexDigit)) {
        *reason = QStringLiteral("'%1' is not a 0x hex value").arg(latin1(text));
        return false;
    }
    if (name == "rip" || name == "eip" || name == "pc") {
        if (!parseHex(text, value)) {
            *reason = QStringLiteral("'%1' is not a 64-bit program counter").arg(latin1(text));
            return false;
        }
        *kind = FieldKind::ProgramCounter;
        return true;
    }
    *kind = FieldKind::Register;
    return true;
}

constexpr QLatin1StringView binaryData("binary data, not a Tenet trace");

} // namespace

TenetParser::TenetParser(QString sourceName, AccessSink &sink, const ImportOptions &options)
    : m_source(std::move(sourceName))
    , m_sink(sink)
    , m_first(options.firstTransition.value)
    , m_withExecute(options.withExecute)
    , m_window(TransitionWindow::of(options))
{ }

bool TenetParser::failAt(qint64 line, const QString &reason)
{
    m_error = m_source + u':' + QString::number(line) + QStringLiteral(": ") + reason;
    return false;
}

bool TenetParser::add()
{
    if (m_sink.add(m_access))
        return true;
    return failAt(m_lineNumber, m_sink.errorString());
}

bool TenetParser::addWithValue(const MemoryField &memory)
{
    if (!add())
        return false;
    // parseField checked the digits: two per byte, all hex.
    m_value.resize(memory.size);
    const auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    for (std::uint32_t i = 0; i < memory.size; ++i)
        m_value[i] = char((nibble(memory.hexBytes[2 * i]) << 4) | nibble(memory.hexBytes[2 * i + 1]));
    m_sink.addValue({ m_value, {}, std::nullopt });
    ++m_values;
    return true;
}

bool TenetParser::flushPendingPc(std::uint8_t size)
{
    if (!m_hasPendingPc)
        return true;
    m_hasPendingPc = false;
    if (!m_window.contains(m_pendingTransition))
        return true;
    if (!m_sink.addInstruction(Transition { m_pendingTransition }, Address { m_pendingPc }, size))
        return failAt(m_lineNumber, m_sink.errorString());
    ++m_pcs;
    return true;
}

bool TenetParser::handleLine(QByteArrayView line, bool *malformed)
{
    *malformed = false;
    line = withoutLineEnd(line);
    const std::uint64_t transition = m_first + m_instructions;
    // This line's memory fields belong to the previous line's instruction (see the header).
    const std::uint64_t memoryTransition = m_instructions > 0 ? transition - 1 : transition;
    if (!line.isEmpty() && memoryTransition >= m_window.end) {
        m_stopped = true;
        return true;
    }
    ++m_lineNumber;
    if (line.isEmpty())
        return true;
    // Every field is checked before any access is stored: a malformed (or cut) line stores none.
    m_memory.clear();
    std::optional<std::uint64_t> linePc;
    int index = 0;
    qsizetype start = 0;
    while (start <= line.size()) {
        qsizetype comma = line.indexOf(',', start);
        if (comma < 0)
            comma = line.size();
        const QByteArrayView field = line.sliced(start, comma - start);
        start = comma + 1;
        ++index;
        if (field.isEmpty())
            continue;
        FieldKind kind;
        std::uint64_t value = 0;
        MemoryField memory;
        QString reason;
        if (!parseField(field, &kind, &value, &memory, &reason)) {
            *malformed = true;
            return failAt(
                m_lineNumber, QStringLiteral("field %1 '%2': %3").arg(QString::number(index), latin1(field), reason));
        }
        if (kind == FieldKind::ProgramCounter) {
            linePc = value;
        } else if (kind == FieldKind::Memory) {
            m_memory.push_back(memory);
        }
    }
    if (linePc) {
        m_pc = *linePc;
        m_knowsPc = true;
    }
    // The previous line's PC gets its size from this one's (see the header).
    const std::uint64_t step = m_pc - m_pendingPc;
    if (!flushPendingPc(m_knowsPc && step >= 1 && step <= 15 ? std::uint8_t(step) : 0))
        return false;
    // Lines before the window are checked and counted; what they hold is not stored.
    if (!m_window.contains(memoryTransition))
        m_memory.clear();
    for (const MemoryField &memory : m_memory) {
        m_access.transition = Transition { memoryTransition };
        m_access.physical = Address { memory.address };
        m_access.linear = Address { memory.address };
        m_access.size = memory.size;
        if (memory.read) {
            m_access.operation = Operation::Read;
            if (!addWithValue(memory))
                return false;
            ++m_reads;
        }
        if (memory.write) {
            m_access.operation = Operation::Write;
            if (!addWithValue(memory))
                return false;
            ++m_writes;
        }
    }
    if (m_knowsPc) {
        m_hasPendingPc = true;
        m_pendingPc = m_pc;
        m_pendingTransition = transition;
    }
    ++m_instructions;
    // A line without a program counter executes at the same one (a rep-prefixed instruction).
    if (m_withExecute && m_knowsPc && m_window.contains(transition)) {
        m_access.transition = Transition { transition };
        m_access.operation = Operation::Execute;
        m_access.physical = Address { m_pc };
        m_access.linear = Address { m_pc };
        m_access.size = 1;
        if (!add())
            return false;
        ++m_executes;
    }
    return true;
}

qsizetype TenetParser::parse(const char *data, qsizetype size)
{
    // Text never holds a NUL byte: one memchr per piece finds binary input before any of it is
    // taken for lines.
    const auto *nul = static_cast<const char *>(std::memchr(data, 0, size_t(size)));
    const qsizetype scanEnd = nul ? nul - data : size;
    qsizetype pos = 0;
    while (const auto *newline = static_cast<const char *>(std::memchr(data + pos, '\n', size_t(scanEnd - pos)))) {
        const qsizetype lineEnd = newline - data;
        if (lineEnd - pos > maxLineLength) {
            failAt(m_lineNumber + 1, QStringLiteral("line longer than %1 bytes: ").arg(maxLineLength) + binaryData);
            return -1;
        }
        bool malformed;
        if (!handleLine(QByteArrayView(data + pos, lineEnd - pos), &malformed))
            return -1;
        if (m_stopped)
            return pos; // the rest is after the window's end: left unread
        pos = lineEnd + 1;
    }
    if (nul) {
        failAt(m_lineNumber + 1, QStringLiteral("a NUL byte: ") + binaryData);
        return -1;
    }
    if (size - pos > maxLineLength) {
        failAt(m_lineNumber + 1, QStringLiteral("line longer than %1 bytes: ").arg(maxLineLength) + binaryData);
        return -1;
    }
    return pos;
}

bool TenetParser::finish(QByteArrayView rest)
{
    if (m_stopped)
        return true; // after the window's end the rest is not imported, whole or not
    rest = withoutLineEnd(rest);
    if (rest.isEmpty())
        return flushPendingPc(0);
    if (rest.contains('\0'))
        return failAt(m_lineNumber + 1, QStringLiteral("a NUL byte: ") + binaryData);
    if (rest.size() > maxLineLength)
        return failAt(m_lineNumber + 1, QStringLiteral("line longer than %1 bytes: ").arg(maxLineLength) + binaryData);
    const qint64 line = m_lineNumber + 1;
    bool malformed;
    if (handleLine(rest, &malformed)) {
        if (m_stopped)
            return true;
        m_warnings << QStringLiteral("%1:%2: no newline at the end of the file: the last line was imported, "
                                     "but it may be cut")
                          .arg(m_source, QString::number(line));
        return flushPendingPc(0);
    }
    if (!malformed)
        return false;
    m_error.clear();
    if (!flushPendingPc(0))
        return false;
    ++m_cutLines;
    m_warnings << QStringLiteral("%1:%2: the last line is cut: the trace ends early (was the tracer killed?); "
                                 "imported the complete lines before it")
                      .arg(m_source, QString::number(line));
    return true;
}

void TenetParser::fillReport(ImportReport *report) const
{
    report->linesRead = m_lineNumber;
    report->reads = m_reads;
    report->writes = m_writes;
    report->executes = m_executes;
    report->accesses = m_reads + m_writes + m_executes;
    // The line at the window's end was read for its memory fields only (they belong to the
    // instruction before it).
    const std::uint64_t next = std::min(m_first + std::uint64_t(m_instructions), std::max(m_window.end, m_first));
    const std::uint64_t begin = std::max(m_window.begin, m_first);
    report->instructions = next > begin ? qint64(next - begin) : 0;
    report->nextTransition = Transition { next };
    if (const std::uint64_t before = std::min(next, begin) - m_first; before > 0)
        report->skipped[beforeWindowKind()] = qint64(before);
    report->reachedWindowEnd = m_stopped;
    if (m_cutLines > 0)
        report->skipped[QStringLiteral("cut last lines")] = m_cutLines;
    report->warnings = m_warnings;
    if (m_pcs > 0 || m_values > 0)
        report->context << QStringLiteral("%1: pcs of %2 transitions, values of %3 accesses (a Tenet trace has no "
                                          "modules and no instruction bytes)")
                               .arg(m_source, QString::number(m_pcs), QString::number(m_values));
}

bool TenetParser::isTenetLine(QByteArrayView line)
{
    line = withoutLineEnd(line);
    if (line.isEmpty())
        return false;
    for (qsizetype start = 0; start <= line.size();) {
        qsizetype comma = line.indexOf(',', start);
        if (comma < 0)
            comma = line.size();
        FieldKind kind;
        std::uint64_t value;
        MemoryField memory;
        QString reason;
        if (!parseField(line.sliced(start, comma - start), &kind, &value, &memory, &reason))
            return false;
        start = comma + 1;
    }
    return true;
}

} // namespace memhist
