// SPDX-License-Identifier: MIT
#include "core/origin/instructionflow.h"

#include "core/context/contextstatements.h"
#include "core/origin/registerfamily.h"

#include <algorithm>
#include <capstone/capstone.h>

namespace memhist {

namespace {

// Caches stay small next to a history: cleared when they reach this many entries.
constexpr qsizetype maxCachedFlows = 1 << 16;

// Instructions whose output is one of their inputs, unchanged or zero-extended: a hop through
// them can be checked by comparing bytes.
bool isCopy(unsigned id)
{
    switch (id) {
    case X86_INS_MOV:
    case X86_INS_MOVABS:
    case X86_INS_MOVZX:
    case X86_INS_MOVSB:
    case X86_INS_MOVSW:
    case X86_INS_MOVSD: // the string move and the SSE scalar move share the id; both copy
    case X86_INS_MOVSQ:
    case X86_INS_MOVSS:
    case X86_INS_MOVD:
    case X86_INS_MOVQ:
    case X86_INS_MOVDQA:
    case X86_INS_MOVDQU:
    case X86_INS_MOVAPS:
    case X86_INS_MOVUPS:
    case X86_INS_MOVAPD:
    case X86_INS_MOVUPD:
    case X86_INS_MOVLPS:
    case X86_INS_MOVHPS:
    case X86_INS_MOVLPD:
    case X86_INS_MOVHPD:
    case X86_INS_MOVNTI:
    case X86_INS_MOVNTDQ:
    case X86_INS_MOVNTPS:
    case X86_INS_LDDQU:
    case X86_INS_VMOVD:
    case X86_INS_VMOVQ:
    case X86_INS_VMOVSS:
    case X86_INS_VMOVSD:
    case X86_INS_VMOVDQA:
    case X86_INS_VMOVDQU:
    case X86_INS_VMOVDQA32:
    case X86_INS_VMOVDQA64:
    case X86_INS_VMOVDQU8:
    case X86_INS_VMOVDQU16:
    case X86_INS_VMOVDQU32:
    case X86_INS_VMOVDQU64:
    case X86_INS_VMOVAPS:
    case X86_INS_VMOVUPS:
    case X86_INS_VMOVAPD:
    case X86_INS_VMOVUPD:
    case X86_INS_VMOVNTDQ:
    case X86_INS_VLDDQU:
    case X86_INS_PUSH:
    case X86_INS_POP:
    case X86_INS_STOSB:
    case X86_INS_STOSW:
    case X86_INS_STOSD:
    case X86_INS_STOSQ:
    case X86_INS_LODSB:
    case X86_INS_LODSW:
    case X86_INS_LODSD:
    case X86_INS_LODSQ:
    case X86_INS_XCHG:
    case X86_INS_CMOVA:
    case X86_INS_CMOVAE:
    case X86_INS_CMOVB:
    case X86_INS_CMOVBE:
    case X86_INS_CMOVE:
    case X86_INS_CMOVG:
    case X86_INS_CMOVGE:
    case X86_INS_CMOVL:
    case X86_INS_CMOVLE:
    case X86_INS_CMOVNE:
    case X86_INS_CMOVNO:
    case X86_INS_CMOVNP:
    case X86_INS_CMOVNS:
    case X86_INS_CMOVO:
    case X86_INS_CMOVP:
    case X86_INS_CMOVS:
        return true;
    default:
        return false;
    }
}

// String instructions: their implicit rsi, rdi and rcx are addresses and a count, not the data.
bool isString(unsigned id)
{
    switch (id) {
    case X86_INS_MOVSB:
    case X86_INS_MOVSW:
    case X86_INS_MOVSQ:
    case X86_INS_STOSB:
    case X86_INS_STOSW:
    case X86_INS_STOSD:
    case X86_INS_STOSQ:
    case X86_INS_LODSB:
    case X86_INS_LODSW:
    case X86_INS_LODSD:
    case X86_INS_LODSQ:
    case X86_INS_SCASB:
    case X86_INS_SCASW:
    case X86_INS_SCASD:
    case X86_INS_SCASQ:
    case X86_INS_CMPSB:
    case X86_INS_CMPSW:
    case X86_INS_CMPSD:
    case X86_INS_CMPSQ:
        return true;
    default:
        return false;
    }
}

// Instructions whose result is 0 when both inputs are the same register.
bool isZeroWhenSame(unsigned id)
{
    switch (id) {
    case X86_INS_XOR:
    case X86_INS_SUB:
    case X86_INS_PXOR:
    case X86_INS_VPXOR:
    case X86_INS_VPXORD:
    case X86_INS_VPXORQ:
    case X86_INS_XORPS:
    case X86_INS_XORPD:
    case X86_INS_VXORPS:
    case X86_INS_VXORPD:
        return true;
    default:
        return false;
    }
}

// Registers that carry no value the walk follows: flags, the instruction pointer, segments.
bool isIgnored(unsigned reg)
{
    switch (reg) {
    case X86_REG_EFLAGS:
    case X86_REG_FPSW:
    case X86_REG_RIP:
    case X86_REG_EIP:
    case X86_REG_IP:
    case X86_REG_CS:
    case X86_REG_DS:
    case X86_REG_ES:
    case X86_REG_FS:
    case X86_REG_GS:
    case X86_REG_SS:
        return true;
    default:
        return false;
    }
}

bool contains(const QList<RegisterOperand> &operands, int family, const QString &name)
{
    return std::any_of(operands.cbegin(), operands.cend(),
        [&](const RegisterOperand &operand) { return family >= 0 ? operand.family == family : operand.name == name; });
}

} // namespace

std::uint64_t InstructionFlow::sourceFamilies() const
{
    std::uint64_t families = 0;
    for (const RegisterOperand &source : sources)
        families |= familyBit(source.family);
    return families;
}

InstructionFlowReader::InstructionFlowReader(sqlite::Connection &connection)
    : m_instructionAt(connection.prepare(contextstatements::instructionAt))
{
    csh handle = 0;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
        return;
    cs_option(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_INTEL);
    cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON); // operands and register lists
    m_handle = handle;
    m_instruction = cs_malloc(handle);
}

