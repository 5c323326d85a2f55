// SPDX-License-Identifier: MIT
#include "core/context/contexttablewriter.h"

#include "core/context/contextschema.h"
#include "core/storage/batchinsert.h"
#include "core/values/valuestatements.h"

namespace memhist {

namespace {

// Inserts every row of `rows` through `head` (sqlite::BatchInsert); bindRow(statement, first
// parameter, row) binds a row's columns.
template<typename Row, typename BindRow>
bool insertAll(sqlite::Connection &connection, const char *head, const std::vector<Row> &rows, const BindRow &bindRow)
{
    sqlite::BatchInsert insert(connection, head);
    return insert.isValid()
        && insert.insert(rows.size(), [&](sqlite::Statement &statement, int first, std::size_t index) {
               bindRow(statement, first, rows[index]);
           });
}

void bindRange(sqlite::Statement &statement, int firstParameter, const AddressRange &range)
{
    statement.bind(firstParameter, toStored(range.first.value));
    statement.bind(firstParameter + 1, toStored(range.last.value));
}

} // namespace

ContextTableWriter::ContextTableWriter(sqlite::Connection &connection)
    : m_connection(connection)
    , m_instructions { "instructions", contextschema::createInstructionsTable, nullptr }
    , m_sourceFiles { "source_files", contextschema::createSourceFilesTable, nullptr }
    , m_sourceLines { "source_lines", contextschema::createSourceLinesTable, contextschema::createSourceLinesIndex }
{ }

bool ContextTableWriter::ensureTable(const char *createSql, bool *created)
{
    if (*created)
        return true;
    if (!m_connection.execute(createSql))
        return false;
    *created = true;
    return true;
}

bool ContextTableWriter::writeCodeTrace(const std::vector<CodeTraceRow> &rows)
{
    if (rows.empty())
        return true;
    if (!m_codeTraceCreated) {
        if (!ensureTable(contextschema::createCodeTraceTable, &m_codeTraceCreated))
            return false;
        m_insertCodeTrace = sqlite::BatchInsert(m_connection, contextschema::insertCodeTrace);
    }
    return m_insertCodeTrace.isValid()
        && m_insertCodeTrace.insert(rows.size(), [&](sqlite::Statement &insert, int first, std::size_t index) {
               insert.bind(first, toStored(rows[index].first.value));
               insert.bindBlob(first + 1, rows[index].runs);
           });
}

bool ContextTableWriter::writeValues(const std::vector<ValueBlock> &blocks)
{
    if (blocks.empty())
        return true;
    if (!m_valuesCreated) {
        bool filtersCreated = false;
        bool groupsCreated = false;
        if (!ensureTable(valueschema::createBlocksTable, &m_valuesCreated)
            || !ensureTable(valueschema::createFiltersTable, &filtersCreated)
            || !ensureTable(valueschema::createGroupsTable, &groupsCreated))
            return false;
        m_insertValue = sqlite::BatchInsert(m_connection, valueschema::insertBlock);
        m_insertValueFilter = sqlite::BatchInsert(m_connection, valueschema::insertFilter);
        m_insertValueGroups = sqlite::BatchInsert(m_connection, valueschema::insertGroups);
        m_valueGroups = std::make_unique<valuegroups::Builder>();
    }
    // The second level of the index from the blocks' values (every value, as its block filter).
    DecodedValueBlock decoded;
    for (const ValueBlock &block : blocks) {
        if (!decoded.decode(block.first, block.last, block.layout, block.bytes))
            continue; // not the encoder's output: nothing a search could find in it either
        for (qint64 id = block.first; id <= block.last; ++id)
            m_valueGroups->add(id, decoded.bytesOf(id));
    }
    return m_insertValue.isValid() && m_insertValueFilter.isValid() && writeValueGroups(false)
        && m_insertValue.insert(blocks.size(),
            [&](sqlite::Statement &insert, int first, std::size_t index) {
                const ValueBlock &block = blocks[index];
                insert.bind(first, block.first);
                insert.bind(first + 1, block.last);
                insert.bindBlob(first + 2, block.layout);
                insert.bindBlob(first + 3, block.bytes);
            })
        && m_insertValueFilter.insert(blocks.size(), [&](sqlite::Statement &insert, int first, std::size_t index) {
               insert.bind(first, blocks[index].first);
               insert.bindBlob(first + 1, blocks[index].filter);
           });
}

bool ContextTableWriter::writeValueGroups(bool last)
{
    const std::vector<valuegroups::Builder::Row> rows = m_valueGroups->takeRows(last);
    return rows.empty()
        || (m_insertValueGroups.isValid()
            && m_insertValueGroups.insert(rows.size(), [&](sqlite::Statement &insert, int first, std::size_t index) {
                   insert.bind(first, rows[index].key);
                   insert.bindBlob(first + 1, rows[index].bytes());
               }));
}

template<typename Row, typename BindRow>
bool ContextTableWriter::writeCodeRows(
    CodeTable &table, const char *insertHead, const std::vector<Row> &rows, const BindRow &bindRow)
{
    if (rows.empty())
        return true;
    if (!table.created) {
        if (!ensureTable(table.create, &table.created))
            return false;
        if (table.index)
            m_pendingIndexes << table.index;
    }
    return insertAll(m_connection, insertHead, rows, bindRow);
}

bool ContextTableWriter::writeInstructions(const std::vector<InstructionRow> &rows)
{
    return writeCodeRows(m_instructions, contextschema::insertInstruction, rows,
        [](sqlite::Statement &insert, int first, const InstructionRow &row) {
            insert.bind(first, toStored(row.pc.value));
            insert.bindBlob(first + 1, row.bytes);
            insert.bind(first + 2, row.text);
        });
}

bool ContextTableWriter::writeSourceFiles(const std::vector<SourceFileRow> &rows)
{
    return writeCodeRows(m_sourceFiles, contextschema::insertSourceFile, rows,
        [](sqlite::Statement &insert, int first, const SourceFileRow &row) {
            insert.bind(first, row.id);
            insert.bind(first + 1, row.path);
        });
}

bool ContextTableWriter::writeSourceLines(const std::vector<SourceLineRow> &rows)
{
    return writeCodeRows(m_sourceLines, contextschema::insertSourceLine, rows,
        [](sqlite::Statement &insert, int first, const SourceLineRow &row) {
            bindRange(insert, first, row.range);
            insert.bind(first + 2, row.fileId);
            insert.bind(first + 3, row.line);
        });
}

bool ContextTableWriter::writeBatch(const ContextBatch &batch)
{
    return writeCodeTrace(batch.codeTrace) && writeValues(batch.values) && writeInstructions(batch.code.instructions)
        && writeSourceFiles(batch.code.sourceFiles) && writeSourceLines(batch.code.sourceLines);
}

bool ContextTableWriter::deleteEarlyCode(const EarlyCodeDeletions &deletions)
{
    using namespace contextschema;
    const auto deleteEach = [&](const char *sql, const auto &keys, const auto &bindKey) {
        if (keys.empty())
            return true;
        sqlite::Statement statement = m_connection.prepare(sql);
        for (const auto &key : keys) {
            bindKey(statement, key);
            if (!statement.run())
                return false;
        }
        return true;
    };
    const bool deleted = deleteEach(deleteInstruction, deletions.instructions,
                             [](sqlite::Statement &statement, Address pc) { statement.bind(1, toStored(pc.value)); })
        && deleteEach(deleteSourceFile, deletions.sourceFiles,
            [](sqlite::Statement &statement, qint64 id) { statement.bind(1, id); })
        && (!deletions.allSourceLines || !m_sourceLines.created || m_connection.execute(deleteSourceLines));
    m_earlyRowsDeleted = m_earlyRowsDeleted || !deletions.isEmpty();
    return deleted;
}

bool ContextTableWriter::dropIfEmptied(CodeTable &table)
{
    // The history holds only the tables it fills.
    if (!table.created)
        return true;
    const QByteArray anyRowSql = QByteArray("SELECT 1 FROM ") + table.name + " LIMIT 1";
    const QByteArray dropSql = QByteArray("DROP TABLE ") + table.name;
    int step = SQLITE_ERROR;
    if (sqlite::Statement anyRow = m_connection.prepare(anyRowSql.constData()); anyRow.isValid())
        step = anyRow.step(); // and finalised before the table is dropped
    if (step == SQLITE_ROW)
        return true;
    if (step != SQLITE_DONE || !m_connection.execute(dropSql.constData()))
        return false;
    table.created = false;
    if (table.index)
        m_pendingIndexes.removeAll(table.index);
    return true;
}

bool ContextTableWriter::writeResolved(const ResolvedContext &context)
{
    using namespace contextschema;
    // Each table only when it has rows; `index` is created by createIndexes().
    const auto table
        = [&](const auto &rows, const char *create, const char *index, const char *insert, const auto &bindRow) {
              if (rows.empty())
                  return true;
              if (!m_connection.execute(create) || !insertAll(m_connection, insert, rows, bindRow))
                  return false;
              if (index)
                  m_pendingIndexes << index;
              return true;
          };
    qint64 runId = 0; // code_runs ids are the runs' positions, from 1
    return table(context.codeRuns, createCodeRunsTable, nullptr, insertCodeRun,
               [&runId](sqlite::Statement &insert, int first, const CodeRun &run) {
                   insert.bind(first, ++runId);
                   insert.bind(first + 1, toStored(run.pc.value));
                   insert.bindBlob(first + 2, run.sizes);
               })
        && table(context.modules, createModulesTable, nullptr, insertModule,
            [](sqlite::Statement &insert, int first, const ModuleRow &row) {
                insert.bind(first, row.id);
                insert.bind(first + 1, row.module.path);
                insert.bind(first + 2, toStored(row.module.bias));
                insert.bind(first + 3, row.module.buildId);
                insert.bind(first + 4, toStored(row.module.first.value));
                insert.bind(first + 5, toStored(row.module.last.value));
            })
        && table(context.memoryMap, createMemoryMapTable, createMemoryMapIndex, insertMemoryMap,
            [](sqlite::Statement &insert, int first, const MemoryMapRow &row) {
                insert.bind(first, toStored(row.first.value));
                insert.bind(first + 1, toStored(row.last.value));
                insert.bind(first + 2, toStored(row.mapping.first.value));
                insert.bind(first + 3, toStored(row.mapping.last.value));
                insert.bind(first + 4, row.mapping.permissions);
                insert.bind(first + 5, toStored(row.mapping.fileOffset));
                insert.bind(first + 6, row.mapping.path);
                if (row.moduleId > 0)
                    insert.bind(first + 7, row.moduleId);
                else
                    insert.bindNull(first + 7);
            })
        && table(context.sections, createModuleSectionsTable, createModuleSectionsIndex, insertModuleSection,
            [](sqlite::Statement &insert, int first, const ModuleSectionRow &row) {
                insert.bind(first, row.moduleId);
                insert.bind(first + 1, row.section.name);
                bindRange(insert, first + 2, row.section.range);
            })
        && table(context.functions, createFunctionsTable, createFunctionsIndex, insertFunction,
            [](sqlite::Statement &insert, int first, const FunctionRow &row) {
                insert.bind(first, row.id);
                insert.bind(first + 1, row.moduleId);
                insert.bind(first + 2, row.name);
                bindRange(insert, first + 3, row.range);
            })
        && table(context.dataObjects, createDataObjectsTable, createDataObjectsIndex, insertDataObject,
            [](sqlite::Statement &insert, int first, const DataObjectRow &row) {
                insert.bind(first, row.moduleId);
                insert.bind(first + 1, row.object.name);
                bindRange(insert, first + 2, row.object.range);
            })
        && writeSourceFiles(context.sourceFiles) && writeSourceLines(context.sourceLines)
        && writeInstructions(context.instructions);
}

bool ContextTableWriter::createIndexes()
{
    if (m_valueGroups && !writeValueGroups(true))
        return false;
    if (m_earlyRowsDeleted
        && (!dropIfEmptied(m_instructions) || !dropIfEmptied(m_sourceLines) || !dropIfEmptied(m_sourceFiles)))
        return false;
    for (const char *index : std::as_const(m_pendingIndexes)) {
        if (!m_connection.execute(index))
            return false;
    }
    m_pendingIndexes.clear();
    return true;
}

} // namespace memhist
