// SPDX-License-Identifier: MIT
// `memhist check`'s part for the optional value index: the per-block filters
// (access_value_filters, core/values/valuefilter.h) and their second level (access_value_groups,
// core/values/valuegroups.h). A search skips every block whose filter, and every group of rowids
// whose bits, say a value cannot be there; an index that leaves out a value's bytes would make it
// answer "not found" where the value is. Both are recomputed here from the value blocks, as the
// writer computes them, and each filter or group row that differs is a violation.
#pragma once

#include "core/storage/sqlite.h"

#include <QString>
#include <functional>

namespace memhist::check {

class ValueIndexCheck
{
public:
    static constexpr auto valueIndex
        = "the value index (filters and groups) is the one the value blocks give, so no search skips a value";
    // The differing rows named one by one; the rest are counted.
    static constexpr int namedRows = 5;

    // Called for each violation: its property and the whole message.
    using Report = std::function<void(const char *property, const QString &message)>;

    ValueIndexCheck(sqlite::Connection &connection, Report report);

    // Reads the value blocks and the index when the history has them; false when a read fails
    // (*error says which).
    bool run(QString *error);

private:
    sqlite::Connection &m_connection;
    Report m_report;
};

} // namespace memhist::check
