// SPDX-License-Identifier: MIT
// The memory map over time: mmap-style replacement, partial unmaps, lifetimes, and the modules made
// of file mappings or named by the trace, each with the exact rows it must give.
#include "core/context/memorymaphistory.h"

#include <QTest>

using namespace memhist;

namespace {

constexpr std::uint64_t end = 100; // the history's last transition in every row below

Mapping mapping(
    std::uint64_t first, std::uint64_t last, const char *permissions, std::uint64_t offset, const char *path)
{
    return Mapping { Address { first }, Address { last }, QString::fromLatin1(permissions), offset,
        QString::fromUtf8(path) };
}

MemoryMapRow row(std::uint64_t from, std::uint64_t to, const Mapping &mapping, qint64 module = 0)
{
    return MemoryMapRow { Transition { from }, Transition { to }, mapping, module };
}

LoadedModule load(const char *path, std::uint64_t bias, std::uint64_t first, std::uint64_t last = ~std::uint64_t(0),
    const char *buildId = "")
{
    LoadedModule module;
    module.path = QString::fromUtf8(path);
    module.bias = bias;
    module.buildId = QString::fromLatin1(buildId);
    module.first = Transition { first };
    module.last = Transition { last };
    return module;
}

ModuleRow moduleRow(qint64 id, const LoadedModule &module)
{
    return ModuleRow { id, module };
}

// One event of a trace.
struct Event
{
    enum Kind { Add, Remove, Module } kind;
    std::uint64_t from;
    Mapping mapping; // Add; Remove uses first/last
    LoadedModule module; // Module
};

Event add(std::uint64_t from, const Mapping &mapping)
{
    return Event { Event::Add, from, mapping, {} };
}

Event remove(std::uint64_t from, std::uint64_t first, std::uint64_t last)
{
    return Event { Event::Remove, from, mapping(first, last, "---p", 0, ""), {} };
}

Event named(const LoadedModule &module)
{
    return Event { Event::Module, module.first.value, {}, module };
}

// The test's placement: a recognisable bias, so that each row shows which mapping placed a module.
std::optional<std::uint64_t> biasOf(const Mapping &offsetZero)
{
    if (offsetZero.path.endsWith(QStringLiteral("unreadable.so")))
        return std::nullopt;
    return offsetZero.first.value + 0x7;
}

const char *const libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";

} // namespace

using Events = QList<Event>;
using Rows = QList<MemoryMapRow>;
using Modules = QList<ModuleRow>;
Q_DECLARE_METATYPE(Events)
Q_DECLARE_METATYPE(Rows)
Q_DECLARE_METATYPE(Modules)

class tst_MemoryMapHistory : public QObject
{
    Q_OBJECT

private slots:
    void rows_data();
    void rows();
};

