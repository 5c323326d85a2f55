// SPDX-License-Identifier: MIT
// The read side of the program context. On the Lackey test logs, whose `I` lines give the exact PC
// of every transition, pcAt must give that PC for every transition, and executionsOf the
// transitions of a PC. On a program compiled here with gcc -g, whose mappings are fed by hand at
// its load bias (PIE) or its ELF addresses (non-PIE), describeCode must give the function, the
// file:line addr2line gives and the instruction objdump -M intel gives, and describeAddress the
// global's name, the stack and the heap.
#include "core/context/contextreader.h"
#include "core/context/contextschema.h"
#include "core/storage/historydatabase.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <random>

using namespace memhist;
using namespace memhist::test;

namespace {

constexpr std::uint64_t pieBias = 0x555555554000;
// The PC of every `I` line of a Lackey log, in order: transition i ran pcs[i].
QList<std::uint64_t> instructionPcs(const QString &log)
{
    const ToolRun run = runTool(QStringLiteral("gzip"), { QStringLiteral("-dcf"), log });
    QList<std::uint64_t> pcs;
    for (const QByteArray &line : run.out.split('\n')) {
        if (line.startsWith("I  "))
            pcs << line.mid(3, line.indexOf(',') - 3).toULongLong(nullptr, 16);
    }
    return pcs;
}

} // namespace

