// SPDX-License-Identifier: MIT
// A memhist database opened for reading: validates its shape, reads its metadata and summary.
#pragma once

#include "core/model/types.h"
#include "core/storage/sqlite.h"

#include <QMap>
#include <QString>
#include <memory>

namespace memhist {

// What `memhist info` and the viewer's status line show. A count comes from the meta table when
// the writer recorded it and the database does not contradict it, and is computed otherwise (a
// database from another writer, or a damaged one).
struct HistorySummary
{
    qint64 accesses = 0;
    qint64 reads = 0;
    qint64 writes = 0;
    qint64 executes = 0;
    qint64 slices = 0;
    qint64 chunks = 0;
    std::optional<Transition> firstTransition; // absent when the history is empty
    std::optional<Transition> lastTransition;
    qint64 fileBytes = 0;

    // Where the counts came from. The four access counts come from meta together or not at all.
    bool accessCountsFromMeta = false;
    bool slicesFromMeta = false;
    bool chunksFromMeta = false;
    // Meta count keys whose value was not used although present, with that value: not a number,
    // or contradicted by the database (checks of constant cost: the four access counts add up and
    // fit the rowid range; the slices, few by design, are counted). Shown beside the computed count.
    QMap<QString, QString> ignoredMeta;
    // Why a count could not be read (a database error); the summary is incomplete when set.
    QString error;
};

// The reference readers' `_metadata` row (DESIGN.md §1), as stored.
struct ReferenceMetadata
{
    QString metadataVersion;
    QString type; // "3": a memory history
    QString formatVersion;
    QString toolName;
    QString toolVersion;
    QString toolInfo;
    std::optional<qint64> generationDate; // unix seconds, when stored as an integer
    // Why the table could not be read (no row, a missing column); the fields are empty then.
    QString error;
};

class HistoryDatabase
{
public:
    // Opens read-only and checks the file and its shape: a file shorter than its SQLite header
    // says is refused, then the three base tables with their columns and the three indexes of
    // DESIGN.md §1 must be there. A WAL-mode file whose -wal and -shm cannot be created (a
    // read-only directory) is opened immutable when that is exact (no WAL frames). Returns null
    // and a message naming the file and the reason otherwise.
    static std::unique_ptr<HistoryDatabase> open(const QString &path, QString *error);

    const QString &path() const { return m_path; }
    sqlite::Connection &connection() { return m_connection; }

    // Key -> value of the optional meta table; empty when there is none.
    const QMap<QString, QString> &meta() const { return m_meta; }
    bool hasMeta() const { return !m_meta.isEmpty(); }

    // The optional `_metadata` table of the reference readers; absent when there is none.
    const std::optional<ReferenceMetadata> &referenceMetadata() const { return m_referenceMetadata; }

    // Computed once and cached.
    const HistorySummary &summary();

private:
    HistoryDatabase() = default;
    bool openConnection(QString *error);
    bool checkShape(QString *error);
    // Views or virtual tables under our table names, partial indexes where whole ones are needed.
    bool checkSchemaObjects(QString *error);
    void readMetadata();
    void countAccesses(HistorySummary *summary);

    QString m_path;
    sqlite::Connection m_connection;
    QMap<QString, QString> m_meta;
    std::optional<ReferenceMetadata> m_referenceMetadata;
    std::optional<HistorySummary> m_summary;
};

} // namespace memhist
