// SPDX-License-Identifier: MIT
// Every statement of every statements header, against the schema: each prepares, and EXPLAIN QUERY
// PLAN shows each query using the index (or rowid) it was written for, or scanning the table it is
// meant to scan. A plan that falls back to a scan would make a query slow on a large history without
// any answer changing; only this test would notice.
//
// The statements come from the headers' own lists (core/storage/statementlist.h), the expected
// plans from the table below: a statement added to a header without a row here fails
// everyStatementHasAnExpectedPlan, a row left behind by a removed statement fails
// everyExpectedPlanNamesAStatement.
#include "core/charts/chartstatements.h"
#include "core/checker/checkstatements.h"
#include "core/context/contextschema.h"
#include "core/context/contextstatements.h"
#include "core/diff/diffstatements.h"
#include "core/origin/originstatements.h"
#include "core/query/querystatements.h"
#include "core/search/searchstatements.h"
#include "core/storage/addresssummarystatements.h"
#include "core/storage/historystatements.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"
#include "core/storage/threadspanstatements.h"
#include "core/summary/summarystatements.h"
#include "core/values/valuestatements.h"
#include "core/writer/historywriter.h"
#include "testsupport.h"
#include "widgets/plane/planestatements.h"
#include "widgets/sql/sqlexamples.h"

#include <QHash>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <span>

using namespace memhist;

