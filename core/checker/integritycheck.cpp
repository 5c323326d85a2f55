// SPDX-License-Identifier: MIT
#include "core/checker/integritycheck.h"

#include "core/checker/checkstatements.h"
#include "core/storage/sqlite.h"

#include <algorithm>
#include <climits>

namespace memhist::check {

namespace {

// Installs a progress handler for the lifetime of the object, so that no later statement on the
// connection calls back into a tick that no longer exists.
class ProgressHandlerScope
{
public:
    ProgressHandlerScope(sqlite3 *db, qint64 operationsPerTick, const std::function<bool()> &tick)
        : m_db(db)
        , m_tick(tick)
    {
        const int period = int(std::clamp<qint64>(operationsPerTick, 1, INT_MAX));
        sqlite3_progress_handler(m_db, period, &ProgressHandlerScope::call, this);
    }
    ~ProgressHandlerScope() { sqlite3_progress_handler(m_db, 0, nullptr, nullptr); }
    ProgressHandlerScope(const ProgressHandlerScope &) = delete;
    ProgressHandlerScope &operator=(const ProgressHandlerScope &) = delete;

    bool stopped() const { return m_stopped; }

private:
    // Non-zero interrupts the running statement (SQLITE_INTERRUPT).
    static int call(void *context)
    {
        auto *self = static_cast<ProgressHandlerScope *>(context);
        if (self->m_tick && !self->m_tick())
            self->m_stopped = true;
        return self->m_stopped ? 1 : 0;
    }

    sqlite3 *m_db;
    const std::function<bool()> &m_tick;
    bool m_stopped = false;
};

// "*** in database main ***" heads the messages about each attached database: not a problem.
bool isDatabaseHeading(const QString &line)
{
    return line.startsWith(QLatin1String("*** in database ")) && line.endsWith(QLatin1String(" ***"));
}

} // namespace

qint64 estimateIntegrityOperations(sqlite::Connection &db, const QList<std::pair<const char *, qint64>> &rowsByTable)
{
    sqlite::Statement columns = db.prepare(sql::tableColumns);
    sqlite::Statement indexes = db.prepare(sql::tableIndexColumns);
    if (!columns.isValid() || !indexes.isValid())
        return 0;
    qint64 operations = 0;
    for (const auto &[table, rows] : rowsByTable) {
        columns.reset();
        columns.bind(1, QString::fromLatin1(table));
        indexes.reset();
        indexes.bind(1, QString::fromLatin1(table));
        if (columns.step() != SQLITE_ROW || indexes.step() != SQLITE_ROW)
            continue;
        const qint64 perRow = 3 + columns.int64(0) + columns.int64(1) + 3 * indexes.int64(0) + indexes.int64(1);
        operations += std::max<qint64>(rows, 0) * perRow;
    }
    return operations;
}

IntegrityResult runIntegrityCheck(sqlite::Connection &db, qint64 operationsPerTick, const std::function<bool()> &tick)
{
    IntegrityResult result;
    ProgressHandlerScope handler(db.handle(), operationsPerTick, tick);
    sqlite::Statement check = db.prepare(sql::integrityCheck);
    if (!check.isValid()) {
        result.cancelled = handler.stopped();
        result.error = db.lastError();
        return result;
    }
    int rc;
    // One row per problem, except that the b-tree walk gives all of its problems in one row, one
    // per line; an intact file gives the single row "ok".
    while ((rc = check.step()) == SQLITE_ROW) {
        const QString text = check.text(0);
        if (text == QLatin1String("ok"))
            continue;
        for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
            if (!isDatabaseHeading(line))
                result.problems << line;
        }
    }
    if (rc != SQLITE_DONE) {
        // A damaged page can also stop the check itself (SQLITE_CORRUPT) after its first rows.
        result.cancelled = handler.stopped();
        if (!result.cancelled)
            result.error = db.lastError();
    }
    return result;
}

} // namespace memhist::check