InstructionFlowReader::~InstructionFlowReader()
{
    if (m_instruction)
        cs_free(static_cast<cs_insn *>(m_instruction), 1);
    if (m_handle) {
        csh handle = m_handle;
        cs_close(&handle);
    }
}

bool InstructionFlowReader::available() const
{
    return m_handle != 0 && m_instructionAt.isValid();
}

const InstructionFlow &InstructionFlowReader::flowAt(Address pc)
{
    const auto known = m_cache.constFind(pc.value);
    if (known != m_cache.constEnd())
        return *known;
    QByteArray bytes;
    if (m_instructionAt.isValid()) {
        m_instructionAt.bind(1, toStored(pc.value));
        if (m_instructionAt.step() == SQLITE_ROW)
            bytes = m_instructionAt.blob(0);
        m_instructionAt.reset();
    }
    InstructionFlow flow;
    if (bytes.isEmpty())
        flow.unknownReason = QStringLiteral("the history has no bytes of the instruction at 0x%1").arg(pc.value, 0, 16);
    else
        flow = decode(bytes, pc);
    if (m_cache.size() >= maxCachedFlows)
        m_cache.clear();
    return *m_cache.insert(pc.value, flow);
}

InstructionFlow InstructionFlowReader::decode(const QByteArray &bytes, Address pc) const
{
    InstructionFlow flow;
    auto *instruction = static_cast<cs_insn *>(m_instruction);
    const auto *code = reinterpret_cast<const std::uint8_t *>(bytes.constData());
    std::size_t size = std::size_t(bytes.size());
    std::uint64_t address = pc.value;
    if (!m_handle || !instruction || !cs_disasm_iter(m_handle, &code, &size, &address, instruction)
        || !instruction->detail) {
        flow.unknownReason = QStringLiteral("capstone cannot decode the instruction at 0x%1").arg(pc.value, 0, 16);
        return flow;
    }
    flow.text = QString::fromLatin1(instruction->mnemonic);
    if (instruction->op_str[0] != '\0')
        flow.text += u' ' + QString::fromLatin1(instruction->op_str);
    const auto nameOf = [this](unsigned reg) { return QString::fromLatin1(cs_reg_name(m_handle, reg)); };
    const auto operandOf = [&](unsigned reg, std::uint8_t bytesWide) {
        return RegisterOperand { registerFamily(reg), nameOf(reg), bytesWide };
    };

    cs_regs read;
    cs_regs written;
    std::uint8_t readCount = 0;
    std::uint8_t writtenCount = 0;
    if (cs_regs_access(m_handle, instruction, read, &readCount, written, &writtenCount) != CS_ERR_OK) {
        flow.text.clear();
        flow.unknownReason
            = QStringLiteral("capstone gives no registers for '%1'").arg(QString::fromLatin1(instruction->mnemonic));
        return flow;
    }
    const unsigned id = instruction->id;
    const cs_x86 &x86 = instruction->detail->x86;
    QList<unsigned> explicitRegisters;
    QList<unsigned> addressRegisters;
    for (int i = 0; i < x86.op_count; ++i) {
        const cs_x86_op &operand = x86.operands[i];
        if (operand.type == X86_OP_IMM) {
            flow.immediates << operand.imm;
        } else if (operand.type == X86_OP_MEM) {
            addressRegisters << operand.mem.base << operand.mem.index << operand.mem.segment;
            if (id == X86_INS_LEA) {
                // lea computes an address from its base and index: they are the value's sources.
                for (const unsigned reg : { unsigned(operand.mem.base), unsigned(operand.mem.index) }) {
                    if (reg != X86_REG_INVALID && !isIgnored(reg))
                        flow.sources << operandOf(reg, 8);
                }
                flow.immediates << operand.mem.disp;
            }
        } else if (operand.type == X86_OP_REG && !isIgnored(operand.reg)) {
            explicitRegisters << operand.reg;
            std::uint8_t access = operand.access;
            if (access == 0) { // capstone left it out: take it from the register lists
                if (std::find(read, read + readCount, operand.reg) != read + readCount)
                    access |= CS_AC_READ;
                if (std::find(written, written + writtenCount, operand.reg) != written + writtenCount)
                    access |= CS_AC_WRITE;
            }
            const RegisterOperand registerOperand = operandOf(operand.reg, operand.size);
            if ((access & CS_AC_READ) && !contains(flow.sources, registerOperand.family, registerOperand.name))
                flow.sources << registerOperand;
            if (access & CS_AC_WRITE)
                flow.destinations << registerOperand;
        }
    }
    flow.usesMemorySource = id != X86_INS_LEA;
    // Implicit registers: cdqe reads eax, mul writes rdx:rax, syscall writes rax. Those that only
    // address memory (rsp of push and call, rsi/rdi/rcx of a string instruction) carry no value.
    for (int i = 0; i < readCount; ++i) {
        const unsigned reg = read[i];
        const int family = registerFamily(reg);
        if (isIgnored(reg) || explicitRegisters.contains(reg) || addressRegisters.contains(reg) || family == rspFamily
            || isString(id) || id == X86_INS_SYSCALL)
            continue;
        const RegisterOperand operand = operandOf(reg, 8);
        if (!contains(flow.sources, operand.family, operand.name))
            flow.sources << operand;
    }
    for (int i = 0; i < writtenCount; ++i) {
        const unsigned reg = written[i];
        if (isIgnored(reg))
            continue;
        flow.writtenFamilies |= familyBit(registerFamily(reg));
        if (!explicitRegisters.contains(reg) && registerFamily(reg) != rspFamily && !isString(id)) {
            const RegisterOperand operand = operandOf(reg, 8);
            if (!contains(flow.destinations, operand.family, operand.name))
                flow.destinations << operand;
        }
    }
    for (const RegisterOperand &destination : std::as_const(flow.destinations))
        flow.writtenFamilies |= familyBit(destination.family);

    if (isZeroWhenSame(id) && flow.sources.size() == 1 && x86.op_count >= 2
        && x86.operands[x86.op_count - 1].type == X86_OP_REG && x86.operands[x86.op_count - 2].type == X86_OP_REG
        && x86.operands[x86.op_count - 1].reg == x86.operands[x86.op_count - 2].reg) {
        flow.zeroIdiom = true;
        flow.sources.clear();
    }
    if (id == X86_INS_SYSCALL)
        flow.kind = FlowKind::Kernel;
    else if (isCopy(id))
        flow.kind = FlowKind::Copy;
    else
        flow.kind = FlowKind::Compute;
    return flow;
}

} // namespace memhist
