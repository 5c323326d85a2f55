#include "resultsworker.h"

#include "storage/historydatabase.h"
#include "storage/threadspans.h"

#include <algorithm>

namespace memhist {

ResultsWorker::ResultsWorker(std::shared_ptr<const std::atomic<quint64>> latestGeneration)
    : m_latestGeneration(std::move(latestGeneration))
{ }

// Out of line: the members' destructors need the complete types.
ResultsWorker::~ResultsWorker()
{
    // The engine and the thread reader use the database's connection: they go before it.
    m_threads.reset();
    m_engine.reset();
}

bool ResultsWorker::ensureOpen(const QString &historyPath, QString *error)
{
    if (m_database && m_openPath == historyPath)
        return true;
    m_threads.reset();
    m_engine.reset();
    m_database.reset();
    m_openPath.clear();
    m_database = HistoryDatabase::open(historyPath, error);
    if (!m_database)
        return false;
    m_openPath = historyPath;
    m_engine = std::make_unique<HalfAxisQueryEngine>(*m_database);
    m_threads = std::make_unique<ThreadSpans>(*m_database);
    return true;
}

void ResultsWorker::fetchPage(quint64 generation, const QString &historyPath, const HalfAxisQuery &query)
{
    if (generation != m_latestGeneration->load())
        return;

    ResultsPage result;
    result.generation = generation;
    if (!ensureOpen(historyPath, &result.error)) {
        emit pageFetched(result);
        return;
    }
    QueryPage page;
    if (!m_engine->run(query, &page, &result.error)) {
        if (result.error.isEmpty())
            result.error = QStringLiteral("the query failed");
        emit pageFetched(result);
        return;
    }
    result.accesses = std::move(page.accesses);
    result.exhausted = page.exhausted;
    result.threadsAvailable = m_threads->available();
    if (result.threadsAvailable && !result.accesses.isEmpty()) {
        // One read of the spans under the whole page, then a binary search per row: spans of one
        // timeline never overlap, so the first span ending at or after T is the only candidate.
        const auto [lowest, highest] = std::minmax_element(result.accesses.cbegin(), result.accesses.cend(),
            [](const Access &a, const Access &b) { return a.transition < b.transition; });
        const QList<ThreadSpan> spans = m_threads->spansBetween(lowest->transition, highest->transition);
        result.threads.reserve(result.accesses.size());
        for (const Access &access : std::as_const(result.accesses)) {
            const auto span = std::lower_bound(spans.cbegin(), spans.cend(), access.transition,
                [](const ThreadSpan &s, Transition t) { return s.last < t; });
            const bool covered = span != spans.cend() && span->first <= access.transition;
            result.threads.append(covered ? std::optional<qint64>(span->threadId) : std::nullopt);
        }
    }
    emit pageFetched(result);
}

} // namespace memhist
