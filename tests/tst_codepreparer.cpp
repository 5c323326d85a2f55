// SPDX-License-Identifier: MIT
// Code resolved while the trace runs (CodePreparer) against the resolution at the end: taken for
// a PC the end places in the same module (file, bias, build-id), never for one it places in
// another, so that a history is the same with or without it.
#include "core/context/codepreparer.h"
#include "core/context/contextresolver.h"
#include "core/context/disassembler.h"
#include "core/context/symbolizer.h"
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

constexpr std::uint64_t programBias = 0x555555554000;

// resolveCode() of `runs` (first executed at transition 5) with `final` as the only module.
ResolvedContext resolveAll(
    Symbolizer &symbolizer, const LoadedModule &final, const std::vector<CodeRun> &runs, const CodePreparer &prepared)
{
    const int load = symbolizer.addModule(final);
    SymbolizedModules loads;
    loads.loads = { load };
    loads.moduleIdOfLoad.insert(load, 1);
    const Disassembler disassembler(InstructionSet::X86_64);
    const std::vector<Transition> firstExecutions(runs.size(), Transition { 5 });
    ResolvedContext resolved;
    qint64 distinctPcs = 0;
    resolveCode(symbolizer, disassembler, runs, firstExecutions, {}, loads, prepared, &resolved, &distinctPcs);
    return resolved;
}

std::vector<NewCodeRun> newRuns(const std::vector<CodeRun> &runs)
{
    std::vector<NewCodeRun> result;
    for (const CodeRun &run : runs)
        result.push_back(NewCodeRun { run, Transition { 5 } });
    return result;
}

} // namespace

class tst_CodePreparer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void locationIsDescribeCode();
    void sameRangesInTheNextModuleAreItsOwn();
    void takenForTheSameModule();
    void notTakenForAnotherBias();
    void notTakenForAnotherBuildId();
    void pcsOutsideNamedModulesAreLeft();
    void rowsMadeAreTheResolvedRows();
    void rowsMadeForAnotherBiasAreDeleted();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // Names `program` at programBias and prepares bump()'s run in it.
    void prepareBump(Symbolizer &symbolizer, CodePreparer &preparer, const QString &program) const
    {
        preparer.addModule(symbolizer, moduleLoad(program, programBias));
        preparer.prepare(symbolizer, newRuns(m_bumpRuns));
    }

    QTemporaryDir m_dir;
    // bump()'s instructions as one run at programBias, and their count.
    std::vector<CodeRun> m_bumpRuns;
    qsizetype m_bumpInstructions = 0;
    std::uint64_t m_bumpAddress = 0;
};

void tst_CodePreparer::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(QFile::copy(QFINDTESTDATA(QStringLiteral("data/programs/counter.c")), path(QStringLiteral("counter.c"))));
    QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, m_dir.path()));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "counter-stripped", "counter" }, m_dir.path()));
    const auto bump = nmSymbol(path(QStringLiteral("counter")), QStringLiteral("bump"));
    QVERIFY(bump && bump->size > 0);
    m_bumpAddress = bump->address;
    CodeRun run;
    run.pc = Address { bump->address + programBias };
    for (const ObjdumpInstruction &instruction : objdumpInstructions(path(QStringLiteral("counter")))) {
        if (instruction.address >= bump->address && instruction.address < bump->address + bump->size)
            run.sizes.append(char(instruction.bytes.size()));
    }
    QVERIFY(run.sizes.size() >= 4);
    m_bumpInstructions = run.sizes.size();
    m_bumpRuns = { run };
}

void tst_CodePreparer::locationIsDescribeCode()
{
    // Every instruction of the program, kept in a few bytes each, gives back what the symbolizer
    // says of it: function, offset, line, file and ranges.
    const QString program = path(QStringLiteral("counter"));
    std::vector<Address> pcs;
    std::vector<NewCodeRun> runs;
    for (const ObjdumpInstruction &instruction : objdumpInstructions(program)) {
        CodeRun one;
        one.pc = Address { instruction.address + programBias };
        one.sizes = QByteArray(1, char(instruction.bytes.size()));
        pcs.push_back(one.pc);
        runs.push_back(NewCodeRun { one, Transition { 5 } });
    }
    QVERIFY(pcs.size() > 100);
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    preparer.addModule(symbolizer, moduleLoad(program, programBias));
    preparer.prepare(symbolizer, runs);
    QCOMPARE(preparer.preparedCount(), qsizetype(pcs.size()));
    const int load = symbolizer.addModule(moduleLoad(program, programBias));
    int withFunction = 0;
    int withLine = 0;
    for (const Address pc : pcs) {
        std::optional<CodeLocation> location = preparer.location(0, pc);
        QVERIFY(location);
        location->module = load;
        const CodeLocation described = symbolizer.describeCode(load, pc);
        QCOMPARE(*location, described);
        withFunction += described.hasFunction();
        withLine += described.hasSource();
    }
    QVERIFY(withFunction > 0 && withLine > 0);
    QCOMPARE(preparer.location(1, pcs.front()), std::nullopt);
}

