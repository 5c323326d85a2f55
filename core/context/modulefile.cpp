// SPDX-License-Identifier: MIT
#include "core/context/modulefile.h"

#include "core/context/localdebuginfo.h"

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <cstring>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <unistd.h>

namespace memhist {

namespace {

SymbolTable::Binding bindingOf(const GElf_Sym &symbol)
{
    switch (GELF_ST_BIND(symbol.st_info)) {
    case STB_GLOBAL:
    case STB_GNU_UNIQUE:
        return SymbolTable::Binding::Global;
    case STB_WEAK:
        return SymbolTable::Binding::Weak;
    default:
        return SymbolTable::Binding::Local;
    }
}

bool hasSectionOfType(Elf *elf, GElf_Word type)
{
    Elf_Scn *section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
        GElf_Shdr header;
        if (gelf_getshdr(section, &header) && header.sh_type == type)
            return true;
    }
    return false;
}

QString hex(const unsigned char *bits, int length)
{
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(bits), length).toHex());
}

} // namespace

ModuleFile::ModuleFile(const QString &path, LocalDebugInfo &debugInfo)
{
    open(path, debugInfo);
}

ModuleFile::~ModuleFile()
{
    if (m_dwfl)
        dwfl_end(m_dwfl);
}

void ModuleFile::open(const QString &path, LocalDebugInfo &debugInfo)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        m_state = ModuleState::NotFound;
        m_problem = QStringLiteral("not found");
        return;
    }
    m_state = ModuleState::Unreadable;
    // Only regular files: opening a FIFO or a device named in a memory map could block forever.
    if (!info.isFile()) {
        m_problem = QStringLiteral("not a regular file");
        return;
    }
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        m_problem = QStringLiteral("cannot open it (%1)").arg(m_file.errorString());
        return;
    }
    if (m_file.read(4)
        != QByteArrayLiteral("\x7f"
                             "ELF")) {
        m_problem = QStringLiteral("not an ELF file");
        return;
    }

    m_dwfl = dwfl_begin(debugInfo.callbacks());
    if (!m_dwfl) {
        m_problem = QStringLiteral("cannot start libdwfl (%1)").arg(QString::fromUtf8(dwfl_errmsg(-1)));
        return;
    }
    const QByteArray encodedPath = QFile::encodeName(path);
    const QByteArray name = QFile::encodeName(info.fileName());
    dwfl_report_begin(m_dwfl);
    // Base 0 with p_vaddr added: the module's addresses are its ELF addresses, whatever its type.
    m_module = dwfl_report_elf(m_dwfl, name.constData(), encodedPath.constData(), -1, 0, true);
    dwfl_report_end(m_dwfl, nullptr, nullptr);
    if (!m_module) {
        m_problem = QStringLiteral("cannot read it as ELF (%1)").arg(QString::fromUtf8(dwfl_errmsg(-1)));
        return;
    }
    debugInfo.attach(m_module);

    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(m_module, &bias);
    GElf_Ehdr header;
    if (!elf || !gelf_getehdr(elf, &header)) {
        m_problem = QStringLiteral("cannot read its ELF header (%1)").arg(QString::fromUtf8(dwfl_errmsg(-1)));
        return;
    }
    if (header.e_type != ET_EXEC && header.e_type != ET_DYN) {
        m_problem = QStringLiteral("not an executable or shared object (ELF type %1)").arg(header.e_type);
        return;
    }

    const unsigned char *bits = nullptr;
    GElf_Addr bitsAddress = 0;
    const int idLength = dwfl_module_build_id(m_module, &bits, &bitsAddress);
    if (idLength > 0)
        m_buildId = hex(bits, idLength);

    readProgramHeaders();
    readSections();
    readDebugInformation();
    readSymbols();
    // Known only now: libdwfl looks for the debug file when the DWARF or the symbol table is asked for.
    const char *mainName = nullptr;
    const char *debugName = nullptr;
    dwfl_module_info(m_module, nullptr, nullptr, nullptr, nullptr, nullptr, &mainName, &debugName);
    if (debugName && (!mainName || std::strcmp(mainName, debugName) != 0))
        m_debugFile = QFile::decodeName(debugName);
    m_state = ModuleState::Ready;
}

