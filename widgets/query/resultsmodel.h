// SPDX-License-Identifier: MIT
// The results of one half-axis query as an infinite table: pages of accesses are fetched in a
// worker thread (its own connection and engine), resumed by rowid, and appended as they arrive.
// The rows held are a window of the result: it starts at the result's first row, and moves to any
// row of a result of any size without loading the rows between (showEnd(), showPosition()), growing
// from there both ways (fetchMore(), fetchPrevious()). The result's size comes with the first page:
// exact when the engine can count it, an estimate otherwise (isResultSizeExact()).
#pragma once

#include "core/query/halfaxisquery.h"
#include "core/query/resultsize.h"
#include "core/search/valuesearch.h"

#include <QAbstractTableModel>
#include <QList>
#include <memory>
#include <optional>

namespace memhist {

template<typename Worker> class ConnectionThread;
class ResultsWorker;
struct ResultsPage;
struct PageRequest;

class ResultsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Columns {
        RowIdColumn,
        TransitionColumn,
        OperationColumn,
        AddressColumn,
        LinearColumn,
        SizeColumn,
        // Empty for every row when the history has no thread_spans table (hasThreads() is false);
        // views hide it then.
        ThreadColumn,
        // The program context, as `memhist query --context` prints it (ContextColumns): empty for
        // every row when the history has no context tables (hasContext() is false), each when the
        // tables it comes from are missing (a history with PCs and disassembly only has no
        // function, source or region), and the value when it has no values (hasValues() is false);
        // views hide them then (hasColumnData()).
        PcColumn,
        FunctionColumn,
        SourceColumn,
        InstructionColumn,
        RegionColumn,
        ValueColumn,
        BeforeColumn, // a write's overwritten bytes, where the history knows them
        ColumnCount
    };
    enum Roles {
        // The row's memhist::Access, in a QVariant.
        AccessRole = Qt::UserRole + 1,
        // The cell as the CSV export writes it (QByteArray, RFC 4180-quoted where needed); in
        // headerData, the column's CSV name ("rowid", "thread", "pc").
        CsvRole,
    };

    explicit ResultsModel(QObject *parent = nullptr);
    ~ResultsModel() override;

