// SPDX-License-Identifier: MIT
// libdwfl callbacks that find a module's separate debug file on this machine only: by build-id
// under each debug root (Debian's /usr/lib/debug/.build-id/xx/yyyy.debug), else by the module's
// GNU debuglink next to it, in its .debug folder or under a debug root. Unlike
// dwfl_standard_find_debuginfo they never ask a debuginfod server, so symbolising never waits on
// the network even when DEBUGINFOD_URLS is set.
#pragma once

#include <QByteArray>
#include <QStringList>
#include <elfutils/libdwfl.h>

namespace memhist {

class LocalDebugInfo
{
public:
    // `debugRoots`: absolute folders, searched in order.
    explicit LocalDebugInfo(const QStringList &debugRoots);
    LocalDebugInfo(const LocalDebugInfo &) = delete;
    LocalDebugInfo &operator=(const LocalDebugInfo &) = delete;

    // For dwfl_begin; valid as long as this object lives.
    const Dwfl_Callbacks *callbacks() const { return &m_callbacks; }

    // Call right after reporting `module`, so that the debuglink search knows the debug roots.
    void attach(Dwfl_Module *module);

private:
    static int findElf(
        Dwfl_Module *module, void **userData, const char *moduleName, Dwarf_Addr base, char **fileName, Elf **elf);
    static int findDebugInfo(Dwfl_Module *module, void **userData, const char *moduleName, Dwarf_Addr base,
        const char *fileName, const char *debugLink, GElf_Word debugLinkCrc, char **debugFileName);
    int findByDebugLink(Dwfl_Module *module, const char *fileName, const char *debugLink, GElf_Word debugLinkCrc,
        char **debugFileName) const;

    QStringList m_debugRoots;
    QByteArray m_searchPath; // "root1:root2": what libdwfl's build-id lookup walks
    char *m_searchPathPointer;
    Dwfl_Callbacks m_callbacks;
};

} // namespace memhist
