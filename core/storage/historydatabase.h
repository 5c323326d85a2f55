// A memhist database opened for reading: validates its shape, reads its metadata and summary.
#pragma once

#include "model/types.h"
#include "storage/sqlite.h"

#include <QMap>
#include <QString>

#include <memory>

namespace memhist {

// What `memhist info` and the viewer's status line show. Counts come from the meta table when the
// writer recorded them, and are computed otherwise (a database from another writer).
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
};

class HistoryDatabase
{
public:
    // Opens read-only and checks the shape: the three base tables with their columns and the three
    // indexes of DESIGN.md §1. Returns null and a message naming the file and the reason otherwise.
    static std::unique_ptr<HistoryDatabase> open(const QString &path, QString *error);

    const QString &path() const { return m_path; }
    sqlite::Connection &connection() { return m_connection; }

    // Key -> value of the optional meta table; empty when there is none.
    const QMap<QString, QString> &meta() const { return m_meta; }
    bool hasMeta() const { return !m_meta.isEmpty(); }

    // Computed once and cached.
    const HistorySummary &summary();

    // The transition of the last access, the default start of a backward query.
    std::optional<Transition> lastTransition();

private:
    HistoryDatabase() = default;

    QString m_path;
    sqlite::Connection m_connection;
    QMap<QString, QString> m_meta;
    std::optional<HistorySummary> m_summary;
};

} // namespace memhist