    // Drops the rows and the query; nothing is loaded until setQuery().
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }

    // Starts over (a new generation: pages still in flight for the previous query are dropped) and
    // requests the first page. query.limit is ignored: rows come in pages of pageSize().
    void setQuery(const memhist::HalfAxisQuery &query);
    std::optional<memhist::HalfAxisQuery> query() const { return m_query; }
    // Starts over with the accesses of a value search instead (core/search/valuesearch.h), paged,
    // resumed and ordered as a query's (query() is then the search's query). Each page reports its
    // progress (searchProgress) and may be stopped (cancelSearch()).
    void setValueSearch(const memhist::ValueSearch &search);
    std::optional<memhist::ValueSearch> valueSearch() const { return m_valueSearch; }
    // Stops the value search's page in flight: the rows loaded stay, no more are fetched
    // (searchCancelled).
    void cancelSearch();
    bool isCancelled() const { return m_cancelled; }

    // Rows per page, 500 unless set. Takes effect at the next request.
    void setPageSize(int rows);
    int pageSize() const { return m_pageSize; }

    // A page has been requested and has not arrived yet.
    bool isLoading() const { return m_loading; }
    // Every matching row is loaded.
    bool isExhausted() const { return m_exhausted; }
    // The last request failed (queryFailed was emitted); nothing more is fetched until setQuery().
    bool hasFailed() const { return m_failed; }
    // The history records which thread ran each transition.
    bool hasThreads() const { return m_hasThreads; }
    // The history has program context tables / the bytes of its accesses.
    bool hasContext() const { return m_hasContext; }
    bool hasValues() const { return m_hasValues; }
    // The column has something to show for this history (the thread, context and value columns
    // depend on the history's optional tables, each context column on the tables it comes from; the
    // others always do).
    bool hasColumnData(int column) const;
    // The column's stable name, for settings and CSV ("rowid", "transition", ..., "value").
    static QByteArray columnKey(int column);

    // `rows` (in this order) as CSV: a header line and one line per row, each of `columns` in
    // order, as the export formats them (the six of DESIGN.md §3, then thread, then the context).
    QByteArray rowsAsCsv(const QList<int> &rows, const QList<int> &columns) const;

    // The window. Its rows are at positions windowStart() .. windowStart() + rowCount() - 1 of the
    // result (0-based, in the query's order); an estimate when arePositionsExact() is false (after a
    // jump into a result whose size is an estimate, until the window grows back to the first row).
    qint64 windowStart() const { return m_windowStart; }
    bool arePositionsExact() const { return m_positionsExact; }
    // The window holds the result's first row (isExhausted(): its last row).
    bool isAtStart() const { return m_atStart; }
    // The rows of the whole result: 0 until the first page arrives, then its rows (one more while
    // more may come), then, soon after (resultSizeChanged()), exact or estimated; a value search's
    // size stays its rows loaded, one more while more may come. Updated as the window learns
    // more (an end reached earlier or later than estimated).
    qint64 resultSize() const { return m_resultSize; }
    bool isResultSizeExact() const { return m_resultSizeExact; }

    // The window can move without loading the rows between: a query's result (not a value search),
    // once its size is known (resultSizeChanged()).
    bool canJump() const;
    // Replace the window (a reset, then jumped() when its page has arrived) by the result's last
    // page (the query run the other way from the end), its first page, or the page starting at
    // `position` (0-based; found from the result's size, exactly when the size is exact). Each
    // overtakes a page in flight.
    void showEnd();
    void showStart();
    void showPosition(qint64 position);
    // Grows the window by a page before its first row (rows inserted at 0, then rowsPrepended()).
    bool canFetchPrevious() const;
    void fetchPrevious();

    QList<memhist::Access> loadedAccesses() const { return m_accesses; }
    memhist::Access accessAt(int row) const { return m_accesses.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    // Only schedules the next page; rows are inserted when it arrives. Calls while a page is in
    // flight do nothing, so a view scrolled to the end never queues the same page twice.
    void fetchMore(const QModelIndex &parent) override;

signals:
    void pageLoaded(int rowsSoFar, bool exhausted);
    // How far the value search's page in flight is (0..1), at most ten times a second.
    void searchProgress(double fraction);
    // The value search stopped at cancelSearch(); `rowsSoFar` stay.
    void searchCancelled(int rowsSoFar);
    void queryFailed(const QString &message);
    // The rows of the page just inserted (e.g. for the plane to mark them).
    void accessesAppended(const QList<memhist::Access> &accesses);
    // The window moved (showEnd(), showStart(), showPosition()) and holds its first page.
    void jumped();
    // `count` rows were inserted before the first (fetchPrevious()).
    void rowsPrepended(int count);
    // resultSize() is known (counted or estimated after the first page): jumps can start.
    void resultSizeChanged();

private:
    enum class PageKind { Next, Previous, End, Position };
    void requestPage();
    void post(PageKind kind, const memhist::PageRequest &request);
    void requestSize();
    void receivePage(PageKind kind, const memhist::ResultsPage &page);
    void startOver(bool loading = false);
    void jump(PageKind kind, qint64 position);
    void insertRows(int at, const memhist::ResultsPage &page);
    // After the window grew or moved: what it now knows of the result's size.
    void updateResultSize();

    // Its own connection and engine; a new query or history supersedes the pages still in flight.
    std::unique_ptr<ConnectionThread<ResultsWorker>> m_thread;

    QString m_historyPath;
    std::optional<HalfAxisQuery> m_query;
    std::optional<ValueSearch> m_valueSearch; // set: the rows are its matches, m_query its query
    bool m_cancelled = false;
    std::optional<RowId> m_resumePoint; // where the next page starts (after the first page)
    std::optional<ResultSize> m_size; // from the first page of a query
    qint64 m_resultSize = 0;
    bool m_resultSizeExact = false;
    qint64 m_windowStart = 0;
    bool m_positionsExact = true;
    bool m_atStart = true;
    qint64 m_jumpPosition = 0; // of the Position page in flight
    int m_pageSize = 500;
    bool m_loading = false;
    bool m_exhausted = false;
    bool m_failed = false;
    bool m_hasThreads = false;
    bool m_hasContext = false;
    bool m_hasValues = false;
    QList<QByteArray> m_contextColumnsWithData; // keys (columnKey) of the context columns with data

    QList<Access> m_accesses;
    QList<std::optional<qint64>> m_threads; // parallel to m_accesses when m_hasThreads
    QList<QStringList> m_context; // parallel to m_accesses when m_hasContext

    QByteArray csvCell(int row, int column) const;
    QString contextCell(int row, int column) const;
};

} // namespace memhist
