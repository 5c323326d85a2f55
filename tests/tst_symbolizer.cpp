// SPDX-License-Identifier: MIT
// The symbolizer against binutils: programs compiled here with gcc/g++ -g (PIE, non-PIE, C++,
// a shared library, stripped copies, split debug files), resolved at run-time biases and compared
// with what nm, addr2line, objdump and readelf say about the same ELF addresses.
#include "core/context/disassembler.h"
#include "core/context/symbolizer.h"
#include "programhistory.h"
#include "testsupport.h"
#include "toolchain.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace memhist;
using namespace memhist::test;

namespace {

constexpr std::uint64_t pieBias = 0x555555554000;
constexpr std::uint64_t libraryBias = 0x7f1234560000;
constexpr std::uint64_t cxxBias = 0x560000000000;
const QString counterStore = QStringLiteral("^mov\\s+DWORD PTR \\[rip\\+0x[0-9a-f]+\\],eax\\s+# [0-9a-f]+ <counter>$");

} // namespace

class tst_Symbolizer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void describeCode_data();
    void describeCode();
    void readyModuleStatus_data();
    void readyModuleStatus();
    void describeData_data();
    void describeData();
    void addressOutsideEveryModule();
    void dataObjectsMatchReadelf();
    void sectionsMatchObjdump_data();
    void sectionsMatchObjdump();
    void codeBytes_data();
    void codeBytes();
    void disassemblyOfFileBytesMatchesObjdump_data();
    void disassemblyOfFileBytesMatchesObjdump();
    void unusableModules_data();
    void unusableModules();
    void sameFileAtTwoBiases();
    void neverAsksADebuginfodServer();
    void libcFunctionsFromItsDebugFile_data();
    void libcFunctionsFromItsDebugFile();
    void libcDataFromItsDebugFile_data();
    void libcDataFromItsDebugFile();
    void batchMatchesOneByOne();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QStringList debugRoots(const QString &which) const;
    // The ELF address of the first instruction of `function` whose objdump text matches `pattern`.
    std::optional<std::uint64_t> instructionAddress(
        const QString &binary, const QString &function, bool demangled, const QString &pattern) const;
    QString buildIdPath(const QString &root, const QString &binary) const;
    // objdumpInstructions(binary), run once per binary.
    const QList<ObjdumpInstruction> &disassembly(const QString &binary) const;

    QTemporaryDir m_dir;
    QString m_debugRoot;
    QString m_libc;
    mutable QHash<QString, QList<ObjdumpInstruction>> m_disassembly;
};

const QList<ObjdumpInstruction> &tst_Symbolizer::disassembly(const QString &binary) const
{
    auto known = m_disassembly.constFind(binary);
    if (known == m_disassembly.constEnd())
        known = m_disassembly.insert(binary, objdumpInstructions(binary));
    return *known;
}

QStringList tst_Symbolizer::debugRoots(const QString &which) const
{
    if (which == QLatin1String("test"))
        return { m_debugRoot };
    if (which == QLatin1String("system"))
        return Symbolizer::defaultDebugRoots();
    return {};
}

QString tst_Symbolizer::buildIdPath(const QString &root, const QString &binary) const
{
    const QString id = readelfBuildId(binary);
    return root + QStringLiteral("/.build-id/") + id.left(2) + QLatin1Char('/') + id.mid(2) + QStringLiteral(".debug");
}

std::optional<std::uint64_t> tst_Symbolizer::instructionAddress(
    const QString &binary, const QString &function, bool demangled, const QString &pattern) const
{
    const auto symbol = nmSymbol(binary, function, demangled);
    if (!symbol)
        return std::nullopt;
    const QRegularExpression expression(pattern);
    for (const ObjdumpInstruction &instruction : instructionsIn(disassembly(binary), symbol->address, symbol->size)) {
        if (expression.match(instruction.text).hasMatch())
            return instruction.address;
    }
    return std::nullopt;
}

