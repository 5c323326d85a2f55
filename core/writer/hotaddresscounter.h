// SPDX-License-Identifier: MIT
// Notices, while accesses stream in, that one address has been accessed so often in the current
// slice that its chunk would exceed the cap, so the writer can close the slice in time instead of
// discovering it when the slice is planned (which would cost a re-plan).
#pragma once

#include <array>
#include <cstdint>

namespace memhist {

class HotAddressCounter
{
public:
    explicit HotAddressCounter(std::uint32_t cap)
        : m_cap(cap)
    {
        clear();
    }

    // Counts one access starting at `address` with `operation`; true when this address now has
    // more than `cap` accesses in the slice. Direct-mapped: a colliding address evicts the other
    // and restarts its count, so this can only under-count. The slice planner's exact check is the
    // safety net; this only has to catch the usual hot spot (a loop counter) cheaply.
    bool add(std::uint64_t address, std::uint8_t operation)
    {
        const std::uint64_t key = address ^ (std::uint64_t(operation) << 61);
        Slot &slot = m_slots[(key * 0x9E3779B97F4A7C15ull) >> (64 - slotBits)];
        if (slot.key != key || slot.count == 0) {
            slot.key = key;
            slot.count = 0;
        }
        return ++slot.count > m_cap;
    }

    void clear() { m_slots.fill(Slot {}); }

private:
    static constexpr int slotBits = 12;
    struct Slot
    {
        std::uint64_t key = 0;
        std::uint32_t count = 0;
    };
    std::array<Slot, std::size_t(1) << slotBits> m_slots;
    std::uint32_t m_cap;
};

} // namespace memhist
