// SPDX-License-Identifier: MIT
// The context a HistoryWriter stores: exactly the tables it has rows for, meta.context and the
// summary; values by access rowid; instructions decoded from a trace's own bytes; a library loaded
// halfway named from then on; a stripped program named by module+offset; files that are missing;
// module files read when the trace names them; and the errors that stop a writer.
#include "core/context/contextcollector.h"
#include "core/context/contextreader.h"
#include "core/context/contexttablewriter.h"
#include "core/context/processmap.h"
#include "core/storage/historydatabase.h"
#include "core/storage/sqlite.h"
#include "core/writer/historywriter.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

namespace {

constexpr std::uint64_t libraryBias = 0x7f1234560000;
constexpr std::uint64_t programBias = 0x555555554000;

// The names of the tables of `path`, sorted.
QStringList tablesOf(const QString &path)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return { QStringLiteral("cannot open") };
    sqlite::Statement names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name");
    QStringList tables;
    while (names.step() == SQLITE_ROW)
        tables << names.text(0);
    return tables;
}

// The code tables of `path`, one text per row, files by path (their ids may differ).
QStringList codeRowsOf(const QString &path)
{
    sqlite::Connection db;
    if (!db.open(path, sqlite::Connection::Mode::ReadOnly))
        return { QStringLiteral("cannot open") };
    QStringList rows;
    const auto read = [&](const char *sql) {
        sqlite::Statement statement = db.prepare(sql);
        while (statement.isValid() && statement.step() == SQLITE_ROW)
            rows << statement.text(0);
    };
    read("SELECT printf('%x %s %s', pc, hex(bytes), text) FROM instructions ORDER BY pc");
    read("SELECT printf('%x-%x %s:%d', addr_first, addr_last, path, line) FROM source_lines "
         "JOIN source_files ON source_files.id = file_id ORDER BY addr_first");
    return rows;
}

QStringList strings(std::initializer_list<const char *> texts)
{
    QStringList list;
    for (const char *text : texts)
        list << QString::fromUtf8(text);
    return list;
}

} // namespace

class tst_ContextCollector : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void accessesOnlyAddNoContext();
    void pcsOnly();
    void rejectsInstructionsOutOfOrder();
    void longStretchWithoutAccesses();
    void valuesByAccess();
    void instructionsFromTheTraceBytes();
    void libraryLoadedHalfway();
    void strippedProgram();
    void missingModuleIsNoted();
    void moduleFileReadWhenMapped();
    void earlyCodeRowsAreTheEndsRows();
    void earlyCodeRowsResolvedOtherwiseAreRemoved();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // Collects every instruction of the program at programBias, from bump() on, one run each from
    // transition 20 on, its mappings added at 0 (and removed at 10 when `unmapped`), named as a
    // module load when `named`; stores what the collector hands over before the end, then the
    // end. Returns the code rows handed over before the end (the early rows).
    EarlyCodeRows collectProgram(const QString &output, bool named, bool unmapped, ContextSummary *summary);
    QTemporaryDir m_dir;
};

void tst_ContextCollector::initTestCase()
{
    QVERIFY(m_dir.isValid());
    for (const QString &source : { QStringLiteral("counter.c"), QStringLiteral("shared.c") })
        QVERIFY(QFile::copy(QFINDTESTDATA(QStringLiteral("data/programs/") + source), path(source)));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "counter-stripped", "counter" }, m_dir.path()));
    QVERIFY(runStep(
        QStringLiteral("gcc"), { "-g", "-O0", "-shared", "-fPIC", "-o", "libshared.so", "shared.c" }, m_dir.path()));
}

