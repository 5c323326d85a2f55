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
        return x.m_size == y.m_size
            && (x.m_size == 0 || std::memcmp(x.view().data(), y.view().data(), std::size_t(x.m_size)) == 0);
    }

private:
    void assign(QByteArrayView bytes)
    {
        m_size = bytes.size();
        if (m_size <= inlineCapacity) {
            if (m_size > 0)
                std::memmove(m_inline, bytes.data(), std::size_t(m_size));
            if (!m_heap.isNull())
                m_heap = QByteArray();
        } else {
            m_heap = bytes.toByteArray();
        }
    }

    qsizetype m_size = 0;
    char m_inline[inlineCapacity] = {};
    QByteArray m_heap; // only when longer than inlineCapacity
};

} // namespace memhist
