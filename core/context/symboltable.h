// SPDX-License-Identifier: MIT
// The functions or the data objects of one ELF file, sorted by address for O(log n) lookups
// (libdwfl's own address lookup scans the whole symbol table on every call).
#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <vector>

namespace memhist {

class SymbolTable
{
public:
    // How strongly a name is preferred when several symbols start at the same address (aliases
    // such as memcpy / __GI_memcpy / __new_memcpy): global over weak over local.
    enum class Binding : std::uint8_t {
        Local,
        Weak,
        Global,
    };

    struct Entry
    {
        std::uint64_t first = 0; // ELF virtual addresses
        std::uint64_t last = 0;
        const char *rawName = nullptr; // owned by the ELF file's string table
        Binding binding = Binding::Local;
        bool sized = false; // st_size > 0; sizeless entries reach up to the next entry
    };

    // `rawName` must stay valid as long as the table is used (libelf's string tables do while the
    // Dwfl that read them is open). `size` 0 = a sizeless symbol (assembler labels, _start).
    void add(std::uint64_t first, std::uint64_t size, const char *rawName, Binding binding);

    // Call once after the last add(): sorts, keeps one name per start address (the most preferred:
    // binding, then sized, then fewer leading underscores, then the first added), and lets a
    // sizeless symbol reach up to the next symbol or to `regionLast(first)` (the last address of
    // its section), whichever comes first.
    void finish(const std::function<std::uint64_t(std::uint64_t first)> &regionLast);

    // The entry containing `address` whose start is nearest below it; null when none does.
    // O(log n), plus a short walk back when symbols overlap.
    const Entry *find(std::uint64_t address) const;

    // The display name of an entry: the default-version suffix ("@@GLIBC_2.14") dropped and C++
    // names demangled. Computed on first use and cached.
    const QString &name(const Entry &entry) const;

    const std::vector<Entry> &entries() const { return m_entries; }

private:
    std::vector<Entry> m_entries;
    std::vector<std::uint64_t> m_maxLastUpTo; // max(last) over entries [0, i]: where a walk back can stop
    mutable std::vector<QString> m_names; // parallel to m_entries, filled lazily
    mutable std::vector<bool> m_named;
};

// A symbol's display name (see SymbolTable::name).
QString displaySymbolName(const char *rawName);

} // namespace memhist