void ModuleFile::readProgramHeaders()
{
    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(m_module, &bias);
    std::size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0)
        return;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Phdr header;
        if (!gelf_getphdr(elf, int(i), &header))
            continue;
        Segment segment;
        segment.address = header.p_vaddr;
        segment.fileSize = header.p_filesz;
        segment.fileOffset = header.p_offset;
        if (header.p_type == PT_TLS) {
            m_tlsImage = segment;
        } else if (header.p_type == PT_LOAD && header.p_memsz > 0) {
            m_segments << segment;
            const Address first { header.p_vaddr };
            const Address last { header.p_vaddr + header.p_memsz - 1 };
            if (!m_extent)
                m_extent = AddressRange { first, last };
            m_extent->first = std::min(m_extent->first, first);
            m_extent->last = std::max(m_extent->last, last);
        }
    }
}

void ModuleFile::readSections()
{
    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(m_module, &bias);
    std::size_t namesIndex = 0;
    if (elf_getshdrstrndx(elf, &namesIndex) != 0)
        return;
    Elf_Scn *section = nullptr;
    while ((section = elf_nextscn(elf, section)) != nullptr) {
        GElf_Shdr header;
        if (!gelf_getshdr(section, &header) || !(header.sh_flags & SHF_ALLOC) || header.sh_size == 0)
            continue;
        // .tbss takes no room of its own: its addresses are those of the sections after it.
        if ((header.sh_flags & SHF_TLS) && header.sh_type == SHT_NOBITS)
            continue;
        const char *name = elf_strptr(elf, namesIndex, header.sh_name);
        m_sections << SectionRange { QString::fromUtf8(name ? name : ""),
            { Address { header.sh_addr }, Address { header.sh_addr + header.sh_size - 1 } } };
    }
    std::sort(m_sections.begin(), m_sections.end(),
        [](const SectionRange &a, const SectionRange &b) { return a.range.first < b.range.first; });
}

void ModuleFile::readDebugInformation()
{
    Dwarf_Addr bias = 0;
    if (dwfl_module_getdwarf(m_module, &bias)) {
        Dwarf_Die *unit = nullptr;
        while ((unit = dwfl_module_nextcu(m_module, unit, &bias)) != nullptr) {
            if (dwarf_hasattr(unit, DW_AT_stmt_list)) {
                m_hasLines = true;
                break;
            }
        }
    }
}

void ModuleFile::readSymbols()
{
    const int count = dwfl_module_getsymtab(m_module);
    Elf *symbolFile = nullptr;
    for (int i = 1; i < count; ++i) {
        GElf_Sym symbol;
        GElf_Addr address = 0;
        GElf_Word sectionIndex = 0;
        Elf *file = nullptr;
        Dwarf_Addr bias = 0;
        const char *name = dwfl_module_getsym_info(m_module, i, &symbol, &address, &sectionIndex, &file, &bias);
        if (!symbolFile)
            symbolFile = file;
        if (!name || name[0] == '\0' || sectionIndex == SHN_UNDEF || sectionIndex == SHN_ABS)
            continue;
        switch (GELF_ST_TYPE(symbol.st_info)) {
        case STT_FUNC:
        case STT_GNU_IFUNC:
            m_functions.add(address, symbol.st_size, name, bindingOf(symbol));
            break;
        case STT_OBJECT:
        case STT_COMMON:
            // A sizeless object (_DYNAMIC, _GLOBAL_OFFSET_TABLE_) holds nothing: its section names it.
            if (symbol.st_size > 0)
                m_objects.add(address, symbol.st_size, name, bindingOf(symbol));
            break;
        case STT_TLS:
            // st_value is an offset in the thread-local block. Each thread's block is allocated at
            // run time; the only fixed addresses are the module's initialised image (.tdata).
            if (symbol.st_size > 0 && m_tlsImage && symbol.st_value + symbol.st_size <= m_tlsImage->fileSize)
                m_objects.add(m_tlsImage->address + symbol.st_value, symbol.st_size, name, bindingOf(symbol));
            break;
        default:
            break;
        }
    }
    if (symbolFile) {
        m_hasSymbolTable = hasSectionOfType(symbolFile, SHT_SYMTAB);
        m_hasDynamicSymbols = !m_hasSymbolTable;
    }
    const auto sectionLast = [this](std::uint64_t first) {
        const SectionRange *section = sectionAt(first);
        return section ? section->range.last.value : first;
    };
    m_functions.finish(sectionLast);
    m_objects.finish(sectionLast);
}

const SectionRange *ModuleFile::sectionAt(std::uint64_t elfAddress) const
{
    const Address address { elfAddress };
    auto after = std::upper_bound(m_sections.begin(), m_sections.end(), address,
        [](Address value, const SectionRange &section) { return value < section.range.first; });
    if (after == m_sections.begin())
        return nullptr;
    const SectionRange &candidate = *(after - 1);
    return candidate.range.contains(address) ? &candidate : nullptr;
}

