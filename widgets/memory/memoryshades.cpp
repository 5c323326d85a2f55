// SPDX-License-Identifier: MIT
#include "widgets/memory/memoryshades.h"

#include "core/model/numbertext.h"
#include "widgets/plane/planeoverlays.h"

namespace memhist {

namespace {

// `over` laid on `under` with opacity `alpha` (0..1), as an opaque colour: the legend's HTML takes no
// translucency.
QColor over(const QColor &under, const QColor &over, double alpha)
{
    return QColor::fromRgbF(float(under.redF() + (over.redF() - under.redF()) * alpha),
        float(under.greenF() + (over.greenF() - under.greenF()) * alpha),
        float(under.blueF() + (over.blueF() - under.blueF()) * alpha));
}

} // namespace

MemoryShadeColors memoryShadeColors(const QPalette &palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor write = plane::planeColors(palette).write;
    const bool dark = base.lightness() < 128;
    MemoryShadeColors colors;
    // Written now: the write colour itself, its digits in the base colour (white on light themes).
    colors.shades[int(ByteShade::WrittenNow)] = { write, dark ? QColor(Qt::black) : QColor(Qt::white) };
    colors.shades[int(ByteShade::WrittenRecently)] = { over(base, write, 0.45), text };
    colors.shades[int(ByteShade::WrittenEarlier)] = { over(base, write, 0.22), text };
    colors.shades[int(ByteShade::WrittenLongAgo)] = { over(base, write, 0.08), text };
    colors.shades[int(ByteShade::Read)] = { QColor(), text };
    // Italic and a little lighter: inferred from the future rather than seen.
    colors.shades[int(ByteShade::LaterRead)] = { QColor(), over(base, text, 0.7) };
    colors.shades[int(ByteShade::Unknown)] = { QColor(), over(base, text, 0.35) };
    colors.muted = over(base, text, 0.55);
    colors.grid = over(base, text, 0.15);
    return colors;
}

QString memoryLegendHtml(const QPalette &palette)
{
    const MemoryShadeColors colors = memoryShadeColors(palette);
    const auto swatch = [&](ByteShade shade, const QString &sample, const QString &meaning) {
        const MemoryShadeColors::Shade &look = colors.of(shade);
        QString style = QStringLiteral("color:%1;").arg(look.text.name());
        if (look.fill.isValid())
            style += QStringLiteral("background-color:%1;").arg(look.fill.name());
        if (shade == ByteShade::WrittenNow)
            style += QStringLiteral("font-weight:bold;");
        if (shade == ByteShade::LaterRead)
            style += QStringLiteral("font-style:italic;");
        return QStringLiteral("<span style=\"font-family:monospace;%1\">&nbsp;%2&nbsp;</span>&nbsp;%3")
            .arg(style, sample, meaning.toHtmlEscaped());
    };
    const QString gap = QStringLiteral("&nbsp;&nbsp; ");
    return QObject::tr("Written:") + QStringLiteral("&nbsp;")
        + swatch(ByteShade::WrittenNow, QStringLiteral("2a"), QObject::tr("now")) + gap
        + swatch(ByteShade::WrittenRecently, QStringLiteral("2a"),
            QObject::tr("≤ %1 transitions ago").arg(countText(recentWriteAge)))
        + gap
        + swatch(ByteShade::WrittenEarlier, QStringLiteral("2a"), QObject::tr("≤ %1").arg(countText(earlierWriteAge)))
        + gap + swatch(ByteShade::WrittenLongAgo, QStringLiteral("2a"), QObject::tr("earlier")) + gap
        + swatch(ByteShade::Read, QStringLiteral("2a"), QObject::tr("last read")) + gap
        + swatch(ByteShade::LaterRead, QStringLiteral("2a"), QObject::tr("read later")) + gap
        + swatch(ByteShade::Unknown, QStringLiteral("??"), QObject::tr("unknown"));
}

} // namespace memhist
