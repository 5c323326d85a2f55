// SPDX-License-Identifier: MIT
// The value a search looks for, from what a person types: hex bytes in memory order, or an integer
// of 1, 2, 4 or 8 bytes stored little-endian. One place for `memhist search` and Find Value.
#pragma once

#include <QByteArray>
#include <QString>

namespace memhist {

// "2a00", "2a:00", "2a 00", "0x2a00": pairs of hex digits. False + *error (naming `option`, e.g.
// "--value") otherwise.
bool parseHexValue(const QString &option, const QString &text, QByteArray *value, QString *error);

// The integer `text` (decimal or 0x hex; negative in two's complement) in `size` bytes,
// little-endian. False + *error (naming `option`) when it is not a number, `size` is not 1, 2, 4
// or 8, or the number does not fit.
bool integerValue(const QString &option, const QString &text, int size, QByteArray *value, QString *error);

} // namespace memhist
