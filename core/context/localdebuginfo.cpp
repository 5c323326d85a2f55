// SPDX-License-Identifier: MIT
#include "core/context/localdebuginfo.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstring>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

namespace memhist {

namespace {

// The build-id note of the ELF file open at `fd`, or an empty array.
QByteArray buildIdOfFile(int fd)
{
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    if (!elf)
        return {};
    const void *bits = nullptr;
    const ssize_t length = dwelf_elf_gnu_build_id(elf, &bits);
    QByteArray id = length > 0 ? QByteArray(static_cast<const char *>(bits), qsizetype(length)) : QByteArray();
    elf_end(elf);
    return id;
}

// The CRC-32 GNU debuglink stores (zlib's), of the whole file open at `fd`.
bool crcOfFile(int fd, GElf_Word *crc)
{
    uLong value = crc32(0, nullptr, 0);
    char buffer[64 * 1024];
    off_t offset = 0;
    for (;;) {
        const ssize_t count = pread(fd, buffer, sizeof buffer, offset);
        if (count < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        if (count == 0)
            break;
        value = crc32(value, reinterpret_cast<const Bytef *>(buffer), uInt(count));
        offset += count;
    }
    *crc = GElf_Word(value);
    return true;
}

} // namespace

LocalDebugInfo::LocalDebugInfo(const QStringList &debugRoots)
    : m_debugRoots(debugRoots)
    , m_searchPath(QFile::encodeName(debugRoots.join(QLatin1Char(':'))))
    , m_searchPathPointer(m_searchPath.data())
{
    std::memset(&m_callbacks, 0, sizeof m_callbacks);
    m_callbacks.find_elf = &LocalDebugInfo::findElf;
    m_callbacks.find_debuginfo = &LocalDebugInfo::findDebugInfo;
    m_callbacks.section_address = dwfl_offline_section_address;
    // An empty path would make libdwfl fall back to its default list (which includes the main
    // file's folder and /usr/lib/debug); "-" is a path with no folder in it.
    if (m_searchPath.isEmpty()) {
        m_searchPath = QByteArrayLiteral("-");
        m_searchPathPointer = m_searchPath.data();
    }
    m_callbacks.debuginfo_path = &m_searchPathPointer;
}

void LocalDebugInfo::attach(Dwfl_Module *module)
{
    void **userData = nullptr;
    dwfl_module_info(module, &userData, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (userData)
        *userData = this;
}

int LocalDebugInfo::findElf(Dwfl_Module *, void **, const char *, Dwarf_Addr, char **, Elf **)
{
    // Every module is reported with its file (dwfl_report_elf): there is nothing else to look for.
    errno = ENOENT;
    return -1;
}

int LocalDebugInfo::findDebugInfo(Dwfl_Module *module, void **userData, const char *moduleName, Dwarf_Addr base,
    const char *fileName, const char *debugLink, GElf_Word debugLinkCrc, char **debugFileName)
{
    // By build-id first: local files only (dwfl_build_id_find_debuginfo never asks debuginfod).
    const int fd = dwfl_build_id_find_debuginfo(
        module, userData, moduleName, base, fileName, debugLink, debugLinkCrc, debugFileName);
    if (fd >= 0)
        return fd;
    const auto *self = userData ? static_cast<const LocalDebugInfo *>(*userData) : nullptr;
    if (!self)
        return -1;
    return self->findByDebugLink(module, fileName, debugLink, debugLinkCrc, debugFileName);
}

int LocalDebugInfo::findByDebugLink(Dwfl_Module *module, const char *fileName, const char *debugLink,
    GElf_Word debugLinkCrc, char **debugFileName) const
{
    // An absolute name is a dwz alternate file (found by its build-id above, or not at all).
    if (!fileName || !debugLink || debugLink[0] == '\0' || debugLink[0] == '/')
        return -1;
    const QFileInfo mainFile(QFile::decodeName(fileName));
    const QString folder = mainFile.absolutePath();
    const QString link = QFile::decodeName(debugLink);
    QStringList candidates { folder + QLatin1Char('/') + link, folder + QStringLiteral("/.debug/") + link };
    for (const QString &root : m_debugRoots)
        candidates << QDir::cleanPath(root + QLatin1Char('/') + folder + QLatin1Char('/') + link);

    const unsigned char *moduleBits = nullptr;
    GElf_Addr moduleBitsAddress = 0;
    const int moduleIdLength = dwfl_module_build_id(module, &moduleBits, &moduleBitsAddress);
    const QByteArray moduleId
        = moduleIdLength > 0 ? QByteArray(reinterpret_cast<const char *>(moduleBits), moduleIdLength) : QByteArray();
    const QString mainCanonical = mainFile.canonicalFilePath();

    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (!info.isFile() || info.canonicalFilePath() == mainCanonical)
            continue;
        const QByteArray encoded = QFile::encodeName(candidate);
        const int fd = open(encoded.constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        bool matches = true;
        if (!moduleId.isEmpty()) {
            matches = buildIdOfFile(fd) == moduleId;
        } else if (debugLinkCrc != 0) {
            GElf_Word crc = 0;
            matches = crcOfFile(fd, &crc) && crc == debugLinkCrc;
        }
        if (matches) {
            *debugFileName = strdup(encoded.constData());
            return fd;
        }
        close(fd);
    }
    errno = 0;
    return -1;
}

} // namespace memhist