void tst_CodePreparer::sameRangesInTheNextModuleAreItsOwn()
{
    // The same source built in two folders: the same code and line ranges, other file names. The
    // first build is unloaded and the second loaded at the same bias; bump's first instruction
    // runs in the first, its second (same line-table row) in the second, which names its own file.
    for (const char *folder : { "one", "two" }) {
        const QString dir = path(QLatin1String(folder));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(QFile::copy(path(QStringLiteral("counter.c")), dir + QStringLiteral("/counter.c")));
        QVERIFY(runStep(QStringLiteral("gcc"), { "-g", "-O0", "-o", "counter", "counter.c" }, dir));
    }
    LoadedModule one = moduleLoad(path(QStringLiteral("one/counter")), programBias);
    one.last = Transition { 10 };
    LoadedModule two = moduleLoad(path(QStringLiteral("two/counter")), programBias);
    two.first = Transition { 20 };
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    preparer.addModule(symbolizer, one);
    preparer.addModule(symbolizer, two);
    const Address first = m_bumpRuns[0].pc;
    const Address second = pcInRun(m_bumpRuns[0], 1);
    CodeRun firstOnly { first, m_bumpRuns[0].sizes.first(1) };
    CodeRun secondOnly { second, m_bumpRuns[0].sizes.sliced(1, 1) };
    preparer.prepare(symbolizer, { NewCodeRun { firstOnly, Transition { 5 } } });
    preparer.prepare(symbolizer, { NewCodeRun { secondOnly, Transition { 25 } } });
    QCOMPARE(preparer.preparedCount(), qsizetype(2));

    const int loadOne = symbolizer.addModule(one);
    const int loadTwo = symbolizer.addModule(two);
    const CodeLocation inOne = symbolizer.describeCode(loadOne, first);
    const CodeLocation inTwo = symbolizer.describeCode(loadTwo, second);
    QCOMPARE(inOne.lineRange, inTwo.lineRange);
    QVERIFY(inOne.sourceFile != inTwo.sourceFile);
    std::optional<CodeLocation> early = preparer.location(preparer.moduleIndex(two), second);
    QVERIFY(early);
    early->module = loadTwo;
    QCOMPARE(*early, inTwo);
}

void tst_CodePreparer::takenForTheSameModule()
{
    // Prepared from the program with its symbols; at the end the same path holds the stripped
    // copy (in another Symbolizer, to see which answer is taken): the prepared one is.
    const QString program = path(QStringLiteral("same/program"));
    QVERIFY(QDir().mkpath(path(QStringLiteral("same"))));
    QVERIFY(QFile::copy(path(QStringLiteral("counter")), program));
    Symbolizer early;
    CodePreparer preparer(InstructionSet::X86_64);
    prepareBump(early, preparer, program);
    QCOMPARE(preparer.preparedCount(), m_bumpInstructions);

    QVERIFY(QFile::remove(program));
    QVERIFY(QFile::copy(path(QStringLiteral("counter-stripped")), program));
    Symbolizer late;
    const ResolvedContext resolved = resolveAll(late, moduleLoad(program, programBias), m_bumpRuns, preparer);
    QCOMPARE(resolved.functions.size(), std::size_t(1));
    QCOMPARE(resolved.functions[0].name, QStringLiteral("bump"));
    QCOMPARE(resolved.functions[0].range.first, Address { m_bumpAddress + programBias });
    QVERIFY(!resolved.sourceLines.empty());
    QCOMPARE(resolved.instructions.size(), std::size_t(m_bumpInstructions));
    QCOMPARE(resolved.instructions[0].text, QStringLiteral("push rbp"));

    Symbolizer alone;
    const CodePreparer nothing(InstructionSet::X86_64);
    const ResolvedContext unprepared = resolveAll(alone, moduleLoad(program, programBias), m_bumpRuns, nothing);
    QCOMPARE(unprepared.functions.size(), std::size_t(0));
    QCOMPARE(unprepared.sourceLines.size(), std::size_t(0));
    QCOMPARE(unprepared.instructions, resolved.instructions); // stripping keeps the code
}

