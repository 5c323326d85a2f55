// SPDX-License-Identifier: MIT
// One history's accesses in rowid (time) order, with their values where the history has them,
// handed over one transition at a time: what the diff compares pairwise in aligned stretches.
//
// An AccessReader on a connection of its own reads them on a thread of its own, batches of
// batchSize accesses at most maxBatches ahead (bounded memory): the two histories' SQLite cursors
// run on two processors while the diff walks. Nothing is kept beyond that lookahead and the
// accesses of one transition.
#pragma once

#include "core/diff/accessreader.h"
#include "core/storage/historydatabase.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace memhist {

class AccessStream
{
public:
    static constexpr std::size_t batchSize = 4096;
    static constexpr std::size_t maxBatches = 4;

    // Reads `database`'s accesses through a connection of its own (through the database's own,
    // on this thread, when a second one cannot be opened).
    explicit AccessStream(HistoryDatabase &database);
    ~AccessStream();
    AccessStream(const AccessStream &) = delete;
    AccessStream &operator=(const AccessStream &) = delete;

    bool isValid() const { return m_valid; }
    // Whether a thread of its own reads ahead (false: the reading is done on the caller's thread).
    bool readsAhead() const { return m_thread.joinable(); }

    // The accesses made at `transition` (in rowid order), valid until the next call; those before
    // it that no call handed over yet go to `skipped` first. Calls must ask for increasing
    // transitions. In place in the batch read ahead (copied only when they reach into the next
    // batch): the walk only reads what the reading thread wrote.
    template<typename Visit> std::span<const StreamedAccess> at(std::uint64_t transition, Visit skipped)
    {
        while (fill() && next().transition < transition) {
            skipped(next());
            ++m_position;
        }
        const std::size_t first = m_position;
        while (m_position < m_batch.size() && m_batch[m_position].transition == transition)
            ++m_position;
        if (m_position < m_batch.size() || m_position == first)
            return std::span<const StreamedAccess>(m_batch).subspan(first, m_position - first);
        // They may go on in the next batch.
        m_at.assign(m_batch.begin() + std::ptrdiff_t(first), m_batch.end());
        while (fill() && next().transition == transition) {
            m_at.push_back(next());
            ++m_position;
        }
        return m_at;
    }
    // The accesses up to and including `last` that at() has not handed over, in order, passed to
    // `visit` one at a time.
    template<typename Visit> void drainThrough(std::uint64_t last, Visit visit)
    {
        while (fill() && next().transition <= last) {
            visit(static_cast<const StreamedAccess &>(next()));
            ++m_position;
        }
    }
    // The transition of the next access not handed over; false at the end.
    bool nextTransition(std::uint64_t *transition)
    {
        if (!fill())
            return false;
        *transition = next().transition;
        return true;
    }
    std::uint64_t count() const { return m_count; }
    // A database error ended the cursor early (its message), or empty.
    const QString &error() const { return m_error; }

private:
    const StreamedAccess &next() const { return m_batch[m_position]; }
    // Whether an access is left to hand over (the next batch taken when this one is done).
    bool fill() { return m_position < m_batch.size() || takeBatch(); }
    bool takeBatch();
    void readAhead(); // the reading thread

    std::unique_ptr<HistoryDatabase> m_ownDatabase; // the reading thread's connection
    std::unique_ptr<AccessReader> m_reader;
    bool m_valid = false;

    // Between the reading thread and the walk.
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::vector<StreamedAccess>> m_ready;
    bool m_readerDone = false; // no batch will follow those in m_ready
    bool m_stop = false; // the walk is over: the reading thread ends
    QString m_readerError;
    std::thread m_thread;

    // The walk's side.
    std::vector<StreamedAccess> m_batch;
    std::size_t m_position = 0;
    bool m_ended = false;
    std::uint64_t m_count = 0;
    std::vector<StreamedAccess> m_at;
    QString m_error;
};

} // namespace memhist