void tst_Symbolizer::initTestCase()
{
    QVERIFY(m_dir.isValid());
    for (const QString &source :
        { QStringLiteral("counter.c"), QStringLiteral("shapes.cpp"), QStringLiteral("shared.c") })
        QVERIFY(QFile::copy(QFINDTESTDATA(QStringLiteral("data/programs/") + source), path(source)));
    const QString gcc = QStringLiteral("gcc");
    const QString dir = m_dir.path();
    // Sources named relatively, so that DWARF holds "counter.c" and the compilation folder.
    QVERIFY(runStep(gcc, { "-g", "-O0", "-o", "counter", "counter.c" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O0", "-no-pie", "-o", "counter-nopie", "counter.c" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O0", "-Wl,--build-id=none", "-o", "counter-noid", "counter.c" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O0", "-c", "-o", "counter.o", "counter.c" }, dir));
    QVERIFY(runStep(QStringLiteral("g++"), { "-g", "-O0", "-o", "shapes", "shapes.cpp" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O0", "-shared", "-fPIC", "-o", "libshared.so", "shared.c" }, dir));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "counter-stripped", "counter" }, dir));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "libshared-stripped.so", "libshared.so" }, dir));

    // Split debug information, found by build-id under a debug root of the test's own.
    m_debugRoot = path(QStringLiteral("debugroot"));
    const QString splitDebug = buildIdPath(m_debugRoot, path(QStringLiteral("counter")));
    QVERIFY(QDir().mkpath(QFileInfo(splitDebug).absolutePath()));
    QVERIFY(runStep(QStringLiteral("objcopy"),
        { QStringLiteral("--only-keep-debug"), QStringLiteral("counter"), splitDebug }, dir));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "counter-split", "counter" }, dir));

    // ... and by GNU debuglink, beside the file.
    QVERIFY(runStep(QStringLiteral("objcopy"), { "--only-keep-debug", "counter", "counter-linked.debug" }, dir));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "counter-linked", "counter" }, dir));
    QVERIFY(runStep(QStringLiteral("objcopy"), { "--add-gnu-debuglink=counter-linked.debug", "counter-linked" }, dir));

    // A debuglink whose target is the debug file of another build (the non-PIE one).
    QVERIFY(runStep(QStringLiteral("objcopy"), { "--only-keep-debug", "counter", "counter-wronglink.debug" }, dir));
    QVERIFY(runStep(QStringLiteral("strip"), { "-o", "counter-wronglink", "counter" }, dir));
    QVERIFY(runStep(
        QStringLiteral("objcopy"), { "--add-gnu-debuglink=counter-wronglink.debug", "counter-wronglink" }, dir));
    QVERIFY(QFile::remove(path(QStringLiteral("counter-wronglink.debug"))));
    QVERIFY(
        runStep(QStringLiteral("objcopy"), { "--only-keep-debug", "counter-nopie", "counter-wronglink.debug" }, dir));

    // Files that are not programs.
    QFile notes(path(QStringLiteral("notes.txt")));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("not a program\n");
    notes.close();
    QFile empty(path(QStringLiteral("empty")));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QFile truncated(path(QStringLiteral("counter-truncated")));
    QVERIFY(truncated.open(QIODevice::WriteOnly));
    truncated.write(readFile(path(QStringLiteral("counter"))).left(100));
    truncated.close();
    QVERIFY(QDir(dir).mkdir(QStringLiteral("folder")));
    QCOMPARE(mkfifo(QFile::encodeName(path(QStringLiteral("fifo"))).constData(), 0600), 0);

    m_libc = QFileInfo(QString::fromUtf8(runTool(gcc, { QStringLiteral("-print-file-name=libc.so.6") }).out.trimmed()))
                 .canonicalFilePath();
    QVERIFY2(!m_libc.isEmpty(), "gcc -print-file-name=libc.so.6 names no file");
}

void tst_Symbolizer::describeCode_data()
{
    QTest::addColumn<QString>("binary"); // what the symbolizer opens
    QTest::addColumn<QString>("oracle"); // the unstripped original binutils are asked about
    QTest::addColumn<quint64>("bias");
    QTest::addColumn<QString>("roots");
    QTest::addColumn<QString>("function"); // as nm (-C when demangled) names it in the oracle
    QTest::addColumn<bool>("demangled");
    QTest::addColumn<QString>("instruction"); // objdump text of the PC, a regular expression
    QTest::addColumn<QString>("expectedFunction"); // empty: none expected
    QTest::addColumn<QString>("source"); // empty: no line expected
    QTest::addColumn<QString>("marker");

    const QString counterC = QStringLiteral("counter.c");
    QTest::newRow("store to counter, PIE at a non-zero bias")
        << "counter"
        << "counter" << quint64(pieBias) << "test"
        << "bump" << false << counterStore << "bump" << counterC << "counter";
    QTest::newRow("store to counter, PIE at bias 0")
        << "counter"
        << "counter" << quint64(0) << "test"
        << "bump" << false << counterStore << "bump" << counterC << "counter";
    QTest::newRow("store to counter, non-PIE executable")
        << "counter-nopie"
        << "counter-nopie" << quint64(0) << "test"
        << "bump" << false << counterStore << "bump" << counterC << "counter";
    QTest::newRow("store to table, PIE at a non-zero bias")
        << "counter"
        << "counter" << quint64(pieBias) << "test"
        << "bump" << false << "^mov\\s+BYTE PTR \\[rax\\+rdx\\*1\\],cl$"
        << "bump" << counterC << "table";
    QTest::newRow("C++ method, demangled") << "shapes"
                                           << "shapes" << quint64(cxxBias) << "test"
                                           << "geometry::Rectangle::area() const" << true << "^imul"
                                           << "geometry::Rectangle::area() const"
                                           << "shapes.cpp"
                                           << "area";
    QTest::newRow("C++ template instance for int, demangled")
        << "shapes"
        << "shapes" << quint64(cxxBias) << "test"
        << "int geometry::twice<int>(int)" << true << "^add\\s+eax,eax$"
        << "int geometry::twice<int>(int)"
        << "shapes.cpp"
        << "twice";
    QTest::newRow("C++ template instance for double, demangled")
        << "shapes"
        << "shapes" << quint64(cxxBias) << "test"
        << "double geometry::twice<double>(double)" << true << "^addsd"
        << "double geometry::twice<double>(double)"
        << "shapes.cpp"
        << "twice";
    QTest::newRow("shared library at a non-zero bias") << "libshared.so"
                                                       << "libshared.so" << quint64(libraryBias) << "test"
                                                       << "shared_add" << false << "^mov\\s+DWORD PTR \\[rax\\],edx$"
                                                       << "shared_add"
                                                       << "shared.c"
                                                       << "shared_total";
    QTest::newRow("stripped, debug file found by build-id under the debug root")
        << "counter-split"
        << "counter" << quint64(pieBias) << "test"
        << "bump" << false << counterStore << "bump" << counterC << "counter";
    QTest::newRow("stripped, debug file found by debuglink beside it")
        << "counter-linked"
        << "counter" << quint64(pieBias) << "none"
        << "bump" << false << counterStore << "bump" << counterC << "counter";
    QTest::newRow("stripped, debuglink to another build's debug file: ignored")
        << "counter-wronglink"
        << "counter" << quint64(pieBias) << "none"
        << "bump" << false << counterStore << ""
        << ""
        << "";
    QTest::newRow("stripped executable: module+offset only") << "counter-stripped"
                                                             << "counter" << quint64(pieBias) << "none"
                                                             << "bump" << false << counterStore << ""
                                                             << ""
                                                             << "";
    QTest::newRow("stripped library: exported function from .dynsym, no line")
        << "libshared-stripped.so"
        << "libshared.so" << quint64(libraryBias) << "none"
        << "shared_add" << false << "^mov\\s+DWORD PTR \\[rax\\],edx$"
        << "shared_add"
        << ""
        << "";
}

