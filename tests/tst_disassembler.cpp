// SPDX-License-Identifier: MIT
// The disassembler against objdump -d -M intel on programs compiled here (every instruction of
// a few functions, -O0 and -O2, C and C++), and against hand-assembled bytes for x86-32, AArch64
// and bytes that are no instruction.
#include "core/context/disassembler.h"
#include "toolchain.h"

#include <QTemporaryDir>
#include <QTest>

using namespace memhist;
using namespace memhist::test;

class tst_Disassembler : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesObjdump_data();
    void matchesObjdump();
    void handAssembled_data();
    void handAssembled();
    void decodeAllStopsAtTheFirstBadInstruction();
    void decodeAllStopsAtTheLimit();

private:
    QTemporaryDir m_dir;
};

void tst_Disassembler::initTestCase()
{
    QVERIFY(m_dir.isValid());
    for (const QString &source :
        { QStringLiteral("counter.c"), QStringLiteral("shapes.cpp"), QStringLiteral("shared.c") })
        QVERIFY(QFile::copy(QFINDTESTDATA(QStringLiteral("data/programs/") + source), m_dir.filePath(source)));
    const QString gcc = QStringLiteral("gcc");
    const QString gxx = QStringLiteral("g++");
    const QString dir = m_dir.path();
    QVERIFY(runStep(gcc, { "-g", "-O0", "-o", "counter", "counter.c" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O2", "-o", "counter-O2", "counter.c" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O0", "-no-pie", "-o", "counter-nopie", "counter.c" }, dir));
    QVERIFY(runStep(gxx, { "-g", "-O0", "-o", "shapes", "shapes.cpp" }, dir));
    QVERIFY(runStep(gxx, { "-g", "-O2", "-o", "shapes-O2", "shapes.cpp" }, dir));
    QVERIFY(runStep(gcc, { "-g", "-O2", "-shared", "-fPIC", "-o", "libshared.so", "shared.c" }, dir));
}

void tst_Disassembler::matchesObjdump_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<QString>("function"); // as nm -C names it
    QTest::newRow("-O0: bump, rip-relative stores") << "counter"
                                                    << "bump";
    QTest::newRow("-O0: main, calls and a thread-local at fs-4") << "counter"
                                                                 << "main";
    QTest::newRow("-O0 non-PIE: main") << "counter-nopie"
                                       << "main";
    QTest::newRow("-O2: main, thread-local read-modify-write") << "counter-O2"
                                                               << "main";
    QTest::newRow("-O0 C++: method") << "shapes"
                                     << "geometry::Rectangle::area() const";
    QTest::newRow("-O0 C++: constructor") << "shapes"
                                          << "geometry::Rectangle::Rectangle(int, int)";
    QTest::newRow("-O0 C++: template for double, SSE") << "shapes"
                                                       << "double geometry::twice<double>(double)";
    QTest::newRow("-O2 C++: main") << "shapes-O2"
                                   << "main";
    QTest::newRow("-O2 shared library: GOT access") << "libshared.so"
                                                    << "shared_add";
}

void tst_Disassembler::matchesObjdump()
{
    QFETCH(QString, binary);
    QFETCH(QString, function);
    const QString file = m_dir.filePath(binary);
    const auto symbol = nmSymbol(file, function, true);
    QVERIFY(symbol);
    const QList<ObjdumpInstruction> instructions
        = instructionsIn(objdumpInstructions(file), symbol->address, symbol->size);
    QVERIFY(instructions.size() >= 4);

    const Disassembler disassembler;
    QVERIFY(disassembler.isValid());
    for (const ObjdumpInstruction &instruction : instructions) {
        const DecodedInstruction decoded = disassembler.decode(instruction.bytes, Address { instruction.address });
        QCOMPARE(decoded.size, std::uint8_t(instruction.bytes.size()));
        QCOMPARE(comparableInstruction(decoded.text), comparableInstruction(instruction.text));
        // Bytes after the instruction are not part of it.
        const QByteArray followed = instruction.bytes + QByteArray(8, '\xc3');
        QCOMPARE(disassembler.decode(followed, Address { instruction.address }), decoded);
    }
}