class tst_ContextReader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void pcAtEveryTransitionOfALackeyLog_data();
    void pcAtEveryTransitionOfALackeyLog();
    void executionsOfAPcInALackeyLog();
    void historyWithoutContext();
    void describesTheCodeOfACompiledProgram_data();
    void describesTheCodeOfACompiledProgram();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void tst_ContextReader::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::copy(QFINDTESTDATA("data/programs/counter.c"), path(QStringLiteral("counter.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
    QVERIFY(
        runStep(QStringLiteral("gcc"), { "-g", "-O0", "-no-pie", "-o", "counter-nopie", "counter.c" }, m_dir.path()));
}

void tst_ContextReader::pcAtEveryTransitionOfALackeyLog_data()
{
    QTest::addColumn<QString>("log");
    QTest::addColumn<int>("instructions");
    QTest::newRow("true.tiny.lackey") << "data/lackey/true.tiny.lackey" << 131068;
    QTest::newRow("echo_hello.small.lackey.gz") << "data/lackey/echo_hello.small.lackey.gz" << 308469;
}

void tst_ContextReader::pcAtEveryTransitionOfALackeyLog()
{
    QFETCH(QString, log);
    QFETCH(int, instructions);
    const QString trace = QFINDTESTDATA(log);
    const QList<std::uint64_t> pcs = instructionPcs(trace);
    QCOMPARE(pcs.size(), instructions);
    const QString output = path(QFileInfo(log).baseName() + QStringLiteral(".memhist"));
    QVERIFY(!cliOutput({ QStringLiteral("import"), trace, QStringLiteral("-o"), output }).isEmpty());

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    QCOMPARE(database->meta().value(QStringLiteral("context")), QStringLiteral("pcs"));
    ContextReader reader(*database);
    QCOMPARE(reader.parts(), QStringList { QStringLiteral("pcs") });
    // In order (the cached row serves most), then in a random order (a probe for each).
    for (qsizetype t = 0; t < pcs.size(); ++t) {
        const auto pc = reader.pcAt(Transition { std::uint64_t(t) });
        QVERIFY2(pc && pc->value == pcs[t], qPrintable(QStringLiteral("transition %1").arg(t)));
    }
    std::mt19937_64 random(7);
    for (int i = 0; i < 20000; ++i) {
        const auto t = qsizetype(random() % std::uint64_t(pcs.size()));
        const auto pc = reader.pcAt(Transition { std::uint64_t(t) });
        QVERIFY2(pc && pc->value == pcs[t], qPrintable(QStringLiteral("transition %1").arg(t)));
    }
    QCOMPARE(reader.pcAt(Transition { std::uint64_t(pcs.size()) }), std::nullopt);
    QCOMPARE(reader.pcAt(Transition { ~std::uint64_t(0) }), std::nullopt);
    // No map, no symbols: a PC is just a PC.
    const CodeDescription code = reader.describeCode(Address { pcs[0] }, Transition { 0 });
    QCOMPARE(code.pc, Address { pcs[0] });
    QVERIFY(!code.hasModule());
    QCOMPARE(code.functionText(), QString());
    QCOMPARE(code.sourceText(), QString());
    QCOMPARE(code.instruction, QString());
    QCOMPARE(reader.describeAddress(Address { 0x1fff000608 }, Transition { 1 }).text(), QString());
}

void tst_ContextReader::executionsOfAPcInALackeyLog()
{
    const QString trace = QFINDTESTDATA("data/lackey/true.tiny.lackey");
    const QList<std::uint64_t> pcs = instructionPcs(trace);
    const QString output = path(QStringLiteral("executions.memhist"));
    QVERIFY(!cliOutput({ QStringLiteral("import"), trace, QStringLiteral("-o"), output }).isEmpty());
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);

    // A PC that ran often, one that ran once, and two at once.
    QHash<std::uint64_t, QList<Transition>> runsOf;
    for (qsizetype t = 0; t < pcs.size(); ++t)
        runsOf[pcs[t]] << Transition { std::uint64_t(t) };
    std::uint64_t often = 0;
    std::uint64_t once = 0;
    for (auto it = runsOf.cbegin(); it != runsOf.cend(); ++it) {
        if (it->size() > runsOf.value(often).size())
            often = it.key();
        if (it->size() == 1 && once == 0)
            once = it.key();
    }
    const QList<Transition> all = runsOf.value(often);
    QVERIFY(all.size() > 100);
    QCOMPARE(reader.executionsOf({ Address { often } }, Transition { 0 }, Direction::Forward, 1 << 30), all);
    QCOMPARE(reader.executionsOf({ Address { once } }, Transition { 0 }, Direction::Forward, 10), runsOf.value(once));

    // From the middle, forward and backward, in pages resumed after the last transition given.
    const Transition middle = all[all.size() / 2];
    QList<Transition> forward;
    for (Transition from = middle;;) {
        const QList<Transition> page = reader.executionsOf({ Address { often } }, from, Direction::Forward, 7);
        forward << page;
        if (page.size() < 7)
            break;
        from = Transition { page.last().value + 1 };
    }
    QCOMPARE(forward, all.mid(all.size() / 2));
    QList<Transition> backward;
    for (Transition from { middle.value - 1 };;) {
        const QList<Transition> page = reader.executionsOf({ Address { often } }, from, Direction::Backward, 7);
        backward << page;
        if (page.size() < 7)
            break;
        from = Transition { page.last().value - 1 };
    }
    QList<Transition> before = all.first(all.size() / 2);
    std::reverse(before.begin(), before.end());
    QCOMPARE(backward, before);

    QList<Transition> both = all + runsOf.value(once);
    std::sort(both.begin(), both.end());
    QCOMPARE(
        reader.executionsOf({ Address { often }, Address { once } }, Transition { 0 }, Direction::Forward, 1 << 30),
        both);
    QCOMPARE(
        reader.executionsOf({ Address { 0x12345 } }, Transition { 0 }, Direction::Forward, 10), QList<Transition> {});
}

void tst_ContextReader::historyWithoutContext()
{
    // A history with only the base tables (another writer's): every answer is "unknown".
    const QString output = path(QStringLiteral("foreign.memhist"));
    QVERIFY(writeForeignDatabase(output, { { 0, 0 } }, { { 1, 0x1000, 0x1000, Operation::Write } },
        { { 1, 0, 0x1000, 0x1000, 1, Operation::Write } }));
    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    ContextReader reader(*database);
    QCOMPARE(reader.parts(), QStringList {});
    QCOMPARE(reader.pcAt(Transition { 0 }), std::nullopt);
    QCOMPARE(reader.describeCode(Address { 0x1000 }).functionText(), QString());
    QCOMPARE(reader.describeAddress(Address { 0x1000 }, Transition { 0 }).text(), QString());
    QCOMPARE(reader.value(RowId { 1 }), std::nullopt);
    QCOMPARE(
        reader.executionsOf({ Address { 0x1000 } }, Transition { 0 }, Direction::Forward, 10), QList<Transition> {});
    QCOMPARE(reader.functionsNamed(QStringLiteral("main")).size(), 0);
    QCOMPARE(reader.namedRanges(), QList<NamedRange> {});
    QCOMPARE(reader.modules().size(), 0);
    QCOMPARE(reader.instructionsAround(Address { 0x1000 }, 4, 4).size(), 0);
}

void tst_ContextReader::describesTheCodeOfACompiledProgram_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<quint64>("bias");
    QTest::newRow("PIE at a load bias") << "counter" << quint64(pieBias);
    QTest::newRow("non-PIE at its ELF addresses") << "counter-nopie" << quint64(0);
}

