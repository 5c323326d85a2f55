// SPDX-License-Identifier: MIT
#include "widgets/query/resultsworker.h"

#include "core/context/contextcolumns.h"
#include "core/context/contextreader.h"
#include "core/context/contextschema.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"

#include <algorithm>

namespace memhist {

namespace {

// The context columns the parts of `reader` can fill, from where ContextReader takes each cell:
// the PC from the code trace, the function from the functions table, the source line from the line
// tables, the instruction from the instructions table, the region from the data objects, the
// modules' sections or the memory map, the value and before bytes from the access values.
QList<QByteArray> contextColumnsWithData(const ContextReader &reader)
{
    namespace part = contextschema::part;
    QList<QByteArray> columns;
    if (reader.has(part::pcs))
        columns << "pc";
    if (reader.has(part::pcs) && reader.has(part::symbols))
        columns << "function";
    if (reader.has(part::pcs) && reader.has(part::lines))
        columns << "source";
    if (reader.has(part::pcs) && reader.has(part::disassembly))
        columns << "instruction";
    if (reader.has(part::symbols) || reader.has(part::modules) || reader.has(part::map))
        columns << "region";
    if (reader.has(part::values))
        columns << "value"
                << "before";
    return columns;
}

} // namespace

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
    m_valueSearch = std::make_unique<ValueSearchEngine>(*m_database);
    m_threads = std::make_unique<ThreadSpans>(*m_database);
    m_contextReader = std::make_unique<ContextReader>(*m_database);
    if (!m_contextReader->parts().isEmpty())
        m_contextColumns = std::make_unique<ContextColumns>(*m_contextReader);
    return true;
}

void ResultsWorker::closeConnection()
{
    // The engine and the readers use the database's connection: they go before it.
    m_contextColumns.reset();
    m_contextReader.reset();
    m_threads.reset();
    m_valueSearch.reset();
    m_engine.reset();
    m_database.reset();
}

ResultsPage ResultsWorker::fetchPage(const QString &historyPath, const PageRequest &request,
    const std::optional<ValueSearch> &search, const JobTicket &ticket)
{
    const HalfAxisQuery &query = request.query;
    ResultsPage result;
    if (!ensureOpen(historyPath, &result.error))
        return result;
    QueryPage page;
    bool ran = false;
    if (search) {
        ValueSearch paged = *search;
        paged.query = query;
        ran = m_valueSearch->run(paged, &page, &result.error, [&ticket](double done) {
            ticket.report(JobProgress { done, 0, {} });
            return !ticket.cancelled();
        });
    } else {
        ran = m_engine->run(query, &page, &result.error);
    }
    if (!ran) {
        if (result.error.isEmpty())
            result.error = QStringLiteral("the query failed");
        return result;
    }
    if (request.withSize && !search) {
        ResultSize size;
        if (!estimateResultSize(*m_database, *m_engine, query, page, &size, &result.error))
            return result;
        result.size = size;
        result.exhausted = page.exhausted;
        return result; // a size alone: its page's rows went to the view already
    }
    if (request.walksFromEnd) {
        // The walk from the end passes the result's first row: the rows before it are not the result's.
        const qsizetype within = std::find_if(page.accesses.cbegin(), page.accesses.cend(), [&](const Access &access) {
            return !withinStart(*request.walksFromEnd, access);
        }) - page.accesses.cbegin();
        result.reachedStart = page.exhausted || within < page.accesses.size();
        page.accesses.resize(within);
        std::reverse(page.accesses.begin(), page.accesses.end());
    }
    result.accesses = std::move(page.accesses);
    result.exhausted = page.exhausted;
    result.threadsAvailable = m_threads->available();
    result.threads = m_threads->threadsOf(result.accesses);
    if (m_contextColumns) {
        result.contextAvailable = true;
        result.valuesAvailable = m_contextReader->has(contextschema::part::values);
        result.contextColumnsWithData = contextColumnsWithData(*m_contextReader);
        result.context.reserve(result.accesses.size());
        for (const Access &access : std::as_const(result.accesses)) {
            QStringList cells;
            for (const QByteArray &cell : m_contextColumns->cells(access))
                cells << QString::fromUtf8(cell);
            result.context.append(std::move(cells));
        }
    }
    return result;
}

} // namespace memhist
