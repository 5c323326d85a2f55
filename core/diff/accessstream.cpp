// SPDX-License-Identifier: MIT
#include "accessstream.h"

#include "core/diff/diffstatements.h"

namespace memhist {

AccessStream::AccessStream(HistoryDatabase &database)
{
    QString ignored;
    m_ownDatabase = HistoryDatabase::open(database.path(), &ignored);
    if (m_ownDatabase && !m_ownDatabase->connection().execute(diffstatements::accessReaderPragmas))
        m_ownDatabase.reset();
    m_reader = std::make_unique<AccessReader>(m_ownDatabase ? m_ownDatabase->connection() : database.connection());
    m_valid = m_reader->isValid();
    // The statements are prepared here; from now on only the reading thread uses its connection.
    if (m_valid && m_ownDatabase)
        m_thread = std::thread([this] { readAhead(); });
}

AccessStream::~AccessStream()
{
    if (m_thread.joinable()) {
        {
            const std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
}

void AccessStream::readAhead()
{
    for (;;) {
        std::vector<StreamedAccess> batch;
        batch.reserve(batchSize);
        const bool more = m_reader->read(&batch, batchSize);
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_stop || m_ready.size() < maxBatches; });
        if (m_stop)
            return;
        if (!batch.empty())
            m_ready.push_back(std::move(batch));
        if (!more) {
            m_readerDone = true;
            m_readerError = m_reader->error();
        }
        lock.unlock();
        m_changed.notify_all();
        if (!more)
            return;
    }
}

bool AccessStream::takeBatch()
{
    while (!m_ended) {
        m_batch.clear();
        m_position = 0;
        if (!m_thread.joinable()) {
            // No connection of its own: read on this thread.
            if (!m_valid || !m_reader->read(&m_batch, batchSize)) {
                m_ended = true;
                if (m_valid)
                    m_error = m_reader->error();
            }
        } else {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [this] { return m_readerDone || !m_ready.empty(); });
            if (!m_ready.empty()) {
                m_batch = std::move(m_ready.front());
                m_ready.pop_front();
            } else {
                m_ended = true;
                m_error = m_readerError;
            }
            lock.unlock();
            m_changed.notify_all();
        }
        m_count += m_batch.size();
        if (!m_batch.empty())
            return true;
    }
    return false;
}

} // namespace memhist
