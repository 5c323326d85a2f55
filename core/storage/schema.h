// SPDX-License-Identifier: MIT
// Every SQL statement that defines or fills the memhist file format, in one reviewed place.
// The three base tables and their indexes are those of the storage model spec
// (shared/seeds/memhistwriter-storage-model.md) with the corrections of DESIGN.md §1.
#pragma once

namespace memhist::schema {

// The format version written to meta.format_version. Bump on any incompatible change.
inline constexpr int formatVersion = 1;

// The tables alone: the writer fills them first and builds the slices' and chunks' indexes once at
// the end (a sort then writes packed index pages, instead of the half-full pages of scattered
// inserts); the accesses' index it appends in key order as it goes (createAccessKeys below).
// createBaseTables makes the whole shape at once, indexes included.
#define MEMHIST_BASE_TABLES_SQL                                                                                        \
    "CREATE TABLE slices(transition_first int8 not null, transition_last int8 not null);\n"                            \
    "CREATE TABLE chunks(slice_id int8 not null, phy_first int8 not null, phy_last int8 not null, "                    \
    "operation int not null);\n"                                                                                       \
    "CREATE TABLE accesses(chunk_id int8 not null, transition int8 not null, linear int8, phy_first int8 not null, "   \
    "size int not null, operation int not null);\n"
#define MEMHIST_SLICE_AND_CHUNK_INDEXES_SQL                                                                            \
    "CREATE INDEX idx_slices_1 ON slices(transition_last);\n"                                                          \
    "CREATE INDEX idx_chunks_1 ON chunks(operation, slice_id, phy_last);\n"
#define MEMHIST_ACCESSES_INDEX_SQL "CREATE INDEX idx_accesses_1 ON accesses(chunk_id, transition)"
inline constexpr const char *createBaseTablesWithoutIndexes = MEMHIST_BASE_TABLES_SQL;
inline constexpr const char *createBaseTables
    = MEMHIST_BASE_TABLES_SQL MEMHIST_SLICE_AND_CHUNK_INDEXES_SQL MEMHIST_ACCESSES_INDEX_SQL ";\n";
inline constexpr const char *createSliceAndChunkIndexes = MEMHIST_SLICE_AND_CHUNK_INDEXES_SQL;

// The writer's idx_accesses_1 without a sort. Its keys, (chunk_id, transition, rowid), are stored
// while the accesses are, in key order (each slice's keys follow the previous slice's), into a
// WITHOUT ROWID table whose b-tree is laid out exactly as that index's: the same three integer
// columns in the same order, compared the same way. Appending them cost less than sorting them
// all at the end (CREATE INDEX, with its sorter threads, was about half of the writer's CPU on
// gzip's accesses), though its pages are less full (about 2.5 bytes per access more). finish()
// then makes that b-tree the index by editing its row of sqlite_schema, and RESET reloads the
// schema; SQLite's integrity check (memhist check) compares every index entry with its row. See
// docs/benchmarks.md, "Recording with memhist's Valgrind tool".
inline constexpr const char *createAccessKeys
    = "CREATE TABLE accesses_index_keys(chunk_id int8 not null, transition int8 not null, access int8 not null, "
      "PRIMARY KEY(chunk_id, transition, access)) WITHOUT ROWID";
inline constexpr const char *insertAccessKeys = "INSERT INTO accesses_index_keys(chunk_id, transition, access) VALUES";
inline constexpr const char *adoptAccessKeysAsIndex
    = "PRAGMA writable_schema = ON;\n"
      "UPDATE sqlite_schema SET type = 'index', name = 'idx_accesses_1', tbl_name = 'accesses', sql = "
      "'" MEMHIST_ACCESSES_INDEX_SQL "' WHERE type = 'table' AND name = 'accesses_index_keys';\n"
      "PRAGMA writable_schema = RESET;\n";
#undef MEMHIST_BASE_TABLES_SQL
#undef MEMHIST_SLICE_AND_CHUNK_INDEXES_SQL
#undef MEMHIST_ACCESSES_INDEX_SQL

// Optional to readers: a database holding only the base tables works everywhere.
inline constexpr const char *createMetaTable = "CREATE TABLE meta(key text primary key, value text not null)";

// Optional: which thread ran which transitions, for traces that know (drmemtrace).
inline constexpr const char *createThreadSpansTable = R"sql(
CREATE TABLE thread_spans(thread_id int8 not null, transition_first int8 not null, transition_last int8 not null);
CREATE INDEX idx_thread_spans_1 ON thread_spans(transition_last);
)sql";
inline constexpr const char *insertThreadSpan
    = "INSERT INTO thread_spans(thread_id, transition_first, transition_last) VALUES(?1, ?2, ?3)";

