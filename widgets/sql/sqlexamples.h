// SPDX-License-Identifier: MIT
// The example statements the SQL console offers, in one reviewed place. Each runs on any database
// of the format (DESIGN.md §1): only the three base tables and SQLite's own schema table.
#pragma once

#include <QCoreApplication>

namespace memhist::sqlexamples {

struct Example
{
    const char *title; // translated in the console's context
    const char *statement;
};

inline constexpr Example examples[] = {
    { QT_TRANSLATE_NOOP("memhist::SqlConsole", "Accesses per operation"),
        "SELECT CASE operation WHEN 1 THEN 'X (execute)' WHEN 2 THEN 'W (write)' WHEN 4 THEN 'R (read)'\n"
        "       ELSE operation END AS operation,\n"
        "       count(*) AS accesses\n"
        "FROM accesses\n"
        "GROUP BY accesses.operation\n"
        "ORDER BY accesses DESC" },
    { QT_TRANSLATE_NOOP("memhist::SqlConsole", "The 20 busiest chunks"),
        "SELECT a.chunk_id, c.slice_id,\n"
        "       printf('0x%x', c.phy_first) AS first_byte, printf('0x%x', c.phy_last) AS last_byte,\n"
        "       c.operation, count(*) AS accesses\n"
        "FROM accesses AS a JOIN chunks AS c ON c.rowid = a.chunk_id\n"
        "GROUP BY a.chunk_id\n"
        "ORDER BY accesses DESC\n"
        "LIMIT 20" },
    { QT_TRANSLATE_NOOP("memhist::SqlConsole", "Slices"),
        "SELECT rowid AS slice, transition_first, transition_last,\n"
        "       transition_last - transition_first + 1 AS transitions\n"
        "FROM slices\n"
        "ORDER BY transition_first, rowid" },
    { QT_TRANSLATE_NOOP("memhist::SqlConsole", "Tables and indexes"),
        "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type DESC, name" },
};

} // namespace memhist::sqlexamples
