#include "widgets/query/resultsworker.h"

#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"

#include <algorithm>

namespace memhist {

ResultsWorker::ResultsWorker() = default;

// Out of line: the members' destructors need the complete types.
ResultsWorker::~ResultsWorker()
{
    closeConnection();
}

bool ResultsWorker::openConnection(const QString &path, QString *error)
{
    m_database = HistoryDatabase::open(path, error);
    if (!m_database)
        return false;
    m_engine = std::make_unique<HalfAxisQueryEngine>(*m_database);
    m_threads = std::make_unique<ThreadSpans>(*m_database);
    return true;
}

void ResultsWorker::closeConnection()
{
    // The engine and the thread reader use the database's connection: they go before it.
    m_threads.reset();
    m_engine.reset();
    m_database.reset();
}

ResultsPage ResultsWorker::fetchPage(const QString &historyPath, const HalfAxisQuery &query)
{
    ResultsPage result;
    if (!ensureOpen(historyPath, &result.error))
        return result;
    QueryPage page;
    if (!m_engine->run(query, &page, &result.error)) {
        if (result.error.isEmpty())
            result.error = QStringLiteral("the query failed");
        return result;
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
    return result;
}

} // namespace memhist
