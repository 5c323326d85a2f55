// SPDX-License-Identifier: MIT
#include "addressnormaliser.h"

#include "core/diff/diffstatements.h"
#include "core/model/types.h"

#include <QFileInfo>
#include <algorithm>

namespace memhist {

std::uint64_t NameTable::idOf(const QString &name)
{
    const auto known = m_ids.constFind(name);
    if (known != m_ids.constEnd())
        return *known;
    const std::uint64_t id = std::uint64_t(m_names.size());
    m_names.append(name);
    m_ids.insert(name, id);
    return id;
}

AddressNormaliser::AddressNormaliser(sqlite::Connection &connection, NameTable &names)
    : m_names(names)
{
    using Kind = NormalisedAddress::Kind;
    sqlite::Statement map = connection.prepare(diffstatements::memoryMap);
    while (map.isValid() && map.step() == SQLITE_ROW) {
        Mapping mapping;
        mapping.first = fromStored(map.int64(0));
        mapping.last = fromStored(map.int64(1));
        mapping.fileOffset = fromStored(map.int64(2));
        const QString path = map.text(3);
        if (path == QLatin1String("[stack]"))
            mapping.kind = Kind::Stack;
        else if (path == QLatin1String("[heap]"))
            mapping.kind = Kind::Heap;
        else if (path.startsWith(QLatin1Char('/')))
            mapping.kind = Kind::File;
        mapping.nameId = names.idOf(mapping.kind == Kind::File ? QFileInfo(path).fileName() : path);
        if (mapping.first <= mapping.last) {
            m_mappings.push_back(mapping);
            if (mapping.kind == Kind::Stack)
                m_stacks.emplace_back(mapping.first, mapping.last);
        }
    }
    std::sort(m_mappings.begin(), m_mappings.end(),
        [](const Mapping &x, const Mapping &y) { return x.first != y.first ? x.first < y.first : x.last < y.last; });

    sqlite::Statement objects = connection.prepare(diffstatements::dataObjects);
    while (objects.isValid() && objects.step() == SQLITE_ROW) {
        DataObject object { fromStored(objects.int64(1)), fromStored(objects.int64(2)), names.idOf(objects.text(0)) };
        if (object.first <= object.last)
            m_objects.push_back(object);
    }
    std::sort(
        m_objects.begin(), m_objects.end(), [](const DataObject &x, const DataObject &y) { return x.first < y.first; });
}

const AddressNormaliser::Mapping *AddressNormaliser::searchMapping(std::uint64_t address) const
{
    // The map holds each mapping once per lifetime, so rows overlap; the nearest starts below are
    // enough to find one that holds the address.
    auto after = std::upper_bound(m_mappings.begin(), m_mappings.end(), address,
        [](std::uint64_t value, const Mapping &mapping) { return value < mapping.first; });
    for (int tries = 0; after != m_mappings.begin() && tries < 64; ++tries) {
        --after;
        if (after->last >= address)
            return &*after;
    }
    return nullptr;
}

const AddressNormaliser::Mapping *AddressNormaliser::mappingOf(std::uint64_t address, const Page &page)
{
    // A known page's one mapping is also the last mapping found whenever that holds the address.
    if (!page.mappingKnown && m_lastMapping && m_lastMapping->first <= address && address <= m_lastMapping->last)
        return m_lastMapping;
    const Mapping *found = page.mappingKnown ? page.mapping : searchMapping(address);
    if (found)
        m_lastMapping = found;
    return found;
}

const AddressNormaliser::Page &AddressNormaliser::pageOf(std::uint64_t address)
{
    const std::uint64_t number = address >> 12;
    Page &page = m_pages[std::size_t(number % cachedPages)];
    if (page.number == number)
        return page;
    const std::uint64_t first = number << 12;
    const std::uint64_t last = first | 0xfff;
    const auto overlaps = [first, last](std::uint64_t f, std::uint64_t l) { return f <= last && l >= first; };
    page.number = number;
    // With one mapping over the whole page and no other touching it, the search finds that one
    // for every address in the page, and so does the last mapping found when it holds the address.
    const Mapping *only = nullptr;
    int overlapping = 0;
    for (const Mapping &mapping : m_mappings)
        if (overlaps(mapping.first, mapping.last) && ++overlapping == 1)
            only = &mapping;
    page.mappingKnown = overlapping == 0
        || (overlapping == 1 && only->first <= first && last <= only->last && searchMapping(first) == only);
    page.mapping = overlapping == 0 ? nullptr : only;
    page.hasObjects = std::any_of(m_objects.begin(), m_objects.end(),
        [&](const DataObject &object) { return overlaps(object.first, object.last); });
    return page;
}

std::optional<std::int64_t> AddressNormaliser::stackDistanceOf(QByteArrayView value) const
{
    if (value.size() != 8 || !m_stackAnchor)
        return std::nullopt;
    std::uint64_t pointer = 0;
    for (int i = 7; i >= 0; --i)
        pointer = (pointer << 8) | static_cast<unsigned char>(value[i]); // little-endian, as accesses store it
    for (const auto &[first, last] : m_stacks) {
        if (first <= pointer && pointer <= last)
            return std::int64_t(*m_stackAnchor - pointer);
    }
    return std::nullopt;
}

NormalisedAddress AddressNormaliser::heapPlace(
    const Mapping &heap, std::uint64_t address, std::uint32_t size, bool isWrite, std::uint64_t pc)
{
    const std::uint64_t word = address & ~std::uint64_t(7);
    auto known = m_heapWords.constFind(word);
    if (known == m_heapWords.constEnd() && isWrite && pc != 0 && m_heapWords.size() < qsizetype(maxHeapWords)) {
        const std::uint64_t nth = ++m_firstTouches[pc];
        const std::uint64_t last = lastByteOf(address, size) & ~std::uint64_t(7);
        for (std::uint64_t w = word; w <= last; w += 8) {
            if (!m_heapWords.contains(w))
                m_heapWords.insert(w, HeapWord { pc, nth, std::int64_t(w - word) });
            if (w + 8 < w)
                break;
        }
        known = m_heapWords.constFind(word);
    } else if (known == m_heapWords.constEnd() && isWrite && m_heapWords.size() >= qsizetype(maxHeapWords)) {
        m_heapCapped = true;
    }
    if (known != m_heapWords.constEnd())
        return { NormalisedAddress::Kind::Heap, known->pc, known->nth, known->offset + std::int64_t(address & 7) };
    // Not written yet in this run (or past the cap): named by its offset in the heap.
    return { NormalisedAddress::Kind::Region, heap.nameId, 0, std::int64_t(address - heap.first) };
}

NormalisedAddress AddressNormaliser::normalise(
    std::uint64_t address, std::uint32_t size, bool isWrite, std::uint64_t pc)
{
    using Kind = NormalisedAddress::Kind;
    const Page &page = pageOf(address);
    const Mapping *mapping = mappingOf(address, page);
    if (mapping && mapping->kind == Kind::Stack) {
        if (!m_stackAnchor)
            m_stackAnchor = address + size;
        return { Kind::Stack, 0, 0, std::int64_t(*m_stackAnchor - address) };
    }
    if (mapping && mapping->kind == Kind::Heap)
        return heapPlace(*mapping, address, size, isWrite, pc);
    auto after = page.hasObjects ? std::upper_bound(m_objects.begin(), m_objects.end(), address,
                     [](std::uint64_t value, const DataObject &object) { return value < object.first; })
                                 : m_objects.begin();
    if (after != m_objects.begin() && std::prev(after)->last >= address) {
        const DataObject &object = *std::prev(after);
        return { Kind::Global, object.nameId, 0, std::int64_t(address - object.first) };
    }
    if (!mapping)
        return { Kind::Unknown, 0, 0, std::int64_t(address) };
    if (mapping->kind == Kind::File)
        return { Kind::File, mapping->nameId, 0, std::int64_t(address - mapping->first + mapping->fileOffset) };
    return { Kind::Region, mapping->nameId, 0, std::int64_t(address) };
}

} // namespace memhist
