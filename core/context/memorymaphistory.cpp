// SPDX-License-Identifier: MIT
#include "core/context/memorymaphistory.h"

#include <QFileInfo>
#include <algorithm>

namespace memhist {

namespace {

constexpr std::uint64_t pageMask = ~std::uint64_t(0xfff);
constexpr Transition neverUnloaded { ~std::uint64_t(0) };

bool overlaps(const Mapping &a, const Mapping &b)
{
    return a.first <= b.last && b.first <= a.last;
}

} // namespace

Transition MemoryMapHistory::clamp(Transition from)
{
    m_lastEvent = std::max(m_lastEvent, from);
    return m_lastEvent;
}

void MemoryMapHistory::insertLive(Entry entry)
{
    const std::uint64_t first = entry.mapping.first.value;
    m_entries.push_back(std::move(entry));
    m_live[first] = m_entries.size() - 1;
}

void MemoryMapHistory::cut(Transition from, std::uint64_t first, std::uint64_t last)
{
    auto it = m_live.upper_bound(first);
    if (it != m_live.begin())
        --it;
    std::vector<Entry> remnants;
    while (it != m_live.end() && it->first <= last) {
        Entry &entry = m_entries[it->second];
        if (entry.mapping.last.value < first) {
            ++it;
            continue;
        }
        const Mapping old = entry.mapping;
        if (old.first.value < first) {
            Entry left { from, std::nullopt, old, entry.group };
            left.mapping.last = Address { first - 1 };
            remnants.push_back(std::move(left));
        }
        if (old.last.value > last) {
            Entry right { from, std::nullopt, old, entry.group };
            right.mapping.first = Address { last + 1 };
            if (old.isFile())
                right.mapping.fileOffset += last + 1 - old.first.value;
            remnants.push_back(std::move(right));
        }
        if (entry.first == from)
            entry.dropped = true;
        else
            entry.last = Transition { from.value - 1 };
        it = m_live.erase(it);
    }
    for (Entry &remnant : remnants)
        insertLive(std::move(remnant));
}

int MemoryMapHistory::groupFor(const Mapping &mapping)
{
    if (!mapping.isFile())
        return -1;
    // The load this mapping extends: the latest one of the same path that is alive. A mapping at
    // offset 0 beside (not over) a load that has one already is another load of the file.
    int group = -1;
    bool overlapsGroup = false;
    for (const auto &[address, index] : m_live) {
        const Entry &entry = m_entries[index];
        if (entry.group < 0 || entry.mapping.path != mapping.path)
            continue;
        if (entry.group > group) {
            group = entry.group;
            overlapsGroup = false;
        }
        if (entry.group == group && overlaps(entry.mapping, mapping))
            overlapsGroup = true;
    }
    if (group >= 0 && !(mapping.fileOffset == 0 && m_groups[std::size_t(group)].hasOffsetZero && !overlapsGroup)) {
        m_groups[std::size_t(group)].hasOffsetZero |= mapping.fileOffset == 0;
        return group;
    }
    m_groups.push_back(Group { mapping.path, mapping.fileOffset == 0 });
    return int(m_groups.size()) - 1;
}

void MemoryMapHistory::addMapping(Transition from, const Mapping &mapping)
{
    from = clamp(from);
    const int group = groupFor(mapping);
    cut(from, mapping.first.value, mapping.last.value);
    insertLive(Entry { from, std::nullopt, mapping, group });
}

void MemoryMapHistory::removeMapping(Transition from, Address first, Address last)
{
    cut(clamp(from), first.value, last.value);
}

void MemoryMapHistory::addModule(const LoadedModule &module)
{
    clamp(module.first);
    m_modules.append(module);
}

MemoryMapHistory::Result MemoryMapHistory::finish(
    Transition historyLast, const std::function<std::optional<std::uint64_t>(const Mapping &)> &biasOf) const
{
    Result result;
    struct Load
    {
        Transition first { neverUnloaded };
        Transition last { 0 };
        bool executable = false;
        const Mapping *offsetZero = nullptr;
        int explicitModule = -1;
        std::size_t module = 0; // index in `modules` below, + 1; 0 = none
    };
    std::vector<Load> loads(m_groups.size());
    for (const Entry &entry : m_entries) {
        if (entry.dropped)
            continue;
        MemoryMapRow row { entry.first, std::max(entry.first, entry.last.value_or(historyLast)), entry.mapping };
        result.rows.push_back(row);
        if (entry.group < 0)
            continue;
        Load &load = loads[std::size_t(entry.group)];
        load.first = std::min(load.first, row.first);
        load.last = std::max(load.last, row.last);
        load.executable |= entry.mapping.permissions.size() > 2 && entry.mapping.permissions[2] == u'x';
        if (entry.mapping.fileOffset == 0 && !load.offsetZero)
            load.offsetZero = &entry.mapping;
    }

    // Loads the trace named, and how long their mappings lived.
    std::vector<LoadedModule> modules(m_modules.cbegin(), m_modules.cend());
    std::vector<std::optional<Transition>> mappedUntil(modules.size());
    for (std::size_t g = 0; g < loads.size(); ++g) {
        Load &load = loads[g];
        if (load.first == neverUnloaded)
            continue; // every mapping of it was dropped
        for (std::size_t m = modules.size(); m-- > 0;) {
            const LoadedModule &named = modules[m];
            if (named.path == m_groups[g].path && named.first <= load.last && load.first <= named.last) {
                load.explicitModule = int(m);
                load.module = m + 1;
                mappedUntil[m] = std::max(mappedUntil[m].value_or(load.last), load.last);
                break;
            }
        }
    }
    for (std::size_t m = 0; m < modules.size(); ++m) {
        if (modules[m].last == neverUnloaded)
            modules[m].last = std::max(modules[m].first, mappedUntil[m].value_or(historyLast));
    }

    // Loads of files the trace did not name: modules of their own when they hold code.
    for (std::size_t g = 0; g < loads.size(); ++g) {
        Load &load = loads[g];
        if (load.first == neverUnloaded || load.explicitModule >= 0 || !load.executable)
            continue;
        if (!load.offsetZero) {
            result.problems << QStringLiteral("%1: no mapping at file offset 0, so its symbols cannot be placed")
                                   .arg(m_groups[g].path);
            continue;
        }
        LoadedModule module;
        module.path = m_groups[g].path;
        module.bias = biasOf(*load.offsetZero).value_or(load.offsetZero->first.value & pageMask);
        module.first = load.first;
        module.last = load.last;
        modules.push_back(module);
        load.module = modules.size();
    }

    // Ids in order of the first transition (stable: the trace's own order among equals).
    std::vector<std::size_t> order(modules.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(
        order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return modules[a].first < modules[b].first; });
    std::vector<qint64> idOf(modules.size());
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
        idOf[order[rank]] = qint64(rank) + 1;
        result.modules.push_back(ModuleRow { qint64(rank) + 1, modules[order[rank]] });
    }
    std::size_t rowIndex = 0;
    for (const Entry &entry : m_entries) {
        if (entry.dropped)
            continue;
        MemoryMapRow &row = result.rows[rowIndex++];
        if (entry.group >= 0 && loads[std::size_t(entry.group)].module > 0)
            row.moduleId = idOf[loads[std::size_t(entry.group)].module - 1];
    }
    return result;
}

} // namespace memhist