void tst_ContextReader::describesTheCodeOfACompiledProgram()
{
    QFETCH(QString, binary);
    QFETCH(quint64, bias);
    const QString program = path(binary);
    const QString output = path(binary + QStringLiteral(".memhist"));
    CounterHistory history;
    QVERIFY(writeCounterHistory(program, bias, output, &history));
    const std::uint64_t storeTransition = history.storeTransition;
    const std::uint64_t storePc = history.storePc;

    QString error;
    const auto database = HistoryDatabase::open(output, &error);
    QVERIFY2(database, qPrintable(error));
    QCOMPARE(database->meta().value(QStringLiteral("context")),
        QStringLiteral("pcs,map,modules,symbols,lines,disassembly,values"));
    ContextReader reader(*database);
    QCOMPARE(reader.parts().join(u','), QStringLiteral("pcs,map,modules,symbols,lines,disassembly,values"));
    QCOMPARE(reader.modules().size(), 1);
    QCOMPARE(reader.modules()[0].module.path, program);
    QCOMPARE(reader.modules()[0].module.bias, bias);
    QCOMPARE(reader.modules()[0].module.buildId, readelfBuildId(program));

    const auto pc = reader.pcAt(Transition { storeTransition });
    QCOMPARE(pc, std::optional<Address>(Address { storePc }));
    const std::uint64_t elfPc = storePc - bias;
    const CodeDescription code = reader.describeCode(*pc, Transition { storeTransition });
    QCOMPARE(code.modulePath, program);
    QCOMPARE(code.moduleOffset, Address { elfPc });
    QCOMPARE(code.moduleText(), binary + QStringLiteral("+0x") + QString::number(elfPc, 16));
    const auto bump = nmSymbol(program, QStringLiteral("bump"));
    QCOMPARE(code.function, QStringLiteral("bump"));
    QCOMPARE(code.functionOffset, elfPc - bump->address);
    QCOMPARE(code.functionText(), QStringLiteral("bump+0x") + QString::number(elfPc - bump->address, 16));
    QCOMPARE(code.sourceText(), addr2line(program, elfPc));
    QCOMPARE(code.line, markedLine(path(QStringLiteral("counter.c")), QStringLiteral("counter")));
    const QList<ObjdumpInstruction> objdump = instructionsIn(objdumpInstructions(program), elfPc, 1);
    QCOMPARE(objdump.size(), 1);
    QCOMPARE(code.bytes, objdump[0].bytes);
    QCOMPARE(
        comparableInstruction(code.instruction), comparableInstruction(objdumpTextAtRunTime(objdump[0].text, bias)));

    // Every instruction fed: the text objdump gives, the line addr2line gives.
    const auto mainFunction = nmSymbol(program, QStringLiteral("main"));
    QList<std::uint64_t> addresses;
    QList<ObjdumpInstruction> fed
        = instructionsIn(objdumpInstructions(program), mainFunction->address, mainFunction->size);
    fed += instructionsIn(objdumpInstructions(program), bump->address, bump->size);
    for (const ObjdumpInstruction &instruction : fed)
        addresses << instruction.address;
    const QStringList lines = addr2line(program, addresses);
    QCOMPARE(lines.size(), fed.size());
    for (qsizetype i = 0; i < fed.size(); ++i) {
        const CodeDescription each = reader.describeCode(Address { fed[i].address + bias }, Transition { 0 });
        QCOMPARE(
            comparableInstruction(each.instruction), comparableInstruction(objdumpTextAtRunTime(fed[i].text, bias)));
        QCOMPARE(each.sourceText(), lines[i]);
        QCOMPARE(each.function,
            fed[i].address < bump->address || fed[i].address >= bump->address + bump->size ? QStringLiteral("main")
                                                                                           : QStringLiteral("bump"));
    }

    // The instructions around the store: those fed (main's and bump's), in address order, two on
    // each side; around an address inside the store, the store is the nearest below.
    std::sort(fed.begin(), fed.end(),
        [](const ObjdumpInstruction &a, const ObjdumpInstruction &b) { return a.address < b.address; });
    qsizetype store = 0;
    while (store < fed.size() && fed[store].address != elfPc)
        ++store;
    QVERIFY(store >= 2 && store + 2 < fed.size());
    const QList<KnownInstruction> around = reader.instructionsAround(Address { storePc }, 2, 2);
    QCOMPARE(around.size(), 5);
    for (qsizetype i = 0; i < around.size(); ++i) {
        const ObjdumpInstruction &expected = fed[store - 2 + i];
        QCOMPARE(around[i].pc, Address { expected.address + bias });
        QCOMPARE(around[i].bytes, expected.bytes);
        QCOMPARE(
            comparableInstruction(around[i].text), comparableInstruction(objdumpTextAtRunTime(expected.text, bias)));
    }
    const QList<KnownInstruction> inside = reader.instructionsAround(Address { storePc + 1 }, 1, 1);
    QCOMPARE(inside.size(), 2);
    QCOMPARE(inside[0].pc, Address { storePc });
    QCOMPARE(inside[1].pc, Address { fed[store + 1].address + bias });
    const QList<KnownInstruction> first = reader.instructionsAround(Address { fed[0].address + bias }, 3, 1);
    QCOMPARE(first.size(), 2);
    QCOMPARE(first[0].pc, Address { fed[0].address + bias });

    const Transition at { storeTransition };
    const auto counter = nmSymbol(program, QStringLiteral("counter"));
    const auto table = nmSymbol(program, QStringLiteral("table"));
    QCOMPARE(reader.describeAddress(Address { counter->address + bias }, at).text(), QStringLiteral("counter"));
    QCOMPARE(reader.describeAddress(Address { counter->address + bias + 2 }, at).text(), QStringLiteral("counter+0x2"));
    QCOMPARE(reader.describeAddress(Address { table->address + bias + 3 }, at).text(), QStringLiteral("table+0x3"));
    QCOMPARE(reader.describeAddress(Address { history.stackAddress }, at).text(), QStringLiteral("[stack]"));
    QCOMPARE(reader.describeAddress(Address { history.heapAddress }, at).text(), QStringLiteral("[heap]"));
    // In the module but in no object: its section.
    for (const ObjdumpSection &section : allocatedSections(program)) {
        if (section.name == QLatin1String(".got"))
            QCOMPARE(reader.describeAddress(Address { section.address + bias }, at).text(),
                binary + QStringLiteral(" .got"));
    }
    QCOMPARE(reader.describeAddress(Address { 0x10 }, at).text(), QString());

    // The values of the four writes, by rowid.
    QCOMPARE(
        reader.value(RowId { 1 }), std::optional(AccessValue { QByteArray::fromHex("11111111"), {}, std::nullopt }));
    QCOMPARE(reader.value(RowId { 3 }),
        std::optional(AccessValue { QByteArray::fromHex("3333333333333333"), {}, std::nullopt }));
    QCOMPARE(reader.value(RowId { 5 }), std::nullopt);

    // Functions by name, and the calls of bump (its entry ran once, after main's instructions).
    const QList<FunctionInfo> bumps = reader.functionsNamed(QStringLiteral("bump"));
    QCOMPARE(bumps.size(), 1);
    QCOMPARE(bumps[0].range.first, Address { bump->address + bias });
    QCOMPARE(bumps[0].range.last, Address { bump->address + bump->size - 1 + bias });
    QCOMPARE(reader.executionsOf({ bumps[0].range.first }, Transition { 0 }, Direction::Forward, 10),
        QList<Transition> { Transition { std::uint64_t(
            instructionsIn(objdumpInstructions(program), mainFunction->address, mainFunction->size).size()) } });
    QCOMPARE(reader.functionsNamed(QStringLiteral("printf")).size(), 0);

    // Every name, for completion: the executed functions by name, then the data objects by name.
    const QList<NamedRange> named = reader.namedRanges();
    QList<NamedRange> functions;
    QList<NamedRange> objects;
    for (const NamedRange &range : named)
        (range.kind == NamedRange::Kind::Function ? functions : objects) << range;
    QCOMPARE(named, functions + objects);
    const auto rangeOf = [bias](const NmSymbol &symbol) {
        return AddressRange { Address { symbol.address + bias }, Address { symbol.address + symbol.size - 1 + bias } };
    };
    QCOMPARE(functions,
        (QList<NamedRange> { { QStringLiteral("bump"), rangeOf(*bump), NamedRange::Kind::Function },
            { QStringLiteral("main"), rangeOf(*mainFunction), NamedRange::Kind::Function } }));
    QVERIFY(
        objects.contains(NamedRange { QStringLiteral("counter"), rangeOf(*counter), NamedRange::Kind::DataObject }));
    QVERIFY(objects.contains(NamedRange { QStringLiteral("table"), rangeOf(*table), NamedRange::Kind::DataObject }));
    for (qsizetype i = 1; i < objects.size(); ++i)
        QVERIFY(objects[i - 1].name <= objects[i].name);
}

QTEST_GUILESS_MAIN(tst_ContextReader)
#include "tst_contextreader.moc"
