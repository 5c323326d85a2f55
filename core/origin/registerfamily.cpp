// SPDX-License-Identifier: MIT
#include "core/origin/registerfamily.h"

#include <capstone/capstone.h>

namespace memhist {

namespace {

// The general registers in family order (rax = 0, ... r15 = 15).
constexpr const char *generalNames[16]
    = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15" };

// The legacy registers capstone names one by one, with the family each belongs to.
int legacyFamily(unsigned reg)
{
    switch (reg) {
    case X86_REG_AL:
    case X86_REG_AH:
    case X86_REG_AX:
    case X86_REG_EAX:
    case X86_REG_RAX:
        return 0;
    case X86_REG_CL:
    case X86_REG_CH:
    case X86_REG_CX:
    case X86_REG_ECX:
    case X86_REG_RCX:
        return 1;
    case X86_REG_DL:
    case X86_REG_DH:
    case X86_REG_DX:
    case X86_REG_EDX:
    case X86_REG_RDX:
        return 2;
    case X86_REG_BL:
    case X86_REG_BH:
    case X86_REG_BX:
    case X86_REG_EBX:
    case X86_REG_RBX:
        return 3;
    case X86_REG_SPL:
    case X86_REG_SP:
    case X86_REG_ESP:
    case X86_REG_RSP:
        return 4;
    case X86_REG_BPL:
    case X86_REG_BP:
    case X86_REG_EBP:
    case X86_REG_RBP:
        return 5;
    case X86_REG_SIL:
    case X86_REG_SI:
    case X86_REG_ESI:
    case X86_REG_RSI:
        return 6;
    case X86_REG_DIL:
    case X86_REG_DI:
    case X86_REG_EDI:
    case X86_REG_RDI:
        return 7;
    default:
        return noRegisterFamily;
    }
}

// `reg` in the block of 8 (or 32) consecutive ids from `first`, as an offset; -1 outside it.
int offsetIn(unsigned reg, unsigned first, unsigned count)
{
    return reg >= first && reg < first + count ? int(reg - first) : -1;
}

} // namespace

int registerFamily(unsigned reg)
{
    if (const int family = legacyFamily(reg); family != noRegisterFamily)
        return family;
    // r8-r15 and their byte, word and dword parts: four blocks of 8 in capstone's enum.
    for (const unsigned first :
        { unsigned(X86_REG_R8), unsigned(X86_REG_R8B), unsigned(X86_REG_R8D), unsigned(X86_REG_R8W) }) {
        if (const int offset = offsetIn(reg, first, 8); offset >= 0)
            return 8 + offset;
    }
    for (const unsigned first : { unsigned(X86_REG_XMM0), unsigned(X86_REG_YMM0), unsigned(X86_REG_ZMM0) }) {
        if (const int offset = offsetIn(reg, first, 32); offset >= 0)
            return 16 + offset;
    }
    return noRegisterFamily;
}

QString registerFamilyName(int family)
{
    if (family >= 0 && family < 16)
        return QLatin1String(generalNames[family]);
    if (family >= 16 && family < registerFamilyCount)
        return QStringLiteral("zmm%1").arg(family - 16);
    return QString();
}

} // namespace memhist
