// SPDX-License-Identifier: MIT
// Stores the context tables (contextschema.h) in a history being written: the rows streamed
// while the trace is read (code_trace, access_value_blocks, early code rows) and, at the end,
// everything resolved.
// Creates each table when it gets its first row, so a history holds only the tables it fills,
// and their indexes last, once, from sorted keys (as the writer does for the base tables).
//
// Used on the writer's connection by one thread at a time (the writer's store thread while the
// trace is read, the writer's own thread at the end).
#pragma once

#include "core/context/contextrows.h"
#include "core/storage/batchinsert.h"
#include "core/storage/sqlite.h"
#include "core/values/valuegroups.h"

#include <memory>

namespace memhist {

class ContextTableWriter
{
public:
    explicit ContextTableWriter(sqlite::Connection &connection);

    bool writeBatch(const ContextBatch &batch);
    // Deletes early code rows the end resolved otherwise; before writeResolved().
    bool deleteEarlyCode(const EarlyCodeDeletions &deletions);
    bool writeResolved(const ResolvedContext &context);
    // The indexes of the tables written; call once, after the last row. Drops the tables whose
    // early rows were all deleted and that got no others.
    bool createIndexes();

private:
    // Creates the table the first time; false on an SQL error.
    bool ensureTable(const char *createSql, bool *created);
    bool writeCodeTrace(const std::vector<CodeTraceRow> &rows);
    bool writeValues(const std::vector<ValueBlock> &blocks);
    bool writeValueGroups(bool last);
    // A code table written both early and at the end: created with its first row, its index
    // (when it has one) built last, dropped when its early rows were all deleted and the end
    // gave it none.
    struct CodeTable
    {
        const char *name;
        const char *create;
        const char *index; // null: none
        bool created = false;
    };
    template<typename Row, typename BindRow>
    bool writeCodeRows(CodeTable &table, const char *insertHead, const std::vector<Row> &rows, const BindRow &bindRow);
    bool writeInstructions(const std::vector<InstructionRow> &rows);
    bool writeSourceFiles(const std::vector<SourceFileRow> &rows);
    bool writeSourceLines(const std::vector<SourceLineRow> &rows);
    bool dropIfEmptied(CodeTable &table);

    sqlite::Connection &m_connection;
    bool m_codeTraceCreated = false;
    bool m_valuesCreated = false;
    CodeTable m_instructions;
    CodeTable m_sourceFiles;
    CodeTable m_sourceLines;
    bool m_earlyRowsDeleted = false;
    sqlite::BatchInsert m_insertCodeTrace;
    sqlite::BatchInsert m_insertValue;
    sqlite::BatchInsert m_insertValueFilter;
    sqlite::BatchInsert m_insertValueGroups;
    std::unique_ptr<valuegroups::Builder> m_valueGroups; // with the first values
    QList<const char *> m_pendingIndexes;
};

} // namespace memhist
