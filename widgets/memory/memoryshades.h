// SPDX-License-Identifier: MIT
// The colours of the Memory pane's shades (memoryrows.h), from the palette, and its legend: the
// plane's write colour (planeColors()) at full strength for the bytes written at the current
// transition, fading with the write's age, so that the pane and the plane speak the same colours.
#pragma once

#include "widgets/memory/memoryrows.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace memhist {

struct MemoryShadeColors
{
    struct Shade
    {
        QColor fill; // invalid: no fill
        QColor text;
    };
    Shade shades[7]; // by ByteShade
    QColor muted; // addresses and column offsets
    QColor grid;

    const Shade &of(ByteShade shade) const { return shades[int(shade)]; }
};

MemoryShadeColors memoryShadeColors(const QPalette &palette);

// The legend below the bytes, as rich text: each shade's look beside what it means.
QString memoryLegendHtml(const QPalette &palette);

} // namespace memhist
