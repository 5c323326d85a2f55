// SPDX-License-Identifier: MIT
// The context tables and their statements: every table and index creates, every insert and read
// prepares against them, and EXPLAIN QUERY PLAN shows each read using the index or rowid it was
// written for (a plan that falls back to a scan would make pcAt or a page of context slow on a
// large history without any answer changing).
#include "core/context/contextschema.h"
#include "core/context/contextstatements.h"
#include "core/storage/batchinsert.h"
#include "core/storage/schema.h"
#include "core/storage/sqlite.h"

#include <QTemporaryDir>
#include <QTest>

using namespace memhist;

namespace {

const char *const createStatements[] = {
    contextschema::createCodeRunsTable,
    contextschema::createCodeTraceTable,
    contextschema::createMemoryMapTable,
    contextschema::createMemoryMapIndex,
    contextschema::createModulesTable,
    contextschema::createModuleSectionsTable,
    contextschema::createModuleSectionsIndex,
    contextschema::createFunctionsTable,
    contextschema::createFunctionsIndex,
    contextschema::createDataObjectsTable,
    contextschema::createDataObjectsIndex,
    contextschema::createSourceFilesTable,
    contextschema::createSourceLinesTable,
    contextschema::createSourceLinesIndex,
    contextschema::createInstructionsTable,
};

const char *const insertStatements[] = {
    contextschema::insertCodeRun,
    contextschema::insertCodeTrace,
    contextschema::insertMemoryMap,
    contextschema::insertModule,
    contextschema::insertModuleSection,
    contextschema::insertFunction,
    contextschema::insertDataObject,
    contextschema::insertSourceFile,
    contextschema::insertSourceLine,
    contextschema::insertInstruction,
};

QStringList plan(std::initializer_list<const char *> details)
{
    QStringList list;
    for (const char *detail : details)
        list << QString::fromLatin1(detail);
    return list;
}

} // namespace

class tst_ContextSchema : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void insertsPrepare();
    void batchInsertKeepsEveryRowInOrder();
    void readsUseTheirIndex_data();
    void readsUseTheirIndex();
    void readsFailWithoutTheTables();

private:
    QTemporaryDir m_dir;
    sqlite::Connection m_connection;
};