void tst_Symbolizer::describeCode()
{
    QFETCH(QString, binary);
    QFETCH(QString, oracle);
    QFETCH(quint64, bias);
    QFETCH(QString, roots);
    QFETCH(QString, function);
    QFETCH(bool, demangled);
    QFETCH(QString, instruction);
    QFETCH(QString, expectedFunction);
    QFETCH(QString, source);
    QFETCH(QString, marker);

    const auto symbol = nmSymbol(path(oracle), function, demangled);
    QVERIFY(symbol);
    const auto elfPc = instructionAddress(path(oracle), function, demangled, instruction);
    QVERIFY2(elfPc, "objdump shows no such instruction in the function");
    const Address pc { *elfPc + bias };

    Symbolizer symbolizer(debugRoots(roots));
    const int index = symbolizer.addModule(moduleLoad(path(binary), bias));
    QCOMPARE(index, 0);
    QCOMPARE(symbolizer.status(index).state, ModuleState::Ready);
    QCOMPARE(symbolizer.moduleAt(pc), std::optional<int>(index));

    const CodeLocation location = symbolizer.describeCode(pc);
    QCOMPARE(location.module, index);
    QCOMPARE(location.moduleOffset, Address { *elfPc });
    QCOMPARE(location.function, expectedFunction);
    if (!expectedFunction.isEmpty()) {
        QCOMPARE(location.functionOffset, *elfPc - symbol->address);
        QCOMPARE(location.functionRange.first, Address { symbol->address + bias });
        QCOMPARE(location.functionRange.last, Address { symbol->address + symbol->size - 1 + bias });
    } else {
        QCOMPARE(location.functionOffset, std::uint64_t(0));
    }
    if (source.isEmpty()) {
        QCOMPARE(location.sourceFile, QString());
        QCOMPARE(location.line, 0);
        return;
    }
    QCOMPARE(location.sourceFile, path(source));
    QCOMPARE(location.line, markedLine(path(source), marker));
    QCOMPARE(location.sourceFile + QLatin1Char(':') + QString::number(location.line), addr2line(path(oracle), *elfPc));
    // The line-table row holds the PC, starts at an instruction, and addr2line gives every
    // instruction inside it the same line.
    QVERIFY(location.lineRange.contains(pc));
    QList<std::uint64_t> inRow;
    for (const ObjdumpInstruction &inside : instructionsIn(disassembly(path(oracle)), symbol->address, symbol->size)) {
        if (location.lineRange.contains(Address { inside.address + bias }))
            inRow << inside.address;
    }
    QVERIFY(!inRow.isEmpty());
    QCOMPARE(Address { inRow.first() + bias }, location.lineRange.first);
    const QStringList lines = addr2line(path(oracle), inRow);
    QCOMPARE(lines.size(), inRow.size());
    for (const QString &line : lines)
        QCOMPARE(line, lines.first());
}

void tst_Symbolizer::readyModuleStatus_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<QString>("roots");
    QTest::addColumn<QString>("debugFile"); // "build-id", "debuglink" or empty
    QTest::addColumn<bool>("hasSymbolTable");
    QTest::addColumn<bool>("hasDynamicSymbols");
    QTest::addColumn<bool>("hasLines");

    QTest::newRow("executable with its own DWARF") << "counter"
                                                   << "test"
                                                   << "" << true << false << true;
    QTest::newRow("shared library with its own DWARF") << "libshared.so"
                                                       << "test"
                                                       << "" << true << false << true;
    QTest::newRow("debug file by build-id") << "counter-split"
                                            << "test"
                                            << "build-id" << true << false << true;
    QTest::newRow("debug file by debuglink") << "counter-linked"
                                             << "none"
                                             << "debuglink" << true << false << true;
    QTest::newRow("debuglink to another build") << "counter-wronglink"
                                                << "none"
                                                << "" << false << true << false;
    QTest::newRow("stripped executable") << "counter-stripped"
                                         << "none"
                                         << "" << false << true << false;
    QTest::newRow("stripped library") << "libshared-stripped.so"
                                      << "none"
                                      << "" << false << true << false;
}

void tst_Symbolizer::readyModuleStatus()
{
    QFETCH(QString, binary);
    QFETCH(QString, roots);
    QFETCH(QString, debugFile);
    QFETCH(bool, hasSymbolTable);
    QFETCH(bool, hasDynamicSymbols);
    QFETCH(bool, hasLines);

    Symbolizer symbolizer(debugRoots(roots));
    const int index = symbolizer.addModule(moduleLoad(path(binary), pieBias));
    const ModuleStatus &status = symbolizer.status(index);
    QCOMPARE(status.state, ModuleState::Ready);
    QCOMPARE(status.message, QString());
    QCOMPARE(status.fileBuildId, readelfBuildId(path(binary)));
    QVERIFY(!status.fileBuildId.isEmpty());
    QString expectedDebugFile;
    if (debugFile == QLatin1String("build-id"))
        expectedDebugFile = buildIdPath(m_debugRoot, path(binary));
    else if (debugFile == QLatin1String("debuglink"))
        expectedDebugFile = path(binary + QStringLiteral(".debug"));
    QCOMPARE(status.debugFile, expectedDebugFile);
    QCOMPARE(status.hasSymbolTable, hasSymbolTable);
    QCOMPARE(status.hasDynamicSymbols, hasDynamicSymbols);
    QCOMPARE(status.hasLines, hasLines);
}