void tst_MemoryMapHistory::rows_data()
{
    QTest::addColumn<Events>("events");
    QTest::addColumn<Rows>("rows");
    QTest::addColumn<Modules>("modules");
    QTest::addColumn<QStringList>("problems");

    const Mapping libcHeader = mapping(0x7f0000000000, 0x7f0000025fff, "r--p", 0, libc);
    const Mapping libcText = mapping(0x7f0000026000, 0x7f000017bfff, "r-xp", 0x26000, libc);
    const Mapping libcData = mapping(0x7f00001d3000, 0x7f00001d4fff, "rw-p", 0x1d3000, libc);
    const Mapping heap = mapping(0x555555559000, 0x555555579fff, "rw-p", 0, "[heap]");
    const Mapping stack = mapping(0x7ffffffde000, 0x7fffffffefff, "rw-p", 0, "[stack]");
    const Mapping anon = mapping(0x7f0000200000, 0x7f0000203fff, "rw-p", 0, "[anon]");
    QTest::newRow("a /proc dump: libc a module placed by its offset-0 mapping, regions none")
        << Events { add(0, libcHeader), add(0, libcText), add(0, libcData), add(0, heap), add(0, stack), add(0, anon) }
        << Rows { row(0, end, libcHeader, 1), row(0, end, libcText, 1), row(0, end, libcData, 1), row(0, end, heap),
               row(0, end, stack), row(0, end, anon) }
        << Modules { moduleRow(1, load(libc, 0x7f0000000007, 0, end)) } << QStringList {};

    QTest::newRow("an unmap inside a mapping leaves the parts around it")
        << Events { add(0, mapping(0x1000, 0x4fff, "rw-p", 0, "[anon]")), remove(10, 0x2000, 0x2fff) }
        << Rows { row(0, 9, mapping(0x1000, 0x4fff, "rw-p", 0, "[anon]")),
               row(10, end, mapping(0x1000, 0x1fff, "rw-p", 0, "[anon]")),
               row(10, end, mapping(0x3000, 0x4fff, "rw-p", 0, "[anon]")) }
        << Modules {} << QStringList {};

    QTest::newRow("the part of a file mapping after an unmap keeps its file offset")
        << Events { add(0, mapping(0x10000, 0x13fff, "r--p", 0x1000, "/data.bin")), remove(5, 0x10000, 0x10fff) }
        << Rows { row(0, 4, mapping(0x10000, 0x13fff, "r--p", 0x1000, "/data.bin")),
               row(5, end, mapping(0x11000, 0x13fff, "r--p", 0x2000, "/data.bin")) }
        << Modules {} << QStringList {};

    QTest::newRow("an unmap spanning several mappings ends them all")
        << Events { add(0, mapping(0x1000, 0x1fff, "rw-p", 0, "[anon]")),
               add(1, mapping(0x2000, 0x2fff, "r--p", 0, "[anon]")),
               add(2, mapping(0x3000, 0x3fff, "rw-p", 0, "[anon]")), remove(7, 0x1000, 0x2fff) }
        << Rows { row(0, 6, mapping(0x1000, 0x1fff, "rw-p", 0, "[anon]")),
               row(1, 6, mapping(0x2000, 0x2fff, "r--p", 0, "[anon]")),
               row(2, end, mapping(0x3000, 0x3fff, "rw-p", 0, "[anon]")) }
        << Modules {} << QStringList {};

    QTest::newRow("replaced at the transition it began: no row")
        << Events { add(5, mapping(0x1000, 0x1fff, "rw-p", 0, "[anon]")),
               add(5, mapping(0x1000, 0x1fff, "r--p", 0, "/x.bin")) }
        << Rows { row(5, end, mapping(0x1000, 0x1fff, "r--p", 0, "/x.bin")) } << Modules {} << QStringList {};

    // ld.so maps a library's whole extent from offset 0, then its segments over it.
    const char *libx = "/lib/libx.so";
    QTest::newRow("segments mapped over a reservation: one load, one module")
        << Events { add(3, mapping(0x70000000, 0x70003fff, "r--p", 0, libx)),
               add(3, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx)) }
        << Rows { row(3, end, mapping(0x70000000, 0x70000fff, "r--p", 0, libx), 1),
               row(3, end, mapping(0x70002000, 0x70003fff, "r--p", 0x2000, libx), 1),
               row(3, end, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx), 1) }
        << Modules { moduleRow(1, load(libx, 0x70000007, 3, end)) } << QStringList {};

    QTest::newRow("unloaded and loaded again elsewhere: two modules")
        << Events { add(10, mapping(0x70000000, 0x70000fff, "r--p", 0, libx)),
               add(10, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx)), remove(20, 0x70000000, 0x70001fff),
               add(30, mapping(0x71000000, 0x71000fff, "r--p", 0, libx)),
               add(30, mapping(0x71001000, 0x71001fff, "r-xp", 0x1000, libx)) }
        << Rows { row(10, 19, mapping(0x70000000, 0x70000fff, "r--p", 0, libx), 1),
               row(10, 19, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx), 1),
               row(30, end, mapping(0x71000000, 0x71000fff, "r--p", 0, libx), 2),
               row(30, end, mapping(0x71001000, 0x71001fff, "r-xp", 0x1000, libx), 2) }
        << Modules { moduleRow(1, load(libx, 0x70000007, 10, 19)), moduleRow(2, load(libx, 0x71000007, 30, end)) }
        << QStringList {};

    QTest::newRow("two loads of one file side by side (dlmopen)")
        << Events { add(1, mapping(0x70000000, 0x70000fff, "r--p", 0, libx)),
               add(1, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx)),
               add(2, mapping(0x72000000, 0x72000fff, "r--p", 0, libx)),
               add(2, mapping(0x72001000, 0x72001fff, "r-xp", 0x1000, libx)) }
        << Rows { row(1, end, mapping(0x70000000, 0x70000fff, "r--p", 0, libx), 1),
               row(1, end, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx), 1),
               row(2, end, mapping(0x72000000, 0x72000fff, "r--p", 0, libx), 2),
               row(2, end, mapping(0x72001000, 0x72001fff, "r-xp", 0x1000, libx), 2) }
        << Modules { moduleRow(1, load(libx, 0x70000007, 1, end)), moduleRow(2, load(libx, 0x72000007, 2, end)) }
        << QStringList {};

    QTest::newRow("a load the trace names owns the mappings of its file, mapped just before it")
        << Events { add(4, mapping(0x70000000, 0x70000fff, "r--p", 0, libx)),
               add(4, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx)),
               named(load(libx, 0x6fff0000, 5, ~std::uint64_t(0), "abcd")), remove(50, 0x70000000, 0x70001fff) }
        << Rows { row(4, 49, mapping(0x70000000, 0x70000fff, "r--p", 0, libx), 1),
               row(4, 49, mapping(0x70001000, 0x70001fff, "r-xp", 0x1000, libx), 1) }
        << Modules { moduleRow(1, load(libx, 0x6fff0000, 5, 49, "abcd")) } << QStringList {};

    QTest::newRow("named loads without mappings: to the end, or as long as the trace says")
        << Events { named(load("/bin/prog", 0, 0)), named(load(libx, 0x7000, 10, 60)) } << Rows {}
        << Modules { moduleRow(1, load("/bin/prog", 0, 0, end)), moduleRow(2, load(libx, 0x7000, 10, 60)) }
        << QStringList {};

    QTest::newRow("a file without executable mappings is no module")
        << Events { add(0, mapping(0x1000, 0x1fff, "r--p", 0, "/usr/lib/locale/C.utf8/LC_CTYPE")) }
        << Rows { row(0, end, mapping(0x1000, 0x1fff, "r--p", 0, "/usr/lib/locale/C.utf8/LC_CTYPE")) } << Modules {}
        << QStringList {};

    QTest::newRow("code without a mapping at offset 0 cannot be placed")
        << Events { add(0, mapping(0x1000, 0x1fff, "r-xp", 0x1000, libx)) }
        << Rows { row(0, end, mapping(0x1000, 0x1fff, "r-xp", 0x1000, libx)) } << Modules {}
        << QStringList { QStringLiteral("/lib/libx.so: no mapping at file offset 0, so its symbols cannot be placed") };

    QTest::newRow("a file the placement cannot read: placed at its first address")
        << Events { add(0, mapping(0x5000, 0x5fff, "r-xp", 0, "/gone/unreadable.so")) }
        << Rows { row(0, end, mapping(0x5000, 0x5fff, "r-xp", 0, "/gone/unreadable.so"), 1) }
        << Modules { moduleRow(1, load("/gone/unreadable.so", 0x5000, 0, end)) } << QStringList {};

    QTest::newRow("an event before the previous one is taken at the previous one's transition")
        << Events { add(10, mapping(0x1000, 0x1fff, "rw-p", 0, "[anon]")), remove(5, 0x1000, 0x1fff),
               add(7, mapping(0x2000, 0x2fff, "rw-p", 0, "[anon]")) }
        << Rows { row(10, end, mapping(0x2000, 0x2fff, "rw-p", 0, "[anon]")) } << Modules {} << QStringList {};

    QTest::newRow("a mapping at the top of the address space")
        << Events { add(0, mapping(0xffffffffff600000, 0xffffffffff600fff, "--xp", 0, "[vsyscall]")),
               remove(3, 0xffffffffff600000, 0xffffffffffffffff) }
        << Rows { row(0, 2, mapping(0xffffffffff600000, 0xffffffffff600fff, "--xp", 0, "[vsyscall]")) } << Modules {}
        << QStringList {};
}

void tst_MemoryMapHistory::rows()
{
    QFETCH(Events, events);
    QFETCH(Rows, rows);
    QFETCH(Modules, modules);
    QFETCH(QStringList, problems);

    MemoryMapHistory history;
    for (const Event &event : events) {
        switch (event.kind) {
        case Event::Add:
            history.addMapping(Transition { event.from }, event.mapping);
            break;
        case Event::Remove:
            history.removeMapping(Transition { event.from }, event.mapping.first, event.mapping.last);
            break;
        case Event::Module:
            history.addModule(event.module);
            break;
        }
    }
    const MemoryMapHistory::Result result = history.finish(Transition { end }, biasOf);
    QCOMPARE(Rows(result.rows.begin(), result.rows.end()), rows);
    QCOMPARE(Modules(result.modules.begin(), result.modules.end()), modules);
    QCOMPARE(result.problems, problems);
}

QTEST_GUILESS_MAIN(tst_MemoryMapHistory)
#include "tst_memorymaphistory.moc"
