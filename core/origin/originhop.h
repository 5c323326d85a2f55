// SPDX-License-Identifier: MIT
// One hop of an origin tree (`memhist origin`, DESIGN.md §3): a place a value was at a moment —
// an access, a register an instruction wrote — and how sure the tree is that the value went
// through it. A tree is a list of hops in depth-first order, each naming its parent's index.
#pragma once

#include "core/model/types.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace memhist {

enum class HopKind : std::uint8_t {
    Access, // the root: the access asked about
    LastWrite, // a write that left (backward) or made (forward) the bytes
    Register, // an instruction that copied the value into a register
    Load, // a read of memory by an instruction on the way
    Computed, // an instruction that computed the value from its sources
    Kernel, // the kernel wrote the bytes (a system call's buffer) or the register (its result)
    Initial, // no write in the history: loaded with the image, or before the recording began
    Unknown, // the walk cannot go on: `note` says why
};

enum class Confidence : std::uint8_t {
    Exact, // a pure copy whose bytes match
    Computed, // made by an instruction that computes
    Unchecked, // no values to check against (or they do not match: `note` says so)
};

struct OriginHop
{
    int parent = -1; // index in the list; -1 for the root
    HopKind kind = HopKind::Unknown;
    std::optional<RowId> rowId; // for hops that are accesses
    std::optional<Transition> transition;
    std::optional<Address> pc;
    QString function; // "main+0x1c"; empty when unknown
    QString source; // "origin.c:13"; empty when unknown
    std::optional<Address> address; // a memory hop's first byte
    QString registerName; // a register hop's register ("eax")
    std::uint32_t size = 0; // bytes
    QByteArray value; // in memory order; empty when unknown
    Confidence confidence = Confidence::Unchecked;
    QString note; // the instruction, the system call, a repeat, or why the walk stops
    int depth = 0; // 0 for the root
};

// The words of the CSV: "last_write", "exact".
const char *hopKindName(HopKind kind);
const char *confidenceName(Confidence confidence);

} // namespace memhist