void tst_Symbolizer::describeData_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<QString>("oracle");
    QTest::addColumn<quint64>("bias");
    QTest::addColumn<QString>("roots");
    QTest::addColumn<QString>("symbol"); // in the oracle's .symtab; "section NAME" for a section's start
    QTest::addColumn<quint64>("offset");
    QTest::addColumn<QString>("expectedObject");
    QTest::addColumn<quint64>("expectedOffset");
    QTest::addColumn<QString>("expectedSection");

    QTest::newRow("counter, a global") << "counter"
                                       << "counter" << quint64(pieBias) << "test"
                                       << "counter" << quint64(0) << "counter" << quint64(0) << ".bss";
    QTest::newRow("counter's last byte") << "counter"
                                         << "counter" << quint64(pieBias) << "test"
                                         << "counter" << quint64(3) << "counter" << quint64(3) << ".bss";
    QTest::newRow("table+0x3, a static array") << "counter"
                                               << "counter" << quint64(pieBias) << "test"
                                               << "table" << quint64(3) << "table" << quint64(3) << ".bss";
    QTest::newRow("greeting+0x2, a constant") << "counter"
                                              << "counter" << quint64(pieBias) << "test"
                                              << "greeting" << quint64(2) << "greeting" << quint64(2) << ".rodata";
    QTest::newRow("non-PIE executable: counter") << "counter-nopie"
                                                 << "counter-nopie" << quint64(0) << "test"
                                                 << "counter" << quint64(0) << "counter" << quint64(0) << ".bss";
    QTest::newRow("the .got: a section, no object") << "counter"
                                                    << "counter" << quint64(pieBias) << "test"
                                                    << "section .got" << quint64(0) << "" << quint64(0) << ".got";
    QTest::newRow("debug file's .symtab: table+0x3") << "counter-split"
                                                     << "counter" << quint64(pieBias) << "test"
                                                     << "table" << quint64(3) << "table" << quint64(3) << ".bss";
    QTest::newRow("stripped executable: .bss, no object") << "counter-stripped"
                                                          << "counter" << quint64(pieBias) << "none"
                                                          << "table" << quint64(3) << "" << quint64(0) << ".bss";
    QTest::newRow("shared library: a static") << "libshared.so"
                                              << "libshared.so" << quint64(libraryBias) << "test"
                                              << "shared_calls" << quint64(1) << "shared_calls" << quint64(1) << ".bss";
    QTest::newRow("stripped library: an exported global from .dynsym")
        << "libshared-stripped.so"
        << "libshared.so" << quint64(libraryBias) << "none"
        << "shared_total" << quint64(2) << "shared_total" << quint64(2) << ".bss";
}

void tst_Symbolizer::describeData()
{
    QFETCH(QString, binary);
    QFETCH(QString, oracle);
    QFETCH(quint64, bias);
    QFETCH(QString, roots);
    QFETCH(QString, symbol);
    QFETCH(quint64, offset);
    QFETCH(QString, expectedObject);
    QFETCH(quint64, expectedOffset);
    QFETCH(QString, expectedSection);

    std::uint64_t elfAddress = 0;
    std::optional<NmSymbol> object;
    if (symbol.startsWith(QStringLiteral("section "))) {
        for (const ObjdumpSection &section : allocatedSections(path(oracle))) {
            if (section.name == symbol.mid(8))
                elfAddress = section.address;
        }
        QVERIFY(elfAddress != 0);
    } else {
        object = nmSymbol(path(oracle), symbol);
        QVERIFY(object);
        elfAddress = object->address;
    }
    const Address address { elfAddress + offset + bias };

    Symbolizer symbolizer(debugRoots(roots));
    const int index = symbolizer.addModule(moduleLoad(path(binary), bias));
    const DataLocation location = symbolizer.describeData(address);
    QCOMPARE(location.module, index);
    QCOMPARE(location.object, expectedObject);
    QCOMPARE(location.objectOffset, expectedOffset);
    QCOMPARE(location.section, expectedSection);
    if (!expectedObject.isEmpty()) {
        QCOMPARE(location.objectRange.first, Address { object->address + bias });
        QCOMPARE(location.objectRange.last, Address { object->address + object->size - 1 + bias });
        QCOMPARE(symbolWithOffset(location.object, location.objectOffset),
            expectedOffset == 0 ? expectedObject
                                : expectedObject + QStringLiteral("+0x") + QString::number(expectedOffset, 16));
    }
    QCOMPARE(symbolizer.describeData({ address, address }), QList<DataLocation>({ location, location }));
}

void tst_Symbolizer::addressOutsideEveryModule()
{
    Symbolizer symbolizer(debugRoots(QStringLiteral("test")));
    symbolizer.addModule(moduleLoad(path(QStringLiteral("counter")), pieBias));
    const Address below { pieBias - 1 };
    QCOMPARE(symbolizer.moduleAt(below), std::nullopt);
    const DataLocation data = symbolizer.describeData(below);
    QCOMPARE(data.module, -1);
    QCOMPARE(data.object, QString());
    QCOMPARE(data.section, QString());
    const CodeLocation code = symbolizer.describeCode(below);
    QCOMPARE(code.module, -1);
    QCOMPARE(code.moduleOffset, below);
    QCOMPARE(code.function, QString());
    QCOMPARE(code.line, 0);
    QCOMPARE(symbolizer.codeBytes(below), QByteArray());
}

