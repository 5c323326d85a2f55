// The background half of ResultsModel: lives in the model's ConnectionThread and owns that thread's
// connection (one connection per thread) and query engine. Internal to widgets/query.
#pragma once

#include "core/query/halfaxisquery.h"
#include "widgets/common/connectionthread.h"

#include <QList>
#include <QString>
#include <memory>
#include <optional>

namespace memhist {

class HistoryDatabase;
class ThreadSpans;

// One page of results, or the reason there is none.
struct ResultsPage
{
    QList<Access> accesses;
    // Parallel to accesses when the history records threads; empty otherwise.
    QList<std::optional<qint64>> threads;
    bool exhausted = false;
    bool threadsAvailable = false;
    QString error; // non-empty: the query failed, nothing else is valid
};

class ResultsWorker : public ConnectionWorker
{
public:
    ResultsWorker();
    ~ResultsWorker() override;

    // Runs in the worker thread. Opens `historyPath` if it is not the open one, then runs `query`.
    ResultsPage fetchPage(const QString &historyPath, const memhist::HalfAxisQuery &query);

protected:
    bool openConnection(const QString &path, QString *error) override;
    void closeConnection() override;

private:
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<HalfAxisQueryEngine> m_engine;
    std::unique_ptr<ThreadSpans> m_threads;
};

} // namespace memhist
