// SPDX-License-Identifier: MIT
// What the summary's first pass keeps of (part of) one slice: its accesses as distinct (operation,
// address, size) records with their counts, and where its chunks start, also counted. Compact
// (a hot stack or loop counter collapses to a few records) and independent of the address fold,
// which is only known once every slice has been seen: the second pass bins these records.
#pragma once

#include <QByteArray>
#include <QtGlobal>
#include <cstdint>
#include <functional>
#include <vector>

namespace memhist::summary {

class SliceFragment
{
public:
    // `code` is an operation code (1, 2 or 4); the caller has checked it.
    void addAccess(std::uint8_t code, std::uint64_t address, std::uint32_t size)
    {
        m_accesses.push_back({ address, size, code });
    }
    void addChunk(std::uint8_t code, std::uint64_t first) { m_chunks.push_back({ first, 0, code }); }
    bool isEmpty() const { return m_accesses.empty() && m_chunks.empty(); }
    qint64 accessCount() const { return qint64(m_accesses.size()); }
    qint64 chunkCount() const { return qint64(m_chunks.size()); }
    void clear()
    {
        m_accesses.clear();
        m_chunks.clear();
    }

    // The records, sorted and counted, as varints; clears the fragment.
    QByteArray take();

    // Calls accessRecord(code, address, size, count) for each access record of an encoded fragment,
    // in (operation code, address, size) order, then chunkRecord(code, first, count) likewise.
    // False when the bytes are damaged.
    using AccessRecord = std::function<void(std::uint8_t, std::uint64_t, std::uint32_t, std::uint64_t)>;
    using ChunkRecord = std::function<void(std::uint8_t, std::uint64_t, std::uint64_t)>;
    static bool read(const QByteArray &encoded, const AccessRecord &accessRecord, const ChunkRecord &chunkRecord);

private:
    struct Item
    {
        std::uint64_t address;
        std::uint32_t size;
        std::uint8_t code;

        // By operation code, address, size.
        bool operator<(const Item &other) const;
    };
    static void encodeItems(std::vector<Item> &items, bool withSize, QByteArray &out);

    std::vector<Item> m_accesses;
    std::vector<Item> m_chunks;
};

} // namespace memhist::summary