void tst_ContextCollector::accessesOnlyAddNoContext()
{
    // A trace without context gives a history of the base tables only, as before the context.
    const QString output = path(QStringLiteral("plain.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    QVERIFY(writer.add(userAccess(0, Operation::Write, 0x1000, 4)));
    writer.addValue({}); // no bytes: no value
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.parts, QStringList {});
    QCOMPARE(tablesOf(output),
        strings({ "_metadata", "accesses", "address_summary", "address_summary_info", "chunks", "meta", "slices",
            "summary_info", "summary_tiles" }));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    QVERIFY(!database->meta().contains(QStringLiteral("context")));
}

void tst_ContextCollector::pcsOnly()
{
    const QString output = path(QStringLiteral("pcs.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    // A loop of three instructions, five times, with a write in each iteration; then a gap.
    std::uint64_t t = 0;
    for (int iteration = 0; iteration < 5; ++iteration) {
        QVERIFY(writer.addInstruction(Transition { t++ }, Address { 0x401000 }, 4));
        QVERIFY(writer.addInstruction(Transition { t }, Address { 0x401004 }, 3));
        QVERIFY(writer.add(userAccess(t++, Operation::Write, 0x1000, 4)));
        QVERIFY(writer.addInstruction(Transition { t++ }, Address { 0x401007 }, 2));
    }
    QVERIFY(writer.addInstruction(Transition { t + 10 }, Address { 0x402000 }, 1));
    QVERIFY(writer.finish());
    const ContextSummary &summary = writer.stats().context;
    QCOMPARE(summary.parts, QStringList { QStringLiteral("pcs") });
    QCOMPARE(summary.instructions, qint64(16));
    QCOMPARE(summary.runs, qint64(2));
    QCOMPARE(summary.distinctPcs, qint64(4));
    QCOMPARE(summary.notes, QStringList {});
    QCOMPARE(tablesOf(output),
        strings({ "_metadata", "accesses", "address_summary", "address_summary_info", "chunks", "code_runs",
            "code_trace", "meta", "slices", "summary_info", "summary_tiles" }));

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    QCOMPARE(database->meta().value(QStringLiteral("context")), QStringLiteral("pcs"));
    ContextReader reader(*database);
    QCOMPARE(reader.pcAt(Transition { 4 }), std::optional<Address>(Address { 0x401004 }));
    QCOMPARE(reader.pcAt(Transition { 16 }), std::nullopt); // the gap
    QCOMPARE(reader.pcAt(Transition { 25 }), std::optional<Address>(Address { 0x402000 }));
}

void tst_ContextCollector::rejectsInstructionsOutOfOrder()
{
    const QString output = path(QStringLiteral("order.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    QVERIFY(writer.addInstruction(Transition { 5 }, Address { 0x401000 }, 4));
    QVERIFY(!writer.addInstruction(Transition { 5 }, Address { 0x401004 }, 4));
    QCOMPARE(writer.errorString(),
        QStringLiteral("instruction at transition 5 comes after transition 5: instructions must be in trace order, "
                       "one per transition"));
    QVERIFY(!writer.add(userAccess(6, Operation::Write, 0x1000, 4)));
    QVERIFY(!writer.finish());
    QVERIFY(!QFile::exists(output));
}

void tst_ContextCollector::longStretchWithoutAccesses()
{
    // Three million instructions and one access: the code_trace rows go to the file as they fill
    // (a row per 1,024 pairs of the 2-instruction loop, plus the last one), not all at the end.
    const QString output = path(QStringLiteral("stretch.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    QVERIFY(writer.add(userAccess(0, Operation::Read, 0x1000, 8)));
    const std::uint64_t instructions = 3000000;
    for (std::uint64_t t = 0; t < instructions; ++t)
        QVERIFY(writer.addInstruction(Transition { t }, Address { 0x401000 + (t % 2) * 2 }, 2));
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.instructions, qint64(instructions));
    sqlite::Connection db;
    QVERIFY(db.open(output, sqlite::Connection::Mode::ReadOnly));
    sqlite::Statement rows
        = db.prepare("SELECT count(*), min(transition_first), max(transition_first) FROM code_trace");
    QCOMPARE(rows.step(), SQLITE_ROW);
    const qint64 pairs = qint64(instructions / 2);
    QCOMPARE(rows.int64(0), (pairs + 1023) / 1024);
    QCOMPARE(rows.int64(1), 0);
    QCOMPARE(rows.int64(2), (pairs - 1) / 1024 * 1024 * 2);
}

void tst_ContextCollector::valuesByAccess()
{
    const QString output = path(QStringLiteral("values.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    writer.addValue({ "before any access: ignored", {}, std::nullopt });
    QVERIFY(writer.add(userAccess(0, Operation::Read, 0x1000, 4)));
    const QByteArray first = QByteArray::fromHex("01020304");
    writer.addValue({ first, {}, std::nullopt });
    writer.addValue({ "a second value of access 1: ignored", {}, std::nullopt });
    QVERIFY(writer.add(userAccess(0, Operation::Write, 0x1000, 4)));
    QVERIFY(writer.add(userAccess(1, Operation::Write, 0x2000, 2)));
    const QByteArray beef = QByteArray::fromHex("beef");
    const QByteArray cafe = QByteArray::fromHex("cafe");
    writer.addValue({ beef, cafe, std::nullopt });
    QVERIFY(writer.add(userAccess(2, Operation::Write, 0x3000, 2)));
    writer.addValue({ cafe, {}, 0u }); // read()'s buffer, before unknown
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.values, qint64(3));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    QCOMPARE(reader.parts(), QStringList { QStringLiteral("values") });
    QCOMPARE(reader.value(RowId { 1 }), std::optional(AccessValue { first, {}, std::nullopt }));
    QCOMPARE(reader.value(RowId { 2 }), std::nullopt);
    QCOMPARE(reader.value(RowId { 3 }), std::optional(AccessValue { beef, cafe, std::nullopt }));
    QCOMPARE(reader.value(RowId { 4 }), std::optional(AccessValue { cafe, {}, 0u }));
    QCOMPARE(reader.value(RowId { 5 }), std::nullopt);
}

void tst_ContextCollector::instructionsFromTheTraceBytes()
{
    // No module and no map: the trace's own encodings are all there is (drmemtrace's).
    const QString output = path(QStringLiteral("bytes.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    QVERIFY(writer.addInstruction(Transition { 0 }, Address { 0x401000 }, 1));
    writer.addInstructionBytes(Address { 0x401000 }, QByteArray::fromHex("55"));
    QVERIFY(writer.addInstruction(Transition { 1 }, Address { 0x401001 }, 3));
    writer.addInstructionBytes(Address { 0x401001 }, QByteArray::fromHex("4889e5"));
    writer.addInstructionBytes(Address { 0x401001 }, QByteArray::fromHex("90")); // the first bytes stay
    QVERIFY(writer.addInstruction(Transition { 2 }, Address { 0x401004 }, 2));
    writer.addInstructionBytes(Address { 0x401004 }, QByteArray::fromHex("ffff")); // no instruction
    QVERIFY(writer.addInstruction(Transition { 3 }, Address { 0x401006 }, 1)); // no bytes
    QVERIFY(writer.add(userAccess(0, Operation::Write, 0x7ff000, 8)));
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.parts, strings({ "pcs", "disassembly" }));
    QCOMPARE(writer.stats().context.disassembled, qint64(3));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    QCOMPARE(reader.describeCode(Address { 0x401000 }).instruction, QStringLiteral("push rbp"));
    QCOMPARE(reader.describeCode(Address { 0x401001 }).instruction, QStringLiteral("mov rbp, rsp"));
    QCOMPARE(reader.describeCode(Address { 0x401004 }).instruction, QStringLiteral("(bad)"));
    QCOMPARE(reader.describeCode(Address { 0x401004 }).bytes, QByteArray::fromHex("ffff"));
    QCOMPARE(reader.describeCode(Address { 0x401006 }).instruction, QString());
}

void tst_ContextCollector::libraryLoadedHalfway()
{
    // The program from the start, libshared.so mapped at transition 100 (dlopen): shared_add runs
    // at 150; before 100 its global's address is nothing, from 100 on it is shared_total.
    const QString program = path(QStringLiteral("counter"));
    const QString library = path(QStringLiteral("libshared.so"));
    const auto sharedAdd = nmSymbol(library, QStringLiteral("shared_add"));
    const auto sharedTotal = nmSymbol(library, QStringLiteral("shared_total"));
    const auto mainFunction = nmSymbol(program, QStringLiteral("main"));
    QVERIFY(sharedAdd && sharedTotal && mainFunction);
    const QString output = path(QStringLiteral("dlopen.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    for (const Mapping &mapping : loadMappings(program, programBias))
        writer.addMapping(Transition { 0 }, mapping);
    QVERIFY(writer.addInstruction(Transition { 0 }, Address { mainFunction->address + programBias }, 1));
    QVERIFY(writer.add(userAccess(50, Operation::Read, sharedTotal->address + libraryBias, 4)));
    for (const Mapping &mapping : loadMappings(library, libraryBias))
        writer.addMapping(Transition { 100 }, mapping);
    QVERIFY(writer.addInstruction(Transition { 150 }, Address { sharedAdd->address + libraryBias }, 1));
    QVERIFY(writer.add(userAccess(150, Operation::Write, sharedTotal->address + libraryBias, 4)));
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.modules, qint64(2));

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    QCOMPARE(reader.modules().size(), 2);
    QCOMPARE(reader.modules()[1].module.path, library);
    QCOMPARE(reader.modules()[1].module.bias, libraryBias);
    QCOMPARE(reader.modules()[1].module.first, Transition { 100 });
    QCOMPARE(reader.modules()[1].module.last, Transition { 150 });
    const CodeDescription code = reader.describeCode(Address { sharedAdd->address + libraryBias }, Transition { 150 });
    QCOMPARE(code.functionText(), QStringLiteral("shared_add"));
    QCOMPARE(code.modulePath, library);
    QCOMPARE(code.sourceText(), addr2line(library, sharedAdd->address));
    QCOMPARE(reader.describeAddress(Address { sharedTotal->address + libraryBias }, Transition { 150 }).text(),
        QStringLiteral("shared_total"));
    QCOMPARE(
        reader.describeAddress(Address { sharedTotal->address + libraryBias }, Transition { 50 }).text(), QString());
}

void tst_ContextCollector::strippedProgram()
{
    // No symbols, no lines: module+offset and the instruction from the file's bytes, no crash.
    const QString program = path(QStringLiteral("counter-stripped"));
    const auto bump = nmSymbol(path(QStringLiteral("counter")), QStringLiteral("bump"));
    QVERIFY(bump);
    const QString output = path(QStringLiteral("stripped.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    for (const Mapping &mapping : loadMappings(program, programBias))
        writer.addMapping(Transition { 0 }, mapping);
    QVERIFY(writer.addInstruction(Transition { 0 }, Address { bump->address + programBias }, 1));
    QVERIFY(writer.add(userAccess(0, Operation::Write, 0x7ff000, 8)));
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.parts, strings({ "pcs", "map", "modules", "disassembly" }));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    const CodeDescription code = reader.describeCode(Address { bump->address + programBias }, Transition { 0 });
    QCOMPARE(code.functionText(), QString());
    QCOMPARE(code.sourceText(), QString());
    QCOMPARE(code.moduleText(), QStringLiteral("counter-stripped+0x") + QString::number(bump->address, 16));
    QCOMPARE(code.instruction, QStringLiteral("push rbp"));
}

void tst_ContextCollector::missingModuleIsNoted()
{
    const QString output = path(QStringLiteral("missing.memhist"));
    HistoryWriter writer(output);
    QVERIFY(writer.open());
    LoadedModule module;
    module.path = path(QStringLiteral("gone/libgone.so"));
    module.bias = 0x7f0000000000;
    module.first = Transition { 0 };
    writer.addModule(module);
    QVERIFY(writer.addInstruction(Transition { 0 }, Address { 0x7f0000001000 }, 1));
    QVERIFY(writer.add(userAccess(0, Operation::Write, 0x7ff000, 8)));
    QVERIFY(writer.finish());
    QCOMPARE(writer.stats().context.parts, strings({ "pcs", "modules" }));
    QCOMPARE(writer.stats().context.notes,
        QStringList { QStringLiteral("no symbols for ") + module.path + QStringLiteral(": not found") });
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    QCOMPARE(reader.modules().size(), 1);
    QCOMPARE(reader.modules()[0].module.path, module.path);
    QCOMPARE(reader.modules()[0].module.last, Transition { 0 });
}

void tst_ContextCollector::moduleFileReadWhenMapped()
{
    // The program is read when its executable mapping is named, as the run saw it: removed from
    // the disk before the end, it still gives its functions and lines.
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("vanishing")));
    const QString program = path(QStringLiteral("vanishing/counter"));
    QVERIFY(QFile::copy(path(QStringLiteral("counter")), program));
    const auto mainFunction = nmSymbol(program, QStringLiteral("main"));
    QVERIFY(mainFunction);
    ContextCollector collector;
    for (const Mapping &mapping : loadMappings(program, programBias))
        collector.addMapping(Transition { 0 }, mapping);
    QVERIFY(collector.addInstruction(Transition { 0 }, Address { mainFunction->address + programBias }, 1));
    collector.waitForModuleFiles();
    QVERIFY(QFile::remove(program));

    sqlite::Connection db;
    QVERIFY(db.open(path(QStringLiteral("vanishing.sqlite")), sqlite::Connection::Mode::ReadWriteCreate));
    ContextTableWriter tables(db);
    collector.finishCodeTrace();
    collector.resolve(Transition { 0 });
    QVERIFY(collector.writeLastRows(tables));
    QVERIFY(collector.writeResolved(tables));
    const ContextSummary &summary = collector.summary();
    QCOMPARE(summary.notes, QStringList {});
    QCOMPARE(summary.parts, strings({ "pcs", "map", "modules", "symbols", "lines", "disassembly" }));
    QCOMPARE(summary.modules, qint64(1));
    QCOMPARE(summary.distinctPcs, qint64(1));
}

EarlyCodeRows tst_ContextCollector::collectProgram(
    const QString &output, bool named, bool unmapped, ContextSummary *summary)
{
    const QString program = path(QStringLiteral("counter"));
    const QList<Mapping> mappings = loadMappings(program, programBias);
    ContextCollector collector;
    if (named) {
        LoadedModule module;
        module.path = program;
        module.bias = programBias;
        collector.addModule(module);
    }
    for (const Mapping &mapping : mappings)
        collector.addMapping(Transition { 0 }, mapping);
    if (unmapped) {
        for (const Mapping &mapping : mappings)
            collector.removeMapping(Transition { 10 }, mapping.first, mapping.last);
    }
    // bump() and main() first: the early batches get their lines.
    QList<ObjdumpInstruction> instructions = objdumpInstructions(program);
    const auto bump = nmSymbol(program, QStringLiteral("bump"));
    const auto fromBump = std::find_if(instructions.cbegin(), instructions.cend(),
        [&](const ObjdumpInstruction &instruction) { return bump && instruction.address == bump->address; });
    std::rotate(instructions.begin(), instructions.begin() + (fromBump - instructions.cbegin()), instructions.end());
    std::uint64_t transition = 20;
    for (const ObjdumpInstruction &instruction : std::as_const(instructions)) {
        if (!collector.addInstruction(Transition { transition }, Address { instruction.address + programBias },
                std::uint8_t(instruction.bytes.size())))
            return {};
        transition += 2;
    }
    collector.waitForModuleFiles();
    sqlite::Connection db;
    ContextBatch early;
    if (!db.open(output, sqlite::Connection::Mode::ReadWriteCreate))
        return {};
    ContextTableWriter tables(db);
    early = collector.takeBatch();
    if (!tables.writeBatch(early))
        return {};
    collector.finishCodeTrace();
    collector.resolve(Transition { transition });
    if (!collector.writeLastRows(tables) || !collector.writeResolved(tables))
        return {};
    *summary = collector.summary();
    return early.code;
}

void tst_ContextCollector::earlyCodeRowsAreTheEndsRows()
{
    // Named as a load, the program's code is resolved and its rows stored while the trace goes
    // on; the history holds the same code rows as when everything is resolved at the end.
    ContextSummary early;
    const EarlyCodeRows earlyRows = collectProgram(path(QStringLiteral("early.sqlite")), true, false, &early);
    QVERIFY(earlyRows.instructions.size() >= 32);
    QVERIFY(!earlyRows.sourceLines.empty());
    ContextSummary late;
    QVERIFY(collectProgram(path(QStringLiteral("late.sqlite")), false, false, &late).isEmpty());
    QVERIFY(early.disassembled >= qint64(earlyRows.instructions.size()));
    QCOMPARE(early.disassembled, late.disassembled);
    QCOMPARE(early.sourceLines, late.sourceLines);
    const QStringList rows = codeRowsOf(path(QStringLiteral("early.sqlite")));
    QCOMPARE(rows.size(), qsizetype(early.disassembled + early.sourceLines));
    QCOMPARE(rows, codeRowsOf(path(QStringLiteral("late.sqlite"))));
}

void tst_ContextCollector::earlyCodeRowsResolvedOtherwiseAreRemoved()
{
    // The load is named, but its mappings are gone before its code runs: the end places the PCs
    // in no module, so the early rows go, and so do the tables they had made.
    ContextSummary summary;
    const QString output = path(QStringLiteral("unmapped.sqlite"));
    QVERIFY(collectProgram(output, true, true, &summary).instructions.size() >= 32);
    QCOMPARE(summary.disassembled, qint64(0));
    QCOMPARE(summary.sourceLines, qint64(0));
    const QStringList tables = tablesOf(output);
    QVERIFY2(tables.contains(QStringLiteral("code_runs")), qPrintable(tables.join(u' ')));
    for (const char *table : { "instructions", "source_lines", "source_files" })
        QVERIFY2(!tables.contains(QLatin1String(table)), table);
}

QTEST_GUILESS_MAIN(tst_ContextCollector)
#include "tst_contextcollector.moc"
