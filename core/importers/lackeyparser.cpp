// SPDX-License-Identifier: MIT
#include "core/importers/lackeyparser.h"

#include "core/model/numbertext.h"

#include <QScopeGuard>
#include <algorithm>
#include <array>
#include <cstring>

namespace memhist {

namespace {

enum class LineKind : std::uint8_t {
    Instruction,
    Load,
    Store,
    Modify,
    ValgrindMessage,
    Blank,
    Other,
    Malformed,
};

inline bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// The line as a message shows it: printable ASCII, at most 60 characters.
QString quoted(QByteArrayView line)
{
    QString text;
    for (const char c : line.first(std::min<qsizetype>(line.size(), 60))) {
        if (c >= 0x20 && c < 0x7f)
            text += QLatin1Char(c);
        else
            text += QStringLiteral("\\x%1").arg(uint(static_cast<unsigned char>(c)), 2, 16, QLatin1Char('0'));
    }
    if (line.size() > 60)
        text += QStringLiteral("...");
    return u'"' + text + u'"';
}

// "==1234==", "--1234--" (valgrind -v) or "**1234**" (valgrind's fatal messages) at the start.
bool startsWithValgrindPrefix(const char *p, const char *end)
{
    if (end - p < 5 || (p[0] != '=' && p[0] != '-' && p[0] != '*') || p[1] != p[0])
        return false;
    const char *q = p + 2;
    const char *digits = q;
    while (q < end && *q >= '0' && *q <= '9')
        ++q;
    return q > digits && end - q >= 2 && q[0] == p[0] && q[1] == p[0];
}

// Where a valgrind message ("--1234-- ...") starts inside a --trace-syscalls line; `end` when none.
const char *embeddedValgrindPrefix(const char *begin, const char *end)
{
    for (const char *p = begin + 1; p + 5 <= end; ++p) {
        if ((*p == '-' || *p == '=') && startsWithValgrindPrefix(p, end))
            return p;
    }
    return end;
}

// The second half of a --trace-syscalls line: " --> [pre-success] Success(0x483a000)".
bool isSyscallResult(const char *begin, const char *end)
{
    while (begin < end && isBlank(*begin))
        ++begin;
    return QByteArrayView(begin, end).startsWith("--> ");
}

// Classifies one line (without its '\n') and, for I/L/S/M lines, reads its address and size.
// A line is taken for an I/L/S/M line, and so is an error when malformed rather than skipped as
// program output, when after an optional indent it has the letter, a blank, then a hex number or
// any token followed by a comma: " L 7ff0zz,8" and " S 1234" are broken trace lines, "I am here"
// and "Loading..." are text. *reason is set for Malformed only (the slow path).
LineKind classify(const char *p, const char *end, std::uint64_t *address, std::uint64_t *size, QString *reason)
{
    const char *const lineBegin = p;
    while (end > p && (end[-1] == '\r' || isBlank(end[-1])))
        --end;
    while (p < end && isBlank(*p))
        ++p;
    if (p == end)
        return LineKind::Blank;
    LineKind kind;
    switch (*p) {
    case 'I':
        kind = LineKind::Instruction;
        break;
    case 'L':
        kind = LineKind::Load;
        break;
    case 'S':
        kind = LineKind::Store;
        break;
    case 'M':
        kind = LineKind::Modify;
        break;
    default:
        return startsWithValgrindPrefix(lineBegin, end) ? LineKind::ValgrindMessage : LineKind::Other;
    }
    const char *q = p + 1;
    if (q == end || !isBlank(*q))
        return LineKind::Other;
    while (q < end && isBlank(*q))
        ++q;
    // Tolerate a 0x prefix (hand-made traces), which Lackey itself never writes.
    if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && hexDigitValue(q[2]) >= 0)
        q += 2;
    const char *const token = q;
    std::uint64_t value = 0;
    int digit;
    while (q < end && (digit = hexDigitValue(*q)) >= 0) {
        value = (value << 4) | std::uint64_t(digit);
        ++q;
    }
    const qsizetype digits = q - token;
    if (q < end && *q != ',' && !isBlank(*q)) {
        // A token with other characters: a broken address when a comma follows it, text otherwise.
        const char *tokenEnd = q;
        while (tokenEnd < end && *tokenEnd != ',' && !isBlank(*tokenEnd))
            ++tokenEnd;
        if (tokenEnd == end || *tokenEnd != ',')
            return LineKind::Other;
        *reason = QStringLiteral("'%1' is not a hexadecimal address")
                      .arg(QString::fromLatin1(QByteArrayView(token, tokenEnd - token)));
        return LineKind::Malformed;
    }
    if (digits == 0) {
        if (q < end && *q == ',') {
            *reason = QStringLiteral("the address is missing");
            return LineKind::Malformed;
        }
        return LineKind::Other;
    }
    if (digits > 16) {
        *reason = QStringLiteral("address '%1' is longer than 64 bits")
                      .arg(QString::fromLatin1(QByteArrayView(token, digits)));
        return LineKind::Malformed;
    }
    *address = value;
    while (q < end && isBlank(*q))
        ++q;
    if (q == end || *q != ',') {
        *reason = QStringLiteral("expected ',SIZE' after the address");
        return LineKind::Malformed;
    }
    ++q;
    while (q < end && isBlank(*q))
        ++q;
    const char *const sizeBegin = q;
    std::uint64_t sizeValue = 0;
    while (q < end && *q >= '0' && *q <= '9' && q - sizeBegin < 11) {
        sizeValue = sizeValue * 10 + std::uint64_t(*q - '0');
        ++q;
    }
    if (q < end || q == sizeBegin) {
        if (q == sizeBegin && q == end)
            *reason = QStringLiteral("the size is missing");
        else
            *reason = QStringLiteral("'%1' is not a decimal size")
                          .arg(QString::fromLatin1(QByteArrayView(sizeBegin, end - sizeBegin)));
        return LineKind::Malformed;
    }
    if (sizeValue > 0xffffffffu) {
        *reason = QStringLiteral("size %1 is too large").arg(sizeValue);
        return LineKind::Malformed;
    }
    // Valgrind may report an instruction of size 0 (no bytes fetched); a data access of 0 bytes
    // is no access.
    if (sizeValue == 0 && kind != LineKind::Instruction) {
        *reason = QStringLiteral("size 0 (an access covers at least 1 byte)");
        return LineKind::Malformed;
    }
    *size = sizeValue;
    return kind;
}

} // namespace

