// SPDX-License-Identifier: MIT
// The parser of Tenet text traces (github.com/gaasedelen/tenet), fed with bytes rather than a file,
// as LackeyParser is: the importer reads the file (maybe gzipped) in pieces and hands them over.
//
// One line per executed instruction, made of comma-separated fields: register deltas
// `rip=0x140001000` and memory accesses `mr=0xADDR:HEXBYTES` (read), `mw=...` (write), `mrw=...`
// (read then write), whose size is the number of hex digits / 2. Blank lines are skipped; trailing
// blanks and CR are tolerated.
//
// Transitions: line k (0-based, blank lines aside) is transition firstTransition + k: the
// instruction at the program counter (rip, eip or pc) that line holds. A line's memory fields,
// though, are the effects of the instruction before it: the tracer writes each line after the
// instruction ran, with the program counter already moved on. The sample trace shows it: at
// rip=0x1400041a0 is a 5-byte call, and the next line carries mw=0x13ff28:a541004001000000, the
// return address 0x1400041a5 it pushed. So the memory fields of line k are stored at transition
// k - 1; those of the first line (effects of an instruction before the trace began) are stored at
// the first transition. Register values are not kept.
//
// With ImportOptions::withExecute, each line also gives an Execute access of 1 byte (the trace has
// no instruction lengths) at its program counter, at its own transition.
//
// Program context (AccessSink): the PC of transition k is the program counter of line k (a line
// without one, as a rep-prefixed instruction repeating, keeps the previous line's). The trace has
// no instruction lengths, so the size given with each PC is the distance to the next line's PC
// when that is 1..15 bytes (the longest x86 instruction), else 0 (unknown). That reproduces every
// PC exactly: a short forward jump merely continues a straight-line run as if it were an
// instruction that long. A PC is therefore handed over one line late, once the next line is read;
// the last one (with size 0) when the input ends. Only transitions inside the import window get
// one.
// Values: each memory field's bytes are the value of its access (addValue right after it; an mrw=
// field gives its bytes to both its read and its write). The size of an access is the number of
// bytes of its value, so the two cannot disagree; an odd number of hex digits is refused.
#pragma once

#include "core/importers/accesssink.h"
#include "core/importers/traceimporter.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>
#include <vector>

namespace memhist {

class TenetParser
{
public:
    // The longest line accepted: far above any instruction's register deltas and memory bytes (an
    // AVX-512 scatter writes 1 KiB); a longer line means binary data, and the bound keeps the
    // caller's buffer (and so memory) bounded whatever the input.
    static constexpr qsizetype maxLineLength = 64 << 10;

    // One memory field of a line (mr=, mw=, mrw=), as read before any access is stored.
    struct MemoryField
    {
        bool read = false;
        bool write = false;
        std::uint64_t address = 0;
        std::uint32_t size = 0;
        QByteArrayView hexBytes; // the field's 2 * size hex digits, in the line being parsed
    };

    // `sourceName` starts every message ("trace.log:12: ...").
    TenetParser(QString sourceName, AccessSink &sink, const ImportOptions &options);

    // Parses the complete lines ('\n'-terminated) at the start of [data, data + size) and returns
    // the number of bytes they span. The caller keeps the rest (an incomplete line) and passes it
    // again, followed by the next bytes. Returns -1 on an error (errorString() names the line and
    // the field): a malformed line, binary data (a NUL byte, or a line longer than maxLineLength),
    // or the sink's error. Every field of a line is checked before any of its accesses is stored.
    qsizetype parse(const char *data, qsizetype size);

    // The input has ended; `rest` is what followed its last newline. Without a newline the last
    // line may have been cut anywhere, even inside a field's bytes, where it still parses: it is
    // imported when it parses, with a warning that it may be cut, and dropped with a warning (and
    // counted as a cut line) when one of its fields is malformed. False on an error (binary data,
    // the sink's error).
    bool finish(QByteArrayView rest);

    const QString &errorString() const { return m_error; }
    qint64 lineNumber() const { return m_lineNumber; }
    qint64 instructions() const { return m_instructions; }
    // True once a line at or after the import window's end was met: parse() stopped before it and
    // the rest of the input is not read.
    bool stopped() const { return m_stopped; }
    // Fills the counts, the skipped lines, the warnings and the transition after the last.
    void fillReport(ImportReport *report) const;

    // For format recognition: is `line` (without its newline) a Tenet line, i.e. comma-separated
    // `name=0xHEX` fields (memory fields with their `:HEXBYTES`), at least one?
    static bool isTenetLine(QByteArrayView line);

private:
    // One line without its '\n'. False + m_error on a malformed line or a sink error; *malformed
    // tells the two apart.
    bool handleLine(QByteArrayView line, bool *malformed);
    bool add();
    // add() and the access's value, from the field's hex digits.
    bool addWithValue(const MemoryField &memory);
    // Hands over the PC waiting for the next line's, with `size`. False + m_error on a sink error.
    bool flushPendingPc(std::uint8_t size);
    bool failAt(qint64 line, const QString &reason);

    QString m_source;
    AccessSink &m_sink;
    std::uint64_t m_first;
    bool m_withExecute;
    TransitionWindow m_window;
    bool m_stopped = false;
    qint64 m_lineNumber = 0;
    qint64 m_instructions = 0;
    qint64 m_reads = 0;
    qint64 m_writes = 0;
    qint64 m_executes = 0;
    qint64 m_cutLines = 0;
    qint64 m_pcs = 0; // handed to the sink
    qint64 m_values = 0;
    std::uint64_t m_pc = 0;
    bool m_knowsPc = false;
    // The PC of the last line, waiting for the next line's to get its size.
    bool m_hasPendingPc = false;
    std::uint64_t m_pendingPc = 0;
    std::uint64_t m_pendingTransition = 0;
    Access m_access;
    QByteArray m_value; // decoded bytes of the current memory field
    std::vector<MemoryField> m_memory;
    QStringList m_warnings;
    QString m_error;
};

} // namespace memhist
