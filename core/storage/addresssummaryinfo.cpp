// SPDX-License-Identifier: MIT
#include "core/storage/addresssummaryinfo.h"

#include "core/storage/addresssummarystatements.h"

namespace memhist::addresssummary {

namespace {

constexpr auto infoTable = "address_summary_info";

bool damaged(Presence *presence, const QString &object, const QString &problem)
{
    presence->state = Presence::State::Damaged;
    presence->object = object;
    presence->problem = problem;
    return true;
}

} // namespace

bool readPresence(sqlite::Connection &db, Presence *presence, QString *error)
{
    *presence = Presence();
    const auto fail = [&](const char *what, int rc) {
        *error = QStringLiteral("cannot read %1: %2").arg(QLatin1String(what), db.errorFor(rc));
        return false;
    };
    sqlite::Statement tables = db.prepare(statements::addressSummaryTables);
    if (!tables.isValid())
        return fail("the schema", db.lastErrorCode());
    bool summaryTable = false;
    bool infoTableFound = false;
    int rc;
    while ((rc = tables.step()) == SQLITE_ROW) {
        if (tables.text(0) == QLatin1String(infoTable))
            infoTableFound = true;
        else
            summaryTable = true;
    }
    if (rc != SQLITE_DONE)
        return fail("the schema", rc);
    if (!summaryTable && !infoTableFound)
        return true;
    if (!infoTableFound)
        return damaged(
            presence, QStringLiteral("address_summary"), QStringLiteral("is there without address_summary_info"));
    if (!summaryTable)
        return damaged(presence, QLatin1String(infoTable), QStringLiteral("is there without address_summary"));

    sqlite::Statement row = db.prepare(statements::addressSummaryInfo);
    if (!row.isValid())
        return damaged(presence, QLatin1String(infoTable), QStringLiteral("cannot be read: %1").arg(db.lastError()));
    rc = row.step();
    if (rc == SQLITE_DONE)
        return damaged(presence, QLatin1String(infoTable), QStringLiteral("holds no row"));
    if (rc != SQLITE_ROW)
        return fail(infoTable, rc);
    static const char *const columns[] = { "version", "finest_shift", "level_step", "levels", "row_bytes", "max_span",
        "slices", "last_chunk", "wide_postings", "checksum" };
    for (const int column : { 0, 1, 2, 3, 4, 5, 6, 7, 9 }) {
        if (!row.isInteger(column))
            return damaged(presence, QLatin1String(infoTable),
                QStringLiteral("%1 is not an integer").arg(QLatin1String(columns[column])));
    }
    if (!row.isBlob(8))
        return damaged(presence, QLatin1String(infoTable), QStringLiteral("wide_postings is not a blob"));
    // Parameters are small numbers; one too large for an int is already wrong, and says so as stored.
    for (int column = 0; column < 6; ++column) {
        const std::int64_t stored = row.int64(column);
        if (stored < -65536 || stored > 65536) {
            return damaged(presence, QLatin1String(infoTable),
                QStringLiteral("%1 %2 is out of range").arg(QLatin1String(columns[column])).arg(stored));
        }
    }
    Info &info = presence->info;
    const std::int64_t version = row.int64(0);
    info.version = int(version);
    info.parameters.finestShift = int(row.int64(1));
    info.parameters.levelStep = int(row.int64(2));
    info.parameters.levels = int(row.int64(3));
    info.parameters.rowBytes = int(row.int64(4));
    info.parameters.maxSpan = int(row.int64(5));
    info.slices = row.int64(6);
    info.lastChunk = row.int64(7);
    info.widePostings = row.blob(8);
    const std::int64_t checksum = row.int64(9);
    rc = row.step();
    if (rc == SQLITE_ROW)
        return damaged(presence, QLatin1String(infoTable), QStringLiteral("holds more than one row"));
    if (rc != SQLITE_DONE)
        return fail(infoTable, rc);
    if (version != formatVersion) {
        presence->state = Presence::State::OtherVersion;
        return true;
    }
    // Changed by hand, or by another program: its counts and wide postings cannot be trusted.
    if (const std::int64_t expected
        = infoChecksum(formatVersion, info.parameters, info.slices, info.lastChunk, info.widePostings);
        checksum != expected) {
        return damaged(presence, QLatin1String(infoTable),
            QStringLiteral("its checksum %1 is not that of its contents, %2")
                .arg(QString::number(checksum), QString::number(expected)));
    }
    if (const QString problem = info.parameters.problem(); !problem.isEmpty())
        return damaged(presence, QLatin1String(infoTable), problem);
    presence->state = Presence::State::Present;
    return true;
}

} // namespace memhist::addresssummary
