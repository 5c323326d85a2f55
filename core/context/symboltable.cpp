// SPDX-License-Identifier: MIT
#include "core/context/symboltable.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <tuple>

namespace memhist {

namespace {

int leadingUnderscores(const char *name)
{
    int count = 0;
    while (name[count] == '_')
        ++count;
    return count;
}

// Smaller is better: the order in which aliases at one address are preferred.
auto preference(const SymbolTable::Entry &entry)
{
    return std::make_tuple(-int(entry.binding), entry.sized ? 0 : 1, leadingUnderscores(entry.rawName));
}

} // namespace

QString displaySymbolName(const char *rawName)
{
    // "memcpy@@GLIBC_2.14" is the default version of memcpy: show "memcpy". A non-default
    // version ("memcpy@GLIBC_2.2.5", an old ABI kept for compatibility) stays as it is.
    const char *defaultVersion = std::strstr(rawName, "@@");
    const std::size_t length = defaultVersion ? std::size_t(defaultVersion - rawName) : std::strlen(rawName);
    if (length > 2 && rawName[0] == '_' && rawName[1] == 'Z') {
        const std::string mangled(rawName, length);
        int status = 0;
        char *demangled = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
        if (status == 0 && demangled) {
            QString name = QString::fromUtf8(demangled);
            std::free(demangled);
            return name;
        }
        std::free(demangled);
    }
    return QString::fromUtf8(rawName, qsizetype(length));
}

void SymbolTable::add(std::uint64_t first, std::uint64_t size, const char *rawName, Binding binding)
{
    Entry entry;
    entry.first = first;
    entry.last = size > 0 ? first + size - 1 : first;
    entry.rawName = rawName;
    entry.binding = binding;
    entry.sized = size > 0;
    m_entries.push_back(entry);
}

void SymbolTable::finish(const std::function<std::uint64_t(std::uint64_t first)> &regionLast)
{
    // Stable: among equally preferred aliases the first one added wins.
    std::stable_sort(m_entries.begin(), m_entries.end(), [](const Entry &a, const Entry &b) {
        if (a.first != b.first)
            return a.first < b.first;
        return preference(a) < preference(b);
    });
    m_entries.erase(std::unique(m_entries.begin(), m_entries.end(),
                        [](const Entry &a, const Entry &b) { return a.first == b.first; }),
        m_entries.end());

    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        Entry &entry = m_entries[i];
        if (entry.sized)
            continue;
        std::uint64_t last = std::max(regionLast(entry.first), entry.first);
        if (i + 1 < m_entries.size())
            last = std::min(last, m_entries[i + 1].first - 1);
        entry.last = last;
    }

    m_maxLastUpTo.resize(m_entries.size());
    std::uint64_t maxLast = 0;
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        maxLast = std::max(maxLast, m_entries[i].last);
        m_maxLastUpTo[i] = maxLast;
    }
    m_names.assign(m_entries.size(), QString());
    m_named.assign(m_entries.size(), false);
}

const SymbolTable::Entry *SymbolTable::find(std::uint64_t address) const
{
    auto after = std::upper_bound(m_entries.begin(), m_entries.end(), address,
        [](std::uint64_t value, const Entry &entry) { return value < entry.first; });
    for (std::ptrdiff_t i = (after - m_entries.begin()) - 1; i >= 0; --i) {
        if (m_maxLastUpTo[std::size_t(i)] < address)
            break;
        if (m_entries[std::size_t(i)].last >= address)
            return &m_entries[std::size_t(i)];
    }
    return nullptr;
}

const QString &SymbolTable::name(const Entry &entry) const
{
    const std::size_t index = std::size_t(&entry - m_entries.data());
    if (!m_named[index]) {
        m_names[index] = displaySymbolName(entry.rawName);
        m_named[index] = true;
    }
    return m_names[index];
}

} // namespace memhist
