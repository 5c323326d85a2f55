// SPDX-License-Identifier: MIT
#include "core/query/queryfailure.h"

namespace memhist {

bool QueryFailure::database(const QString &what, const sqlite::Connection &db, int rc)
{
    if (!failed())
        m_text = what + QStringLiteral(": ") + db.errorFor(rc);
    return false;
}

bool QueryFailure::preparation(const QString &what, const sqlite::Connection &db)
{
    if (!failed())
        m_text = what + QStringLiteral(": ") + db.lastError();
    return false;
}

bool QueryFailure::described(const QString &text)
{
    if (!failed())
        m_text = text;
    return false;
}

bool QueryFailure::violation(const QString &text)
{
    if (!failed()) {
        m_text = text;
        m_isViolation = true;
    }
    return false;
}

QString QueryFailure::message(const QString &databasePath) const
{
    if (!m_isViolation)
        return m_text;
    return m_text + QStringLiteral("; the database is damaged: run 'memhist check %1'").arg(databasePath);
}

} // namespace memhist
