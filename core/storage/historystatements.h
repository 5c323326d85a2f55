// SPDX-License-Identifier: MIT
// The SQL HistoryDatabase runs when it opens a history and describes it (its shape, the optional
// meta and _metadata tables, the summary counts), in one reviewed place.
#pragma once

#include "core/storage/statementlist.h"

namespace memhist::statements {

// SQLite reads the header lazily: the first statement is where a damaged or foreign file shows.
inline constexpr const char *schemaObjectCount = "SELECT count(*) FROM sqlite_schema";
inline constexpr const char *tableExists = "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?1";
inline constexpr const char *tableColumns = "SELECT name, type FROM pragma_table_info(?1)";
// Every object of the schema with its type and SQL (to refuse views and virtual tables under our
// names, and partial indexes where we need whole ones).
inline constexpr const char *schemaObjects = "SELECT type, name, coalesce(sql, '') FROM sqlite_schema";
// The index must belong to the table: pragma_index_info alone would accept a same-named index on
// another table.
inline constexpr const char *indexTable = "SELECT tbl_name FROM sqlite_schema WHERE type = 'index' AND name = ?1";
inline constexpr const char *indexColumns = "SELECT name FROM pragma_index_info(?1) ORDER BY seqno";

inline constexpr const char *metaRows = "SELECT key, value FROM meta";
// The reference readers' table (one row; DESIGN.md §1). Read by column name, so that a table
// with other columns is reported instead of misread.
inline constexpr const char *referenceMetadata
    = "SELECT metadata_version, type, format_version, tool_name, tool_version, tool_info, generation_date "
      "FROM _metadata ORDER BY rowid LIMIT 1";

inline constexpr const char *accessCountsByOperation = "SELECT operation, count(*) FROM accesses GROUP BY operation";
inline constexpr const char *sliceCount = "SELECT count(*) FROM slices";
inline constexpr const char *chunkCount = "SELECT count(*) FROM chunks";
// A lone max() of the rowid: SQLite reads it from the b-tree's end.
inline constexpr const char *lastChunkRowId = "SELECT max(rowid) FROM chunks";
// Two statements: SQLite answers a lone first or last row from the b-tree's ends.
inline constexpr const char *firstAccess = "SELECT rowid, transition FROM accesses ORDER BY rowid LIMIT 1";
inline constexpr const char *lastAccess = "SELECT rowid, transition FROM accesses ORDER BY rowid DESC LIMIT 1";

inline constexpr NamedStatement historyStatements[] = {
    MEMHIST_STATEMENT(schemaObjectCount),
    MEMHIST_STATEMENT(tableExists),
    MEMHIST_STATEMENT(tableColumns),
    MEMHIST_STATEMENT(schemaObjects),
    MEMHIST_STATEMENT(indexTable),
    MEMHIST_STATEMENT(indexColumns),
    MEMHIST_STATEMENT(metaRows),
    MEMHIST_STATEMENT(referenceMetadata),
    MEMHIST_STATEMENT(accessCountsByOperation),
    MEMHIST_STATEMENT(sliceCount),
    MEMHIST_STATEMENT(chunkCount),
    MEMHIST_STATEMENT(lastChunkRowId),
    MEMHIST_STATEMENT(firstAccess),
    MEMHIST_STATEMENT(lastAccess),
};

} // namespace memhist::statements
