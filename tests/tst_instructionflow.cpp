// SPDX-License-Identifier: MIT
// Where an instruction's result comes from, as the origin walk reads it from capstone
// (core/origin/instructionflow.h), and the register families that make eax, ax, al and ah one
// register (core/origin/registerfamily.h): instructions given as bytes, each row naming what it
// proves.
#include "core/origin/instructionflow.h"
#include "core/origin/registerfamily.h"
#include "core/storage/sqlite.h"

#include <QTemporaryDir>
#include <QTest>
#include <capstone/capstone.h>

using namespace memhist;

class tst_InstructionFlow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void families_data();
    void families();
    void flows_data();
    void flows();

private:
    QTemporaryDir m_dir;
    sqlite::Connection m_connection; // an empty database: decode() needs no instructions table
};

namespace {

QString namesOf(const QList<RegisterOperand> &operands)
{
    QStringList names;
    for (const RegisterOperand &operand : operands)
        names << operand.name;
    return names.join(u' ');
}

quint64 familiesOf(std::initializer_list<const char *> names)
{
    quint64 families = 0;
    for (const char *name : names) {
        for (int family = 0; family < registerFamilyCount; ++family) {
            if (registerFamilyName(family) == QLatin1String(name))
                families |= familyBit(family);
        }
    }
    return families;
}

} // namespace

void tst_InstructionFlow::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(m_connection.open(m_dir.filePath(QStringLiteral("empty.db")), sqlite::Connection::Mode::ReadWriteCreate));
}

void tst_InstructionFlow::families_data()
{
    QTest::addColumn<int>("reg");
    QTest::addColumn<QString>("family");

    QTest::newRow("al is rax") << int(X86_REG_AL) << QStringLiteral("rax");
    QTest::newRow("ah is rax") << int(X86_REG_AH) << QStringLiteral("rax");
    QTest::newRow("ax is rax") << int(X86_REG_AX) << QStringLiteral("rax");
    QTest::newRow("eax is rax") << int(X86_REG_EAX) << QStringLiteral("rax");
    QTest::newRow("rax") << int(X86_REG_RAX) << QStringLiteral("rax");
    QTest::newRow("sil is rsi") << int(X86_REG_SIL) << QStringLiteral("rsi");
    QTest::newRow("spl is rsp") << int(X86_REG_SPL) << QStringLiteral("rsp");
    QTest::newRow("r8b is r8") << int(X86_REG_R8B) << QStringLiteral("r8");
    QTest::newRow("r15w is r15") << int(X86_REG_R15W) << QStringLiteral("r15");
    QTest::newRow("r12d is r12") << int(X86_REG_R12D) << QStringLiteral("r12");
    QTest::newRow("xmm3 is zmm3") << int(X86_REG_XMM3) << QStringLiteral("zmm3");
    QTest::newRow("ymm31 is zmm31") << int(X86_REG_YMM31) << QStringLiteral("zmm31");
    QTest::newRow("flags: none") << int(X86_REG_EFLAGS) << QString();
    QTest::newRow("rip: none") << int(X86_REG_RIP) << QString();
    QTest::newRow("fs: none") << int(X86_REG_FS) << QString();
    QTest::newRow("st0: none") << int(X86_REG_ST0) << QString();
}

void tst_InstructionFlow::families()
{
    QFETCH(int, reg);
    QFETCH(QString, family);
    QCOMPARE(registerFamilyName(registerFamily(unsigned(reg))), family);
    QCOMPARE(registerFamily(unsigned(reg)) == noRegisterFamily, family.isEmpty());
}

void tst_InstructionFlow::flows_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind"); // FlowKind
    QTest::addColumn<QString>("sources");
    QTest::addColumn<QString>("destinations");
    QTest::addColumn<quint64>("written"); // families
    QTest::addColumn<bool>("zero");

    const int copy = int(FlowKind::Copy);
    const int compute = int(FlowKind::Compute);
    QTest::newRow("load: no register source, the address is not one")
        << QByteArray::fromHex("8b0510000000") << QStringLiteral("mov eax, dword ptr [rip + 0x10]") << copy << QString()
        << QStringLiteral("eax") << familiesOf({ "rax" }) << false;
    QTest::newRow("store: the data register, not the base")
        << QByteArray::fromHex("8910") << QStringLiteral("mov dword ptr [rax], edx") << copy << QStringLiteral("edx")
        << QString() << quint64(0) << false;
    QTest::newRow("xor with an immediate computes from the register")
        << QByteArray::fromHex("355a5a5a5a") << QStringLiteral("xor eax, 0x5a5a5a5a") << compute
        << QStringLiteral("eax") << QStringLiteral("eax") << familiesOf({ "rax" }) << false;
    QTest::newRow("xor eax, eax is a constant zero")
        << QByteArray::fromHex("31c0") << QStringLiteral("xor eax, eax") << compute << QString()
        << QStringLiteral("eax") << familiesOf({ "rax" }) << true;
    QTest::newRow("lea computes from its base and index")
        << QByteArray::fromHex("8d4a01") << QStringLiteral("lea ecx, [rdx + 1]") << compute << QStringLiteral("rdx")
        << QStringLiteral("ecx") << familiesOf({ "rcx" }) << false;
    QTest::newRow("push: the register, not rsp")
        << QByteArray::fromHex("50") << QStringLiteral("push rax") << copy << QStringLiteral("rax") << QString()
        << familiesOf({ "rsp" }) << false;
    QTest::newRow("pop writes the register and rsp")
        << QByteArray::fromHex("5b") << QStringLiteral("pop rbx") << copy << QString() << QStringLiteral("rbx")
        << familiesOf({ "rbx", "rsp" }) << false;
    QTest::newRow("rep movsb: rsi, rdi and rcx are addresses and a count")
        << QByteArray::fromHex("f3a4") << QStringLiteral("rep movsb byte ptr [rdi], byte ptr [rsi]") << copy
        << QString() << QString() << familiesOf({ "rcx", "rsi", "rdi" }) << false;
    QTest::newRow("movzx copies, widening")
        << QByteArray::fromHex("0fb6c1") << QStringLiteral("movzx eax, cl") << copy << QStringLiteral("cl")
        << QStringLiteral("eax") << familiesOf({ "rax" }) << false;
    QTest::newRow("cdqe reads eax implicitly")
        << QByteArray::fromHex("4898") << QStringLiteral("cdqe") << compute << QStringLiteral("eax")
        << QStringLiteral("rax") << familiesOf({ "rax" }) << false;
    QTest::newRow("movdqu to xmm0") << QByteArray::fromHex("f30f6f07")
                                    << QStringLiteral("movdqu xmm0, xmmword ptr [rdi]") << copy << QString()
                                    << QStringLiteral("xmm0") << familiesOf({ "zmm0" }) << false;
}

void tst_InstructionFlow::flows()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(QString, sources);
    QFETCH(QString, destinations);
    QFETCH(quint64, written);
    QFETCH(bool, zero);

    const InstructionFlowReader reader(m_connection);
    const InstructionFlow flow = reader.decode(bytes, Address { 0x1000 });
    QCOMPARE(flow.text, text);
    QCOMPARE(int(flow.kind), kind);
    QCOMPARE(namesOf(flow.sources), sources);
    QCOMPARE(namesOf(flow.destinations), destinations);
    QCOMPARE(quint64(flow.writtenFamilies), written);
    QCOMPARE(flow.zeroIdiom, zero);
}

QTEST_GUILESS_MAIN(tst_InstructionFlow)
#include "tst_instructionflow.moc"
