// SPDX-License-Identifier: MIT
// A deterministic, synthetic memory-access stream shaped like a small x86-64 Linux PIE process:
// a busy stack, strided sweeps over a heap array, random pointer chasing and one hot loop counter.
// Generated lazily, one instruction at a time, so that a whole run never sits in memory: every
// benchmark phase regenerates the same stream from the same seed.
//
// Each access carries the bytes it moved, as a recording has them: a read the bytes memory held, a
// write the bytes it stored and the ones it overwrote. The generator keeps the memory it describes
// (about 24 MiB: the stack, the array, one version byte per list node), so the values agree with
// each other: a read returns what the last write stored, a write's before bytes are what the last
// access saw. What is stored is a mixture: zeros, small integers, pointers (return addresses into
// the code, list nodes pointing to list nodes, the heap and the stack), text bytes; the loop counter
// counts, and a read-modify-write adds to what it read.
#pragma once

#include "core/model/types.h"
#include "core/values/accessvalue.h"

#include <QtGlobal>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace memhist::bench {

// splitmix64: tiny, fast, and the same sequence on every platform (unlike std::uniform_*).
class SplitMix64
{
public:
    explicit SplitMix64(std::uint64_t seed)
        : m_state(seed)
    { }

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, bound), bound > 0 (Lemire's multiply-shift; the bias is negligible here).
    std::uint64_t below(std::uint64_t bound)
    {
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
    }
    // True with probability perMille / 1000.
    bool chance(unsigned perMille) { return below(1000) < perMille; }

private:
    std::uint64_t m_state;
};

// The process layout the stream lives in.
namespace layout {
inline constexpr std::uint64_t stackTop = 0x7ffd'4c3b'a000ull; // highest stack address + 1
inline constexpr std::uint64_t loopCounter = stackTop - 0x58; // 8 bytes in main()'s frame
inline constexpr std::uint64_t arrayBase = 0x5555'5560'02a0ull; // a 16 MiB malloc'd block
inline constexpr std::uint64_t arrayBytes = 16ull << 20;
inline constexpr std::uint64_t pointerBase = 0x5555'5660'1000ull; // a 64 MiB pool of list nodes
inline constexpr std::uint64_t pointerBytes = 64ull << 20;
inline constexpr std::uint64_t codeBase = 0x5555'5555'4000ull; // the program's text: return addresses
inline constexpr std::uint64_t codeBytes = 0x2'0000;
} // namespace layout

// What a stream turned out to contain; printed so that the mix can be checked against its brief.
struct StreamMix
{
    qint64 instructions = 0;
    qint64 accesses = 0;
    qint64 writes = 0;
    qint64 silentInstructions = 0; // instructions without a data access
    qint64 stack = 0; // accesses to the stack, the loop counter excluded
    qint64 counter = 0;
    qint64 array = 0;
    qint64 pointer = 0;
    int maxCallDepth = 0;
    // What the writes stored (with values): by kind, and the value bytes (before bytes apart).
    qint64 zeroWrites = 0;
    qint64 smallIntegerWrites = 0; // small integers, the loop counter and read-modify-writes included
    qint64 pointerWrites = 0;
    qint64 textWrites = 0;
    qint64 valueBytes = 0;
    qint64 beforeBytes = 0;
};

class AccessStreamGenerator
{
public:
    // Produces exactly accessCount accesses (the last instruction may be cut short); withValues
    // false: the stream of earlier benchmarks, the same accesses without their bytes.
    AccessStreamGenerator(std::uint64_t seed, qint64 accessCount, bool withValues = true);

    // The next access in trace order (rowId 0, linear == physical), or false at the end.
    bool next(Access *access)
    {
        if (m_mix.accesses >= m_accessCount)
            return false;
        if (m_taken == m_pending)
            generateInstruction(); // always leaves at least one access pending
        const Region region = m_regions[m_taken];
        *access = m_buffer[m_taken++];
        count(*access, region);
        return true;
    }