void tst_Disassembler::handAssembled_data()
{
    QTest::addColumn<InstructionSet>("set");
    QTest::addColumn<QByteArray>("bytes"); // hex
    QTest::addColumn<quint64>("address");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("size");

    const auto x64 = InstructionSet::X86_64;
    const auto x86 = InstructionSet::X86_32;
    const auto arm = InstructionSet::AArch64;
    QTest::newRow("x86-64: push rbp") << x64 << QByteArray("55") << quint64(0x1139) << "push rbp" << 1;
    QTest::newRow("x86-64: ret, no operands") << x64 << QByteArray("c3") << quint64(0) << "ret" << 1;
    QTest::newRow("x86-64: rip-relative store")
        << x64 << QByteArray("8905df2e0000") << quint64(0x114b) << "mov dword ptr [rip + 0x2edf], eax" << 6;
    QTest::newRow("x86-64: call target from the address")
        << x64 << QByteArray("e800000000") << quint64(0x1000) << "call 0x1005" << 5;
    QTest::newRow("x86-64: thread-local at fs-4, sign-extended")
        << x64 << QByteArray("648b1425fcffffff") << quint64(0) << "mov edx, dword ptr fs:[0xfffffffffffffffc]" << 8;
    QTest::newRow("x86-64: 32-bit addressing (0x67) stays zero-extended")
        << x64 << QByteArray("678b0425fcffffff") << quint64(0) << "mov eax, dword ptr [0xfffffffc]" << 8;
    QTest::newRow("x86-64: stack protector at fs+0x28")
        << x64 << QByteArray("64488b042528000000") << quint64(0) << "mov rax, qword ptr fs:[0x28]" << 9;
    QTest::newRow("x86-64: movabs, 64-bit immediate")
        << x64 << QByteArray("48b88877665544332211") << quint64(0) << "movabs rax, 0x1122334455667788" << 10;
    QTest::newRow("x86-64: endbr64") << x64 << QByteArray("f30f1efa") << quint64(0) << "endbr64" << 4;
    QTest::newRow("x86-32: push ebp") << x86 << QByteArray("55") << quint64(0x8048000) << "push ebp" << 1;
    QTest::newRow("x86-32: mov ebp, esp") << x86 << QByteArray("89e5") << quint64(0) << "mov ebp, esp" << 2;
    QTest::newRow("x86-32: push es, valid in 32-bit mode") << x86 << QByteArray("06") << quint64(0) << "push es" << 1;
    QTest::newRow("AArch64: stp with pre-index")
        << arm << QByteArray("fd7bbfa9") << quint64(0x400000) << "stp x29, x30, [sp, #-0x10]!" << 4;
    QTest::newRow("AArch64: movz, capstone 4 writes no mov alias")
        << arm << QByteArray("20008052") << quint64(0) << "movz w0, #0x1" << 4;
    QTest::newRow("AArch64: ret") << arm << QByteArray("c0035fd6") << quint64(0) << "ret" << 4;
    QTest::newRow("bad: no bytes") << x64 << QByteArray("") << quint64(0) << "(bad)" << 0;
    QTest::newRow("bad: mov with a truncated immediate") << x64 << QByteArray("b801") << quint64(0) << "(bad)" << 0;
    QTest::newRow("bad: push es is invalid in 64-bit mode") << x64 << QByteArray("06") << quint64(0) << "(bad)" << 0;
    QTest::newRow("bad: 15 prefixes and no opcode")
        << x64 << QByteArray("666666666666666666666666666666") << quint64(0) << "(bad)" << 0;
    QTest::newRow("bad: AArch64 half an instruction") << arm << QByteArray("fd7b") << quint64(0) << "(bad)" << 0;
    QTest::newRow("bad: AArch64 all zeros") << arm << QByteArray("00000000") << quint64(0) << "(bad)" << 0;
}

void tst_Disassembler::handAssembled()
{
    QFETCH(InstructionSet, set);
    QFETCH(QByteArray, bytes);
    QFETCH(quint64, address);
    QFETCH(QString, text);
    QFETCH(int, size);

    const Disassembler disassembler(set);
    QVERIFY(disassembler.isValid());
    QCOMPARE(disassembler.errorString(), QString());
    QCOMPARE(disassembler.instructionSet(), set);
    const DecodedInstruction decoded = disassembler.decode(QByteArray::fromHex(bytes), Address { address });
    QCOMPARE(decoded.text, text);
    QCOMPARE(int(decoded.size), size);
    QCOMPARE(decoded.isValid(), size > 0);
}

void tst_Disassembler::decodeAllStopsAtTheFirstBadInstruction()
{
    const Disassembler disassembler;
    const QList<DecodedInstruction> decoded
        = disassembler.decodeAll(QByteArray::fromHex("554889e506c3"), Address { 0x1000 }, 100);
    QCOMPARE(decoded,
        QList<DecodedInstruction>({ { QStringLiteral("push rbp"), 1 }, { QStringLiteral("mov rbp, rsp"), 3 } }));
}

void tst_Disassembler::decodeAllStopsAtTheLimit()
{
    const Disassembler disassembler;
    const QByteArray code = QByteArray::fromHex("554889e5c3");
    QCOMPARE(disassembler.decodeAll(code, Address { 0 }, 1),
        QList<DecodedInstruction>({ { QStringLiteral("push rbp"), 1 } }));
    QCOMPARE(disassembler.decodeAll(code, Address { 0 }, 0), QList<DecodedInstruction>());
    QCOMPARE(disassembler.decodeAll(code, Address { 0 }, 10).size(), 3);
}

QTEST_GUILESS_MAIN(tst_Disassembler)
#include "tst_disassembler.moc"
