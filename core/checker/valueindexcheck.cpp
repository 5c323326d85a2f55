// SPDX-License-Identifier: MIT
#include "core/checker/valueindexcheck.h"

#include "core/checker/checkmessages.h"
#include "core/checker/checkstatements.h"
#include "core/values/valueblock.h"
#include "core/values/valuefilter.h"
#include "core/values/valuegroups.h"
#include "core/values/valuestatements.h"

#include <limits>
#include <optional>

namespace memhist::check {

ValueIndexCheck::ValueIndexCheck(sqlite::Connection &connection, Report report)
    : m_connection(connection)
    , m_report(std::move(report))
{ }

bool ValueIndexCheck::run(QString *error)
{
    // Each part is optional: no blocks, no index to check; a history may have filters without groups.
    sqlite::Statement blocks = m_connection.prepare(valueschema::blocksFrom);
    sqlite::Statement filters = m_connection.prepare(valueschema::filtersAfter);
    sqlite::Statement groups = m_connection.prepare(valueschema::groupBits);
    if (!blocks.isValid() || (!filters.isValid() && !groups.isValid()))
        return true;

    qint64 differing = 0;
    const auto violation = [&](const QString &object, const QString &problem) {
        if (++differing <= namedRows)
            m_report(valueIndex, check::violation(object, problem, valueIndex));
    };
    const auto readFailed = [&](const char *table, int rc) {
        *error = QStringLiteral("cannot read %1: %2").arg(QLatin1String(table), m_connection.errorFor(rc));
        return false;
    };

    std::optional<valuegroups::Builder> builder;
    qint64 groupRows = 0;
    if (groups.isValid()) {
        groups.bind(1, valuegroups::infoKey);
        const int rc = groups.step();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return readFailed("access_value_groups", rc);
        const int shift
            = rc == SQLITE_ROW && groups.blobView(0).size() == 1 ? int(std::uint8_t(groups.blobView(0)[0])) : -1;
        groups.reset();
        if (shift < 1 || shift > 30)
            violation(QStringLiteral("access_value_groups"),
                QStringLiteral("has no row giving the size of its groups (key %1, one byte of 1 to 30)")
                    .arg(valuegroups::infoKey));
        else
            builder.emplace(shift);
        sqlite::Statement count = m_connection.prepare(sql::valueGroupRowCount);
        const int counted = count.isValid() ? count.step() : SQLITE_ERROR;
        if (counted != SQLITE_ROW)
            return readFailed("access_value_groups", counted);
        groupRows = count.int64(0);
    }
    // The rows the values give, each compared with the stored one of its key.
    qint64 computedRows = 0;
    const auto compareGroups = [&](bool last) {
        for (const valuegroups::Builder::Row &row : builder->takeRows(last)) {
            if (row.key == valuegroups::infoKey)
                continue;
            ++computedRows;
            groups.bind(1, row.key);
            const int rc = groups.step();
            const bool same = rc == SQLITE_ROW && groups.blobView(0) == row.bytes();
            groups.reset();
            if (rc != SQLITE_ROW && rc != SQLITE_DONE)
                return readFailed("access_value_groups", rc);
            if (!same)
                violation(QStringLiteral("access_value_groups key %1").arg(row.key),
                    rc == SQLITE_ROW ? QStringLiteral("its groups are not those whose values hold its bytes")
                                     : QStringLiteral("is missing, though values hold its bytes"));
        }
        return true;
    };

    if (filters.isValid())
        filters.bind(1, std::numeric_limits<qint64>::min());
    int filterRc = filters.isValid() ? filters.step() : SQLITE_DONE;
    blocks.bind(1, std::numeric_limits<qint64>::min());
    DecodedValueBlock decoded;
    int rc = SQLITE_ERROR;
    while ((rc = blocks.step()) == SQLITE_ROW) {
        const qint64 first = blocks.int64(0);
        const qint64 last = blocks.int64(1);
        // A damaged block is the value check's to report; nothing in it can be indexed.
        if (!decoded.decode(first, last, blocks.blobView(2), blocks.blob(3)))
            continue;
        ValueFilterBuilder filter;
        for (qint64 id = first; id <= last; ++id) {
            const QByteArrayView bytes = decoded.bytesOf(id);
            filter.add(bytes);
            if (builder)
                builder->add(id, bytes);
        }
        if (filters.isValid()) {
            // Filters of rowids no block starts at are left behind: a search never reads them.
            while (filterRc == SQLITE_ROW && filters.int64(0) < first)
                filterRc = filters.step();
            if (filterRc != SQLITE_ROW && filterRc != SQLITE_DONE)
                return readFailed("access_value_filters", filterRc);
            if (filterRc != SQLITE_ROW || filters.int64(0) != first)
                violation(QStringLiteral("access_value_filters %1").arg(first),
                    QStringLiteral("is missing: the block of rowids %1..%2 has no filter").arg(first).arg(last));
            else if (filters.blobView(1) != QByteArrayView(filter.take()))
                violation(QStringLiteral("access_value_filters %1").arg(first),
                    QStringLiteral("is not the filter of the values of rowids %1..%2").arg(first).arg(last));
        }
        if (builder && !compareGroups(false))
            return false;
    }
    if (rc != SQLITE_DONE)
        return readFailed("access_value_blocks", rc);
    if (builder) {
        if (!compareGroups(true))
            return false;
        // One row more: the group size.
        if (groupRows - 1 > computedRows)
            violation(QStringLiteral("access_value_groups"),
                QStringLiteral("holds %1 rows for %2 keys that values hold").arg(groupRows - 1).arg(computedRows));
    }
    if (differing > namedRows)
        m_report(valueIndex,
            check::violation(QStringLiteral("the value index"),
                QStringLiteral("%1 more rows differ from what the values give").arg(differing - namedRows),
                valueIndex));
    return true;
}

} // namespace memhist::check
