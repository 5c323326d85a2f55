// SPDX-License-Identifier: MIT
// Text from a file, made safe to show: a history is a file people send each other, and what it
// says (meta values, paths, symbol names, instruction texts) may hold terminal escapes, newlines
// that fake a second line, or hundreds of megabytes. `memhist info` and the viewer show such text
// through this one function.
#pragma once

#include <QString>

namespace memhist {

// `text` with every control character shown as an escape (\n, \t, \r, \\x1b, \\u{85}, ...: C0, DEL,
// C1 and the Unicode line and paragraph separators), cut after `maxCharacters` with a note of how
// much was left out.
QString visibleText(const QString &text, qsizetype maxCharacters = 4096);

} // namespace memhist