    bool hasValues() const { return m_withValues; }
    // The bytes of the access next() returned last (valid until the next call; empty without values).
    AccessValueView value() const
    {
        if (!m_withValues || m_taken == 0)
            return {};
        const int index = m_taken - 1;
        const auto size = qsizetype(m_buffer[std::size_t(index)].size);
        const bool write = m_buffer[std::size_t(index)].operation == Operation::Write;
        return { QByteArrayView(m_bytes[std::size_t(index)].data(), size),
            write ? QByteArrayView(m_before[std::size_t(index)].data(), size) : QByteArrayView(), std::nullopt };
    }

    // Counts so far (complete once next() has returned false).
    const StreamMix &mix() const { return m_mix; }

private:
    enum class Region : std::uint8_t {
        Stack,
        Counter,
        Array,
        Pointer,
    };

    // What a write stores, when it does not derive it from what it read.
    enum class ValueKind : std::uint8_t {
        Zero,
        SmallInteger,
        Pointer, // into the heap, the list nodes or the stack
        CodePointer, // a return address
        Text,
    };

    struct Sweep
    {
        std::uint64_t offset = 0; // next element, from arrayBase
        std::uint64_t stride = 4;
        std::uint32_t size = 4;
        qint64 remaining = 0;
        bool stores = false;
    };

    void generateInstruction();
    // Queues an access. With values, a write stores `kind` (none: one chosen for its size by
    // writeKind), or with `increment` what memory held plus that much (the loop counter, a
    // read-modify-write); a list node's write stores the node's next version whatever is asked.
    void push(Region region, std::uint64_t address, std::uint32_t size, Operation operation,
        std::optional<ValueKind> kind = std::nullopt, std::optional<std::uint64_t> increment = std::nullopt);
    void pushValue(Region region, std::uint64_t address, std::uint32_t size, Operation operation,
        std::optional<ValueKind> kind, std::optional<std::uint64_t> increment);
    // The memory the values come from: the bytes at `address` (stack and array), or a list node's
    // 8 bytes, which follow from its index and how often it was written.
    void load(Region region, std::uint64_t address, std::uint32_t size, char *out) const;
    void store(Region region, std::uint64_t address, std::uint32_t size, const char *bytes);
    void makeValue(ValueKind kind, std::uint32_t size, char *out);
    ValueKind writeKind(std::uint32_t size);
    // What `add [mem], reg` adds: a small step.
    std::uint64_t readModifyWriteIncrement() { return 1 + m_valueRandom.below(16); }
    void count(const Access &access, Region region);
    void callOrReturn();
    void loopCounterInstruction();
    void dataAccess(bool readModifyWrite);
    void stackAccess(bool readModifyWrite);
    void arrayAccess(bool readModifyWrite);
    void pointerAccess(bool readModifyWrite);
    void startSweep();

    SplitMix64 m_random;
    // The values' own random numbers: the accesses are the same with or without values.
    SplitMix64 m_valueRandom;
    qint64 m_accessCount;
    bool m_withValues;
    std::uint64_t m_instruction = 0;
    // Accesses of the current instruction: at most three (a read-modify-write and one more).
    std::array<Access, 4> m_buffer {};
    std::array<Region, 4> m_regions {};
    std::array<ValueKind, 4> m_kinds {}; // what each write stored, for the mix
    int m_pending = 0;
    int m_taken = 0;
    std::array<std::array<char, 8>, 4> m_bytes {};
    std::array<std::array<char, 8>, 4> m_before {};
    // The memory behind the values (with values only).
    std::vector<char> m_stackBytes; // the highest stackShadowBytes of the stack
    std::vector<char> m_arrayBytes;
    std::vector<std::uint8_t> m_nodeVersions; // writes to each 8-byte list node, modulo 256

    std::uint64_t m_stackPointer; // lowest byte of the current frame
    std::vector<std::uint32_t> m_frames; // sizes of the frames above main()'s, innermost last
    int m_untilCounter = 5;
    Sweep m_sweep;
    StreamMix m_mix;
};

} // namespace memhist::bench
