// SPDX-License-Identifier: MIT
// The bytes an access read or wrote, as the diff carries them from the value blocks to the
// pairwise comparison and the per-object histories: nearly every access is 1 to 8 bytes, so up to
// inlineCapacity bytes are kept in place and only longer ones (a read() buffer, a page) on the
// heap. A QByteArray per access cost a malloc and a free for each of 27 M accesses in a diff of
// two gzip runs.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <cstring>

namespace memhist {

class AccessBytes
{
public:
    static constexpr qsizetype inlineCapacity = 16;

    AccessBytes() = default;
    AccessBytes(QByteArrayView bytes) { assign(bytes); } // NOLINT: implicit, as QByteArray's own
    AccessBytes(const QByteArray &bytes) { assign(bytes); } // NOLINT
    AccessBytes &operator=(QByteArrayView bytes)
    {
        assign(bytes);
        return *this;
    }
    AccessBytes &operator=(const QByteArray &bytes)
    {
        assign(bytes);
        return *this;
    }

    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    QByteArrayView view() const
    {
        return m_size <= inlineCapacity ? QByteArrayView(m_inline, m_size) : QByteArrayView(m_heap);
    }
    QByteArray toByteArray() const { return m_size <= inlineCapacity ? view().toByteArray() : m_heap; }

    friend bool operator==(const AccessBytes &x, const AccessBytes &y)
    {
        if (x.m_size != y.m_size)
            return false;
        if (x.m_size <= inlineCapacity) // the bytes past the size are zero on both sides
            return std::memcmp(x.m_inline, y.m_inline, sizeof x.m_inline) == 0;
        return x.m_heap == y.m_heap;
    }

private:
    void assign(QByteArrayView bytes)
    {
        if (bytes.size() <= inlineCapacity) {
            // Copied through a zeroed buffer of fixed size (the view may point into this one);
            // the compiler turns these fixed-size copies into a few moves instead of library calls.
            char copy[inlineCapacity] = {};
            switch (bytes.size()) {
            case 1:
                std::memcpy(copy, bytes.data(), 1);
                break;
            case 2:
                std::memcpy(copy, bytes.data(), 2);
                break;
            case 4:
                std::memcpy(copy, bytes.data(), 4);
                break;
            case 8:
                std::memcpy(copy, bytes.data(), 8);
                break;
            default:
                if (!bytes.isEmpty())
                    std::memcpy(copy, bytes.data(), std::size_t(bytes.size()));
            }
            std::memcpy(m_inline, copy, sizeof copy);
            if (!m_heap.isNull())
                m_heap = QByteArray();
        } else {
            m_heap = bytes.toByteArray();
        }
        m_size = bytes.size();
    }

    qsizetype m_size = 0;
    char m_inline[inlineCapacity] = {};
    QByteArray m_heap; // only when longer than inlineCapacity
};

} // namespace memhist
