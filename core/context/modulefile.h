// SPDX-License-Identifier: MIT
// One object file opened through libdwfl at its own ELF addresses: its build-id, separate debug
// file, functions, data objects, sections, source lines and code bytes. Shared by every load of
// the same path, whatever the bias (the Symbolizer converts run-time addresses).
#pragma once

#include "core/context/contexttypes.h"
#include "core/context/symboltable.h"

#include <QFile>
#include <QHash>
#include <QList>
#include <QString>
#include <cstdint>
#include <optional>

struct Dwfl;
struct Dwfl_Module;

namespace memhist {

class LocalDebugInfo;

class ModuleFile
{
public:
    // Opens `path` and reads its symbol tables and sections (the debug file is searched with
    // `debugInfo`, which must outlive this object). Never fails: state() says what came of it.
    ModuleFile(const QString &path, LocalDebugInfo &debugInfo);
    ~ModuleFile();
    ModuleFile(const ModuleFile &) = delete;
    ModuleFile &operator=(const ModuleFile &) = delete;

    // Ready, NotFound or Unreadable (BuildIdDiffers is a property of a load, not of a file).
    ModuleState state() const { return m_state; }
    // Why the file could not be used ("not found", "not an ELF file", ...); empty when Ready.
    const QString &problem() const { return m_problem; }
    const QString &buildId() const { return m_buildId; } // lowercase hex, empty when none
    const QString &debugFile() const { return m_debugFile; }
    bool hasSymbolTable() const { return m_hasSymbolTable; }
    bool hasDynamicSymbols() const { return m_hasDynamicSymbols; }
    bool hasLines() const { return m_hasLines; }

    // ELF virtual addresses from the lowest to the highest byte of the loadable segments.
    std::optional<AddressRange> extent() const { return m_extent; }
    const SymbolTable &functions() const { return m_functions; }
    const SymbolTable &objects() const { return m_objects; }
    // Allocated sections with bytes at run time (not .tbss), at ELF addresses, in address order.
    const QList<SectionRange> &sections() const { return m_sections; }
    const SectionRange *sectionAt(std::uint64_t elfAddress) const;

    struct SourceLine
    {
        QString file;
        int line = 0;
        AddressRange range; // ELF addresses of the line-table row
    };
    // The line-table row holding `elfAddress`; none without line information or for line 0.
    std::optional<SourceLine> sourceLine(std::uint64_t elfAddress);

    // Up to `count` bytes of the file image at `elfAddress`, as the loader maps them: only bytes
    // backed by the file (a PT_LOAD segment's p_filesz), never past the segment's end. Empty when
    // the address is in no such segment.
    QByteArray bytes(std::uint64_t elfAddress, int count);

private:
    struct Segment
    {
        std::uint64_t address = 0; // p_vaddr
        std::uint64_t fileSize = 0; // p_filesz
        std::uint64_t fileOffset = 0; // p_offset
        // The file-backed bytes, read whole on the first bytes() call into the segment (one read
        // instead of one per instruction); empty when too big or unreadable (then read per call).
        QByteArray image;
        bool imageRead = false;
    };
    // Bigger segments are read per call: little of their code runs, and the images live while the
    // history's indexes are built (libc.so.6's code is 1.5 MiB).
    static constexpr std::uint64_t maxSegmentImage = 16 << 20;

    void open(const QString &path, LocalDebugInfo &debugInfo);
    // Up to `size` bytes of the file from `fileOffset`: fewer at its end or on a read error.
    QByteArray readFully(std::uint64_t fileOffset, std::uint64_t size);
    void readProgramHeaders();
    void readSections();
    void readSymbols();
    void readDebugInformation();
    const QString &sourcePath(const char *file, const char *compilationDirectory);

    ModuleState m_state = ModuleState::NotFound;
    QString m_problem;
    QString m_buildId;
    QString m_debugFile;
    bool m_hasSymbolTable = false;
    bool m_hasDynamicSymbols = false;
    bool m_hasLines = false;

    Dwfl *m_dwfl = nullptr;
    Dwfl_Module *m_module = nullptr;
    QFile m_file; // unbuffered, for bytes(): pread, not mapped (a file truncated on disk cannot crash us)
    std::optional<AddressRange> m_extent;
    QList<Segment> m_segments;
    std::optional<Segment> m_tlsImage; // PT_TLS: the initialised image of thread-local variables
    QList<SectionRange> m_sections;
    SymbolTable m_functions;
    SymbolTable m_objects;
    QHash<const char *, QString> m_sourcePaths; // DWARF file-name pointers are stable while m_dwfl lives
};

} // namespace memhist
