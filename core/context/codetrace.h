// SPDX-License-Identifier: MIT
// The packed store of the PC of every transition (tables code_runs and code_trace, see
// contextschema.h): the executed instructions cut into straight-line runs, each distinct run kept
// once, and the trace as a sequence of (run id, instruction count) pairs.
//
// A run is a sequence of instructions in which each starts where the previous one ends
// (pc[i + 1] == pc[i] + size[i]) at consecutive transitions. A run ends at a jump, at a gap in the
// transitions, after an instruction of unknown size (0), or after maxRunLength instructions. Runs
// are told apart by their first PC and their sizes; a run that is a prefix of a stored one is
// stored as that one with a smaller count, and a stored run that is a prefix of a new one grows
// into it, so no stored run is ever a prefix of another with the same PC.
//
// Both halves are pure (no SQL, no I/O): ContextCollector stores what the encoder emits and
// ContextReader decodes what it reads.
#pragma once

#include "core/model/types.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memhist {

// A row of code_runs: the first PC and one byte per instruction, its size in bytes. The i-th PC
// is pc + sizes[0] + ... + sizes[i - 1] (modulo 2^64).
struct CodeRun
{
    Address pc;
    QByteArray sizes;

    friend bool operator==(const CodeRun &, const CodeRun &) = default;
};

// A row of code_trace: the pairs that cover the transitions from `first` on.
struct CodeTraceRow
{
    Transition first;
    QByteArray runs; // varint pairs (run id, count), see CodeTraceDecoder

    friend bool operator==(const CodeTraceRow &, const CodeTraceRow &) = default;
};

// One pair: `count` consecutive transitions that executed the first `count` instructions of run
// `run` (an id of code_runs, 1-based), or whose PC is unknown when `run` is 0.
struct CodeTracePair
{
    std::uint64_t run = 0;
    std::uint64_t count = 0;

    friend bool operator==(const CodeTracePair &, const CodeTracePair &) = default;
};

// The id of the pairs whose PCs are unknown.
inline constexpr std::uint64_t unknownCodeRun = 0;

// The PC of instruction `index` of `run`; `index` must be < run.sizes.size().
Address pcInRun(const CodeRun &run, qsizetype index);

class CodeTraceEncoder
{
public:
    // A row holds at most this many pairs (the design's bound: a row decodes in microseconds).
    static constexpr int pairsPerRow = 1024;
    // Longer straight stretches are cut, so that finding the i-th PC of a run stays short.
    static constexpr int maxRunLength = 4096;

    // Feeds the instruction executed at `transition`, in trace order. `size` 0 = unknown (the run
    // ends after it). Transitions must increase; those skipped are stored as unknown PCs. False
    // (and errorString()) when `transition` does not come after the previous one or is at or
    // beyond 2^63; the encoder is then unusable.
    bool add(Transition transition, Address pc, std::uint8_t size)
    {
        if (m_runOpen && transition.value == m_nextTransition && pc.value == m_nextPc
            && m_runSizes.size() < std::size_t(maxRunLength)) {
            m_runSizes.push_back(char(size));
            m_nextPc = pc.value + size;
            m_runOpen = size != 0;
            ++m_nextTransition;
            return true;
        }
        return addSlowly(transition, pc, size);
    }

    // Ends the last run and moves the last, partly filled row to the completed rows. Call once,
    // after the last add().
    void finish();

    // The rows completed since the last call (every row holds pairsPerRow pairs except the last
    // one finish() completes). The caller stores them: the encoder keeps no pairs beyond its
    // current row, so its memory is bounded by the distinct runs, not by the trace's length.
    std::vector<CodeTraceRow> takeRows();
    std::size_t completedRowCount() const { return m_completedRows.size(); }

    // The distinct runs so far; run id = index + 1. Runs may still grow until finish().
    const std::vector<CodeRun> &runs() const { return m_runs; }
    // The first transition at which each run executed (parallel to runs()), for attributing a
    // PC to the module loaded at that time.
    const std::vector<Transition> &firstExecutions() const { return m_firstExecution; }

    bool isEmpty() const { return !m_started; }
    Transition firstTransition() const { return Transition { m_firstTransition }; }
    // The transition after the last instruction fed.
    Transition endTransition() const { return Transition { m_nextTransition }; }
    qint64 instructions() const { return m_instructions + qint64(m_runSizes.size()); }
    const QString &errorString() const { return m_error; }

private:
    bool addSlowly(Transition transition, Address pc, std::uint8_t size);
    void endRun();
    std::uint64_t runIdFor(std::uint64_t pc, std::string_view sizes);
    void emitPair(std::uint64_t run, std::uint64_t count);

    // The run being read: its first PC and the sizes so far; open while the next instruction may
    // continue it.
    bool m_runOpen = false;
    std::uint64_t m_runPc = 0;
    std::uint64_t m_runFirstTransition = 0;
    std::string m_runSizes;
    std::uint64_t m_nextPc = 0;
    std::uint64_t m_nextTransition = 0;

    bool m_started = false;
    bool m_failed = false;
    std::uint64_t m_firstTransition = 0;
    qint64 m_instructions = 0; // in ended runs
    QString m_error;

    std::vector<CodeRun> m_runs;
    std::vector<Transition> m_firstExecution;
    std::vector<std::uint32_t> m_nextRunAtSamePc; // index + 1 of the next run with the same PC; 0 = none
    QHash<std::uint64_t, std::uint32_t> m_firstRunAtPc; // PC -> index + 1

    CodeTraceRow m_row; // being filled
    int m_rowPairs = 0;
    std::uint64_t m_pairStart = 0; // the transition the next pair starts at
    std::vector<CodeTraceRow> m_completedRows;
};

// Reads the pairs of one code_trace row. A damaged blob (a varint cut short or longer than 64
// bits, a count of 0) ends the pairs early and sets isDamaged(): readers of foreign or broken
// files get "unknown", never a crash.
class CodeTraceDecoder
{
public:
    explicit CodeTraceDecoder(QByteArrayView runs)
        : m_data(runs)
    { }

    // The next pair; false at the end of the row or at damage. Inline: readers decode rows of a
    // thousand pairs per lookup.
    bool next(CodeTracePair *pair)
    {
        if (m_damaged || m_position == m_data.size())
            return false;
        CodeTracePair read;
        if (!readVarint(&read.run) || !readVarint(&read.count) || read.count == 0) {
            m_damaged = true;
            return false;
        }
        *pair = read;
        return true;
    }
    bool isDamaged() const { return m_damaged; }
    bool atEnd() const { return m_damaged || m_position == m_data.size(); }

    // Every pair of `runs`, in order (up to the damage, if any).
    static std::vector<CodeTracePair> decodeAll(QByteArrayView runs, bool *damaged = nullptr);

private:
    bool readVarint(std::uint64_t *value)
    {
        // Most varints of a row are one byte (counts, and the ids of the first 127 runs).
        if (m_position < m_data.size() && static_cast<unsigned char>(m_data[m_position]) < 0x80) {
            *value = static_cast<unsigned char>(m_data[m_position++]);
            return true;
        }
        return readLongVarint(value);
    }
    bool readLongVarint(std::uint64_t *value);

    QByteArrayView m_data;
    qsizetype m_position = 0;
    bool m_damaged = false;
};

// Appends `value` as an unsigned LEB128 varint (7 bits per byte, low bits first).
void appendVarint(QByteArray &out, std::uint64_t value);

} // namespace memhist
