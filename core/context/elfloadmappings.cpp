// SPDX-License-Identifier: MIT
#include "core/context/elfloadmappings.h"

#include <QFile>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

namespace memhist {

namespace {

constexpr std::uint64_t pageSize = 0x1000;
constexpr std::uint64_t pageMask = ~(pageSize - 1);

QString permissionsOf(GElf_Word flags)
{
    return privatePermissionsText(flags & PF_R, flags & PF_W, flags & PF_X);
}

} // namespace

bool elfLoadMappings(const QString &path, std::uint64_t bias, QList<Mapping> *mappings, QString *error)
{
    mappings->clear();
    const QByteArray encoded = QFile::encodeName(path);
    const int fd = ::open(encoded.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *error = errno == ENOENT ? QStringLiteral("not found") : QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    GElf_Ehdr header;
    std::size_t count = 0;
    bool ok = elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &header) && elf_getphdrnum(elf, &count) == 0;
    if (!ok)
        *error = QStringLiteral("not an ELF file");
    for (std::size_t i = 0; ok && i < count; ++i) {
        GElf_Phdr segment;
        if (!gelf_getphdr(elf, int(i), &segment)) {
            *error = QStringLiteral("program header %1 cannot be read").arg(i);
            ok = false;
            break;
        }
        if (segment.p_type != PT_LOAD || segment.p_memsz == 0)
            continue;
        const std::uint64_t first = segment.p_vaddr & pageMask;
        const std::uint64_t end = (segment.p_vaddr + segment.p_memsz + pageSize - 1) & pageMask;
        mappings->append(Mapping { Address { first + bias }, Address { end - 1 + bias }, permissionsOf(segment.p_flags),
            segment.p_offset & pageMask, path });
    }
    if (elf)
        elf_end(elf);
    ::close(fd);
    if (!ok)
        mappings->clear();
    return ok;
}

} // namespace memhist
