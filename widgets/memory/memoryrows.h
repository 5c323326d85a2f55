// SPDX-License-Identifier: MIT
// What the Memory pane shows of one read of memory (core/memory/memoryreader.h), as plain data and
// pure functions, so that its text and its colours are tested without painting: rows of 16 bytes
// from an address aligned to 16, each byte as two hex digits ("??" when unknown) and a character,
// and a shade that says how recently it was written before the current transition.
#pragma once

#include "core/memory/memoryreader.h"

#include <QList>
#include <QString>

namespace memhist {

inline constexpr int memoryBytesPerRow = 16;

// The bytes [first, first + bytes.size()) after transition `at`; `first` is aligned to 16 and the
// size a multiple of 16 (whole rows).
struct MemorySnapshot
{
    Transition at;
    Address first;
    QList<MemoryByte> bytes;

    int rowCount() const { return int(bytes.size() / memoryBytesPerRow); }
    bool contains(Address address) const
    {
        return address >= first && address.value - first.value < std::uint64_t(bytes.size());
    }
    // The byte at `address`; contains(address) must hold.
    const MemoryByte &byteAt(Address address) const { return bytes[qsizetype(address.value - first.value)]; }
};

// How a byte is drawn: by how long before the current transition it was written, or else how it
// is known. The write ages are in transitions (instructions), the unit of the position line.
enum class ByteShade : std::uint8_t {
    WrittenNow, // written at the current transition itself
    WrittenRecently, // at most recentWriteAge transitions before
    WrittenEarlier, // at most earlierWriteAge transitions before
    WrittenLongAgo, // longer ago
    Read, // its last access at or before the transition read it (its last write is older)
    LaterRead, // only a read after the transition tells it (nothing wrote it in between)
    Unknown, // "??": nothing tells it, or the access that would has no value
};

inline constexpr std::uint64_t recentWriteAge = 100;
inline constexpr std::uint64_t earlierWriteAge = 10'000;

ByteShade byteShade(const MemoryByte &byte, Transition at);
// Two lower-case hex digits, or "??" when unknown.
QString byteHex(const MemoryByte &byte);
// The byte as a printable ASCII character, '.' for any other value, '?' when unknown (as `memhist
// memory` writes it).
QChar byteCharacter(const MemoryByte &byte);
// The address column of a row: the address as the viewer writes it (0x, no leading zeros),
// right-aligned in the width of `digits` hex digits.
QString rowAddressText(Address address, int digits);
// The hex digits of the address column for rows up to `last`: at least 8 (a program's data and
// heap), so that the column keeps its width while one scrolls.
int addressDigits(Address last);
// One row as text: "  0x10c080  02 00 00 00 01 00 00 00  01 00 …  ................" (two spaces
// between the address, the two halves of the bytes and the characters).
QString rowText(const MemorySnapshot &snapshot, int row, int digits);

} // namespace memhist