void tst_Symbolizer::dataObjectsMatchReadelf()
{
    const QString binary = path(QStringLiteral("counter"));
    Symbolizer symbolizer(debugRoots(QStringLiteral("test")));
    const int index = symbolizer.addModule(moduleLoad(binary, pieBias));

    std::uint64_t tlsImage = 0;
    for (const ReadelfSegment &segment : loadSegments(binary)) {
        if (segment.type == QLatin1String("TLS"))
            tlsImage = segment.address;
    }
    QVERIFY(tlsImage != 0);
    QList<DataObject> expected;
    for (const ReadelfSymbol &symbol : symtabSymbols(binary)) {
        if (symbol.size == 0 || symbol.section == QLatin1String("UND") || symbol.section == QLatin1String("ABS"))
            continue;
        const std::uint64_t first
            = (symbol.type == QLatin1String("TLS") ? tlsImage + symbol.value : symbol.value) + pieBias;
        if (symbol.type == QLatin1String("OBJECT") || symbol.type == QLatin1String("TLS"))
            expected << DataObject { symbol.name, { Address { first }, Address { first + symbol.size - 1 } } };
    }
    std::sort(expected.begin(), expected.end(),
        [](const DataObject &a, const DataObject &b) { return a.range.first < b.range.first; });
    const QList<DataObject> objects = symbolizer.dataObjects(index);
    QCOMPARE(objects, expected);
    // The ones the program itself defines are among them.
    QStringList names;
    for (const DataObject &object : objects)
        names << object.name;
    for (const char *name : { "counter", "table", "greeting", "perThread" })
        QVERIFY2(names.contains(QString::fromUtf8(name)), name);
}

void tst_Symbolizer::sectionsMatchObjdump_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<quint64>("bias");
    QTest::newRow("PIE at a non-zero bias") << "counter" << quint64(pieBias);
    QTest::newRow("non-PIE executable") << "counter-nopie" << quint64(0);
    QTest::newRow("shared library at a non-zero bias") << "libshared.so" << quint64(libraryBias);
    QTest::newRow("stripped executable") << "counter-stripped" << quint64(pieBias);
}

void tst_Symbolizer::sectionsMatchObjdump()
{
    QFETCH(QString, binary);
    QFETCH(quint64, bias);
    QList<SectionRange> expected;
    for (const ObjdumpSection &section : allocatedSections(path(binary))) {
        if (section.name != QLatin1String(".tbss")) {
            expected << SectionRange { section.name,
                { Address { section.address + bias }, Address { section.address + section.size - 1 + bias } } };
        }
    }
    std::sort(expected.begin(), expected.end(),
        [](const SectionRange &a, const SectionRange &b) { return a.range.first < b.range.first; });
    QVERIFY(expected.size() > 10);

    Symbolizer symbolizer(debugRoots(QStringLiteral("none")));
    const int index = symbolizer.addModule(moduleLoad(path(binary), bias));
    QCOMPARE(symbolizer.sections(index), expected);
}

void tst_Symbolizer::codeBytes_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<quint64>("bias");
    QTest::addColumn<QString>("where"); // "counter store", "segment end", "table", "beyond"
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("expectedSize");

    QTest::newRow("the store to counter, PIE at a bias") << "counter" << quint64(pieBias) << "counter store" << 6 << 6;
    QTest::newRow("15 bytes from the store to counter") << "counter" << quint64(pieBias) << "counter store" << 15 << 15;
    QTest::newRow("the store to counter, non-PIE") << "counter-nopie" << quint64(0) << "counter store" << 15 << 15;
    QTest::newRow("stripped executable") << "counter-stripped" << quint64(pieBias) << "counter store" << 15 << 15;
    QTest::newRow("end of the code segment: fewer bytes") << "counter" << quint64(pieBias) << "segment end" << 15 << 3;
    QTest::newRow("shared library, end of the code segment")
        << "libshared.so" << quint64(libraryBias) << "segment end" << 15 << 3;
    QTest::newRow(".bss has no bytes in the file") << "counter" << quint64(pieBias) << "table" << 15 << 0;
    QTest::newRow("beyond every segment") << "counter" << quint64(pieBias) << "beyond" << 15 << 0;
    QTest::newRow("zero bytes asked") << "counter" << quint64(pieBias) << "counter store" << 0 << 0;
}