LackeyParser::LackeyParser(QString sourceName, AccessSink &sink, const ImportOptions &options)
    : m_source(std::move(sourceName))
    , m_sink(sink)
    , m_nextTransition(options.firstTransition.value)
    , m_withExecute(options.withExecute)
    , m_verbose(sink)
{ }

bool LackeyParser::fail(const QString &reason)
{
    m_error = m_source + QStringLiteral(": ") + reason;
    return false;
}

bool LackeyParser::failAt(qint64 line, const QString &reason)
{
    m_error = m_source + u':' + QString::number(line) + QStringLiteral(": ") + reason;
    return false;
}

bool LackeyParser::isTraceLine(QByteArrayView line)
{
    std::uint64_t address;
    std::uint64_t size;
    QString reason;
    const LineKind kind = classify(line.data(), line.data() + line.size(), &address, &size, &reason);
    return kind == LineKind::Instruction || kind == LineKind::Load || kind == LineKind::Store
        || kind == LineKind::Modify;
}

bool LackeyParser::isValgrindMessage(QByteArrayView line)
{
    return startsWithValgrindPrefix(line.data(), line.data() + line.size());
}

void LackeyParser::emitValgrindMessage(QByteArrayView line)
{
    ++m_valgrindMessages;
    // Only valgrind's own lines are looked into, and they are few: the cost stays off the hot path.
    if (line.contains("Lackey, an example Valgrind tool"))
        m_sawHeader = true;
    else if (line.contains("Exit code:"))
        m_sawSummary = true;
    else if (line.contains("summarise_context("))
        m_continuationLine = m_line + 1;
    m_verbose.handleMessage(line, Transition { m_nextTransition });
    if (m_messageHandler)
        m_messageHandler(line);
}

// One complete line. *stopBefore is set (and nothing counted) when the line would go past the
// instruction limit.
bool LackeyParser::handleLine(const char *begin, const char *end, bool *stopBefore)
{
    std::uint64_t address = 0;
    std::uint64_t size = 0;
    QString reason;
    const LineKind kind = classify(begin, end, &address, &size, &reason);
    return handleClassified(int(kind), begin, end, address, size, reason, stopBefore);
}

