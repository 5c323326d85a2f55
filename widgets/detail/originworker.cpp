// SPDX-License-Identifier: MIT
#include "widgets/detail/originworker.h"

#include "core/storage/historydatabase.h"

namespace memhist {

OriginWorker::OriginWorker() = default;

// Out of line: the members' destructors need the complete types.
OriginWorker::~OriginWorker()
{
    closeConnection();
}

bool OriginWorker::openConnection(const QString &path, QString *error)
{
    m_database = HistoryDatabase::open(path, error);
    if (!m_database)
        return false;
    m_finder = std::make_unique<OriginFinder>(*m_database);
    return true;
}

void OriginWorker::closeConnection()
{
    // The finder's statements use the database's connection: it goes before it.
    m_finder.reset();
    m_database.reset();
}

OriginResult OriginWorker::find(const QString &historyPath, const Access &root, Direction direction)
{
    OriginResult result;
    result.root = root;
    result.direction = direction;
    if (!ensureOpen(historyPath, &result.error))
        return result;
    result.hasCode = m_finder->hasCode();
    result.hasValues = m_finder->hasValues();
    OriginRequest request;
    request.row = root.rowId;
    request.direction = direction;
    if (!m_finder->find(request, &result.tree, &result.error))
        return result;
    result.accesses.reserve(result.tree.hops.size());
    for (const OriginHop &hop : std::as_const(result.tree.hops))
        result.accesses << (hop.rowId ? m_finder->accessAt(*hop.rowId) : std::nullopt);
    return result;
}

} // namespace memhist
