// SPDX-License-Identifier: MIT
// Turns an address of one run into a place that means the same in another run of the program, so
// that layout differences between the runs are not reported (issue 31):
// - a global or static data object (data_objects): its name and the offset in it;
// - other memory of a mapped file (a module's sections without a symbol): the file's name and the
//   offset in the file;
// - the heap: there is no malloc/free tracking in a history, so a heap word is named after the
//   write that first touched it: the instruction's PC and how many heap words that instruction had
//   first-touched before (its n-th first touch). A block allocated at another address, or in
//   another order, is written first by the same instruction in both runs and so gets the same
//   name; a block reused after free() keeps the name of its first owner (a documented limit);
// - the stack: the distance below the top of the run's first stack access (the return address
//   that the program's first call pushes, just below the stack pointer the kernel hands over). The
//   kernel puts the arguments, the environment and the auxiliary vector above that pointer and
//   aligns it, so a frame lies at the same distance from it in both runs even when the arguments
//   differ in length (measured from the top of the [stack] mapping, every frame would shift);
//   bytes above it (the arguments' strings) have negative distances;
// - anything else: the region's name and the raw address.
// One normaliser per history; the names it hands out (NameTable) are shared by both so that keys
// compare as integers.
#pragma once

#include "core/storage/sqlite.h"

#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace memhist {

// Strings both normalisers intern, so that a name is the same integer on both sides.
class NameTable
{
public:
    std::uint64_t idOf(const QString &name);
    const QString &name(std::uint64_t id) const { return m_names[qsizetype(id)]; }

private:
    QHash<QString, std::uint64_t> m_ids;
    QStringList m_names;
};

struct NormalisedAddress
{
    enum class Kind : std::uint8_t {
        Unknown, // a = 0, offset = the raw address
        Global, // a = name id, offset in the object
        File, // a = file name id, offset in the file
        Heap, // a = first writer's PC, b = its n-th first touch (1-based), offset in that word run
        Stack, // offset = the stack anchor (see above) - address
        Region, // a = region name id ("[anon]", "[vdso]", "[heap]" past the cap), offset = raw address
    };
    Kind kind = Kind::Unknown;
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::int64_t offset = 0;

    friend bool operator==(const NormalisedAddress &, const NormalisedAddress &) = default;
};

class AddressNormaliser
{
public:
    // Heap words named at most (beyond, heap addresses are named by their raw address).
    static constexpr std::size_t maxHeapWords = 1 << 20;

    // Loads the history's memory map and data objects through `connection` (none: every address
    // is Unknown).
    AddressNormaliser(sqlite::Connection &connection, NameTable &names);

    // Where `address` is; a write (`isWrite`) by `pc` names the heap words it first touches.
    NormalisedAddress normalise(std::uint64_t address, std::uint32_t size, bool isWrite, std::uint64_t pc);

    // When `value` (an access's bytes) is an 8-byte pointer into the stack: its distance from the
    // stack's anchor, as normalise() names the stack. A saved frame pointer or the address of a
    // local then compares equal between runs whose stacks lie at different addresses; the raw
    // bytes are still what a report shows. None for any other value, or before the first stack
    // access.
    std::optional<std::int64_t> stackDistanceOf(QByteArrayView value) const;

    bool heapCapped() const { return m_heapCapped; }

private:
    struct Mapping
    {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint64_t fileOffset = 0;
        std::uint64_t nameId = 0;
        NormalisedAddress::Kind kind = NormalisedAddress::Kind::Region;
    };
    struct DataObject
    {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint64_t nameId = 0;
    };
    struct HeapWord
    {
        std::uint64_t pc = 0;
        std::uint64_t nth = 0;
        std::int64_t offset = 0; // of the word in its first touch
    };

    // What a 4 KiB page of addresses normalises through, found once per page: the mapping of
    // every address in it when that does not depend on which mapping was found last (no other
    // mapping overlaps the page), and whether any data object lies in it.
    struct Page
    {
        std::uint64_t number = ~std::uint64_t(0);
        bool mappingKnown = false;
        const Mapping *mapping = nullptr; // when mappingKnown: nullptr for none
        bool hasObjects = true;
    };
    static constexpr std::size_t cachedPages = 1024; // direct-mapped by page number

    const Mapping *mappingOf(std::uint64_t address, const Page &page);
    const Mapping *searchMapping(std::uint64_t address) const;
    const Page &pageOf(std::uint64_t address);
    NormalisedAddress heapPlace(
        const Mapping &heap, std::uint64_t address, std::uint32_t size, bool isWrite, std::uint64_t pc);

    NameTable &m_names;
    std::vector<Mapping> m_mappings; // by first address
    std::vector<DataObject> m_objects; // by first address
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_stacks; // [first, last] of each [stack] mapping
    const Mapping *m_lastMapping = nullptr;
    std::vector<Page> m_pages = std::vector<Page>(cachedPages);
    std::optional<std::uint64_t> m_stackAnchor; // the end of the first stack access
    QHash<std::uint64_t, HeapWord> m_heapWords; // by 8-byte word address
    QHash<std::uint64_t, std::uint64_t> m_firstTouches; // by PC
    bool m_heapCapped = false;
};

} // namespace memhist