std::optional<ModuleFile::SourceLine> ModuleFile::sourceLine(std::uint64_t elfAddress)
{
    if (!m_hasLines)
        return std::nullopt;
    Dwfl_Line *row = dwfl_module_getsrc(m_module, elfAddress);
    if (!row)
        return std::nullopt;
    Dwarf_Addr rowAddress = 0;
    int line = 0;
    const char *file = dwfl_lineinfo(row, &rowAddress, &line, nullptr, nullptr, nullptr);
    if (!file || line <= 0)
        return std::nullopt;

    // The row reaches up to the next row with a higher address (libdw keeps the rows of a unit
    // sorted by address, end-of-sequence rows included).
    std::uint64_t last = elfAddress;
    Dwarf_Addr lineBias = 0;
    dwfl_dwarf_line(row, &lineBias);
    Dwarf_Lines *lines = nullptr;
    std::size_t lineCount = 0;
    Dwarf_Die *unit = dwfl_linecu(row);
    if (unit && dwarf_getsrclines(unit, &lines, &lineCount) == 0) {
        const Dwarf_Addr target = rowAddress - lineBias;
        std::size_t low = 0;
        std::size_t high = lineCount;
        while (low < high) {
            const std::size_t middle = low + (high - low) / 2;
            Dwarf_Addr address = 0;
            dwarf_lineaddr(dwarf_onesrcline(lines, middle), &address);
            if (address <= target)
                low = middle + 1;
            else
                high = middle;
        }
        if (low < lineCount) {
            Dwarf_Addr next = 0;
            dwarf_lineaddr(dwarf_onesrcline(lines, low), &next);
            last = std::max<std::uint64_t>(next + lineBias - 1, elfAddress);
        }
    }

    SourceLine result;
    result.file = sourcePath(file, dwfl_line_comp_dir(row));
    result.line = line;
    result.range = { Address { rowAddress }, Address { last } };
    return result;
}

const QString &ModuleFile::sourcePath(const char *file, const char *compilationDirectory)
{
    auto known = m_sourcePaths.constFind(file);
    if (known != m_sourcePaths.constEnd())
        return *known;
    // libdw joins a file with its directory entry, but not a relative directory with the
    // compilation directory: DWARF 5's directory 0 is the compilation directory itself, so files
    // there come back already joined ("./malloc/malloc.c" in a unit compiled in "./malloc"),
    // while "../include/x.h" is relative to it. Join what is not joined yet, then tidy the path
    // ("./string/../sysdeps/x.h" -> "sysdeps/x.h"). A relative compilation directory (builds made
    // reproducible with -fdebug-prefix-map) leaves a path relative to the source tree.
    QString path = QFile::decodeName(file);
    if (QDir::isRelativePath(path) && compilationDirectory && compilationDirectory[0] != '\0') {
        const QString directory = QFile::decodeName(compilationDirectory);
        if (!path.startsWith(directory + QLatin1Char('/')))
            path = directory + QLatin1Char('/') + path;
    }
    return *m_sourcePaths.insert(file, QDir::cleanPath(path));
}

QByteArray ModuleFile::bytes(std::uint64_t elfAddress, int count)
{
    if (count <= 0)
        return {};
    for (Segment &segment : m_segments) {
        if (elfAddress < segment.address || elfAddress - segment.address >= segment.fileSize)
            continue;
        const std::uint64_t delta = elfAddress - segment.address;
        const std::uint64_t available = std::min<std::uint64_t>(std::uint64_t(count), segment.fileSize - delta);
        if (!segment.imageRead) {
            segment.imageRead = true;
            if (segment.fileSize <= maxSegmentImage)
                segment.image = readFully(segment.fileOffset, segment.fileSize);
        }
        if (!segment.image.isEmpty())
            return segment.image.mid(qsizetype(delta), qsizetype(available));
        return readFully(segment.fileOffset + delta, available);
    }
    return {};
}

QByteArray ModuleFile::readFully(std::uint64_t fileOffset, std::uint64_t size)
{
    QByteArray bytes(qsizetype(size), Qt::Uninitialized);
    std::uint64_t done = 0;
    while (done < size) {
        const ssize_t read = pread(m_file.handle(), bytes.data() + done, size - done, off_t(fileOffset + done));
        if (read <= 0)
            break;
        done += std::uint64_t(read);
    }
    bytes.resize(qsizetype(done));
    return bytes;
}

} // namespace memhist
