// SPDX-License-Identifier: MIT
// Decodes single machine instructions from their bytes with capstone, Intel syntax as objdump -M
// intel writes it but in capstone's spelling: "mov dword ptr [rip + 0x2ee5], eax".
#pragma once

#include "core/model/types.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <cstddef>
#include <cstdint>

namespace memhist {

enum class InstructionSet : std::uint8_t {
    X86_64,
    X86_32,
    AArch64,
    // 32-bit ARM: named by traces, not decoded (a trace does not say which instructions are Thumb,
    // and decoding them in the wrong mode would give plausible but wrong text).
    Arm32,
};

// The instruction set of the machine memhist runs on (what Valgrind traces), X86_64 elsewhere.
InstructionSet hostInstructionSet();

struct DecodedInstruction
{
    // Mnemonic and operands separated by one space ("ret" alone when there are none); "(bad)"
    // when the bytes are no valid instruction or too few.
    QString text;
    std::uint8_t size = 0; // bytes the instruction takes; 0 when it could not be decoded

    bool isValid() const { return size > 0; }
    friend bool operator==(const DecodedInstruction &, const DecodedInstruction &) = default;
};

class Disassembler
{
public:
    // Capstone handles are cheap to keep: make one per importer or collector, not per call. One
    // thread at a time: decodes share one instruction buffer.
    explicit Disassembler(InstructionSet set = InstructionSet::X86_64);
    ~Disassembler();
    Disassembler(const Disassembler &) = delete;
    Disassembler &operator=(const Disassembler &) = delete;

    // False when capstone could not be opened for the instruction set (a capstone built without
    // it); errorString() says why, and every decode then gives "(bad)".
    bool isValid() const { return m_handle != 0; }
    const QString &errorString() const { return m_error; }
    InstructionSet instructionSet() const { return m_set; }

    // The first instruction in `bytes`, located at `address` (for rip-relative and branch operands).
    // Extra bytes after it are ignored. A few microseconds.
    DecodedInstruction decode(QByteArrayView bytes, Address address) const;

    // Consecutive instructions from the start of `bytes`, at most `limit`, stopping at the first
    // that cannot be decoded (which is not included).
    QList<DecodedInstruction> decodeAll(QByteArrayView bytes, Address address, int limit) const;

private:
    InstructionSet m_set;
    std::size_t m_handle = 0; // capstone's csh; 0 = not open
    void *m_instruction = nullptr; // one cs_insn reused by every decode
    QString m_error;
};

// The text of an undecodable instruction.
inline QString badInstructionText()
{
    return QStringLiteral("(bad)");
}

} // namespace memhist
