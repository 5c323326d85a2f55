// SPDX-License-Identifier: MIT
#include "widgets/plane/planeoverlays.h"

#include "core/model/numbertext.h"
#include "widgets/plane/planelegend.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPolygon>

namespace memhist::plane {

namespace {

// The texts are the plane widget's (one translation context for everything it shows).
QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::PlaneWidget", text);
}

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
        float(a.blueF() * (1 - t) + b.blueF() * t));
}

// Fold bands: the zig-zag's period and its largest amplitude (pixels).
constexpr int zigzagPeriod = 6;
constexpr int zigzagAmplitude = 3;
// The ring around the current result.
constexpr double currentRingRadius = 7;

} // namespace

PlaneColors planeColors(const QPalette &palette)
{
    PlaneColors colors;
    colors.background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const bool dark = colors.background.lightness() < 128;
    colors.alternateBackground = palette.color(QPalette::AlternateBase);
    if (colors.alternateBackground == colors.background || colors.alternateBackground.alpha() < 255)
        colors.alternateBackground = mix(colors.background, text, 0.04);
    colors.sliceEdge = mix(colors.background, text, 0.14);
    // A blue/orange pair (told apart with any common colour-vision deficiency) and a green, each in a
    // deeper shade on light backgrounds and a lighter one on dark backgrounds.
    colors.read = dark ? QColor(0x5c, 0xa8, 0xff) : QColor(0x1c, 0x64, 0xc8);
    colors.write = dark ? QColor(0xff, 0x8f, 0x4a) : QColor(0xe0, 0x55, 0x00);
    colors.execute = dark ? QColor(0x6b, 0xd6, 0x7c) : QColor(0x2b, 0x8a, 0x3e);
    return colors;
}

void paintFoldBands(QPainter &painter, const std::vector<FoldBand> &bands, const std::vector<FoldCaption> &captions,
    int width, const QPalette &palette)
{
    const QColor fill = mix(palette.color(QPalette::Window), palette.color(QPalette::Base), 0.3);
    const QColor edge = palette.color(QPalette::Mid);
    for (const FoldBand &band : bands) {
        const int y0 = band.top;
        const int y1 = band.bottom;
        painter.fillRect(QRect(0, y0, width, y1 - y0), fill);
        const int amplitude = std::min(zigzagAmplitude, (y1 - y0) / 2);
        painter.setPen(edge);
        for (const int y : { y0, y1 - 1 }) {
            QPolygon zigzag;
            for (int x = 0, i = 0; x <= width + zigzagPeriod; x += zigzagPeriod, ++i)
                zigzag << QPoint(x, y + ((i % 2) ? amplitude : 0) - (y == y0 ? 0 : amplitude));
            painter.drawPolyline(zigzag);
        }
    }
    painter.setPen(palette.color(QPalette::PlaceholderText));
    for (const FoldCaption &caption : captions)
        painter.drawText(caption.box, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextDontClip, caption.text);
}

