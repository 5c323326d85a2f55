// SPDX-License-Identifier: MIT
// Where an x86-64 instruction's outputs come from, as capstone describes it (operands with their
// access, and cs_regs_access for the implicit registers): the registers it writes, the registers
// and immediates its result is made of, and whether it only copies (mov, push/pop, movs, vector
// moves) or computes (xor, add, lea...). Registers that only address memory (a base, an index,
// rsp of a push, rsi/rdi/rcx of a string instruction) are no source of the value. Memory is not
// taken from the operands: the history's own accesses at the instruction's transition say what
// it read and wrote.
#pragma once

#include "core/model/types.h"
#include "core/storage/sqlite.h"

#include <QHash>
#include <QList>
#include <QString>
#include <cstdint>

namespace memhist {

enum class FlowKind : std::uint8_t {
    Unknown, // capstone could not decode it, or the history has no bytes for its PC
    Copy, // the output is one of the inputs, unchanged (or zero-extended)
    Compute, // the output is computed from the inputs
    Kernel, // `syscall`: the kernel writes rax
};

struct RegisterOperand
{
    int family = -1; // registerfamily.h
    QString name; // as capstone prints it: "eax"
    std::uint8_t size = 0; // bytes
};

struct InstructionFlow
{
    FlowKind kind = FlowKind::Unknown;
    QString text; // "xor eax, 0x5a5a5a5a"; empty when unknown
    QString unknownReason; // why the kind is Unknown
    std::uint64_t writtenFamilies = 0; // every family written, implicitly too (flags and rip left out)
    QList<RegisterOperand> sources; // registers the result is made of
    QList<RegisterOperand> destinations; // registers the result goes to
    QList<std::int64_t> immediates;
    bool zeroIdiom = false; // xor eax, eax: a constant zero whatever the register held
    bool usesMemorySource = true; // false for lea (its memory operand is an address, not read)

    std::uint64_t sourceFamilies() const;
};

// Decodes the instructions of one history by PC (the instructions table keeps their bytes), with
// a cache: an origin walk meets the same few PCs again and again. One thread at a time.
class InstructionFlowReader
{
public:
    explicit InstructionFlowReader(sqlite::Connection &connection);
    ~InstructionFlowReader();
    InstructionFlowReader(const InstructionFlowReader &) = delete;
    InstructionFlowReader &operator=(const InstructionFlowReader &) = delete;

    // False without capstone's x86-64 decoder or without an instructions table.
    bool available() const;
    // The flow of the instruction at `pc` (Unknown with a reason when it cannot be told).
    const InstructionFlow &flowAt(Address pc);
    // The flow of `bytes` at `pc`, without the cache (tests give bytes of their own).
    InstructionFlow decode(const QByteArray &bytes, Address pc) const;

private:
    sqlite::Statement m_instructionAt;
    std::size_t m_handle = 0; // capstone's csh; 0 = not open
    void *m_instruction = nullptr; // one cs_insn reused by every decode
    QHash<std::uint64_t, InstructionFlow> m_cache;
};

} // namespace memhist