void tst_Symbolizer::codeBytes()
{
    QFETCH(QString, binary);
    QFETCH(quint64, bias);
    QFETCH(QString, where);
    QFETCH(int, count);
    QFETCH(int, expectedSize);

    const QString oracle = binary == QLatin1String("counter-stripped") ? path(QStringLiteral("counter")) : path(binary);
    const QByteArray file = readFile(path(binary));
    const QList<ReadelfSegment> segments = loadSegments(path(binary));
    ReadelfSegment code;
    for (const ReadelfSegment &segment : segments) {
        if (segment.type == QLatin1String("LOAD") && segment.flags.contains(QLatin1Char('E')))
            code = segment;
    }
    QVERIFY(code.fileSize > 0);

    std::uint64_t elfAddress = 0;
    if (where == QLatin1String("counter store")) {
        const auto store = instructionAddress(oracle, QStringLiteral("bump"), false, counterStore);
        QVERIFY(store);
        elfAddress = *store;
    } else if (where == QLatin1String("segment end")) {
        elfAddress = code.address + code.fileSize - 3;
    } else if (where == QLatin1String("table")) {
        elfAddress = nmSymbol(oracle, QStringLiteral("table"))->address;
    } else {
        elfAddress = segments.last().address + segments.last().memorySize + 0x100000;
    }

    Symbolizer symbolizer(debugRoots(QStringLiteral("none")));
    const int index = symbolizer.addModule(moduleLoad(path(binary), bias));
    const QByteArray bytes = symbolizer.codeBytes(index, Address { elfAddress + bias }, count);
    QCOMPARE(bytes.size(), expectedSize);
    if (expectedSize > 0) {
        QCOMPARE(bytes, file.mid(qsizetype(code.fileOffset + (elfAddress - code.address)), expectedSize));
        QCOMPARE(symbolizer.codeBytes(Address { elfAddress + bias }, count), bytes);
    }
    if (where == QLatin1String("counter store") && expectedSize >= 6) {
        for (const ObjdumpInstruction &instruction : disassembly(oracle)) {
            if (instruction.address == elfAddress)
                QCOMPARE(bytes.left(instruction.bytes.size()), instruction.bytes);
        }
    }
}

void tst_Symbolizer::disassemblyOfFileBytesMatchesObjdump_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<quint64>("bias");
    QTest::addColumn<QString>("function");
    QTest::addColumn<bool>("demangled");
    QTest::newRow("bump, PIE at a bias") << "counter" << quint64(pieBias) << "bump" << false;
    QTest::newRow("main, non-PIE") << "counter-nopie" << quint64(0) << "main" << false;
    QTest::newRow("C++ method") << "shapes" << quint64(cxxBias) << "geometry::Rectangle::area() const" << true;
    QTest::newRow("shared library function") << "libshared.so" << quint64(libraryBias) << "shared_add" << false;
}

void tst_Symbolizer::disassemblyOfFileBytesMatchesObjdump()
{
    QFETCH(QString, binary);
    QFETCH(quint64, bias);
    QFETCH(QString, function);
    QFETCH(bool, demangled);

    const auto symbol = nmSymbol(path(binary), function, demangled);
    QVERIFY(symbol);
    Symbolizer symbolizer(debugRoots(QStringLiteral("none")));
    const int index = symbolizer.addModule(moduleLoad(path(binary), bias));
    const Disassembler disassembler;
    const QList<ObjdumpInstruction> instructions
        = instructionsIn(disassembly(path(binary)), symbol->address, symbol->size);
    QVERIFY(instructions.size() > 5);
    for (const ObjdumpInstruction &instruction : instructions) {
        const Address pc { instruction.address + bias };
        const DecodedInstruction decoded = disassembler.decode(symbolizer.codeBytes(index, pc), pc);
        QCOMPARE(decoded.size, std::uint8_t(instruction.bytes.size()));
        // objdump writes branch targets and rip-relative comments at ELF addresses: compare the
        // instruction decoded at its ELF address for those, at the run-time one otherwise.
        const DecodedInstruction atElfAddress
            = disassembler.decode(symbolizer.codeBytes(index, pc), Address { instruction.address });
        QCOMPARE(comparableInstruction(atElfAddress.text), comparableInstruction(instruction.text));
        if (!instruction.text.contains(QLatin1Char('<')))
            QCOMPARE(decoded.text, atElfAddress.text);
    }
}

void tst_Symbolizer::unusableModules_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("buildId"); // what the trace saw
    QTest::addColumn<ModuleState>("state");
    QTest::addColumn<QString>("problem"); // the message after "PATH: "

    QTest::newRow("missing file") << "missing.so"
                                  << "" << ModuleState::NotFound << "not found";
    QTest::newRow("deleted file as /proc/PID/maps names it") << "gone.so (deleted)"
                                                             << "" << ModuleState::NotFound << "not found";
    QTest::newRow("text file") << "notes.txt"
                               << "" << ModuleState::Unreadable << "not an ELF file";
    QTest::newRow("empty file") << "empty"
                                << "" << ModuleState::Unreadable << "not an ELF file";
    QTest::newRow("folder") << "folder"
                            << "" << ModuleState::Unreadable << "not a regular file";
    QTest::newRow("FIFO: not opened, so no hang") << "fifo"
                                                  << "" << ModuleState::Unreadable << "not a regular file";
    QTest::newRow("relocatable object") << "counter.o"
                                        << "" << ModuleState::Unreadable
                                        << "not an executable or shared object (ELF type 1)";
    QTest::newRow("ELF cut after 100 bytes")
        << "counter-truncated"
        << "" << ModuleState::Unreadable << "cannot read it as ELF (No ELF program headers)";
    QTest::newRow("build-id differs") << "counter"
                                      << "00112233445566778899aabbccddeeff00112233" << ModuleState::BuildIdDiffers
                                      << "build-id differs (trace 00112233445566778899aabbccddeeff00112233, file ID)";
    QTest::newRow("build-id expected, file has none")
        << "counter-noid"
        << "00112233445566778899aabbccddeeff00112233" << ModuleState::BuildIdDiffers
        << "build-id differs (trace "
           "00112233445566778899aabbccddeeff00112233, file none)";
    QTest::newRow("build-id matches, given in upper case") << "counter"
                                                           << "ID" << ModuleState::Ready << "";
}