namespace {

struct StatementList
{
    const char *header;
    std::span<const statements::NamedStatement> statements;
};

const StatementList statementLists[] = {
    { "query", statements::queryStatements },
    { "history", statements::historyStatements },
    { "addresssummary", statements::addressSummaryStatements },
    { "threadspan", statements::threadSpanStatements },
    { "check", check::sql::checkStatements },
    { "summary", summary::statements::summaryStatements },
    { "context", contextstatements::contextStatements },
    { "values", valueschema::valueStatements },
    { "search", searchstatements::searchStatements },
    { "origin", originstatements::originStatements },
    { "diff", diffstatements::diffStatements },
    { "plane", plane::statements::planeStatements },
    { "charts", charts::statements::chartStatements },
};

// Where a statement is prepared: the history with every optional table, or a database with the
// base tables only (the statements that create an optional table, and the console's examples,
// which must run on any database of the format).
enum class Database { History, BaseTables };

struct Expected
{
    QString statement; // "header/name"
    Database database;
    QStringList plan; // the detail column of each plan row, of each statement of the text, in order
};

QList<Expected> expectedPlans()
{
    using D = Database;
    // clang-format off
    return {
        // core/query/querystatements.h
        { QStringLiteral("query/slicesInOrder"), D::History, { QStringLiteral("SCAN slices") } },
        { QStringLiteral("query/lowestChunkOperation"), D::History, { QStringLiteral("SCAN chunks USING INDEX idx_chunks_1") } },
        { QStringLiteral("query/nextChunkOperation"), D::History, { QStringLiteral("SEARCH chunks USING INDEX idx_chunks_1 (operation>?)") } },
        { QStringLiteral("query/chunksOverlapping"), D::History, { QStringLiteral("SEARCH chunks USING INDEX idx_chunks_1 (operation=? AND slice_id=? AND phy_last>?)") } },
        { QStringLiteral("query/chunkAccessesForward"), D::History, { QStringLiteral("SEARCH accesses USING INDEX idx_accesses_1 (chunk_id=? AND transition>? AND transition<?)") } },
        { QStringLiteral("query/chunkAccessesBackward"), D::History, { QStringLiteral("SEARCH accesses USING INDEX idx_accesses_1 (chunk_id=? AND transition>? AND transition<?)") } },
        { QStringLiteral("query/scanForward"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("query/scanBackward"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("query/scanOneRangeForward"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("query/scanOneRangeBackward"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("query/rowAtOrAfter"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("query/rowAtOrBefore"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid<?)") } },
        // core/storage/historystatements.h
        { QStringLiteral("history/schemaObjectCount"), D::History, { QStringLiteral("SCAN sqlite_master") } },
        { QStringLiteral("history/tableExists"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("history/tableColumns"), D::History, { QStringLiteral("SCAN pragma_table_info VIRTUAL TABLE INDEX 0:") } },
        { QStringLiteral("history/schemaObjects"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("history/indexTable"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("history/indexColumns"), D::History, { QStringLiteral("SCAN pragma_index_info VIRTUAL TABLE INDEX 0:"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("history/metaRows"), D::History, { QStringLiteral("SCAN meta") } },
        { QStringLiteral("history/referenceMetadata"), D::History, { QStringLiteral("SCAN _metadata") } },
        { QStringLiteral("history/accessCountsByOperation"), D::History, { QStringLiteral("SCAN accesses"), QStringLiteral("USE TEMP B-TREE FOR GROUP BY") } },
        { QStringLiteral("history/sliceCount"), D::History, { QStringLiteral("SCAN slices USING COVERING INDEX idx_slices_1") } },
        { QStringLiteral("history/chunkCount"), D::History, { QStringLiteral("SCAN chunks USING COVERING INDEX idx_chunks_1") } },
        { QStringLiteral("history/lastChunkRowId"), D::History, { QStringLiteral("SEARCH chunks") } },
        { QStringLiteral("history/firstAccess"), D::History, { QStringLiteral("SCAN accesses") } },
        { QStringLiteral("history/lastAccess"), D::History, { QStringLiteral("SCAN accesses") } },
        // core/storage/addresssummarystatements.h
        { QStringLiteral("addresssummary/addressSummaryTables"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("addresssummary/addressSummaryInfo"), D::History, { QStringLiteral("SCAN address_summary_info") } },
        { QStringLiteral("addresssummary/addressSummaryRowsDown"), D::History, { QStringLiteral("SEARCH address_summary USING INDEX idx_address_summary_1 (shift=? AND block<?)") } },
        { QStringLiteral("addresssummary/addressSummaryAllRows"), D::History, { QStringLiteral("SCAN address_summary USING INDEX idx_address_summary_1") } },
        { QStringLiteral("addresssummary/createAddressSummaryScratch"), D::History, {} },
        { QStringLiteral("addresssummary/clearAddressSummaryScratch"), D::History, {} },
        { QStringLiteral("addresssummary/insertAddressSummaryRun"), D::History, {} },
        { QStringLiteral("addresssummary/addressSummaryRunsInOrder"), D::History, { QStringLiteral("SCAN temp.memhist_summary_runs"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("addresssummary/insertAddressSummaryCoarse"), D::History, {} },
        { QStringLiteral("addresssummary/addressSummaryCoarseInOrder"), D::History, { QStringLiteral("SCAN temp.memhist_summary_coarse"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        // core/storage/threadspanstatements.h
        { QStringLiteral("threadspan/threadSpansTableExists"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("threadspan/threadSpanEndingAtOrAfter"), D::History, { QStringLiteral("SEARCH thread_spans USING INDEX idx_thread_spans_1 (transition_last>?)") } },
        { QStringLiteral("threadspan/threadSpansOverlapping"), D::History, { QStringLiteral("SEARCH thread_spans USING INDEX idx_thread_spans_1 (transition_last>?)") } },
        { QStringLiteral("threadspan/threadSpansEndingFrom"), D::History, { QStringLiteral("SEARCH thread_spans USING INDEX idx_thread_spans_1 (transition_last>?)") } },
        { QStringLiteral("threadspan/threadSpansEndingUpTo"), D::History, { QStringLiteral("SEARCH thread_spans USING INDEX idx_thread_spans_1 (transition_last<?)") } },
        { QStringLiteral("threadspan/threadSummaries"), D::History, { QStringLiteral("SCAN thread_spans"), QStringLiteral("USE TEMP B-TREE FOR GROUP BY") } },
        { QStringLiteral("threadspan/threadCount"), D::History, { QStringLiteral("USE TEMP B-TREE FOR count(DISTINCT)"), QStringLiteral("SCAN thread_spans") } },
        // core/checker/checkstatements.h
        { QStringLiteral("check/chunks"), D::History, { QStringLiteral("SCAN chunks") } },
        { QStringLiteral("check/maxSliceRowId"), D::History, { QStringLiteral("SEARCH slices") } },
        { QStringLiteral("check/accessRowIdSpan"), D::History, { QStringLiteral("SCAN accesses USING COVERING INDEX idx_accesses_1") } },
        { QStringLiteral("check/lastAccessTransition"), D::History, { QStringLiteral("SCAN accesses") } },
        { QStringLiteral("check/chunksOfSliceAndOperationInIndexOrder"), D::History, { QStringLiteral("SEARCH chunks USING INDEX idx_chunks_1 (operation=? AND slice_id=?)") } },
        { QStringLiteral("check/chunksOfSlice"), D::History, { QStringLiteral("SEARCH chunks USING INDEX idx_chunks_1 (operation=? AND slice_id=?)"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("check/chunkById"), D::History, { QStringLiteral("SEARCH chunks USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("check/accesses"), D::History, { QStringLiteral("SCAN accesses") } },
        { QStringLiteral("check/integrityCheck"), D::History, {} },
        { QStringLiteral("check/threadSpansInOrder"), D::History, { QStringLiteral("SCAN thread_spans"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("check/codeTraceTableCount"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("check/codeRunLengths"), D::History, { QStringLiteral("SCAN code_runs") } },
        { QStringLiteral("check/valueGroupRowCount"), D::History, { QStringLiteral("SCAN access_value_groups") } },
        { QStringLiteral("check/codeTraceRowsInOrder"), D::History, { QStringLiteral("SCAN code_trace") } },
        { QStringLiteral("check/tableColumns"), D::History, { QStringLiteral("SCAN pragma_table_info VIRTUAL TABLE INDEX 0:") } },
        { QStringLiteral("check/tableIndexColumns"), D::History, { QStringLiteral("USE TEMP B-TREE FOR count(DISTINCT)"), QStringLiteral("SCAN il VIRTUAL TABLE INDEX 0:"), QStringLiteral("SCAN ii VIRTUAL TABLE INDEX 0:") } },
        // core/summary/summarystatements.h
        // The summary file's tables, created where they are not yet.
        { QStringLiteral("summary/createTables"), D::BaseTables, {} },
        { QStringLiteral("summary/insertInfo"), D::History, {} },
        { QStringLiteral("summary/insertTile"), D::History, {} },
        { QStringLiteral("summary/hasTables"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("summary/selectInfo"), D::History, { QStringLiteral("SCAN summary_info") } },
        { QStringLiteral("summary/selectTiles"), D::History, { QStringLiteral("SEARCH summary_tiles USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("summary/scanSlices"), D::History, { QStringLiteral("SCAN slices"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("summary/scanChunks"), D::History, { QStringLiteral("SCAN chunks") } },
        { QStringLiteral("summary/scanAccesses"), D::History, { QStringLiteral("SCAN accesses") } },
        { QStringLiteral("summary/scanPragmas"), D::History, {} },
        { QStringLiteral("summary/summaryFilePragmas"), D::History, {} },
        { QStringLiteral("summary/summaryBytes"), D::History, { QStringLiteral("SCAN dbstat VIRTUAL TABLE INDEX 2:") } },
        { QStringLiteral("summary/historyShape"), D::History, { QStringLiteral("SCAN CONSTANT ROW"), QStringLiteral("SCALAR SUBQUERY 1"), QStringLiteral("SCAN slices USING COVERING INDEX idx_slices_1"), QStringLiteral("SCALAR SUBQUERY 2"), QStringLiteral("SEARCH chunks"), QStringLiteral("SCALAR SUBQUERY 3"), QStringLiteral("SEARCH accesses") } },
        // core/context/contextstatements.h
        { QStringLiteral("context/tableNames"), D::History, { QStringLiteral("SCAN sqlite_schema") } },
        { QStringLiteral("context/codeTraceRowAtOrBefore"), D::History, { QStringLiteral("SEARCH code_trace USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("context/codeTraceRowsForward"), D::History, { QStringLiteral("SEARCH code_trace USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("context/codeTraceRowsBackward"), D::History, { QStringLiteral("SEARCH code_trace USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("context/codeTraceRowAtOrAfter"), D::History, { QStringLiteral("SEARCH code_trace USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("context/codeRunById"), D::History, { QStringLiteral("SEARCH code_runs USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("context/allCodeRuns"), D::History, { QStringLiteral("SCAN code_runs") } },
        { QStringLiteral("context/allModules"), D::History, { QStringLiteral("SCAN modules") } },
        { QStringLiteral("context/functionCandidates"), D::History, { QStringLiteral("SEARCH functions USING INDEX idx_functions_1 (addr_last>?)") } },
        { QStringLiteral("context/sourceLineCandidates"), D::History, { QStringLiteral("SEARCH source_lines USING INDEX idx_source_lines_1 (addr_last>?)"), QStringLiteral("SEARCH source_files USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("context/dataObjectCandidates"), D::History, { QStringLiteral("SEARCH data_objects USING INDEX idx_data_objects_1 (addr_last>?)") } },
        { QStringLiteral("context/sectionCandidates"), D::History, { QStringLiteral("SEARCH module_sections USING INDEX idx_module_sections_1 (addr_last>?)") } },
        { QStringLiteral("context/mappingAt"), D::History, { QStringLiteral("SEARCH memory_map USING INDEX idx_memory_map_1 (addr_last>?)") } },
        { QStringLiteral("context/functionsNamed"), D::History, { QStringLiteral("SCAN functions"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("context/allFunctionNames"), D::History, { QStringLiteral("SCAN functions"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("context/allDataObjectNames"), D::History, { QStringLiteral("SCAN data_objects"), QStringLiteral("USE TEMP B-TREE FOR ORDER BY") } },
        { QStringLiteral("context/instructionAt"), D::History, { QStringLiteral("SEARCH instructions USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("context/instructionsBefore"), D::History, { QStringLiteral("SEARCH instructions USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("context/instructionsAfter"), D::History, { QStringLiteral("SEARCH instructions USING INTEGER PRIMARY KEY (rowid>?)") } },
        // core/values/valuestatements.h
        { QStringLiteral("values/blockAtOrBefore"), D::History, { QStringLiteral("SEARCH access_value_blocks USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("values/blocksFrom"), D::History, { QStringLiteral("SEARCH access_value_blocks USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("values/filtersAfter"), D::History, { QStringLiteral("SEARCH access_value_filters USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("values/filtersBefore"), D::History, { QStringLiteral("SEARCH access_value_filters USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("values/groupBits"), D::History, { QStringLiteral("SEARCH access_value_groups USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("values/blocksAfter"), D::History, { QStringLiteral("SEARCH access_value_blocks USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("values/blocksBefore"), D::History, { QStringLiteral("SEARCH access_value_blocks USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("values/blockAt"), D::History, { QStringLiteral("SEARCH access_value_blocks USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("search/accessesBetween"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("origin/accessByRowId"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid=?)") } },
        // core/diff/diffstatements.h
        { QStringLiteral("diff/codeTraceStart"), D::History, { QStringLiteral("SEARCH code_trace") } },
        { QStringLiteral("diff/lastAccess"), D::History, { QStringLiteral("SEARCH accesses") } },
        { QStringLiteral("diff/firstAccessFrom"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>?)") } },
        { QStringLiteral("diff/instructionText"), D::History, { QStringLiteral("SEARCH instructions USING INTEGER PRIMARY KEY (rowid=?)") } },
        { QStringLiteral("diff/memoryMap"), D::History, { QStringLiteral("SCAN memory_map") } },
        { QStringLiteral("diff/dataObjects"), D::History, { QStringLiteral("SCAN data_objects") } },
        { QStringLiteral("diff/modules"), D::History, { QStringLiteral("SCAN modules") } },
        { QStringLiteral("search/blockStartAtOrBefore"), D::History, { QStringLiteral("SEARCH access_value_blocks USING INTEGER PRIMARY KEY (rowid<?)") } },
        { QStringLiteral("values/legacyValue"), D::History, { QStringLiteral("SEARCH access_values USING INTEGER PRIMARY KEY (rowid=?)") } },
        // widgets/plane/planestatements.h
        { QStringLiteral("plane/connectionPragmas"), D::History, {} },
        { QStringLiteral("plane/chunkRanges"), D::History, { QStringLiteral("SCAN chunks") } },
        { QStringLiteral("plane/chunkAccesses"), D::History, { QStringLiteral("SEARCH accesses USING INDEX idx_accesses_1 (chunk_id=? AND transition>? AND transition<?)") } },
        { QStringLiteral("plane/accessesByRowId"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
        { QStringLiteral("plane/mappingNames"), D::History, { QStringLiteral("SCAN memory_map") } },
        { QStringLiteral("plane/sectionNames"), D::History, { QStringLiteral("SCAN module_sections") } },
        // core/charts/chartstatements.h
        { QStringLiteral("charts/rowsInRowIdRange"), D::History, { QStringLiteral("SEARCH accesses USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)") } },
    };
    // clang-format on
}

QString key(const char *header, const char *name)
{
    return QString::fromLatin1(header) + u'/' + QString::fromLatin1(name);
}

QSet<QString> listedStatements()
{
    QSet<QString> names;
    for (const StatementList &list : statementLists) {
        for (const statements::NamedStatement &statement : list.statements)
            names.insert(key(list.header, statement.name));
    }
    return names;
}

// Prepares each statement of `sql` in turn (a text may hold several, run with execute()), without
// running it; appends the plan rows' details of each. False + *error when one does not prepare.
bool prepareAndExplain(sqlite::Connection &db, const QByteArray &sql, QStringList *plan, QString *error)
{
    const char *next = sql.constData();
    while (*next) {
        sqlite3_stmt *raw = nullptr;
        const char *tail = nullptr;
        if (sqlite3_prepare_v2(db.handle(), next, -1, &raw, &tail) != SQLITE_OK) {
            *error = QString::fromUtf8(sqlite3_errmsg(db.handle()));
            return false;
        }
        const QByteArray one = QByteArray(next, tail - next).trimmed();
        sqlite3_finalize(raw);
        next = tail;
        if (!raw)
            continue; // white space or a comment
        sqlite::Statement explain = db.prepare(QByteArray("EXPLAIN QUERY PLAN " + one).constData());
        if (!explain.isValid()) {
            *error = db.lastError();
            return false;
        }
        while (explain.step() == SQLITE_ROW)
            *plan << explain.text(3);
    }
    return true;
}

} // namespace

class tst_Statements : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyStatementHasAnExpectedPlan();
    void everyExpectedPlanNamesAStatement();
    void noStatementIsWrittenTwice();
    void statementsPrepareAndUseTheirIndex_data();
    void statementsPrepareAndUseTheirIndex();
    void consoleExamplesRunOnTheBaseTables();

private:
    QTemporaryDir m_dir;
    sqlite::Connection m_history;
    sqlite::Connection m_base;
};

void tst_Statements::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A small history as the writer stores it (base tables, meta, _metadata, thread_spans, the
    // address summary), then every optional table the writer did not need for it.
    const QString path = m_dir.filePath(QStringLiteral("every-table.memhist"));
    {
        HistoryWriter writer(path);
        QVERIFY2(writer.open(), qPrintable(writer.errorString()));
        for (std::uint64_t t = 0; t < 64; ++t) {
            QVERIFY(writer.add(test::userAccess(t, Operation::Read, 0x1000 + 8 * (t % 16), 8)));
            QVERIFY(writer.add(test::userAccess(t, Operation::Write, 0x8000 + 4 * t, 4)));
        }
        writer.addThreadSpan(1, Transition { 0 }, Transition { 31 });
        writer.addThreadSpan(2, Transition { 32 }, Transition { 63 });
        QVERIFY2(writer.finish(), qPrintable(writer.errorString()));
    }
    QVERIFY(m_history.open(path, sqlite::Connection::Mode::ReadWriteCreate));
    const auto hasTable = [&](const char *name) {
        sqlite::Statement exists = m_history.prepare(statements::tableExists);
        exists.bind(1, QString::fromLatin1(name));
        return exists.step() == SQLITE_ROW && exists.int64(0) > 0;
    };
    const std::pair<const char *, std::vector<const char *>> optionalTables[] = {
        { "meta", { schema::createMetaTable } },
        { "_metadata", { schema::createReferenceMetadataTable } },
        { "thread_spans", { schema::createThreadSpansTable } },
        { "address_summary", { schema::createAddressSummaryTables } },
        { "summary_info", { summary::statements::createTables } },
        { "code_runs", { contextschema::createCodeRunsTable } },
        { "code_trace", { contextschema::createCodeTraceTable } },
        { "memory_map", { contextschema::createMemoryMapTable, contextschema::createMemoryMapIndex } },
        { "modules", { contextschema::createModulesTable } },
        { "module_sections", { contextschema::createModuleSectionsTable, contextschema::createModuleSectionsIndex } },
        { "functions", { contextschema::createFunctionsTable, contextschema::createFunctionsIndex } },
        { "data_objects", { contextschema::createDataObjectsTable, contextschema::createDataObjectsIndex } },
        { "source_files", { contextschema::createSourceFilesTable } },
        { "source_lines", { contextschema::createSourceLinesTable, contextschema::createSourceLinesIndex } },
        { "instructions", { contextschema::createInstructionsTable } },
        { "access_value_blocks", { valueschema::createBlocksTable } },
        { "access_value_filters", { valueschema::createFiltersTable } },
        { "access_value_groups", { valueschema::createGroupsTable } },
        { "access_values", { valueschema::createLegacyTable } },
    };
    for (const auto &[table, creates] : optionalTables) {
        if (hasTable(table))
            continue;
        for (const char *sql : creates)
            QVERIFY2(m_history.execute(sql), qPrintable(QString::fromUtf8(sql) + u' ' + m_history.lastError()));
    }
    // The address summary builder's scratch tables live in the connection's temporary database.
    QVERIFY2(m_history.execute(statements::createAddressSummaryScratch), qPrintable(m_history.lastError()));

    QVERIFY(m_base.open(m_dir.filePath(QStringLiteral("base.memhist")), sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY2(m_base.execute(schema::createBaseTables), qPrintable(m_base.lastError()));
}

void tst_Statements::everyStatementHasAnExpectedPlan()
{
    QSet<QString> expected;
    for (const Expected &row : expectedPlans())
        expected.insert(row.statement);
    QStringList missing = (listedStatements() - expected).values();
    missing.sort();
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("no expected plan for ") + missing.join(u' ')));
}

void tst_Statements::everyExpectedPlanNamesAStatement()
{
    const QSet<QString> listed = listedStatements();
    QSet<QString> seen;
    for (const Expected &row : expectedPlans()) {
        QVERIFY2(listed.contains(row.statement), qPrintable(row.statement + QStringLiteral(" is in no list")));
        QVERIFY2(!seen.contains(row.statement), qPrintable(row.statement + QStringLiteral(" has two rows")));
        seen.insert(row.statement);
    }
}

void tst_Statements::noStatementIsWrittenTwice()
{
    // One SQL home: a reader that needs a statement another part already runs uses that one.
    QHash<QByteArray, QString> owners;
    for (const StatementList &list : statementLists) {
        for (const statements::NamedStatement &statement : list.statements) {
            const QString name = key(list.header, statement.name);
            const QString owner = owners.value(QByteArray(statement.sql));
            QVERIFY2(owner.isEmpty(), qPrintable(name + QStringLiteral(" repeats ") + owner));
            owners.insert(QByteArray(statement.sql), name);
        }
    }
}

void tst_Statements::statementsPrepareAndUseTheirIndex_data()
{
    QTest::addColumn<QByteArray>("sql");
    QTest::addColumn<int>("database");
    QTest::addColumn<QStringList>("plan");
    QTest::addColumn<bool>("known");

    QHash<QString, Expected> expected;
    for (const Expected &row : expectedPlans())
        expected.insert(row.statement, row);
    for (const StatementList &list : statementLists) {
        for (const statements::NamedStatement &statement : list.statements) {
            const QString name = key(list.header, statement.name);
            const auto it = expected.constFind(name);
            const bool known = it != expected.cend();
            QTest::newRow(qPrintable(name))
                << QByteArray(statement.sql) << int(known ? it->database : Database::History)
                << (known ? it->plan : QStringList()) << known;
        }
    }
}

void tst_Statements::statementsPrepareAndUseTheirIndex()
{
    QFETCH(QByteArray, sql);
    QFETCH(int, database);
    QFETCH(QStringList, plan);
    QFETCH(bool, known);
    sqlite::Connection &db = Database(database) == Database::History ? m_history : m_base;
    QStringList details;
    QString error;
    QVERIFY2(prepareAndExplain(db, sql, &details, &error), qPrintable(error));
    QVERIFY2(
        known, qPrintable(QStringLiteral("no expected plan; the plan is: ") + details.join(QStringLiteral(" | "))));
    QCOMPARE(details, plan);
}

void tst_Statements::consoleExamplesRunOnTheBaseTables()
{
    for (const sqlexamples::Example &example : sqlexamples::examples) {
        sqlite::Statement statement = m_base.prepare(example.statement);
        QVERIFY2(statement.isValid(), example.title);
        int rc;
        while ((rc = statement.step()) == SQLITE_ROW) { }
        QCOMPARE(rc, SQLITE_DONE);
    }
}

QTEST_GUILESS_MAIN(tst_Statements)
#include "tst_statements.moc"
