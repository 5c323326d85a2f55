// SPDX-License-Identifier: MIT
#include "core/model/visibletext.h"

namespace memhist {

QString visibleText(const QString &text, qsizetype maxCharacters)
{
    QString shown;
    const qsizetype kept = std::min(text.size(), maxCharacters);
    shown.reserve(kept);
    for (qsizetype i = 0; i < kept; ++i) {
        const char16_t c = text[i].unicode();
        if (c == u'\n')
            shown += QLatin1String("\\n");
        else if (c == u'\t')
            shown += QLatin1String("\\t");
        else if (c == u'\r')
            shown += QLatin1String("\\r");
        else if (c < 0x20 || c == 0x7f)
            shown += QStringLiteral("\\x%1").arg(int(c), 2, 16, QLatin1Char('0'));
        else if ((c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029)
            shown += QStringLiteral("\\u{%1}").arg(int(c), 0, 16);
        else
            shown += QChar(c);
    }
    if (kept < text.size())
        shown += QStringLiteral("… (%1 more characters)").arg(text.size() - kept);
    return shown;
}

} // namespace memhist
