// SPDX-License-Identifier: MIT
// The record of a drmemtrace final trace (DynamoRIO's trace_entry_t on a 64-bit host): 12 bytes,
// little-endian {u16 type; u16 size; u64 addr}, and the record and marker types memhist looks at.
// The numbers are those of DynamoRIO's public trace_entry.h (trace_type_t, trace_marker_type_t);
// only the values matter here, so they are written out rather than re-declared as an enum mirror.
#pragma once

#include "core/context/disassembler.h"

#include <QtGlobal>
#include <optional>

namespace memhist::drmemtrace {

inline constexpr qsizetype recordSize = 12;

struct TraceRecord
{
    quint16 type = 0;
    // Access size, instruction length, marker sub-type, bundle count or encoding byte count,
    // depending on the type.
    quint16 size = 0;
    // Address, program counter, thread or process id, marker value or encoding bytes.
    quint64 addr = 0;
};

namespace type {
inline constexpr quint16 read = 0;
inline constexpr quint16 write = 1;
inline constexpr quint16 instruction = 10; // first of the instruction fetch types 10..16
inline constexpr quint16 instructionReturn = 16; // last of them
inline constexpr quint16 instructionBundle = 17; // several instructions after one fetch (old traces)
inline constexpr quint16 instructionFlush = 18; // 18..21: cache flushes
inline constexpr quint16 dataFlushEnd = 21;
inline constexpr quint16 thread = 22;
inline constexpr quint16 threadExit = 23;
inline constexpr quint16 pid = 24;
inline constexpr quint16 header = 25; // the first record of a file; addr holds the trace version
inline constexpr quint16 footer = 26; // the last record of a complete file
inline constexpr quint16 hardwarePrefetch = 27;
inline constexpr quint16 marker = 28; // size holds the marker sub-type, addr its value
inline constexpr quint16 instructionNoFetch = 29; // e.g. a rep-string iteration: not an instruction
inline constexpr quint16 instructionMaybeFetch = 30; // online traces only
inline constexpr quint16 instructionSysenter = 31;
inline constexpr quint16 firstLatePrefetch = 32; // 32..46: architecture-neutral prefetches
inline constexpr quint16 lastLatePrefetch = 46;
inline constexpr quint16 encoding = 47; // up to 8 bytes of the next instruction's encoding
inline constexpr quint16 instructionTakenJump = 48;
inline constexpr quint16 instructionUntakenJump = 49;
inline constexpr quint16 last = 49; // anything above is unknown to this reader
} // namespace type

namespace marker {
inline constexpr quint16 timestamp = 2;
inline constexpr quint16 cpuId = 3;
inline constexpr quint16 fileType = 9; // addr: the OFFLINE_FILE_TYPE_* bits
inline constexpr quint16 chunkInstructionCount = 20; // addr: the fetched instructions of every chunk but the last
inline constexpr quint16 chunkFooter = 21;
inline constexpr quint16 recordOrdinal = 22;
inline constexpr quint16 coreIdle = 33; // core-sharded traces: a core with no thread to run
} // namespace marker

namespace fileType {
// The file holds one core's schedule (DynamoRIO's scheduler, record_filter -core_sharded): threads
// come and go in it rather than it holding one thread.
inline constexpr quint64 coreSharded = 0x10000;
// The architecture the trace was recorded on (OFFLINE_FILE_TYPE_ARCH_*).
inline constexpr quint64 archAArch64 = 0x08;
inline constexpr quint64 archArm32 = 0x10;
inline constexpr quint64 archX86_32 = 0x20;
inline constexpr quint64 archX86_64 = 0x40;

// The instruction set the file type names, or none when it names no architecture.
inline std::optional<InstructionSet> instructionSet(quint64 bits)
{
    if (bits & archX86_64)
        return InstructionSet::X86_64;
    if (bits & archX86_32)
        return InstructionSet::X86_32;
    if (bits & archAArch64)
        return InstructionSet::AArch64;
    if (bits & archArm32)
        return InstructionSet::Arm32;
    return std::nullopt;
}
} // namespace fileType

// What a record is to memhist. One table lookup per record on the hot path.
enum class RecordKind : quint8 {
    Read,
    Write,
    Instruction, // a fetched instruction: one transition
    Bundle, // `size` further instructions after the previous fetch
    NoFetch, // an instruction without a fetch: not a transition (DESIGN.md §2)
    Marker,
    Encoding,
    Prefetch,
    Flush,
    Thread, // a thread id record: switches the thread a single file is recording
    Bookkeeping, // header, pid, thread exit
    Footer,
    Other, // known but not expected in a final trace (online-only types)
    Unknown,
};

constexpr RecordKind recordKind(quint16 recordType)
{
    if (recordType == type::read)
        return RecordKind::Read;
    if (recordType == type::write)
        return RecordKind::Write;
    if ((recordType >= type::instruction && recordType <= type::instructionReturn)
        || recordType == type::instructionSysenter || recordType == type::instructionTakenJump
        || recordType == type::instructionUntakenJump)
        return RecordKind::Instruction;
    if (recordType == type::instructionBundle)
        return RecordKind::Bundle;
    if (recordType == type::instructionNoFetch)
        return RecordKind::NoFetch;
    if (recordType == type::marker)
        return RecordKind::Marker;
    if (recordType == type::encoding)
        return RecordKind::Encoding;
    if ((recordType >= 2 && recordType <= 9) || recordType == type::hardwarePrefetch
        || (recordType >= type::firstLatePrefetch && recordType <= type::lastLatePrefetch))
        return RecordKind::Prefetch;
    if (recordType >= type::instructionFlush && recordType <= type::dataFlushEnd)
        return RecordKind::Flush;
    if (recordType == type::thread)
        return RecordKind::Thread;
    if (recordType == type::header || recordType == type::pid || recordType == type::threadExit)
        return RecordKind::Bookkeeping;
    if (recordType == type::footer)
        return RecordKind::Footer;
    if (recordType == type::instructionMaybeFetch)
        return RecordKind::Other;
    return RecordKind::Unknown;
}

} // namespace memhist::drmemtrace
