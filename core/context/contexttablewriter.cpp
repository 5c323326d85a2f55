#include "core/context/contexttablewriter.h"

#include "core/context/contextschema.h"

namespace memhist {

namespace {

// Inserts every row of `rows` through one statement; bindRow binds a row's columns.
template<typename Row, typename BindRow>
bool insertAll(sqlite::Connection &connection, const char *sql, const std::vector<Row> &rows, const BindRow &bindRow)
{
    sqlite::Statement insert = connection.prepare(sql);
    if (!insert.isValid())
        return false;
    for (const Row &row : rows) {
        bindRow(insert, row);
        if (!insert.run())
            return false;
    }
    return true;
}

void bindRange(sqlite::Statement &statement, int firstParameter, const AddressRange &range)
{
    statement.bind(firstParameter, toStored(range.first.value));
    statement.bind(firstParameter + 1, toStored(range.last.value));
}

} // namespace

ContextTableWriter::ContextTableWriter(sqlite::Connection &connection)
    : m_connection(connection)
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
        m_insertCodeTrace = m_connection.prepare(contextschema::insertCodeTrace);
    }
    if (!m_insertCodeTrace.isValid())
        return false;
    for (const CodeTraceRow &row : rows) {
        m_insertCodeTrace.bind(1, toStored(row.first.value));
        m_insertCodeTrace.bindBlob(2, row.runs);
        if (!m_insertCodeTrace.run())
            return false;
    }
    return true;
}

bool ContextTableWriter::writeValues(const AccessValueBatch &values)
{
    if (values.isEmpty())
        return true;
    if (!m_valuesCreated) {
        if (!ensureTable(contextschema::createAccessValuesTable, &m_valuesCreated))
            return false;
        m_insertValue = m_connection.prepare(contextschema::insertAccessValue);
    }
    if (!m_insertValue.isValid())
        return false;
    for (std::size_t i = 0; i < values.size(); ++i) {
        m_insertValue.bind(1, values.accessIds[i]);
        m_insertValue.bindBlob(2, values.valueAt(i));
        if (!m_insertValue.run())
            return false;
    }
    return true;
}

bool ContextTableWriter::writeBatch(const ContextBatch &batch)
{
    return writeCodeTrace(batch.codeTrace) && writeValues(batch.values);
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
               [&runId](sqlite::Statement &insert, const CodeRun &run) {
                   insert.bind(1, ++runId);
                   insert.bind(2, toStored(run.pc.value));
                   insert.bindBlob(3, run.sizes);
               })
        && table(context.modules, createModulesTable, nullptr, insertModule,
            [](sqlite::Statement &insert, const ModuleRow &row) {
                insert.bind(1, row.id);
                insert.bind(2, row.module.path);
                insert.bind(3, toStored(row.module.bias));
                insert.bind(4, row.module.buildId);
                insert.bind(5, toStored(row.module.first.value));
                insert.bind(6, toStored(row.module.last.value));
            })
        && table(context.memoryMap, createMemoryMapTable, createMemoryMapIndex, insertMemoryMap,
            [](sqlite::Statement &insert, const MemoryMapRow &row) {
                insert.bind(1, toStored(row.first.value));
                insert.bind(2, toStored(row.last.value));
                insert.bind(3, toStored(row.mapping.first.value));
                insert.bind(4, toStored(row.mapping.last.value));
                insert.bind(5, row.mapping.permissions);
                insert.bind(6, toStored(row.mapping.fileOffset));
                insert.bind(7, row.mapping.path);
                if (row.moduleId > 0)
                    insert.bind(8, row.moduleId);
                else
                    insert.bindNull(8);
            })
        && table(context.sections, createModuleSectionsTable, createModuleSectionsIndex, insertModuleSection,
            [](sqlite::Statement &insert, const ModuleSectionRow &row) {
                insert.bind(1, row.moduleId);
                insert.bind(2, row.section.name);
                bindRange(insert, 3, row.section.range);
            })
        && table(context.functions, createFunctionsTable, createFunctionsIndex, insertFunction,
            [](sqlite::Statement &insert, const FunctionRow &row) {
                insert.bind(1, row.id);
                insert.bind(2, row.moduleId);
                insert.bind(3, row.name);
                bindRange(insert, 4, row.range);
            })
        && table(context.dataObjects, createDataObjectsTable, createDataObjectsIndex, insertDataObject,
            [](sqlite::Statement &insert, const DataObjectRow &row) {
                insert.bind(1, row.moduleId);
                insert.bind(2, row.object.name);
                bindRange(insert, 3, row.object.range);
            })
        && table(context.sourceFiles, createSourceFilesTable, nullptr, insertSourceFile,
            [](sqlite::Statement &insert, const SourceFileRow &row) {
                insert.bind(1, row.id);
                insert.bind(2, row.path);
            })
        && table(context.sourceLines, createSourceLinesTable, createSourceLinesIndex, insertSourceLine,
            [](sqlite::Statement &insert, const SourceLineRow &row) {
                bindRange(insert, 1, row.range);
                insert.bind(3, row.fileId);
                insert.bind(4, row.line);
            })
        && table(context.instructions, createInstructionsTable, nullptr, insertInstruction,
            [](sqlite::Statement &insert, const InstructionRow &row) {
                insert.bind(1, toStored(row.pc.value));
                insert.bindBlob(2, row.bytes);
                insert.bind(3, row.text);
            });
}

bool ContextTableWriter::createIndexes()
{
    for (const char *index : std::as_const(m_pendingIndexes)) {
        if (!m_connection.execute(index))
            return false;
    }
    m_pendingIndexes.clear();
    return true;
}

} // namespace memhist