// Optional: the address summary (storage/addresssummaryformat.h says what the rows hold). Written
// by the writer at the end, from the chunks table (storage/addresssummarybuilder.h), in key order.
// A rowid table and an index rather than a WITHOUT ROWID table: rows of several KiB stay on their
// table page (up to ~16 KiB) instead of spilling all but 4 KiB into a mostly empty overflow page
// each (measured: 42 MB for 14 MB of postings at 10^8 accesses).
inline constexpr const char *createAddressSummaryTables = R"sql(
CREATE TABLE address_summary(shift int not null, block int8 not null, next int8 not null, checksum int8 not null,
    postings blob not null);
CREATE UNIQUE INDEX idx_address_summary_1 ON address_summary(shift, block);
CREATE TABLE address_summary_info(version int not null, finest_shift int not null, level_step int not null,
    levels int not null, row_bytes int not null, max_span int not null, slices int8 not null,
    last_chunk int8 not null, wide_postings blob not null, checksum int8 not null);
)sql";
inline constexpr const char *insertAddressSummaryRow
    = "INSERT INTO address_summary(shift, block, next, checksum, postings) VALUES(?1, ?2, ?3, ?4, ?5)";
inline constexpr const char *insertAddressSummaryInfo
    = "INSERT INTO address_summary_info(version, finest_shift, level_step, levels, row_bytes, max_span, slices, "
      "last_chunk, wide_postings, checksum) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";

inline constexpr const char *insertSlice
    = "INSERT INTO slices(rowid, transition_first, transition_last) VALUES(?1, ?2, ?3)";
// Chunks and accesses are inserted several rows per statement (sqlite::BatchInsert).
// Chunk rowids are not bound: the writer inserts chunks in rowid order from 1, so SQLite's next
// rowid (the largest + 1, read from the cursor it keeps at the table's end) is the planned id, and
// an explicit rowid would cost a b-tree seek per row to check it is free. The writer checks the
// last rowid after every slice.
inline constexpr const char *insertChunks = "INSERT INTO chunks(slice_id, phy_first, phy_last, operation) VALUES";
inline constexpr const char *insertAccesses
    = "INSERT INTO accesses(chunk_id, transition, linear, phy_first, size, operation) VALUES";
inline constexpr const char *insertMeta = "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)";

// The metadata the reference readers require (tetrane's rvnsqlite ResourceDatabase::open): a table
// `_metadata` holding exactly one row. They read it with `select *` and take the columns by
// position, so the columns keep this order; they parse format_version and tool_version as semantic
// versions, and type 3 is their "memory history" resource.
inline constexpr const char *createReferenceMetadataTable
    = "CREATE TABLE _metadata(metadata_version int, type int, format_version text, tool_name text, "
      "tool_version text, tool_info text, generation_date int8)";
inline constexpr const char *insertReferenceMetadata
    = "INSERT INTO _metadata(metadata_version, type, format_version, tool_name, tool_version, tool_info, "
      "generation_date) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)";
namespace referenceMetadata {
inline constexpr int metadataVersion = 1;
inline constexpr int memoryHistoryType = 3;
// The version of the storage model, as the reference writer states it.
inline constexpr const char *formatVersion = "1.0.0";
inline constexpr const char *toolName = "memhist";
} // namespace referenceMetadata

