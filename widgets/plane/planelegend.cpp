// SPDX-License-Identifier: MIT
#include "widgets/plane/planelegend.h"

#include <QFontMetrics>
#include <QRegularExpression>

namespace memhist::plane {

QString fittedLegendDetail(const QString &detail, int width, const QFontMetrics &metrics)
{
    if (metrics.horizontalAdvance(detail) <= width)
        return detail;
    // The hints in parentheses say what to do; the words before them what the image is.
    static const QRegularExpression hint(QStringLiteral(R"(\s*\([^)]*\))"));
    QString shorter = detail;
    shorter.remove(hint);
    if (metrics.horizontalAdvance(shorter) <= width)
        return shorter;
    const QString firstWord = shorter.section(u' ', 0, 0);
    if (metrics.horizontalAdvance(firstWord + u'…') > width)
        return {};
    return metrics.elidedText(shorter, Qt::ElideRight, width);
}

} // namespace memhist::plane
