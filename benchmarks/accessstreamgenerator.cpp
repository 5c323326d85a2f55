// SPDX-License-Identifier: MIT
#include "accessstreamgenerator.h"

#include <algorithm>
#include <cstring>

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

// The values. The stack's top bytes are kept (the deepest call chain uses under 50 KiB of them).
constexpr std::uint64_t stackShadowBytes = 128 << 10;
constexpr std::uint64_t stackShadowBase = layout::stackTop - stackShadowBytes;
constexpr std::uint64_t nodeCount = layout::pointerBytes / 8;
constexpr unsigned nullNodePerMille = 250; // of list nodes' contents: the end of a list
// Letters in about their English frequency, and spaces: the text bytes.
constexpr char textBytes[] = "eeeeeetttttaaaaooooiiiinnnnsssshhhrrrdddlllcuumwfgypb          ";

// A list node's 8 bytes after its `version`-th write: a pointer to another node, or null.
std::uint64_t nodeValue(std::uint64_t node, std::uint8_t version)
{
    SplitMix64 hash(node << 8 | version);
    const std::uint64_t mixed = hash.next();
    if (mixed % 1000 < nullNodePerMille)
        return 0;
    return layout::pointerBase + 8 * ((mixed >> 16) % nodeCount);
}

std::uint64_t littleEndian(const char *bytes, std::uint32_t size)
{
    std::uint64_t value = 0;
    for (std::uint32_t i = size; i-- > 0;)
        value = value << 8 | std::uint8_t(bytes[i]);
    return value;
}

void putLittleEndian(std::uint64_t value, std::uint32_t size, char *out)
{
    for (std::uint32_t i = 0; i < size; ++i, value >>= 8)
        out[i] = char(value & 0xff);
}

} // namespace

