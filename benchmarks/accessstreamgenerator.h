// SPDX-License-Identifier: MIT
// A deterministic, synthetic memory-access stream shaped like a small x86-64 Linux PIE process:
// a busy stack, strided sweeps over a heap array, random pointer chasing and one hot loop counter.
// Generated lazily, one instruction at a time, so that a whole run never sits in memory: every
// benchmark phase regenerates the same stream from the same seed.
#pragma once

#include "core/model/types.h"

#include <QtGlobal>
#include <array>
#include <cstdint>
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
};

class AccessStreamGenerator
{
public:
    // Produces exactly accessCount accesses (the last instruction may be cut short).
    AccessStreamGenerator(std::uint64_t seed, qint64 accessCount);

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

    // Counts so far (complete once next() has returned false).
    const StreamMix &mix() const { return m_mix; }

private:
    enum class Region : std::uint8_t {
        Stack,
        Counter,
        Array,
        Pointer,
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
    void push(Region region, std::uint64_t address, std::uint32_t size, Operation operation);
    void count(const Access &access, Region region);
    void callOrReturn();
    void loopCounterInstruction();
    void dataAccess(bool readModifyWrite);
    void stackAccess(bool readModifyWrite);
    void arrayAccess(bool readModifyWrite);
    void pointerAccess(bool readModifyWrite);
    void startSweep();

    SplitMix64 m_random;
    qint64 m_accessCount;
    std::uint64_t m_instruction = 0;
    // Accesses of the current instruction: at most three (a read-modify-write and one more).
    std::array<Access, 4> m_buffer {};
    std::array<Region, 4> m_regions {};
    int m_pending = 0;
    int m_taken = 0;

    std::uint64_t m_stackPointer; // lowest byte of the current frame
    std::vector<std::uint32_t> m_frames; // sizes of the frames above main()'s, innermost last
    int m_untilCounter = 5;
    Sweep m_sweep;
    StreamMix m_mix;
};

} // namespace memhist::bench
