// SPDX-License-Identifier: MIT
// One history's accesses in rowid (time) order, with their values where the history has them,
// handed over one transition at a time: what the diff compares pairwise in aligned stretches. One
// forward cursor; nothing is kept beyond the accesses of one transition.
#pragma once

#include "core/diff/accessbytes.h"
#include "core/model/types.h"
#include "core/storage/sqlite.h"
#include "core/values/accessvaluereader.h"
#include "core/values/valueblock.h"

#include <QByteArray>
#include <vector>

namespace memhist {

struct StreamedAccess
{
    std::int64_t rowId = 0;
    std::uint64_t transition = 0;
    std::uint64_t address = 0;
    std::uint32_t size = 0;
    int operation = 0; // 2 write, 4 read (1 execute: skipped)
    AccessBytes value; // empty when unknown
};

class AccessStream
{
public:
    // Reads through `connection`, which must outlive this object.
    explicit AccessStream(sqlite::Connection &connection);

    bool isValid() const { return m_accesses.isValid(); }
    bool hasValues() const { return m_blocks.isValid() || m_values.available(); }

    // The accesses made at `transition` (in rowid order); those before it that no call handed
    // over yet go to `skipped` first. Calls must ask for increasing transitions.
    template<typename Visit> const std::vector<StreamedAccess> &at(std::uint64_t transition, Visit skipped)
    {
        m_at.clear();
        while (fill() && m_next.transition <= transition) {
            if (m_next.transition == transition)
                m_at.push_back(std::move(m_next));
            else
                skipped(static_cast<const StreamedAccess &>(m_next));
            m_hasNext = false;
        }
        return m_at;
    }
    // The accesses up to and including `last` that at() has not handed over, in order, passed to
    // `visit` one at a time.
    template<typename Visit> void drainThrough(std::uint64_t last, Visit visit)
    {
        while (fill() && m_next.transition <= last) {
            visit(static_cast<const StreamedAccess &>(m_next));
            m_hasNext = false;
        }
    }
    // The transition of the next access not handed over; false at the end.
    bool nextTransition(std::uint64_t *transition)
    {
        if (!fill())
            return false;
        *transition = m_next.transition;
        return true;
    }
    std::uint64_t count() const { return m_count; }
    // A database error ended the cursor early (its message), or empty.
    const QString &error() const { return m_error; }

private:
    bool fill();
    // Sets `value` to the bytes of access `rowId` (empty when unknown).
    void readValue(std::int64_t rowId, AccessBytes *value);

    sqlite::Connection &m_connection;
    sqlite::Statement m_accesses;
    sqlite::Statement m_blocks; // the value blocks in rowid order, one forward cursor
    ValueBlockCursor m_block; // the last block read from it
    bool m_blocksEnded = false;
    AccessValueReader m_values; // histories of the table before the blocks
    StreamedAccess m_next;
    bool m_hasNext = false;
    bool m_ended = false;
    std::uint64_t m_count = 0;
    std::vector<StreamedAccess> m_at;
    QString m_error;
};

} // namespace memhist
