// The background half of ResultsModel: lives in the model's worker thread and owns that thread's
// connection (one connection per thread) and query engine. Internal to widgets/query.
#pragma once

#include "query/halfaxisquery.h"

#include <QList>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>

namespace memhist {

class HistoryDatabase;
class ThreadSpans;

// One page of results, or the reason there is none.
struct ResultsPage
{
    quint64 generation = 0;
    QList<Access> accesses;
    // Parallel to accesses when the history records threads; empty otherwise.
    QList<std::optional<qint64>> threads;
    bool exhausted = false;
    bool threadsAvailable = false;
    QString error; // non-empty: the query failed, nothing else is valid
};

class ResultsWorker : public QObject
{
    Q_OBJECT

public:
    // `latestGeneration` is written by the GUI thread: a request whose generation is older is stale
    // and skipped without touching the database (the user has moved on).
    explicit ResultsWorker(std::shared_ptr<const std::atomic<quint64>> latestGeneration);
    ~ResultsWorker() override;

    // Runs in the worker thread. Opens `historyPath` if it is not the open one, then runs `query`.
    void fetchPage(quint64 generation, const QString &historyPath, const memhist::HalfAxisQuery &query);

signals:
    void pageFetched(const memhist::ResultsPage &page);

private:
    bool ensureOpen(const QString &historyPath, QString *error);

    std::shared_ptr<const std::atomic<quint64>> m_latestGeneration;
    QString m_openPath;
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<HalfAxisQueryEngine> m_engine;
    std::unique_ptr<ThreadSpans> m_threads;
};

} // namespace memhist

Q_DECLARE_METATYPE(memhist::ResultsPage)
