// SPDX-License-Identifier: MIT
// Why a query stopped: a database error, with SQLite's reason read where the call failed (a later
// reset or statement would replace it, often by "not an error"), or a row that breaks a property
// of the storage model. Only the first reason is kept: what follows it is its consequence.
#pragma once

#include "core/storage/sqlite.h"

#include <QString>

namespace memhist {

class QueryFailure
{
public:
    // Each returns false, so that a failing step can `return failure.database(...)`.
    // `what`: what was being done, e.g. "cannot read slices".
    bool database(const QString &what, const sqlite::Connection &db, int rc);
    // A statement that could not be prepared (the connection's message is still that of prepare).
    bool preparation(const QString &what, const sqlite::Connection &db);
    // A database error already described, with SQLite's reason, by the code that met it.
    bool described(const QString &text);
    // `text`: the violation as checkmessages.h words it (object, problem, property).
    bool violation(const QString &text);

    bool failed() const { return !m_text.isEmpty(); }
    void clear()
    {
        m_text.clear();
        m_isViolation = false;
    }

    // For the user. A violation says the database is damaged and how to see every violation.
    QString message(const QString &databasePath) const;

private:
    QString m_text;
    bool m_isViolation = false;
};

} // namespace memhist
