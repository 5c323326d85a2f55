// SPDX-License-Identifier: MIT
// `memhist check`'s part for the optional address summary (storage/addresssummaryformat.h): the
// query engine skips every slice the summary does not list for a window, so a summary that misses
// one slice of one block makes queries there silently incomplete. The check rebuilds the summary
// from the chunks (fed as the checker reads them, no extra pass) and compares it, entry by entry,
// with the stored one: a slice missing from a block, a slice listed where it has no chunk, a row
// that cannot be read, and an info row that does not describe the history are violations.
// Differences of encoding alone (a list where a bitmap is shorter, rows cut elsewhere) are not:
// readers see the same slices.
#pragma once

#include "core/checker/checkmessages.h"
#include "core/storage/addresssummarybuilder.h"
#include "core/storage/addresssummaryinfo.h"
#include "core/storage/sqlite.h"

#include <QString>
#include <functional>
#include <memory>

namespace memhist::check {

class AddressSummaryCheck
{
public:
    explicit AddressSummaryCheck(sqlite::Connection &db);
    ~AddressSummaryCheck();

    // Each violation, the whole message (its property is property::addressSummary).
    using Report = std::function<void(const QString &message)>;

    // Before the chunks: whether the database holds a summary, and whether its info row can be
    // used. False on a database error (*error says which).
    bool start(const Report &report, QString *error);
    // Every chunk, in rowid order, while the checker reads them.
    void addChunk(const ChunkRecord &chunk);
    // After the chunks: compares the rebuilt summary with the stored one. False on a database
    // error (*error says which).
    bool finish(const Report &report, QString *error);

    // A fact for the report's notes when the check passes (e.g. a summary of another version,
    // which readers ignore), or empty.
    const QString &note() const { return m_note; }

private:
    sqlite::Connection &m_db;
    addresssummary::Info m_info;
    std::unique_ptr<addresssummary::Builder> m_builder; // when a usable summary is stored
    bool m_builderFailed = false;
    QString m_note;
};

} // namespace memhist::check
