// SPDX-License-Identifier: MIT
// The memory map of a traced process over time, built from the events a trace or a recording
// reports (a mapping added, a range unmapped, a module loaded) and turned at the end into the rows
// of memory_map and modules.
//
// Mappings behave as mmap does: a new mapping replaces whatever it overlaps from its transition on
// (MAP_FIXED), and an unmapped range ends the parts of mappings inside it while the parts outside
// live on as rows of their own. A lifetime that would end before it starts (added and replaced at
// the same transition) leaves no row.
//
// Modules: a trace may name its loads with their bias (valgrind's verbose lines, DynamoRIO's
// modules.log); otherwise the file mappings of one load of a file (the mappings of that path
// alive together) become a module of their own when one of them is executable, placed by the
// mapping at file offset 0 (which holds the first loadable segment in every linker's output).
#pragma once

#include "core/context/contextrows.h"

#include <QList>
#include <QStringList>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace memhist {

class MemoryMapHistory
{
public:
    // Events come in trace order; a `from` before the previous event's is taken as that one's.
    void addMapping(Transition from, const Mapping &mapping);
    void removeMapping(Transition from, Address first, Address last);
    // A load named by the trace. `module.last` stays "never unloaded" (~0) unless the trace said.
    void addModule(const LoadedModule &module);

    bool hasMappings() const { return !m_entries.empty(); }
    bool hasModules() const { return !m_modules.isEmpty(); }

    struct Result
    {
        std::vector<MemoryMapRow> rows; // in the order the mappings began
        std::vector<ModuleRow> modules; // ids from 1, in order of their first transition
        QStringList problems; // one line per file that could not be made a module
    };

    // The rows and modules of a history whose last transition is `historyLast`: lifetimes still
    // open end there. Each load of a file (its mappings alive together) belongs to the load the
    // trace named for that path whose lifetime overlaps it, else becomes a module when one of its
    // mappings is executable, with the bias `biasOf(the mapping at file offset 0)` gives, or that
    // mapping's first address when it gives none (the first loadable segment at ELF address 0, as
    // in every PIE and shared library). A load named by the trace and never unloaded lives as long
    // as its mappings, or to `historyLast` when it has none.
    Result finish(Transition historyLast,
        const std::function<std::optional<std::uint64_t>(const Mapping &offsetZero)> &biasOf) const;

private:
    struct Entry
    {
        Transition first;
        std::optional<Transition> last; // none while alive
        Mapping mapping;
        int group = -1; // the load of a file it belongs to; -1 for named regions and anonymous memory
        bool dropped = false; // ended at the transition it began
    };
    struct Group
    {
        QString path;
        bool hasOffsetZero = false;
    };

    Transition clamp(Transition from);
    // Ends, at `from`, the parts of the live mappings inside [first, last].
    void cut(Transition from, std::uint64_t first, std::uint64_t last);
    int groupFor(const Mapping &mapping);
    void insertLive(Entry entry);

    std::vector<Entry> m_entries;
    std::map<std::uint64_t, std::size_t> m_live; // first address -> index in m_entries; never overlapping
    std::vector<Group> m_groups;
    QList<LoadedModule> m_modules;
    Transition m_lastEvent;
};

} // namespace memhist
