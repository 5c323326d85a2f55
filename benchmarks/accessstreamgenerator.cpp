// SPDX-License-Identifier: MIT
#include "accessstreamgenerator.h"

#include <algorithm>

namespace memhist::bench {

namespace {

// Per-instruction odds, in per mille. Tuned so that the stream averages ~1.3 data accesses per
// instruction and ~30 % writes (the printed StreamMix shows what a run actually produced).
constexpr unsigned callOrReturnPerMille = 8; // the frame moves slowly
constexpr unsigned callPerMille = 480; // of calls and returns: a little under half, so depth stays moderate
constexpr int maxCallDepth = 48;
constexpr std::uint32_t mainFrameBytes = 0x100;

// An ordinary instruction touches 0, 1, 2 or 3 data locations.
constexpr unsigned noAccessPerMille = 250;
constexpr unsigned oneAccessPerMille = 300;
constexpr unsigned twoAccessesPerMille = 400; // the rest: three
constexpr unsigned readModifyWritePerMille = 250; // of pairs: `add [mem], reg` rather than two places

// Where an independent access goes.
constexpr unsigned stackPerMille = 550;
constexpr unsigned arrayPerMille = 300; // the rest: pointer chasing

constexpr unsigned stackWritePerMille = 300;
constexpr unsigned callerAreaPerMille = 150; // arguments and the caller's locals, above the frame
constexpr std::uint64_t callerAreaBytes = 2048;
constexpr unsigned counterWritePerMille = 400; // `add [counter], 1` rather than `cmp [counter], n`
constexpr unsigned storeSweepPerMille = 250; // memset/copy destinations rather than loads
constexpr unsigned pointerWritePerMille = 50;

} // namespace

AccessStreamGenerator::AccessStreamGenerator(std::uint64_t seed, qint64 accessCount)
    : m_random(seed)
    , m_accessCount(accessCount)
    , m_stackPointer(layout::stackTop - mainFrameBytes)
{
    m_frames.reserve(maxCallDepth);
    startSweep();
}

void AccessStreamGenerator::generateInstruction()
{
    m_pending = 0;
    m_taken = 0;
    while (m_pending == 0) {
        if (--m_untilCounter == 0) {
            loopCounterInstruction();
            m_untilCounter = 4 + int(m_random.below(3)); // every 4 to 6 instructions
        } else if (m_random.chance(callOrReturnPerMille)) {
            callOrReturn();
        } else {
            const std::uint64_t roll = m_random.below(1000);
            if (roll < noAccessPerMille) {
                // No data access: arithmetic, a branch, a register move.
            } else if (roll < noAccessPerMille + oneAccessPerMille) {
                dataAccess(false);
            } else if (roll < noAccessPerMille + oneAccessPerMille + twoAccessesPerMille) {
                if (m_random.chance(readModifyWritePerMille)) {
                    dataAccess(true);
                } else {
                    dataAccess(false);
                    dataAccess(false);
                }
            } else {
                dataAccess(true);
                dataAccess(false);
            }
        }
        if (m_pending == 0)
            ++m_mix.silentInstructions;
        ++m_instruction;
        m_mix.instructions = qint64(m_instruction);
    }
}

void AccessStreamGenerator::push(Region region, std::uint64_t address, std::uint32_t size, Operation operation)
{
    Access &access = m_buffer[m_pending];
    access.transition = Transition { m_instruction };
    access.operation = operation;
    access.physical = Address { address };
    access.linear = Address { address }; // a user-space trace: virtual addresses in both columns
    access.size = size;
    m_regions[m_pending] = region;
    ++m_pending;
}

void AccessStreamGenerator::count(const Access &access, Region region)
{
    ++m_mix.accesses;
    if (access.operation == Operation::Write)
        ++m_mix.writes;
    switch (region) {
    case Region::Stack:
        ++m_mix.stack;
        break;
    case Region::Counter:
        ++m_mix.counter;
        break;
    case Region::Array:
        ++m_mix.array;
        break;
    case Region::Pointer:
        ++m_mix.pointer;
        break;
    }
}

void AccessStreamGenerator::callOrReturn()
{
    const int depth = int(m_frames.size());
    const bool call = depth == 0 || (depth < maxCallDepth && m_random.chance(callPerMille));
    if (call) {
        // `call`: push the return address; the callee's frame (which holds it) becomes active.
        const auto frame = std::uint32_t(32 + 16 * m_random.below(60));
        push(Region::Stack, m_stackPointer - 8, 8, Operation::Write);
        m_stackPointer -= frame;
        m_frames.push_back(frame);
        m_mix.maxCallDepth = std::max(m_mix.maxCallDepth, depth + 1);
    } else {
        // `ret`: pop the return address, the caller's frame becomes active again.
        m_stackPointer += m_frames.back();
        m_frames.pop_back();
        push(Region::Stack, m_stackPointer - 8, 8, Operation::Read);
    }
}

void AccessStreamGenerator::loopCounterInstruction()
{
    push(Region::Counter, layout::loopCounter, 8, Operation::Read);
    if (m_random.chance(counterWritePerMille))
        push(Region::Counter, layout::loopCounter, 8, Operation::Write);
}

void AccessStreamGenerator::dataAccess(bool readModifyWrite)
{
    const std::uint64_t roll = m_random.below(1000);
    if (roll < stackPerMille)
        stackAccess(readModifyWrite);
    else if (roll < stackPerMille + arrayPerMille)
        arrayAccess(readModifyWrite);
    else
        pointerAccess(readModifyWrite);
}

void AccessStreamGenerator::stackAccess(bool readModifyWrite)
{
    static constexpr std::uint32_t sizes[] = { 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 1, 1, 2 };
    const std::uint32_t size = sizes[m_random.below(std::size(sizes))];
    const std::uint32_t frame = m_frames.empty() ? mainFrameBytes : m_frames.back();
    std::uint64_t offset
        = m_random.chance(callerAreaPerMille) ? frame + m_random.below(callerAreaBytes) : m_random.below(frame);
    std::uint64_t address = (m_stackPointer + offset) & ~std::uint64_t(size - 1);
    address = std::min(address, layout::stackTop - size);
    if (readModifyWrite) {
        push(Region::Stack, address, size, Operation::Read);
        push(Region::Stack, address, size, Operation::Write);
    } else {
        push(Region::Stack, address, size, m_random.chance(stackWritePerMille) ? Operation::Write : Operation::Read);
    }
}

void AccessStreamGenerator::arrayAccess(bool readModifyWrite)
{
    if (m_sweep.remaining == 0)
        startSweep();
    const std::uint64_t address = layout::arrayBase + m_sweep.offset;
    if (readModifyWrite) {
        push(Region::Array, address, m_sweep.size, Operation::Read);
        push(Region::Array, address, m_sweep.size, Operation::Write);
    } else {
        push(Region::Array, address, m_sweep.size, m_sweep.stores ? Operation::Write : Operation::Read);
    }
    m_sweep.offset += m_sweep.stride;
    --m_sweep.remaining;
}

void AccessStreamGenerator::startSweep()
{
    static constexpr std::uint64_t strides[] = { 4, 8, 16, 64 };
    m_sweep.stride = strides[m_random.below(std::size(strides))];
    m_sweep.size = (m_sweep.stride == 4 || m_random.chance(500)) ? 4 : 8;
    const auto wanted = qint64(1000 + m_random.below(7001)); // a few thousand elements
    const std::uint64_t elements = layout::arrayBytes / m_sweep.stride;
    const std::uint64_t start = m_random.below(elements);
    m_sweep.offset = start * m_sweep.stride;
    m_sweep.remaining = std::min(wanted, qint64(elements - start));
    m_sweep.stores = m_random.chance(storeSweepPerMille);
}

void AccessStreamGenerator::pointerAccess(bool readModifyWrite)
{
    const std::uint64_t address = layout::pointerBase + 8 * m_random.below(layout::pointerBytes / 8);
    if (readModifyWrite) {
        push(Region::Pointer, address, 8, Operation::Read);
        push(Region::Pointer, address, 8, Operation::Write);
    } else {
        push(Region::Pointer, address, 8, m_random.chance(pointerWritePerMille) ? Operation::Write : Operation::Read);
    }
}

} // namespace memhist::bench