AccessStreamGenerator::AccessStreamGenerator(std::uint64_t seed, qint64 accessCount, bool withValues)
    : m_random(seed)
    , m_valueRandom(seed ^ 0x7661'6c75'6573'2121ull) // "values!!"
    , m_accessCount(accessCount)
    , m_withValues(withValues)
    , m_stackPointer(layout::stackTop - mainFrameBytes)
{
    m_frames.reserve(maxCallDepth);
    if (m_withValues) {
        // The stack starts zeroed, as a new process's does; the array holds the mixture a program
        // would have put there before the trace starts; list nodes start at version 0.
        m_stackBytes.assign(stackShadowBytes, 0);
        m_arrayBytes.resize(layout::arrayBytes);
        for (std::uint64_t offset = 0; offset < layout::arrayBytes; offset += 8)
            makeValue(writeKind(8), 8, m_arrayBytes.data() + offset);
        m_nodeVersions.assign(nodeCount, 0);
    }
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

void AccessStreamGenerator::push(Region region, std::uint64_t address, std::uint32_t size, Operation operation,
    std::optional<ValueKind> kind, std::optional<std::uint64_t> increment)
{
    Access &access = m_buffer[m_pending];
    access.transition = Transition { m_instruction };
    access.operation = operation;
    access.physical = Address { address };
    access.linear = Address { address }; // a user-space trace: virtual addresses in both columns
    access.size = size;
    m_regions[m_pending] = region;
    if (m_withValues)
        pushValue(region, address, size, operation, kind, increment);
    ++m_pending;
}

void AccessStreamGenerator::pushValue(Region region, std::uint64_t address, std::uint32_t size, Operation operation,
    std::optional<ValueKind> kind, std::optional<std::uint64_t> increment)
{
    const auto index = std::size_t(m_pending);
    char *bytes = m_bytes[index].data();
    if (operation != Operation::Write) {
        load(region, address, size, bytes);
        return;
    }
    load(region, address, size, m_before[index].data());
    if (region == Region::Pointer) {
        ++m_nodeVersions[(address - layout::pointerBase) / 8];
        load(region, address, size, bytes);
        m_kinds[index] = littleEndian(bytes, size) == 0 ? ValueKind::Zero : ValueKind::Pointer;
        return;
    }
    if (increment) {
        putLittleEndian(littleEndian(m_before[index].data(), size) + *increment, size, bytes);
        m_kinds[index] = ValueKind::SmallInteger;
    } else {
        m_kinds[index] = kind.value_or(writeKind(size));
        makeValue(m_kinds[index], size, bytes);
    }
    store(region, address, size, bytes);
}

void AccessStreamGenerator::load(Region region, std::uint64_t address, std::uint32_t size, char *out) const
{
    switch (region) {
    case Region::Stack:
    case Region::Counter:
        if (address >= stackShadowBase && address - stackShadowBase <= stackShadowBytes - size)
            std::memcpy(out, m_stackBytes.data() + (address - stackShadowBase), size);
        else
            std::memset(out, 0, size); // deeper than any call chain goes: not reached
        break;
    case Region::Array:
        std::memcpy(out, m_arrayBytes.data() + (address - layout::arrayBase), size);
        break;
    case Region::Pointer: {
        const std::uint64_t node = (address - layout::pointerBase) / 8;
        putLittleEndian(nodeValue(node, m_nodeVersions[node]), size, out);
        break;
    }
    }
}

void AccessStreamGenerator::store(Region region, std::uint64_t address, std::uint32_t size, const char *bytes)
{
    switch (region) {
    case Region::Stack:
    case Region::Counter:
        if (address >= stackShadowBase && address - stackShadowBase <= stackShadowBytes - size)
            std::memcpy(m_stackBytes.data() + (address - stackShadowBase), bytes, size);
        break;
    case Region::Array:
        std::memcpy(m_arrayBytes.data() + (address - layout::arrayBase), bytes, size);
        break;
    case Region::Pointer:
        break; // a node's bytes follow from its version
    }
}

AccessStreamGenerator::ValueKind AccessStreamGenerator::writeKind(std::uint32_t size)
{
    const std::uint64_t roll = m_valueRandom.below(1000);
    if (size == 1) // a char: text mostly
        return roll < 600 ? ValueKind::Text : roll < 800 ? ValueKind::SmallInteger : ValueKind::Zero;
    if (size == 8) // a long or a pointer
        return roll < 250 ? ValueKind::Zero
            : roll < 550  ? ValueKind::SmallInteger
            : roll < 850  ? ValueKind::Pointer
                          : ValueKind::Text;
    return roll < 300 ? ValueKind::Zero : roll < 850 ? ValueKind::SmallInteger : ValueKind::Text;
}

void AccessStreamGenerator::makeValue(ValueKind kind, std::uint32_t size, char *out)
{
    switch (kind) {
    case ValueKind::Zero:
        std::memset(out, 0, size);
        break;
    case ValueKind::SmallInteger:
        putLittleEndian(size == 1 ? m_valueRandom.below(100) : 1 + m_valueRandom.below(1000), size, out);
        break;
    case ValueKind::Pointer: {
        const std::uint64_t roll = m_valueRandom.below(3);
        const std::uint64_t pointer = roll == 0 ? layout::arrayBase + (m_valueRandom.below(layout::arrayBytes) & ~7ull)
            : roll == 1                         ? layout::pointerBase + 8 * m_valueRandom.below(nodeCount)
                                                : m_stackPointer + 8 * m_valueRandom.below(32);
        putLittleEndian(pointer, size, out);
        break;
    }
    case ValueKind::CodePointer:
        putLittleEndian(layout::codeBase + m_valueRandom.below(layout::codeBytes), size, out);
        break;
    case ValueKind::Text:
        for (std::uint32_t i = 0; i < size; ++i)
            out[i] = textBytes[m_valueRandom.below(sizeof textBytes - 1)];
        break;
    }
}

void AccessStreamGenerator::count(const Access &access, Region region)
{
    ++m_mix.accesses;
    if (m_withValues) {
        m_mix.valueBytes += access.size;
        if (access.operation == Operation::Write)
            m_mix.beforeBytes += access.size;
    }
    if (access.operation == Operation::Write) {
        ++m_mix.writes;
        if (m_withValues) {
            switch (m_kinds[std::size_t(m_taken - 1)]) {
            case ValueKind::Zero:
                ++m_mix.zeroWrites;
                break;
            case ValueKind::SmallInteger:
                ++m_mix.smallIntegerWrites;
                break;
            case ValueKind::Pointer:
            case ValueKind::CodePointer:
                ++m_mix.pointerWrites;
                break;
            case ValueKind::Text:
                ++m_mix.textWrites;
                break;
            }
        }
    }
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
        push(Region::Stack, m_stackPointer - 8, 8, Operation::Write, ValueKind::CodePointer);
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
        push(Region::Counter, layout::loopCounter, 8, Operation::Write, std::nullopt, 1);
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
        push(Region::Stack, address, size, Operation::Write, std::nullopt, readModifyWriteIncrement());
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
        push(Region::Array, address, m_sweep.size, Operation::Write, std::nullopt, readModifyWriteIncrement());
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
