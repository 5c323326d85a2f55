// SPDX-License-Identifier: MIT
#include "widgets/detail/detailworker.h"

#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"

namespace memhist {

DetailWorker::DetailWorker() = default;

// Out of line: the members' destructors need the complete types.
DetailWorker::~DetailWorker()
{
    closeConnection();
}

bool DetailWorker::openConnection(const QString &path, QString *error)
{
    m_database = HistoryDatabase::open(path, error);
    if (!m_database)
        return false;
    m_reader = std::make_unique<ContextReader>(*m_database);
    m_threads = std::make_unique<ThreadSpans>(*m_database);
    setInterruptible(m_database->connection().handle());
    return true;
}

void DetailWorker::closeConnection()
{
    // The readers use the database's connection: they go before it.
    setInterruptible(nullptr);
    m_threads.reset();
    m_reader.reset();
    m_database.reset();
}

AccessDetail DetailWorker::read(const QString &historyPath, const Access &access)
{
    AccessDetail detail;
    detail.access = access;
    if (!ensureOpen(historyPath, &detail.error))
        return detail;
    return readAccessDetail(*m_reader, *m_threads, access);
}

} // namespace memhist