void tst_Symbolizer::unusableModules()
{
    QFETCH(QString, file);
    QFETCH(QString, buildId);
    QFETCH(ModuleState, state);
    QFETCH(QString, problem);
    const QString fileId = readelfBuildId(path(QStringLiteral("counter")));
    buildId.replace(QStringLiteral("ID"), fileId.toUpper());
    problem.replace(QStringLiteral("ID"), fileId);

    const Address pc { pieBias + 0x1139 };
    Symbolizer symbolizer(debugRoots(QStringLiteral("test")));
    const int index = symbolizer.addModule(moduleLoad(path(file), pieBias, buildId));
    const ModuleStatus &status = symbolizer.status(index);
    QCOMPARE(status.state, state);
    QCOMPARE(status.message, problem.isEmpty() ? QString() : path(file) + QStringLiteral(": ") + problem);
    if (state == ModuleState::Ready) {
        QCOMPARE(symbolizer.describeCode(index, pc).function, QStringLiteral("bump"));
        return;
    }
    // Nothing is taken from the file: module+offset only, and no crash on any call.
    const CodeLocation location = symbolizer.describeCode(index, pc);
    QCOMPARE(location.module, index);
    QCOMPARE(location.moduleOffset, Address { 0x1139 });
    QCOMPARE(location.function, QString());
    QCOMPARE(location.sourceFile, QString());
    QCOMPARE(location.line, 0);
    QCOMPARE(symbolizer.describeData(index, pc).object, QString());
    QCOMPARE(symbolizer.describeData(index, pc).section, QString());
    QCOMPARE(symbolizer.extent(index), std::nullopt);
    QCOMPARE(symbolizer.moduleAt(pc), std::nullopt);
    QCOMPARE(symbolizer.sections(index), QList<SectionRange>());
    QCOMPARE(symbolizer.dataObjects(index), QList<DataObject>());
    QCOMPARE(symbolizer.codeBytes(index, pc), QByteArray());
    QCOMPARE(status.hasLines, false);
    QCOMPARE(status.debugFile, QString());
}

void tst_Symbolizer::sameFileAtTwoBiases()
{
    // A library unloaded at transition 99 and loaded again, one page higher, at 100: the two
    // extents overlap, so the transition decides.
    const QString library = path(QStringLiteral("libshared.so"));
    const auto function = nmSymbol(library, QStringLiteral("shared_add"));
    QVERIFY(function);
    LoadedModule first = moduleLoad(library, libraryBias);
    first.last = Transition { 99 };
    LoadedModule second = moduleLoad(library, libraryBias + 0x1000);
    second.first = Transition { 100 };
    second.last = Transition { 199 };

    Symbolizer symbolizer(debugRoots(QStringLiteral("none")));
    QCOMPARE(symbolizer.addModules({ first, second }), QList<int>({ 0, 1 }));
    QCOMPARE(symbolizer.moduleCount(), 2);
    QCOMPARE(symbolizer.module(1), second);

    const Address inBoth { libraryBias + 0x1000 + function->address };
    QCOMPARE(symbolizer.moduleAt(inBoth, Transition { 50 }), std::optional<int>(0));
    QCOMPARE(symbolizer.moduleAt(inBoth, Transition { 150 }), std::optional<int>(1));
    QCOMPARE(symbolizer.moduleAt(inBoth), std::optional<int>(1));
    QCOMPARE(symbolizer.moduleAt(inBoth, Transition { 500 }), std::nullopt);

    const CodeLocation early = symbolizer.describeCode(inBoth, Transition { 50 });
    QCOMPARE(early.module, 0);
    QCOMPARE(early.moduleOffset, Address { function->address + 0x1000 });
    const CodeLocation late = symbolizer.describeCode(inBoth, Transition { 150 });
    QCOMPARE(late.module, 1);
    QCOMPARE(late.function, QStringLiteral("shared_add"));
    QCOMPARE(late.functionOffset, std::uint64_t(0));
    QCOMPARE(late.functionRange.first, inBoth);
    const CodeLocation firstLoad = symbolizer.describeCode(0, Address { libraryBias + function->address + 4 });
    QCOMPARE(firstLoad.function, QStringLiteral("shared_add"));
    QCOMPARE(firstLoad.functionOffset, std::uint64_t(4));
    QCOMPARE(symbolizer.extent(1)->first.value - symbolizer.extent(0)->first.value, std::uint64_t(0x1000));
}

void tst_Symbolizer::neverAsksADebuginfodServer()
{
    // With DEBUGINFOD_URLS set, libdwfl's standard search asks the server for every debug file
    // it cannot find here (eu-addr2line does: it creates the client's cache folder first). Ours
    // must not: symbolising a stripped binary leaves no cache folder behind.
    const QString cache = path(QStringLiteral("debuginfod-cache"));
    qputenv("DEBUGINFOD_URLS", "http://127.0.0.1:9");
    qputenv("DEBUGINFOD_CACHE_PATH", QFile::encodeName(cache));
    {
        Symbolizer symbolizer(debugRoots(QStringLiteral("none")));
        const int index = symbolizer.addModule(moduleLoad(path(QStringLiteral("counter-stripped")), pieBias));
        QCOMPARE(symbolizer.status(index).hasLines, false);
        QCOMPARE(symbolizer.describeCode(index, Address { pieBias + 0x1139 }).line, 0);
    }
    qunsetenv("DEBUGINFOD_URLS");
    qunsetenv("DEBUGINFOD_CACHE_PATH");
    QVERIFY(!QFileInfo::exists(cache));
}

void tst_Symbolizer::libcFunctionsFromItsDebugFile_data()
{
    QTest::addColumn<QString>("function"); // in libc's .dynsym
    QTest::newRow("memcpy: an IFUNC with local and versioned aliases") << "memcpy";
    QTest::newRow("malloc") << "malloc";
    QTest::newRow("printf: aliased by _IO_printf") << "printf";
}

