// SPDX-License-Identifier: MIT
// The value types of a history's program context: which object files were loaded where and when,
// and what a code or data address is (module, function, source line, data object, section).
#pragma once

#include "core/model/types.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <cstdint>

namespace memhist {

// An inclusive range of addresses, [first, last].
struct AddressRange
{
    Address first;
    Address last;

    constexpr bool contains(Address address) const { return first <= address && address <= last; }
    friend bool operator==(const AddressRange &, const AddressRange &) = default;
};

// One load of an object file (the executable, a shared library, the dynamic loader) into the
// traced process. A file loaded, unloaded and loaded again is two loads.
struct LoadedModule
{
    QString path;
    // Run-time address minus ELF virtual address (what `nm`, `objdump` and `addr2line` show): the
    // load address of a PIE or shared library whose first segment is at 0, 0 for a non-PIE
    // executable. Arithmetic wraps modulo 2^64.
    std::uint64_t bias = 0;
    // The GNU build-id the trace saw, lowercase hex; empty when the trace did not say, and then
    // the file on disk is taken as it is.
    QString buildId;
    // The transitions during which the module was loaded.
    Transition first;
    Transition last { ~std::uint64_t(0) };

    friend bool operator==(const LoadedModule &, const LoadedModule &) = default;
};

// What could be made of a module's file on this machine.
enum class ModuleState : std::uint8_t {
    Ready, // opened; symbols, lines, sections and bytes as far as the file and its debug file have them
    NotFound, // no regular file at the path (also "[vdso]", "/x (deleted)")
    Unreadable, // there is a file, but not a readable ELF executable or shared object
    BuildIdDiffers, // the file on disk is not the one the trace saw: nothing is taken from it
};

// Per module load: the state and what the symbols come from, for `memhist info` and the import and
// record summaries.
struct ModuleStatus
{
    ModuleState state = ModuleState::NotFound;
    // "libfoo.so: not found", "libfoo.so: build-id differs (trace 12ab..., file 34cd...)",
    // "notes.txt: not an ELF file"; empty when Ready. Names the file by its path as given.
    QString message;
    QString fileBuildId; // the build-id of the file on disk, lowercase hex; empty when none
    QString debugFile; // the separate debug file used (by build-id or debuglink); empty when none
    bool hasSymbolTable = false; // .symtab (in the file or its debug file), not only .dynsym
    bool hasDynamicSymbols = false; // only .dynsym: exported names, no static functions or objects
    bool hasLines = false; // DWARF line tables
};

// What a run-time code address is.
struct CodeLocation
{
    int module = -1; // index of the load (Symbolizer::addModule); -1 when no load contains the PC
    // The PC's ELF virtual address in that module (PC - bias): the number `nm`, `objdump -d` and
    // `addr2line` use. Equals the PC when module is -1.
    Address moduleOffset;
    QString function; // demangled C++ or plain C name; empty when no symbol contains the PC
    AddressRange functionRange; // run-time addresses of the whole function; {0, 0} without one
    std::uint64_t functionOffset = 0; // PC - functionRange.first
    // The source file: as DWARF names it, joined with the compilation directory and tidied
    // (QDir::cleanPath): absolute when the compilation directory is, else relative to it as the
    // build recorded it ("malloc/malloc.c" for Debian's libc). Empty when the module has no line
    // information for the PC (or its line is 0).
    QString sourceFile;
    int line = 0; // 1-based; 0 when unknown
    AddressRange lineRange; // run-time addresses of the line-table row holding the PC; {0, 0} without one

    bool hasFunction() const { return !function.isEmpty(); }
    bool hasSource() const { return line > 0; }
    friend bool operator==(const CodeLocation &, const CodeLocation &) = default;
};

// A global or static data object (an ELF STT_OBJECT, STT_COMMON or initialised STT_TLS symbol)
// at run-time addresses.
struct DataObject
{
    QString name;
    AddressRange range;

    friend bool operator==(const DataObject &, const DataObject &) = default;
};

// What a run-time data address is, as far as the loaded modules tell: a data object, else the
// section holding it. Stack, heap and anonymous mappings are the memory map's business.
struct DataLocation
{
    int module = -1; // index of the load; -1 when no load contains the address
    QString object; // empty when no data object contains the address
    AddressRange objectRange;
    std::uint64_t objectOffset = 0; // address - objectRange.first
    QString section; // ".bss", ".data", ...; empty when no allocated section contains the address

    bool hasObject() const { return !object.isEmpty(); }
    friend bool operator==(const DataLocation &, const DataLocation &) = default;
};

// An allocated section of a module (.text, .rodata, .data, .bss, .got, ...) at run-time addresses.
struct SectionRange
{
    QString name;
    AddressRange range;

    friend bool operator==(const SectionRange &, const SectionRange &) = default;
};

// How functions and data objects are written: "counter" at offset 0, "table+0x3" otherwise.
inline QString symbolWithOffset(const QString &name, std::uint64_t offset)
{
    if (offset == 0)
        return name;
    return name + QStringLiteral("+0x") + QString::number(offset, 16);
}

// What context a history holds, for meta.context and the summaries of `memhist import`/`record`.
struct ContextSummary
{
    // From "pcs", "map", "modules", "symbols", "lines", "disassembly", "values", in that order
    // (contextschema::part).
    QStringList parts;
    // What could not be resolved, one line each: "no symbols for /lib/libx.so: not found", once per
    // file, and why there is no disassembly when the instruction set has no disassembler.
    QStringList notes;
    qint64 instructions = 0; // transitions whose PC is stored
    qint64 runs = 0; // distinct straight-line runs
    qint64 distinctPcs = 0;
    qint64 mappings = 0;
    qint64 modules = 0;
    qint64 functions = 0;
    qint64 sourceLines = 0;
    qint64 disassembled = 0; // distinct instructions with bytes and text
    qint64 values = 0;

    bool has(const char *part) const { return parts.contains(QLatin1String(part)); }
};

} // namespace memhist
