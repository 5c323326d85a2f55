// SPDX-License-Identifier: MIT
// Numbers as people type them and as memhist prints them (DESIGN.md: "decimal or 0x hex"). One
// parser and one hex formatter for the CLI, the importers, the viewer and the CSV form, so that
// "010" is ten everywhere (never octal) and every address prints as "0x" and lower-case digits.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <array>
#include <cstdint>

namespace memhist {

enum class NumberStatus {
    Ok,
    Empty,
    NotANumber, // a character that is not a digit of the number's base, a sign, a space
    TooLarge, // well-formed, but more than 64 bits
};

namespace detail {
// -1 for a byte that is not a hex digit: one table lookup per digit in the importers' hot loops.
inline constexpr std::array<std::int8_t, 256> hexDigitValues = [] {
    std::array<std::int8_t, 256> values {};
    for (int c = 0; c < 256; ++c) {
        if (c >= '0' && c <= '9')
            values[c] = std::int8_t(c - '0');
        else if (c >= 'a' && c <= 'f')
            values[c] = std::int8_t(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            values[c] = std::int8_t(c - 'A' + 10);
        else
            values[c] = -1;
    }
    return values;
}();
} // namespace detail

// The value of a hex digit (either case), or -1.
constexpr int hexDigitValue(char c)
{
    return detail::hexDigitValues[static_cast<unsigned char>(c)];
}

// Decimal, or hexadecimal after "0x"/"0X", over the full unsigned 64-bit range. Nothing else is
// accepted: no sign, no spaces, no octal. *value is set only on Ok.
NumberStatus parseNumber(QByteArrayView text, std::uint64_t *value);

// parseNumber() == Ok, for callers that do not explain the failure.
bool parseUnsigned(QByteArrayView text, std::uint64_t *value);

// A number typed into the viewer: what parseUnsigned() accepts, and also the digit groups the viewer
// itself shows, so that a value copied from it reads back: "0x4a1'b140" (addresses), "150,218"
// (transitions). A separator (' or ,) must stand between two digits.
bool parseTypedNumber(QStringView text, std::uint64_t *value);

// Writes "0x" and the lower-case hex digits of `value` (no leading zeros) at `out`, which must have
// room for 18 characters; returns the end. The allocation-free form for hot paths (CSV rows).
char *appendHex(char *out, std::uint64_t value);

// "0x1fff000208".
QString hexText(std::uint64_t value);
QByteArray hexBytes(std::uint64_t value);

// An access's size as the viewer writes it: "1 byte", "8 bytes".
QString bytesText(std::uint64_t size);

// A count or a transition in the viewer's prose and tables: decimal, grouped by three with ','
// ("12,345,678"), whatever the system locale, so that every pane writes a number the same way and
// parseTypedNumber() reads it back. The viewer's only grouping formatter.
QString countText(std::uint64_t value);

// Bytes as the viewer shows them: two lower-case hex digits each, in memory order, separated by
// spaces ("06 1f 93"), so that they do not read as one big-endian number.
QString byteValuesText(QByteArrayView bytes);

} // namespace memhist