inline bool LackeyParser::handleClassified(int kindCode, const char *begin, const char *end, std::uint64_t address,
    std::uint64_t size, const QString &reason, bool *stopBefore)
{
    const auto kind = LineKind(kindCode);
    const bool newInstruction
        = kind == LineKind::Instruction || (!m_sawInstruction && kind >= LineKind::Load && kind <= LineKind::Modify);
    if (newInstruction && m_instructionLimit >= 0 && m_instructions >= m_instructionLimit) {
        *stopBefore = true;
        return true;
    }
    ++m_line;
    switch (kind) {
    case LineKind::Instruction:
        m_sawInstruction = true;
        m_currentTransition = m_nextTransition++;
        ++m_instructions;
        if (m_instructions <= m_skippedInstructions)
            return true; // before the window
        // The PC of every transition, whether or not it is also stored as an execute access. No
        // instruction is longer than 255 bytes: a larger size is a broken line's, stored as unknown.
        if (!m_sink.addInstruction(
                Transition { m_currentTransition }, Address { address }, size <= 0xff ? quint8(size) : quint8(0)))
            return failAt(m_line, m_sink.errorString());
        if (m_withExecute) {
            if (size == 0) {
                ++m_zeroSizeInstructions;
                return true;
            }
            m_access.transition = Transition { m_currentTransition };
            m_access.operation = Operation::Execute;
            m_access.physical = Address { address };
            m_access.linear = Address { address };
            m_access.size = std::uint32_t(size);
            if (!m_sink.add(m_access))
                return failAt(m_line, m_sink.errorString());
            ++m_executes;
        }
        return true;
    case LineKind::Load:
    case LineKind::Store:
    case LineKind::Modify:
        if (!m_sawInstruction) {
            m_currentTransition = m_nextTransition++;
            ++m_instructions;
        }
        if (m_instructions <= m_skippedInstructions)
            return true; // the instruction is before the window
        m_access.transition = Transition { m_currentTransition };
        m_access.physical = Address { address };
        m_access.linear = Address { address };
        m_access.size = std::uint32_t(size);
        if (kind != LineKind::Store) {
            m_access.operation = Operation::Read;
            if (!m_sink.add(m_access))
                return failAt(m_line, m_sink.errorString());
            ++m_reads;
        }
        if (kind != LineKind::Load) {
            m_access.operation = Operation::Write;
            if (!m_sink.add(m_access))
                return failAt(m_line, m_sink.errorString());
            ++m_writes;
        }
        return true;
    case LineKind::ValgrindMessage:
        emitValgrindMessage(QByteArrayView(begin, end));
        return true;
    case LineKind::Blank:
        return true;
    case LineKind::Other:
        // Valgrind's lines without its prefix: --trace-syscalls output, and the second line of a
        // -v -v CFI message.
        if (QByteArrayView(begin, end).startsWith("SYSCALL[")) {
            // Valgrind prints a syscall before it runs and its result after; a message it writes
            // meanwhile (loading an object for an mmap) follows on the same line, its result on
            // a line of its own (" --> [pre-success] Success(0x...)").
            const char *message = embeddedValgrindPrefix(begin, end);
            ++m_valgrindMessages;
            m_verbose.handleSyscall(QByteArrayView(begin, message), Transition { m_nextTransition });
            if (message != end)
                emitValgrindMessage(QByteArrayView(message, end));
            return true;
        }
        if (isSyscallResult(begin, end)) {
            ++m_valgrindMessages;
            return true;
        }
        if (m_line == m_continuationLine) {
            emitValgrindMessage(QByteArrayView(begin, end));
            return true;
        }
        ++m_otherLines;
        return true;
    case LineKind::Malformed:
        return failAt(
            m_line, QStringLiteral("malformed Lackey line %1: %2").arg(quoted(QByteArrayView(begin, end)), reason));
    }
    return true;
}

qsizetype LackeyParser::parse(const char *data, qsizetype size)
{
    if (m_stopped)
        return 0;
    // Text never holds a NUL byte: one memchr per buffer finds binary input before any of it is
    // taken for lines.
    const auto *nul = static_cast<const char *>(std::memchr(data, 0, size_t(size)));
    const qsizetype scanEnd = nul ? nul - data : size;
    static const QString noReason;
    qsizetype pos = 0;
    for (;;) {
        // The fast path: a line exactly as Lackey writes it ("I  %08lx,%lu", " L %08lx,%lu"), read in
        // one pass that also finds its end. Anything else (valgrind's messages, program output,
        // stray spaces, CRLF, errors) takes the general path below. The fast path only runs with
        // room for its longest line ahead (3 + 16 + 1 + 10 + 1 bytes), so its loops need no bounds.
        if (scanEnd - pos >= 32) {
            const char *p = data + pos;
            LineKind kind = LineKind::Other;
            if (p[0] == 'I' && p[1] == ' ' && p[2] == ' ')
                kind = LineKind::Instruction;
            else if (p[0] == ' ' && p[2] == ' ')
                kind = p[1] == 'L' ? LineKind::Load
                    : p[1] == 'S'  ? LineKind::Store
                    : p[1] == 'M'  ? LineKind::Modify
                                   : kind;
            if (kind != LineKind::Other) {
                const char *q = p + 3;
                const char *const hexBegin = q;
                std::uint64_t address = 0;
                int digit;
                while (q - hexBegin < 16 && (digit = hexDigitValue(*q)) >= 0) {
                    address = (address << 4) | std::uint64_t(digit);
                    ++q;
                }
                if (q != hexBegin && *q == ',') {
                    const char *const sizeBegin = ++q;
                    std::uint64_t size = 0;
                    while (q - sizeBegin < 10 && *q >= '0' && *q <= '9') {
                        size = size * 10 + std::uint64_t(*q - '0');
                        ++q;
                    }
                    if (q != sizeBegin && *q == '\n' && size <= 0xffffffffu
                        && (size > 0 || kind == LineKind::Instruction)) {
                        bool stopBefore = false;
                        if (!handleClassified(int(kind), p, q, address, size, noReason, &stopBefore))
                            return -1;
                        if (stopBefore) {
                            m_stopped = true;
                            return pos;
                        }
                        pos = q - data + 1;
                        continue;
                    }
                }
            }
        }
        const auto *newline = static_cast<const char *>(std::memchr(data + pos, '\n', size_t(scanEnd - pos)));
        if (!newline)
            break;
        const qsizetype lineEnd = newline - data;
        if (lineEnd - pos > maxLineLength) {
            failAt(m_line + 1,
                QStringLiteral("line longer than %1 bytes: binary data, not a Lackey trace").arg(maxLineLength));
            return -1;
        }
        bool stopBefore = false;
        if (!handleLine(data + pos, data + lineEnd, &stopBefore))
            return -1;
        if (stopBefore) {
            m_stopped = true;
            return pos;
        }
        pos = lineEnd + 1;
    }
    if (nul) {
        failAt(m_line + 1, QStringLiteral("binary data (a NUL byte), not a Lackey trace"));
        return -1;
    }
    if (size - pos > maxLineLength) {
        failAt(m_line + 1,
            QStringLiteral("line longer than %1 bytes: binary data, not a Lackey trace").arg(maxLineLength));
        return -1;
    }
    return pos;
}

