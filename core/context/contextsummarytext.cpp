// SPDX-License-Identifier: MIT
#include "core/context/contextsummarytext.h"

#include "core/context/contextschema.h"

namespace memhist {

QString contextPartsText(const QStringList &parts)
{
    if (parts.isEmpty())
        return QStringLiteral("none");
    namespace part = contextschema::part;
    const bool placed = parts.contains(QLatin1String(part::map)) || parts.contains(QLatin1String(part::modules));
    if (!parts.contains(QLatin1String(part::pcs)) || placed)
        return parts.join(QStringLiteral(", "));
    // PCs without knowing what was loaded where: nothing to name them with.
    const QString why = QStringLiteral(" (no memory map or modules: no symbols)");
    if (parts.size() == 1)
        return QStringLiteral("pcs only") + why;
    return parts.join(QStringLiteral(", ")) + why;
}

} // namespace memhist
