// SPDX-License-Identifier: MIT
// The 64-bit register a capstone x86 register is part of: eax, ax, al and ah all live in rax, and
// writing one of them changes rax (xmm0 lives in zmm0 likewise). The origin walk asks "which
// instruction last wrote this value?", so it compares families, never the names capstone prints.
#pragma once

#include <QString>
#include <cstdint>

namespace memhist {

// A family's index: 0-15 the general registers (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8-r15),
// 16-47 the vector registers (xmm0-xmm31 with their ymm and zmm). -1: a register the walk does not
// follow (flags, rip, segment, x87, mmx, mask and control registers).
inline constexpr int noRegisterFamily = -1;
inline constexpr int registerFamilyCount = 48;
// rsp: pushes, pops and calls write it implicitly; it says where the stack is, not a value.
inline constexpr int rspFamily = 4;

// The family of capstone's x86_reg `reg`.
int registerFamily(unsigned reg);

// A set of families as bits (bit n = family n).
inline std::uint64_t familyBit(int family)
{
    return family < 0 ? 0 : std::uint64_t(1) << family;
}

// "rax", "r8", "zmm3": the name of a family's widest register.
QString registerFamilyName(int family);

} // namespace memhist