void tst_CodePreparer::notTakenForAnotherBias()
{
    // The same file 3 bytes higher at the end: bump's PCs are other ELF addresses there (inside
    // functions, which start 16-byte aligned), and the answer is the one resolved without
    // preparation, not bump's.
    const QString program = path(QStringLiteral("counter"));
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    prepareBump(symbolizer, preparer, program);
    QCOMPARE(preparer.preparedCount(), m_bumpInstructions);
    const LoadedModule moved = moduleLoad(program, programBias + 3);
    QCOMPARE(preparer.moduleIndex(moved), -1);
    const ResolvedContext resolved = resolveAll(symbolizer, moved, m_bumpRuns, preparer);

    Symbolizer alone;
    const CodePreparer nothing(InstructionSet::X86_64);
    const ResolvedContext unprepared = resolveAll(alone, moved, m_bumpRuns, nothing);
    QCOMPARE(resolved.functions, unprepared.functions);
    QCOMPARE(resolved.sourceLines, unprepared.sourceLines);
    QCOMPARE(resolved.sourceFiles, unprepared.sourceFiles);
    QCOMPARE(resolved.instructions, unprepared.instructions);
    for (const FunctionRow &function : resolved.functions)
        QVERIFY(function.range.first != Address { m_bumpAddress + programBias });
}

void tst_CodePreparer::notTakenForAnotherBuildId()
{
    // The end names a build-id the file does not have: module+offset only, whatever was prepared.
    const QString program = path(QStringLiteral("counter"));
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    prepareBump(symbolizer, preparer, program);
    QCOMPARE(preparer.preparedCount(), m_bumpInstructions);
    const ResolvedContext resolved
        = resolveAll(symbolizer, moduleLoad(program, programBias, QStringLiteral("00112233")), m_bumpRuns, preparer);
    QCOMPARE(resolved.functions.size(), std::size_t(0));
    QCOMPARE(resolved.sourceLines.size(), std::size_t(0));
    QCOMPARE(resolved.instructions.size(), std::size_t(0));
}

void tst_CodePreparer::pcsOutsideNamedModulesAreLeft()
{
    // Before the module's load, and outside its extent, nothing is prepared.
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    LoadedModule later = moduleLoad(path(QStringLiteral("counter")), programBias);
    later.first = Transition { 10 };
    preparer.addModule(symbolizer, later);
    preparer.prepare(symbolizer, newRuns(m_bumpRuns)); // first executed at 5
    QCOMPARE(preparer.preparedCount(), qsizetype(0));
    CodeRun outside;
    outside.pc = Address { 0x1000 };
    outside.sizes = QByteArray(3, char(1));
    preparer.prepare(symbolizer, { NewCodeRun { outside, Transition { 20 } } });
    QCOMPARE(preparer.preparedCount(), qsizetype(0));
    preparer.prepare(symbolizer, { NewCodeRun { m_bumpRuns[0], Transition { 20 } } });
    QCOMPARE(preparer.preparedCount(), m_bumpInstructions);
}

void tst_CodePreparer::rowsMadeAreTheResolvedRows()
{
    // The rows made early are those the end resolves: nothing left to store, nothing to delete.
    const QString program = path(QStringLiteral("counter"));
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    prepareBump(symbolizer, preparer, program);
    const EarlyCodeRows made = preparer.takeRows();
    QCOMPARE(made.instructions.size(), std::size_t(m_bumpInstructions));
    QCOMPARE(made.sourceFiles.size(), std::size_t(1));
    QVERIFY(!made.sourceLines.empty());
    QVERIFY(preparer.takeRows().isEmpty());

    ResolvedContext resolved = resolveAll(symbolizer, moduleLoad(program, programBias), m_bumpRuns, preparer);
    QCOMPARE(resolved.instructions, made.instructions);
    QCOMPARE(resolved.sourceLines, made.sourceLines);
    QCOMPARE(resolved.sourceFiles, made.sourceFiles);
    const EarlyCodeDeletions deletions = preparer.keepOnlyNewRows(&resolved);
    QVERIFY(deletions.isEmpty());
    QVERIFY(resolved.instructions.empty());
    QVERIFY(resolved.sourceLines.empty());
    QVERIFY(resolved.sourceFiles.empty());
}

void tst_CodePreparer::rowsMadeForAnotherBiasAreDeleted()
{
    // The end places bump's PCs 3 bytes further into the file: every instruction made early is
    // another one there, and the lines are stored again, all of them.
    const QString program = path(QStringLiteral("counter"));
    Symbolizer symbolizer;
    CodePreparer preparer(InstructionSet::X86_64);
    prepareBump(symbolizer, preparer, program);
    const EarlyCodeRows made = preparer.takeRows();
    ResolvedContext resolved = resolveAll(symbolizer, moduleLoad(program, programBias + 3), m_bumpRuns, preparer);
    const ResolvedContext all = resolved;
    const EarlyCodeDeletions deletions = preparer.keepOnlyNewRows(&resolved);
    QCOMPARE(deletions.instructions.size(), made.instructions.size());
    QVERIFY(deletions.allSourceLines);
    QCOMPARE(resolved.instructions, all.instructions);
    QCOMPARE(resolved.sourceLines, all.sourceLines);
}

QTEST_GUILESS_MAIN(tst_CodePreparer)
#include "tst_codepreparer.moc"
