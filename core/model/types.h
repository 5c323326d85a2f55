// SPDX-License-Identifier: MIT
// The value types that travel through every layer: transitions, addresses, row ids and accesses.
#pragma once

#include <QFlags>
#include <QMetaType>
#include <compare>
#include <cstdint>
#include <optional>

namespace memhist {

// A 64-bit integer with a tag, so that a transition, an address and a row id cannot be swapped
// by accident (they are all 64-bit integers in the database).
template<typename Tag, typename Value> struct StrongInteger
{
    Value value = 0;

    constexpr StrongInteger() = default;
    constexpr explicit StrongInteger(Value v)
        : value(v)
    { }
    friend constexpr auto operator<=>(StrongInteger, StrongInteger) = default;
};

// The 0-based index of an executed instruction.
using Transition = StrongInteger<struct TransitionTag, std::uint64_t>;
// A byte address. Unsigned: the database stores its two's-complement bit pattern in a signed int8.
using Address = StrongInteger<struct AddressTag, std::uint64_t>;
// The SQLite rowid of an access: its position in trace order, unique across the whole history.
using RowId = StrongInteger<struct RowIdTag, std::int64_t>;

// The values of the public reference writer, stored as-is in `chunks.operation` and
// `accesses.operation`.
enum class Operation : std::uint8_t {
    Execute = 1,
    Write = 2,
    Read = 4,
};
Q_DECLARE_FLAGS(Operations, Operation)
Q_DECLARE_OPERATORS_FOR_FLAGS(Operations)

constexpr Operations allOperations()
{
    return Operations(Operation::Execute) | Operation::Write | Operation::Read;
}

// True for the three codes above; anything else in a database is a violation.
constexpr bool isValidOperationCode(std::int64_t code)
{
    return code == 1 || code == 2 || code == 4;
}

// One load, store or instruction fetch.
struct Access
{
    RowId rowId; // 0 until the access has been stored
    Transition transition;
    Operation operation = Operation::Read;
    Address physical; // first byte
    std::optional<Address> linear; // absent when the writer only knew physical addresses
    std::uint32_t size = 1; // bytes, at least 1

    // The last byte covered, saturating at 2^64 - 1 (the writer refuses an access that wraps; a
    // foreign database may hold one); a size of 0 covers one byte.
    constexpr Address lastByte() const;
    friend bool operator==(const Access &, const Access &) = default;
};

enum class Direction : std::uint8_t {
    Forward,
    Backward,
};

// The last byte of `size` bytes at `address`, saturating at 2^64 - 1; size 0 covers one byte.
constexpr std::uint64_t lastByteOf(std::uint64_t address, std::uint32_t size)
{
    const std::uint64_t extent = (size == 0 ? 1 : size) - 1;
    return address > ~std::uint64_t(0) - extent ? ~std::uint64_t(0) : address + extent;
}

constexpr Address Access::lastByte() const
{
    return Address { lastByteOf(physical.value, size) };
}

// The database stores unsigned 64-bit values as the signed int8 with the same bits.
constexpr std::int64_t toStored(std::uint64_t value)
{
    return static_cast<std::int64_t>(value);
}
constexpr std::uint64_t fromStored(std::int64_t value)
{
    return static_cast<std::uint64_t>(value);
}

// The first unsigned value stored negative, where the stored (and index) order wraps.
inline constexpr std::uint64_t signBoundary = std::uint64_t(1) << 63;

// An inclusive range of stored values.
struct StoredRange
{
    std::int64_t first;
    std::int64_t last;
};

// An unsigned window [first, last] as ranges over stored values, in unsigned order. The indexes order
// addresses as signed int8, so a window crossing 2^63 is two ranges: [first, 2^63 - 1] and
// [2^63, last]. A window on one side is one range, repeated in ranges[1] so that a statement written
// for two ranges can bind both.
struct StoredRanges
{
    StoredRange ranges[2];
    int count = 1;
};

constexpr StoredRanges toStoredRanges(std::uint64_t first, std::uint64_t last)
{
    StoredRanges stored;
    if ((first < signBoundary) == (last < signBoundary)) {
        stored.ranges[0] = { toStored(first), toStored(last) };
        stored.ranges[1] = stored.ranges[0];
    } else {
        stored.ranges[0] = { toStored(first), toStored(signBoundary - 1) };
        stored.ranges[1] = { toStored(signBoundary), toStored(last) };
        stored.count = 2;
    }
    return stored;
}

} // namespace memhist

Q_DECLARE_METATYPE(memhist::Access)
