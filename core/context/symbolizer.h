// SPDX-License-Identifier: MIT
// Turns the run-time addresses of a traced process into program context, from the object files
// on this machine (elfutils libdwfl): for a PC its module+offset, function+offset (demangled) and
// source file:line; for a data address the global or static object+offset, else the section; a
// module's sections; the file's code bytes at a PC. Separate debug files are found by build-id
// under the debug roots (Debian's /usr/lib/debug/.build-id/xx/yyyy.debug) or by GNU debuglink,
// on this machine only (never a debuginfod server).
//
// Usage: add every module load (addModule), then ask. Modules whose file is missing, unreadable
// or not the one the trace saw (build-id) are kept with a state the caller can print; their
// addresses get module+offset only. Nothing here throws, crashes or blocks on a bad file.
//
// Not thread-safe (libdwfl is not): use one Symbolizer from one thread at a time.
#pragma once

#include "core/context/contexttypes.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

namespace memhist {

class LocalDebugInfo;
class ModuleFile;

class Symbolizer
{
public:
    // {"/usr/lib/debug"}: where Debian installs debug files (libc6-dbg, *-dbgsym).
    static QStringList defaultDebugRoots();

    // `debugRoots`: absolute folders searched for separate debug files, in order, by build-id
    // (ROOT/.build-id/xx/yyyy.debug) and by debuglink (ROOT/<folder of the file>/<debuglink>).
    // The folder of the file and its .debug subfolder are always searched by debuglink.
    explicit Symbolizer(const QStringList &debugRoots = defaultDebugRoots());
    ~Symbolizer();
    Symbolizer(const Symbolizer &) = delete;
    Symbolizer &operator=(const Symbolizer &) = delete;

    // Adds one load and returns its index (0, 1, 2, ... in the order of the calls). Opens the file
    // the first time its path is seen, reads its symbol tables and sections and looks for its
    // debug file; later loads of the same path (another bias, another time) share that work.
    // Cost: a few milliseconds for a small program; about 0.1 s for libc.so.6 with its debug file
    // (libdw inflates Debian's compressed DWARF sections on opening; ~10,000 symbols are sorted
    // once). Never fails: status() says what came of it.
    int addModule(const LoadedModule &load);
    QList<int> addModules(const QList<LoadedModule> &loads);
    // Opens `path` now, as addModule would on its first load of it, so that the load finds the
    // file read: the recorder reads each library while the program still runs (on a thread of its
    // own, the Symbolizer being handed over, never shared), and gets the file as the run saw it.
    void readFile(const QString &path) { openFile(path); }

    int moduleCount() const { return int(m_loads.size()); }
    // `index` must be in [0, moduleCount()).
    const LoadedModule &module(int index) const;
    const ModuleStatus &status(int index) const;
    // Run-time addresses from the lowest to the highest byte of the file's loadable segments;
    // none unless the module is Ready.
    std::optional<AddressRange> extent(int index) const;

    // The load whose extent contains `address`, and whose transitions contain `at` when given.
    // When several do (a range reused by another library over time) and `at` is not given: the
    // one added last. None when no Ready load contains it: a load whose file is missing has no
    // known extent, so ask by index (describeCode(index, pc)) when the memory map says which
    // module a PC is in. O(number of loads).
    std::optional<int> moduleAt(Address address, std::optional<Transition> at = {}) const;

    // What the PC is in load `index`: module+offset always; function, its range and offset when
    // a symbol (.symtab, also from the debug file, else .dynsym) contains it; source file, line
    // and the line-table row's range when DWARF has a line for it. Loads that are not Ready give
    // module+offset only. A few microseconds once the unit's line table is read (the first PC of
    // each compilation unit reads it: up to a millisecond for a large unit).
    CodeLocation describeCode(int index, Address pc);
    // The same for the load moduleAt(pc, at) picks; module -1 and moduleOffset = pc when none.
    CodeLocation describeCode(Address pc, std::optional<Transition> at = {});
    // One answer per PC, in the order given: the batch form for the distinct PCs of a history.
    QList<CodeLocation> describeCode(const QList<Address> &pcs, std::optional<Transition> at = {});

    // What the data address is in load `index`: the data object containing it (STT_OBJECT,
    // STT_COMMON, and STT_TLS in the initialised .tdata image; sized symbols only), with the
    // offset, and the allocated section containing it. O(log n).
    DataLocation describeData(int index, Address address);
    DataLocation describeData(Address address, std::optional<Transition> at = {});
    QList<DataLocation> describeData(const QList<Address> &addresses, std::optional<Transition> at = {});

    // The allocated sections of load `index` at run-time addresses, in address order (.tbss,
    // which takes no room of its own, left out). Empty unless Ready.
    QList<SectionRange> sections(int index) const;

    // Every data object of load `index` at run-time addresses, in address order, one name per
    // address (global names preferred over weak and local aliases). Empty unless Ready.
    QList<DataObject> dataObjects(int index) const;

    // Up to `count` bytes of load `index`'s file at run-time address `pc`, as the loader maps
    // them (through the program headers, so PIE executables and shared libraries read right),
    // for disassembly when the trace has no instruction bytes: decode them, then keep the first
    // DecodedInstruction::size bytes. Fewer near the end of the file-backed part of a segment;
    // empty outside one or unless Ready. One read of the file.
    QByteArray codeBytes(int index, Address pc, int count = 15);
    QByteArray codeBytes(Address pc, int count = 15, std::optional<Transition> at = {});

private:
    struct Load
    {
        LoadedModule module;
        ModuleStatus status;
        std::shared_ptr<ModuleFile> file; // null unless Ready
        std::optional<AddressRange> extent; // run-time
    };

    std::shared_ptr<ModuleFile> openFile(const QString &path);
    static std::uint64_t toElf(const Load &load, Address address) { return address.value - load.module.bias; }
    static Address toRunTime(const Load &load, std::uint64_t elfAddress)
    {
        return Address { elfAddress + load.module.bias };
    }

    std::unique_ptr<LocalDebugInfo> m_debugInfo;
    std::vector<Load> m_loads;
    QHash<QString, std::shared_ptr<ModuleFile>> m_files;
};

} // namespace memhist