void tst_Symbolizer::libcFunctionsFromItsDebugFile()
{
    // libc6-dbg, which valgrind depends on, installs libc's debug file under /usr/lib/debug.
    QFETCH(QString, function);
    const auto symbol = nmSymbol(m_libc, function, false, true);
    QVERIFY(symbol);
    Symbolizer symbolizer;
    const int index = symbolizer.addModule(moduleLoad(m_libc, libraryBias, readelfBuildId(m_libc)));
    const ModuleStatus &status = symbolizer.status(index);
    QCOMPARE(status.state, ModuleState::Ready);
    QCOMPARE(status.debugFile, buildIdPath(QStringLiteral("/usr/lib/debug"), m_libc));
    QVERIFY(status.hasSymbolTable);
    QVERIFY(status.hasLines);

    const CodeLocation location = symbolizer.describeCode(Address { symbol->address + libraryBias });
    QCOMPARE(location.module, index);
    QCOMPARE(location.function, function);
    QCOMPARE(location.functionOffset, std::uint64_t(0));
    QVERIFY(location.hasSource());
    // Debian builds glibc with a relative compilation directory ("./malloc"); binutils joins it
    // twice for files in DWARF 5's directory 0 ("./malloc/./malloc/malloc.c"), so compare the
    // line, and the tidied path's tail.
    const QString oracle = addr2line(m_libc, symbol->address);
    const qsizetype colon = oracle.lastIndexOf(QLatin1Char(':'));
    QCOMPARE(location.line, oracle.mid(colon + 1).toInt());
    QCOMPARE(location.sourceFile, QDir::cleanPath(location.sourceFile));
    QVERIFY2(QDir::cleanPath(oracle.left(colon)).endsWith(location.sourceFile), qPrintable(location.sourceFile));
    QVERIFY(QDir::isRelativePath(location.sourceFile));
    QVERIFY(!location.sourceFile.startsWith(QStringLiteral("../")));
}

void tst_Symbolizer::libcDataFromItsDebugFile_data()
{
    QTest::addColumn<QString>("object"); // in the debug file's .symtab
    QTest::addColumn<quint64>("offset");
    QTest::addColumn<QString>("section");
    QTest::newRow("main_arena+0x58, a static") << "main_arena" << quint64(0x58) << ".data";
    QTest::newRow("_IO_2_1_stdout_+0x8, stdout's FILE") << "_IO_2_1_stdout_" << quint64(8) << ".data";
}

void tst_Symbolizer::libcDataFromItsDebugFile()
{
    QFETCH(QString, object);
    QFETCH(quint64, offset);
    QFETCH(QString, section);
    const auto symbol = nmSymbol(buildIdPath(QStringLiteral("/usr/lib/debug"), m_libc), object);
    QVERIFY(symbol);
    Symbolizer symbolizer;
    symbolizer.addModule(moduleLoad(m_libc, libraryBias));
    const DataLocation location = symbolizer.describeData(Address { symbol->address + offset + libraryBias });
    QCOMPARE(location.object, object);
    QCOMPARE(location.objectOffset, offset);
    QCOMPARE(location.section, section);
    QCOMPARE(location.objectRange.last.value - location.objectRange.first.value + 1, symbol->size);
}

void tst_Symbolizer::batchMatchesOneByOne()
{
    // About the distinct PCs of a small program's run: 10,000 consecutive instructions from the
    // start of the dynamic loader's code and 10,000 from libc's.
    const QString loader = QFileInfo(
        QString::fromUtf8(
            runTool(QStringLiteral("gcc"), { QStringLiteral("-print-file-name=ld-linux-x86-64.so.2") }).out.trimmed()))
                               .canonicalFilePath();
    QVERIFY(!loader.isEmpty());
    const QList<LoadedModule> loads { moduleLoad(loader, 0x7f0000000000), moduleLoad(m_libc, libraryBias) };
    QList<Address> pcs;
    {
        Symbolizer reader;
        reader.addModules(loads);
        const Disassembler disassembler;
        for (int index = 0; index < 2; ++index) {
            Address pc;
            for (const SectionRange &section : reader.sections(index)) {
                if (section.name == QLatin1String(".text"))
                    pc = section.range.first;
            }
            QVERIFY(pc.value != 0);
            for (int i = 0; i < 10000; ++i) {
                const DecodedInstruction instruction = disassembler.decode(reader.codeBytes(index, pc), pc);
                pcs << pc;
                pc.value += instruction.isValid() ? instruction.size : 1;
            }
        }
    }
    QCOMPARE(pcs.size(), 20000);

    Symbolizer batch;
    batch.addModules(loads);
    const QList<CodeLocation> locations = batch.describeCode(pcs);

    // Asked one by one, backwards, of a fresh symbolizer: the same answers.
    Symbolizer single;
    single.addModules(loads);
    QCOMPARE(locations.size(), pcs.size());
    int withFunction = 0;
    int withSource = 0;
    for (qsizetype i = pcs.size(); i-- > 0;) {
        const CodeLocation one = single.describeCode(pcs[i]);
        QCOMPARE(one, locations[i]);
        QCOMPARE(one.module, i < 10000 ? 0 : 1);
        withFunction += one.hasFunction() ? 1 : 0;
        withSource += one.hasSource() ? 1 : 0;
    }
    qInfo("%d of them in a function, %d with a source line", withFunction, withSource);
}

QTEST_GUILESS_MAIN(tst_Symbolizer)
#include "tst_symbolizer.moc"