bool LackeyParser::finish(QByteArrayView rest, bool inputCut)
{
    const auto flushVerbose = qScopeGuard([this] { m_verbose.finish(); });
    // One warning per early end is enough: a cut line already says the trace ends early.
    bool warnedEarlyEnd = inputCut;
    if (!rest.isEmpty() && !m_stopped) {
        if (rest.contains('\0'))
            return failAt(m_line + 1, QStringLiteral("binary data (a NUL byte), not a Lackey trace"));
        if (rest.size() > maxLineLength)
            return failAt(m_line + 1,
                QStringLiteral("line longer than %1 bytes: binary data, not a Lackey trace").arg(maxLineLength));
        std::uint64_t address;
        std::uint64_t size;
        QString reason;
        const LineKind kind = classify(rest.data(), rest.data() + rest.size(), &address, &size, &reason);
        if (inputCut) {
            if (kind != LineKind::Blank)
                ++m_cutLines;
        } else if (kind == LineKind::Malformed) {
            ++m_cutLines;
            warnedEarlyEnd = true;
            m_warnings << QStringLiteral("%1:%2: the last line is cut (%3): the trace ends early (was the tracer "
                                         "killed?); imported the complete lines before it")
                              .arg(m_source, QString::number(m_line + 1), quoted(rest));
        } else {
            bool stopBefore = false;
            if (!handleLine(rest.data(), rest.data() + rest.size(), &stopBefore))
                return false;
            if (stopBefore) {
                m_stopped = true;
            } else if (kind <= LineKind::Modify) {
                m_warnings << QStringLiteral("%1:%2: no newline at the end of the file: the last line was imported, "
                                             "but it may be cut")
                                  .arg(m_source, QString::number(m_line));
            }
        }
    }
    if (m_sawHeader && !m_sawSummary && !m_stopped && !warnedEarlyEnd)
        m_warnings << QStringLiteral("%1: valgrind's summary (\"Exit code:\") is missing at the end: the trace ends "
                                     "early (was the program killed?); imported what it holds")
                          .arg(m_source);
    return true;
}

void LackeyParser::fillReport(ImportReport *report) const
{
    report->linesRead = m_line;
    report->reads = m_reads;
    report->writes = m_writes;
    report->executes = m_executes;
    report->accesses = m_reads + m_writes + m_executes;
    report->instructions = m_instructions - std::min(m_instructions, m_skippedInstructions);
    report->nextTransition = Transition { m_nextTransition };
    report->skipped.clear();
    if (m_valgrindMessages > 0)
        report->skipped[QStringLiteral("valgrind messages")] = m_valgrindMessages;
    if (m_otherLines > 0)
        report->skipped[QStringLiteral("other lines (program output)")] = m_otherLines;
    if (m_cutLines > 0)
        report->skipped[QStringLiteral("cut last lines")] = m_cutLines;
    if (m_skippedInstructions > 0 && m_instructions > 0)
        report->skipped[beforeWindowKind()] = std::min(m_instructions, m_skippedInstructions);
    if (m_zeroSizeInstructions > 0)
        report->skipped[QStringLiteral("instructions of size 0 (no execute access)")] = m_zeroSizeInstructions;
    report->warnings = m_warnings;
}

} // namespace memhist