void tst_ContextSchema::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(m_connection.open(
        m_dir.filePath(QStringLiteral("context.memhist")), sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY2(m_connection.execute(schema::createBaseTables), qPrintable(m_connection.lastError()));
    for (const char *sql : createStatements)
        QVERIFY2(m_connection.execute(sql), qPrintable(QString::fromUtf8(sql) + u' ' + m_connection.lastError()));
}

void tst_ContextSchema::insertsPrepare()
{
    // Each head names every column of its table: the placeholders are counted from its list.
    for (const char *head : insertStatements) {
        const sqlite::BatchInsert insert(m_connection, head);
        QVERIFY2(insert.isValid(), head);
        const QString table = QString::fromLatin1(head).section(u' ', 2, 2).section(u'(', 0, 0);
        const QByteArray count = "SELECT count(*) FROM pragma_table_info('" + table.toLatin1() + "')";
        sqlite::Statement columns = m_connection.prepare(count.constData());
        QCOMPARE(columns.step(), SQLITE_ROW);
        QVERIFY(columns.int64(0) > 1);
        QCOMPARE(insert.columns(), int(columns.int64(0)));
    }
    QVERIFY(!sqlite::BatchInsert(m_connection, "INSERT INTO code_runs VALUES").isValid());
}

void tst_ContextSchema::batchInsertKeepsEveryRowInOrder()
{
    // Two full statements of 64 rows and 5 single rows, each row's columns where they belong.
    sqlite::BatchInsert insert(m_connection, contextschema::insertCodeRun);
    QVERIFY(insert.isValid());
    constexpr int rows = 2 * sqlite::BatchInsert::rowsPerStatement + 5;
    QVERIFY(insert.insert(rows, [](sqlite::Statement &statement, int first, std::size_t index) {
        statement.bind(first, qint64(index) + 1);
        statement.bind(first + 1, 0x401000 + qint64(index) * 16);
        statement.bindBlob(first + 2, QByteArray(int(index % 7) + 1, char(index % 15 + 1)));
    }));
    sqlite::Statement read = m_connection.prepare("SELECT id, pc, sizes FROM code_runs ORDER BY id");
    int count = 0;
    while (read.step() == SQLITE_ROW) {
        QCOMPARE(read.int64(0), qint64(count) + 1);
        QCOMPARE(read.int64(1), 0x401000 + qint64(count) * 16);
        QCOMPARE(read.blob(2), QByteArray(count % 7 + 1, char(count % 15 + 1)));
        ++count;
    }
    QCOMPARE(count, rows);
    QVERIFY(m_connection.execute("DELETE FROM code_runs"));
}

void tst_ContextSchema::readsUseTheirIndex_data()
{
    QTest::addColumn<QByteArray>("sql");
    QTest::addColumn<QStringList>("plan"); // the detail column of each plan row, in order

    using namespace contextstatements;
    QTest::newRow("which tables exist: the schema") << QByteArray(tableNames) << plan({ "SCAN sqlite_schema" });
    QTest::newRow("pcAt: the row at or before a transition, by rowid")
        << QByteArray(codeTraceRowAtOrBefore) << plan({ "SEARCH code_trace USING INTEGER PRIMARY KEY (rowid<?)" });
    QTest::newRow("--pc forward: rows from a transition on, by rowid")
        << QByteArray(codeTraceRowsForward) << plan({ "SEARCH code_trace USING INTEGER PRIMARY KEY (rowid>?)" });
    QTest::newRow("--pc backward: rows from a transition back, by rowid")
        << QByteArray(codeTraceRowsBackward) << plan({ "SEARCH code_trace USING INTEGER PRIMARY KEY (rowid<?)" });
    QTest::newRow("pcAt: one run by id") << QByteArray(codeRunById)
                                         << plan({ "SEARCH code_runs USING INTEGER PRIMARY KEY (rowid=?)" });
    QTest::newRow("--pc: every run, a scan") << QByteArray(allCodeRuns) << plan({ "SCAN code_runs" });
    QTest::newRow("modules, a scan in id order") << QByteArray(allModules) << plan({ "SCAN modules" });
    QTest::newRow("function of a PC: idx_functions_1")
        << QByteArray(functionCandidates) << plan({ "SEARCH functions USING INDEX idx_functions_1 (addr_last>?)" });
    QTest::newRow("source line of a PC: idx_source_lines_1, then the file by rowid")
        << QByteArray(sourceLineCandidates)
        << plan({ "SEARCH source_lines USING INDEX idx_source_lines_1 (addr_last>?)",
               "SEARCH source_files USING INTEGER PRIMARY KEY (rowid=?)" });
    QTest::newRow("data object of an address: idx_data_objects_1") << QByteArray(
        dataObjectCandidates) << plan({ "SEARCH data_objects USING INDEX idx_data_objects_1 (addr_last>?)" });
    QTest::newRow("section of an address: idx_module_sections_1") << QByteArray(
        sectionCandidates) << plan({ "SEARCH module_sections USING INDEX idx_module_sections_1 (addr_last>?)" });
    QTest::newRow("mapping of an address: idx_memory_map_1")
        << QByteArray(mappingAt) << plan({ "SEARCH memory_map USING INDEX idx_memory_map_1 (addr_last>?)" });
    QTest::newRow("--function: a scan of the executed functions")
        << QByteArray(functionsNamed) << plan({ "SCAN functions", "USE TEMP B-TREE FOR ORDER BY" });
    QTest::newRow("go to symbol: a scan of the executed functions")
        << QByteArray(allFunctionNames) << plan({ "SCAN functions", "USE TEMP B-TREE FOR ORDER BY" });
    QTest::newRow("go to symbol: a scan of the data objects")
        << QByteArray(allDataObjectNames) << plan({ "SCAN data_objects", "USE TEMP B-TREE FOR ORDER BY" });
    QTest::newRow("instruction of a PC, by rowid")
        << QByteArray(instructionAt) << plan({ "SEARCH instructions USING INTEGER PRIMARY KEY (rowid=?)" });
}

void tst_ContextSchema::readsUseTheirIndex()
{
    QFETCH(QByteArray, sql);
    QFETCH(QStringList, plan);
    QVERIFY2(m_connection.prepare(sql.constData()).isValid(), qPrintable(m_connection.lastError()));
    sqlite::Statement explain = m_connection.prepare(QByteArray(QByteArray("EXPLAIN QUERY PLAN ") + sql).constData());
    QVERIFY(explain.isValid());
    QStringList details;
    while (explain.step() == SQLITE_ROW)
        details << explain.text(3);
    QCOMPARE(details, plan);
}

void tst_ContextSchema::readsFailWithoutTheTables()
{
    // A history with the base tables only: the reads do not prepare, which is how a reader learns
    // (besides tableNames) that the context is missing, never by a wrong answer.
    sqlite::Connection bare;
    QVERIFY(bare.open(m_dir.filePath(QStringLiteral("bare.memhist")), sqlite::Connection::Mode::ReadWriteCreate));
    QVERIFY(bare.execute(schema::createBaseTables));
    QVERIFY(bare.prepare(contextstatements::tableNames).isValid());
    QVERIFY(!bare.prepare(contextstatements::codeTraceRowAtOrBefore).isValid());
    QCOMPARE(bare.lastError(), QStringLiteral("no such table: code_trace"));
    QVERIFY(!bare.prepare(contextstatements::functionCandidates).isValid());
    QCOMPARE(bare.lastError(), QStringLiteral("no such table: functions"));
}

QTEST_GUILESS_MAIN(tst_ContextSchema)
#include "tst_contextschema.moc"
