// SPDX-License-Identifier: MIT
// The background half of ResultsModel: lives in the model's ConnectionThread and owns that thread's
// connection (one connection per thread) and query engine. Internal to widgets/query.
#pragma once

#include "core/query/halfaxisquery.h"
#include "core/query/resultsize.h"
#include "core/search/valuesearch.h"
#include "widgets/common/connectionthread.h"

#include <QList>
#include <QString>
#include <memory>
#include <optional>

namespace memhist {

class ContextColumns;
class ContextReader;
class HistoryDatabase;
class ThreadSpans;

// One page of results, or the reason there is none.
struct ResultsPage
{
    QList<Access> accesses;
    // Parallel to accesses when the history records threads; empty otherwise.
    QList<std::optional<qint64>> threads;
    // Parallel to accesses when the history has program context: the cells of ContextColumns (pc,
    // function, source, instruction, region, and value when valuesAvailable), as `memhist query
    // --context` prints them; empty otherwise.
    QList<QStringList> context;
    bool exhausted = false;
    bool threadsAvailable = false;
    bool contextAvailable = false;
    bool valuesAvailable = false;
    // The context columns (ContextColumns::names()) the history's context tables can fill: a
    // drmemtrace import without modules has PCs and disassembly but no function, source or region.
    QList<QByteArray> contextColumnsWithData;
    // The page's query walked the result from its end (PageRequest::walksFromEnd): it met the
    // result's first row (the rows before it are dropped) or the history's edge.
    bool reachedStart = false;
    // The size of the whole result, when asked for (PageRequest::withSize).
    std::optional<ResultSize> size;
    QString error; // non-empty: the query failed, nothing else is valid
};

// What a page is, beyond its query.
struct PageRequest
{
    memhist::HalfAxisQuery query;
    // Set: `query` walks the result of this query the other way (reversedFromEnd() or resumed from a
    // row): rows before its start point are dropped, and the page comes in this query's order.
    std::optional<memhist::HalfAxisQuery> walksFromEnd;
    // Estimate the size of the result (of `query`, its first page being this one).
    bool withSize = false;
};

class ResultsWorker : public ConnectionWorker
{
public:
    ResultsWorker();
    ~ResultsWorker() override;

    // Runs in the worker thread. Opens `historyPath` if it is not the open one, then runs `query`,
    // or, with `search`, the value search with `query` as its query (its page and resume point),
    // reporting its progress to `ticket` and stopping when the ticket is cancelled.
    ResultsPage fetchPage(const QString &historyPath, const memhist::PageRequest &request,
        const std::optional<ValueSearch> &search = std::nullopt, const JobTicket &ticket = {});

protected:
    bool openConnection(const QString &path, QString *error) override;
    void closeConnection() override;

private:
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<HalfAxisQueryEngine> m_engine;
    std::unique_ptr<ValueSearchEngine> m_valueSearch;
    std::unique_ptr<ThreadSpans> m_threads;
    std::unique_ptr<ContextReader> m_contextReader; // one per connection: it caches per history
    std::unique_ptr<ContextColumns> m_contextColumns;
};

} // namespace memhist
