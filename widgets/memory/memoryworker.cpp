// SPDX-License-Identifier: MIT
#include "widgets/memory/memoryworker.h"

#include "core/model/numbertext.h"
#include "core/query/halfaxisquery.h"
#include "core/storage/historydatabase.h"

namespace memhist {

MemoryWorker::MemoryWorker() = default;

// Out of line: the members' destructors need the complete types.
MemoryWorker::~MemoryWorker()
{
    closeConnection();
}

bool MemoryWorker::openConnection(const QString &path, QString *error)
{
    m_database = HistoryDatabase::open(path, error);
    if (!m_database)
        return false;
    m_reader = std::make_unique<MemoryReader>(*m_database);
    m_engine = std::make_unique<HalfAxisQueryEngine>(*m_database);
    return true;
}

void MemoryWorker::closeConnection()
{
    // The reader and the engine use the database's connection: they go before it.
    m_engine.reset();
    m_reader.reset();
    m_database.reset();
}

MemoryRead MemoryWorker::probe(const QString &historyPath)
{
    MemoryRead result;
    if (ensureOpen(historyPath, &result.error))
        result.hasValues = m_reader->hasValues();
    return result;
}

MemoryRead MemoryWorker::read(const QString &historyPath, Transition at, Address first, Address last)
{
    MemoryRead result = probe(historyPath);
    result.snapshot.at = at;
    result.snapshot.first = first;
    if (!result.error.isEmpty() || !result.hasValues)
        return result;
    if (!m_reader->read(at, first, last, &result.snapshot.bytes, &result.error))
        result.snapshot.bytes.clear();
    return result;
}

PickedAccess MemoryWorker::accessOf(const QString &historyPath, RowId rowId, Address address, KnownBy knownBy)
{
    PickedAccess result;
    result.knownBy = knownBy;
    if (!ensureOpen(historyPath, &result.error))
        return result;
    HalfAxisQuery query;
    query.resumeAfter = RowId { rowId.value - 1 };
    query.first = address;
    query.last = address;
    query.limit = 1;
    QueryPage page;
    if (!m_engine->run(query, &page, &result.error))
        return result;
    if (page.accesses.isEmpty() || page.accesses.constFirst().rowId != rowId)
        result.error = QStringLiteral("row %1 does not cover %2").arg(rowId.value).arg(hexText(address.value));
    else
        result.access = page.accesses.constFirst();
    return result;
}

} // namespace memhist
