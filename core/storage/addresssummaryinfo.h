// SPDX-License-Identifier: MIT
// Whether a database holds the optional address summary, and its info row (the parameters and what
// it was built from), read the same way by the query engine and by `memhist check`.
#pragma once

#include "core/storage/addresssummaryformat.h"
#include "core/storage/sqlite.h"

#include <QByteArray>
#include <QString>

namespace memhist::addresssummary {

struct Info
{
    int version = 0;
    Parameters parameters;
    std::int64_t slices = 0; // slices in the history it was built from
    std::int64_t lastChunk = 0; // the largest chunk rowid then (0: no chunk)
    QByteArray widePostings; // one block's postings (offset 0), or empty
};

struct Presence
{
    enum class State {
        Absent, // neither table: queries visit every slice
        Present, // both, and an info row of this version with valid parameters
        OtherVersion, // an info row of another version: ignored like an absent summary
        Damaged, // see object and problem
    };
    State state = State::Absent;
    Info info; // Present; OtherVersion: the version only
    // Damaged: the table or row, and what is wrong with it, e.g. "address_summary_info" and
    // "holds 2 rows, not 1".
    QString object;
    QString problem;
};

// False on a database error (*error says which); a damaged summary is a Presence, not an error.
bool readPresence(sqlite::Connection &db, Presence *presence, QString *error);

} // namespace memhist::addresssummary