// Pragmas for a writer that owns its file exclusively until it renames it into place: the file
// is either complete or deleted, so a journal and fsyncs before the end buy nothing. The indexes
// are built at the end by CREATE INDEX, whose sorter spills sorted runs of at most the cache size
// (here 16 MiB) to temporary files, sorted by the connection thread and up to three helper threads
// (`threads`): memory stays bounded whatever the history's size. Three, on 2 cores, built the
// indexes of a 10^7-access history in 6.0-6.8 s against 7.7-8.4 s with two (run alternately;
// four and six were no better and took more memory). temp_store must be FILE: with MEMORY the
// sorter never spills and the whole index would be sorted in RAM.
inline constexpr const char *writerPragmas = R"sql(
PRAGMA page_size = 16384;
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA locking_mode = EXCLUSIVE;
PRAGMA temp_store = FILE;
PRAGMA cache_size = -16384;
PRAGMA threads = 3;
)sql";

// Pragmas for read-only connections: memory-map the file (SQLite caps the size at its compiled
// limit) and keep a 64 MiB page cache for what is not mapped.
inline constexpr const char *readerPragmas = R"sql(
PRAGMA mmap_size = 2147418112;
PRAGMA cache_size = -65536;
)sql";

// The shape a reader requires: table -> columns, and index -> (table, columns in order).
struct RequiredTable
{
    const char *name;
    const char *columns[6];
};
// Every table memhist reads, required or optional. A file may hold other objects, but under these
// names only real tables: a view or a virtual table there would run SQL of the file's choosing
// (an endless recursive view, a huge printf()) inside every read of it.
inline constexpr const char *memhistTableNames[] = {
    "slices",
    "chunks",
    "accesses",
    "meta",
    "_metadata",
    "thread_spans",
    "address_summary",
    "address_summary_info",
    "summary_info",
    "summary_tiles",
    "code_runs",
    "code_trace",
    "memory_map",
    "modules",
    "module_sections",
    "functions",
    "data_objects",
    "source_files",
    "source_lines",
    "instructions",
    "access_value_blocks",
    "access_value_filters",
    "access_value_groups",
    "access_values",
};

inline constexpr RequiredTable requiredTables[] = {
    { "slices", { "transition_first", "transition_last" } },
    { "chunks", { "slice_id", "phy_first", "phy_last", "operation" } },
    { "accesses", { "chunk_id", "transition", "linear", "phy_first", "size", "operation" } },
};

struct RequiredIndex
{
    const char *name;
    const char *table;
    const char *columns[3];
};
inline constexpr RequiredIndex requiredIndexes[] = {
    { "idx_slices_1", "slices", { "transition_last" } },
    { "idx_chunks_1", "chunks", { "operation", "slice_id", "phy_last" } },
    { "idx_accesses_1", "accesses", { "chunk_id", "transition" } },
};

// Meta keys written by memhist (DESIGN.md §1). Readers treat every key as optional.
namespace meta {
inline constexpr const char *formatVersion = "format_version";
inline constexpr const char *writer = "writer";
inline constexpr const char *writerVersion = "writer_version";
inline constexpr const char *createdAt = "created_at";
inline constexpr const char *sources = "sources"; // one "FORMAT\tPATH" per line
inline constexpr const char *accesses = "accesses";
inline constexpr const char *reads = "reads";
inline constexpr const char *writes = "writes";
inline constexpr const char *executes = "executes";
inline constexpr const char *slices = "slices";
inline constexpr const char *chunks = "chunks";
inline constexpr const char *transitionFirst = "transition_first";
inline constexpr const char *transitionLast = "transition_last";
inline constexpr const char *sliceAccessCap = "slice_access_cap";
inline constexpr const char *chunkAccessCap = "chunk_access_cap";
} // namespace meta

} // namespace memhist::schema
