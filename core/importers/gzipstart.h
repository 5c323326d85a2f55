// SPDX-License-Identifier: MIT
// The start of a gzip file's content, for recognising a compressed trace by what it holds.
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace memhist {

// Decompresses at most `maxBytes` from the start of the gzip data `compressed`. A truncated or
// partial file gives what it holds; data that is not gzip gives an empty array.
QByteArray gunzipStart(QByteArrayView compressed, qsizetype maxBytes);

} // namespace memhist
