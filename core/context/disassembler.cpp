// SPDX-License-Identifier: MIT
#include "core/context/disassembler.h"

#include <QSysInfo>
#include <capstone/capstone.h>
#include <cstdint>

namespace memhist {

namespace {

bool openCapstone(InstructionSet set, csh *handle)
{
    switch (set) {
    case InstructionSet::X86_64:
        return cs_open(CS_ARCH_X86, CS_MODE_64, handle) == CS_ERR_OK;
    case InstructionSet::X86_32:
        return cs_open(CS_ARCH_X86, CS_MODE_32, handle) == CS_ERR_OK;
    case InstructionSet::AArch64:
        return cs_open(CS_ARCH_ARM64, CS_MODE_ARM, handle) == CS_ERR_OK;
    case InstructionSet::Arm32:
        return false;
    }
    return false;
}

// Capstone 4 writes an absolute 32-bit displacement of x86-64 code ("mov edx, dword ptr
// fs:[0xfffffffc]", a thread-local variable at fs-4) as the 32-bit number, though the CPU
// sign-extends it to 64 bits: write the address the instruction really uses, as objdump does.
QString withSignExtendedAbsoluteDisplacement(QString operands, const cs_insn &instruction)
{
    const cs_x86 &x86 = instruction.detail->x86;
    if (x86.addr_size != 8)
        return operands; // a 0x67 prefix: 32-bit addressing, zero-extended, printed right
    for (int i = 0; i < x86.op_count; ++i) {
        const cs_x86_op &operand = x86.operands[i];
        if (operand.type != X86_OP_MEM || operand.mem.base != X86_REG_INVALID || operand.mem.index != X86_REG_INVALID
            || operand.mem.disp >= 0 || operand.mem.disp < INT32_MIN)
            continue;
        const QString printed = QStringLiteral("[0x") + QString::number(std::uint32_t(operand.mem.disp), 16) + u']';
        const QString address = QStringLiteral("[0x") + QString::number(std::uint64_t(operand.mem.disp), 16) + u']';
        operands.replace(printed, address);
    }
    return operands;
}

DecodedInstruction textOf(const cs_insn &instruction, bool x86_64)
{
    DecodedInstruction decoded;
    decoded.text = QString::fromLatin1(instruction.mnemonic);
    if (instruction.op_str[0] != '\0') {
        QString operands = QString::fromLatin1(instruction.op_str);
        if (x86_64 && instruction.detail)
            operands = withSignExtendedAbsoluteDisplacement(operands, instruction);
        decoded.text += QLatin1Char(' ') + operands;
    }
    decoded.size = std::uint8_t(instruction.size);
    return decoded;
}

} // namespace

InstructionSet hostInstructionSet()
{
    const QString architecture = QSysInfo::currentCpuArchitecture();
    if (architecture == QLatin1String("i386"))
        return InstructionSet::X86_32;
    if (architecture == QLatin1String("arm64"))
        return InstructionSet::AArch64;
    if (architecture == QLatin1String("arm"))
        return InstructionSet::Arm32;
    return InstructionSet::X86_64;
}

Disassembler::Disassembler(InstructionSet set)
    : m_set(set)
{
    csh handle = 0;
    if (set == InstructionSet::Arm32) {
        m_error = QStringLiteral("no disassembly of 32-bit ARM code (ARM and Thumb cannot be told apart)");
        return;
    }
    if (!openCapstone(set, &handle)) {
        m_error = QStringLiteral("capstone cannot decode this instruction set (%1)")
                      .arg(QString::fromLatin1(cs_strerror(cs_errno(handle))));
        return;
    }
    if (set != InstructionSet::AArch64)
        cs_option(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_INTEL);
    if (set == InstructionSet::X86_64)
        cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON); // the operands, for the displacement fix above
    m_handle = handle;
    m_instruction = cs_malloc(handle);
}

Disassembler::~Disassembler()
{
    if (m_instruction)
        cs_free(static_cast<cs_insn *>(m_instruction), 1);
    if (m_handle) {
        csh handle = m_handle;
        cs_close(&handle);
    }
}

DecodedInstruction Disassembler::decode(QByteArrayView bytes, Address address) const
{
    const QList<DecodedInstruction> decoded = decodeAll(bytes, address, 1);
    if (decoded.isEmpty())
        return DecodedInstruction { badInstructionText(), 0 };
    return decoded.first();
}

QList<DecodedInstruction> Disassembler::decodeAll(QByteArrayView bytes, Address address, int limit) const
{
    QList<DecodedInstruction> decoded;
    if (!m_handle || !m_instruction || bytes.isEmpty())
        return decoded;
    const auto *code = reinterpret_cast<const std::uint8_t *>(bytes.data());
    std::size_t size = std::size_t(bytes.size());
    std::uint64_t at = address.value;
    auto *instruction = static_cast<cs_insn *>(m_instruction);
    while (decoded.size() < limit && cs_disasm_iter(m_handle, &code, &size, &at, instruction))
        decoded << textOf(*instruction, m_set == InstructionSet::X86_64);
    return decoded;
}

} // namespace memhist