void paintMarkers(QPainter &painter, const QList<QPoint> &markers, const std::optional<QPointF> &current, QSizeF size,
    const QPalette &palette)
{
    painter.setPen(QPen(palette.color(QPalette::Text), 1));
    painter.setBrush(Qt::NoBrush);
    for (const QPoint &c : markers) {
        // A small hollow diamond: the bar under it stays visible.
        const int r = markerRadius;
        const QPoint diamond[5]
            = { c + QPoint(0, -r), c + QPoint(r, 0), c + QPoint(0, r), c + QPoint(-r, 0), c + QPoint(0, -r) };
        painter.drawPolyline(diamond, 5);
    }
    if (current) {
        const QPointF p = *current;
        const QColor highlight = palette.color(QPalette::Highlight);
        QColor guide = highlight;
        guide.setAlpha(110);
        painter.setPen(QPen(guide, 1, Qt::DashLine));
        painter.drawLine(QPointF(p.x(), 0), QPointF(p.x(), size.height()));
        painter.drawLine(QPointF(0, p.y()), QPointF(size.width(), p.y()));
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.setPen(QPen(highlight, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(p, currentRingRadius, currentRingRadius);
        painter.setRenderHint(QPainter::Antialiasing, false);
    }
}

void paintOriginPath(QPainter &painter, const QList<QPointF> &points, const QList<int> &joins, const QPalette &palette)
{
    // Magenta, apart from the operations' blue, orange and green and from the highlight's ring;
    // lighter on a dark base.
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const QColor path = dark ? QColor(0xff, 0x6e, 0xd0) : QColor(0xc0, 0x1f, 0x8a);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(path, 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    for (qsizetype i = 0; i < points.size(); ++i) {
        const int join = joins.value(i, -1);
        if (join >= 0 && join < points.size())
            painter.drawLine(points[join], points[i]);
    }
    painter.setPen(QPen(palette.color(QPalette::Base), 1));
    painter.setBrush(path);
    for (const QPointF &point : points)
        painter.drawEllipse(point, 3.5, 3.5);
    if (!points.isEmpty()) {
        painter.setPen(QPen(path, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(points.first(), 7.0, 7.0);
    }
    painter.restore();
}

void paintAxes(QPainter &painter, const std::vector<AddressTick> &addressTicks,
    const std::vector<TransitionTick> &transitionTicks, QRect plot, const QPalette &palette,
    const QFontMetrics &metrics)
{
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = palette.color(QPalette::Text);
    grid.setAlpha(22);
    const int h = metrics.height();

    // A region's first address has a longer tick and no grid line: it marks where a fold ends.
    for (const AddressTick &tick : addressTicks) {
        const int length = tick.regionStart ? 8 : 5;
        painter.setPen(text);
        painter.drawLine(plot.left() - length, tick.y, plot.left() - 1, tick.y);
        painter.drawText(QRect(0, tick.labelTop, plot.left() - length - 3, h), Qt::AlignRight | Qt::AlignVCenter,
            hexText(tick.address));
        if (!tick.regionStart) {
            painter.setPen(grid);
            painter.drawLine(plot.left(), tick.y, plot.right(), tick.y);
        }
    }

    for (const TransitionTick &tick : transitionTicks) {
        painter.setPen(text);
        painter.drawLine(tick.x, plot.bottom() + 1, tick.x, plot.bottom() + 5);
        if (tick.labelled)
            painter.drawText(QRect(tick.labelLeft, plot.bottom() + 6, tick.labelWidth, h), Qt::AlignCenter,
                countText(tick.transition));
        painter.setPen(grid);
        painter.drawLine(tick.x, plot.top(), tick.x, plot.bottom());
    }
    painter.setPen(palette.color(QPalette::PlaceholderText));
    painter.drawText(QRect(plot.left(), plot.bottom() + 6 + h, plot.width(), h + 2), Qt::AlignRight | Qt::AlignVCenter,
        tr("transition →"));
    painter.drawText(QRect(4, 2, plot.left(), h + 6), Qt::AlignLeft | Qt::AlignVCenter, tr("address ↑"));
}

QColor threadColor(int index, const QPalette &palette)
{
    static const QColor light[]
        = { QColor(0x7b, 0x3f, 0xbf), QColor(0x00, 0x8b, 0x8b), QColor(0xc0, 0x2b, 0x7a), QColor(0x8b, 0x5a, 0x2b),
              QColor(0x6b, 0x6b, 0x00), QColor(0x4b, 0x4b, 0x4b), QColor(0xd4, 0x3f, 0x3f), QColor(0x3f, 0x5f, 0xa8) };
    static const QColor dark[]
        = { QColor(0xb3, 0x8c, 0xff), QColor(0x4d, 0xd0, 0xd0), QColor(0xff, 0x7e, 0xc0), QColor(0xd2, 0xa6, 0x79),
              QColor(0xd0, 0xd0, 0x5a), QColor(0xb0, 0xb0, 0xb0), QColor(0xff, 0x8a, 0x8a), QColor(0x8c, 0xa8, 0xff) };
    const bool isDark = palette.color(QPalette::Base).lightness() < 128;
    const int i = ((index % 8) + 8) % 8;
    return isDark ? dark[i] : light[i];
}

void paintRangeLabels(QPainter &painter, const std::vector<RangeLabel> &labels, int x, const QPalette &palette,
    const QFontMetrics &metrics)
{
    QColor bracket = palette.color(QPalette::Text);
    bracket.setAlpha(150);
    QColor plate = palette.color(QPalette::Base);
    plate.setAlpha(210);
    for (const RangeLabel &label : labels) {
        painter.fillRect(QRect(x, label.top, 2, std::max(1, label.bottom - label.top)), bracket);
        painter.fillRect(QRect(x, label.top, 5, 1), bracket);
        painter.fillRect(QRect(x, std::max(label.top, label.bottom - 1), 5, 1), bracket);
        const QRect box = rangeLabelPlate(
            label, x, metrics.height(), [&metrics](const QString &text) { return metrics.horizontalAdvance(text); });
        painter.fillRect(box, plate);
        painter.setPen(palette.color(QPalette::Text));
        painter.drawText(box, Qt::AlignCenter, label.text);
    }
}

void paintCurrentLine(QPainter &painter, int column, Transition transition, QSizeF size, const QPalette &palette,
    const QFontMetrics &metrics)
{
    const QColor highlight = palette.color(QPalette::Highlight);
    painter.fillRect(QRect(column, 0, 2, int(size.height())), highlight);
    const QString text = countText(transition.value);
    const int width = metrics.horizontalAdvance(text) + 8;
    const int left = std::clamp(column - width / 2, 0, std::max(0, int(size.width()) - width));
    const QRect tag(left, 0, width, metrics.height());
    painter.fillRect(tag, highlight);
    painter.setPen(palette.color(QPalette::HighlightedText));
    painter.drawText(tag, Qt::AlignCenter, text);
}

void paintThreadStrip(QPainter &painter, const std::vector<ThreadRun> &runs, QSizeF size, const QPalette &palette,
    const QList<int> &chosen)
{
    const int top = int(size.height()) - threadStripPixels;
    for (const ThreadRun &run : runs) {
        QColor color = threadColor(run.thread, palette);
        if (!chosen.isEmpty() && !chosen.contains(run.thread))
            color.setAlpha(fadedThreadAlpha);
        painter.fillRect(QRect(run.x0, top, run.x1 - run.x0, threadStripPixels), color);
    }
}

void paintLegend(QPainter &painter, QRect plot, const QString &detail, const QPalette &palette,
    const QFontMetrics &metrics, const QList<qint64> &threads)
{
    const PlaneColors colors = planeColors(palette);
    const int y = (plot.top() - metrics.height()) / 2;
    int x = plot.left();
    const std::pair<QColor, QString> items[]
        = { { colors.read, tr("read") }, { colors.write, tr("write") }, { colors.execute, tr("execute") } };
    for (const auto &[color, label] : items) {
        const int box = metrics.height() - 4;
        painter.fillRect(QRect(x, y + 2, box, box), color);
        x += box + 5;
        painter.setPen(palette.color(QPalette::WindowText));
        painter.drawText(QRect(x, y, metrics.horizontalAdvance(label) + 2, metrics.height()), Qt::AlignVCenter, label);
        x += metrics.horizontalAdvance(label) + 16;
    }
    if (threads.size() > 1) {
        // At most six threads by name; the strip along the plot's bottom shows which ran when.
        constexpr int named = 6;
        const QString title = tr("threads:");
        painter.setPen(palette.color(QPalette::WindowText));
        painter.drawText(QRect(x, y, metrics.horizontalAdvance(title) + 2, metrics.height()), Qt::AlignVCenter, title);
        x += metrics.horizontalAdvance(title) + 6;
        for (int i = 0; i < std::min<int>(named, int(threads.size())); ++i) {
            const int box = metrics.height() - 4;
            painter.fillRect(QRect(x, y + 2, box, box), threadColor(i, palette));
            x += box + 3;
            const QString label = QString::number(threads[i]);
            painter.drawText(
                QRect(x, y, metrics.horizontalAdvance(label) + 2, metrics.height()), Qt::AlignVCenter, label);
            x += metrics.horizontalAdvance(label) + 10;
        }
        if (threads.size() > named) {
            const QString more = tr("+%1").arg(threads.size() - named);
            painter.drawText(
                QRect(x, y, metrics.horizontalAdvance(more) + 2, metrics.height()), Qt::AlignVCenter, more);
            x += metrics.horizontalAdvance(more) + 10;
        }
    }
    // Right-aligned in what is left, a gap after the threads; shortened to fit rather than clipped.
    const int left = x + 8;
    const QString fitted = fittedLegendDetail(detail, plot.right() - left, metrics);
    if (fitted.isEmpty())
        return;
    painter.setPen(palette.color(QPalette::PlaceholderText));
    painter.drawText(QRect(left, y, plot.right() - left, metrics.height()), Qt::AlignRight | Qt::AlignVCenter, fitted);
}

void paintTargetOutline(QPainter &painter, QRect outline, const QPalette &palette)
{
    painter.save();
    QColor fill = palette.color(QPalette::Highlight);
    fill.setAlpha(35);
    painter.fillRect(outline, fill);
    painter.setPen(QPen(palette.color(QPalette::Highlight), 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(outline).adjusted(1, 1, -1, -1));
    painter.restore();
}

} // namespace memhist::plane
