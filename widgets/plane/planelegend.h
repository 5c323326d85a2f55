// SPDX-License-Identifier: MIT
// What the legend above the plot says of the image ("chunks (zoom in to see accesses) · rendering…")
// in the room left beside the colours and the threads: a 1024 px wide window had room for only its
// end, drawn from the middle of a word over the "+3" before it ("+3 unks (zoom in…").
#pragma once

#include <QString>

class QFontMetrics;

namespace memhist::plane {

// `detail` whole when it fits in `width` pixels; else without its parenthesised hints ("chunks ·
// rendering…"); else that elided at the right ("chunks · rend…"); empty when not even its first
// word and an ellipsis fit.
QString fittedLegendDetail(const QString &detail, int width, const QFontMetrics &metrics);

} // namespace memhist::plane
