// SPDX-License-Identifier: MIT
// The query panel: inputs for a half-axis query (T, [A, B], direction, operations), the results as
// an infinitely scrolling table (with the program context of each access, columns the user can
// hide), rows copied as CSV, and the export of the complete result set to CSV.
#pragma once

#include "core/query/halfaxisquery.h"
#include "core/search/valuesearch.h"
#include "widgets/common/jobtracker.h"

#include <QPointer>
#include <QSet>
#include <QWidget>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QPushButton;
class QScrollBar;
class QTableView;
class QToolButton;

namespace memhist {

class ResultsModel;
class ThreadFilter;

class QueryPanel : public QWidget
{
    Q_OBJECT

public:
    explicit QueryPanel(QWidget *parent = nullptr);
    ~QueryPanel() override;

    // Opens `path` (read-only, in the results model's worker thread) and runs the default query:
    // reads and writes, forward from transition 0, every address.
    void setHistory(const QString &path);
    QString history() const { return m_historyPath; }
    // Whether setHistory() runs the default query (true, the default) or leaves the table empty,
    // its status line saying how to start one: the viewer's window, where a query of everything
    // would scatter meaningless markers over the plane.
    void setRunsDefaultQuery(bool run) { m_runsDefaultQuery = run; }
    // A query has run (or runs) on the current history.
    bool hasQuery() const { return m_hasQuery; }

    // Shows `query` in the inputs and runs it. A resume point (the results start next to a row, as
    // after a click on an access or a step of the Go menu) shows beside the transition as "starting
    // at row N" and stays part of the inputs' query, so that Run runs the same query again, until the
    // user edits the transition or the direction. `noRowsHint` (e.g. "zoom in, or widen …") ends the
    // status line's explanation when the query matches nothing.
    // A function filter (query.function, Accesses by Function…) shows beside the operations as
    // "by fill" / "while fill ran" with a ✕ that lifts it and runs again; it stays part of the
    // inputs' query until then.
    void runQuery(const memhist::HalfAxisQuery &query, const QString &noRowsHint = {});
    // Runs a value search (Find Value) into the table: its query's inputs shown, its matches paged
    // as a query's, its progress in the status line beside a Stop button. Export stays off while
    // the table holds a search's matches (it writes queries). Run, or any other query, ends it.
    void runValueSearch(const memhist::ValueSearch &search);
    // The value search whose matches the table shows, if it shows one.
    std::optional<memhist::ValueSearch> valueSearch() const { return m_valueSearch; }
    // The query whose results the table shows (and Export writes); the default query before any run.
    memhist::HalfAxisQuery currentQuery() const { return m_currentQuery; }
    // The query the inputs describe (what Run would run), or nothing when they do not parse.
    std::optional<memhist::HalfAxisQuery> inputsQuery() const;

    // Makes the loaded row of access `rowId` the current row, selected as a click selects it (the
    // whole row, alone) and scrolled into view. False when no loaded row holds that access.
    bool selectAccessRow(memhist::RowId rowId);

    // "Export CSV…": asks for a file, then writes every match of currentQuery() (not only the
    // loaded rows), its progress ("Exporting to FILE… N rows written") in the status line beside a
    // Cancel button (and Esc). Disabled while there is no history, an export runs, or the query
    // matched nothing. The file dialog's type chooses the columns (ExportColumnsChoice).
    QAction *exportAction() const { return m_exportAction; }
    // The columns an export writes: those the table can show — the six, the thread where the
    // history records threads, the context where it has context (as `memhist export --thread-column
    // --context`) — or the plain rows: the six and the thread, as `memhist export --thread-column`.
    enum class ExportColumnsChoice { AsTheTable, PlainRows };
    // Writes every match of currentQuery() to `csvPath` in the background, without any dialog;
    // exportFinished reports the outcome.
    void exportTo(const QString &csvPath, ExportColumnsChoice columns = ExportColumnsChoice::AsTheTable);
    // The save dialog's file types, in its order: the table's columns (the default), plain rows.
    static QStringList exportFileFilters();
    // Stops the running export (what its Cancel button and Esc do): nothing is left at its path and
    // exportFinished reports false.
    void cancelExport();
    bool isExporting() const { return m_export.isRunning(); }

    // "Go to Row…" (Ctrl+L): asks for a row of the results (1 to their size) and shows it, however
    // far it is, without loading the rows between; goToRow() without the dialog. A row past the end
    // shows the last.
    QAction *goToRowAction() const { return m_goToRowAction; }
    void goToRow(qint64 row);
    // The table's scroll bar: it spans the whole result (ResultsModel::resultSize()), not the rows
    // loaded; dragging it, paging with it or Ctrl+End / Ctrl+Home in the table moves the model's
    // window there (ResultsModel::showPosition(), showEnd()) when the rows are not loaded.
    QScrollBar *resultScrollBar() const { return m_resultScrollBar; }

    ResultsModel *resultsModel() const { return m_model; }
    QTableView *resultsView() const { return m_view; }

    // Whether the user wants `column` of ResultsModel shown (the header's context menu); remembered
    // in QSettings across runs. A column the history has nothing for (thread, context, value) stays
    // hidden whatever the choice.
    bool isColumnWanted(int column) const;
    void setColumnWanted(int column, bool wanted);
    // The header's context menu: one checkable action per column (objectName "column-KEY", e.g.
    // "column-function"), those the history has nothing for disabled. The caller owns it.
    QMenu *createColumnsMenu(QWidget *parent);

    // "Copy" (Ctrl+C in the table): the selected rows, in row order, as CSV with a header line:
    // the visible columns, in the table's order, named and formatted as the export writes them.
    QAction *copyAction() const { return m_copyAction; }
    QByteArray selectedRowsAsCsv() const;
    void copySelectedRows();

    // The thread chosen in the inputs: queries made elsewhere (click queries) take it with applyTo().
    ThreadFilter *threadFilter() const { return m_threadFilter; }

signals:
    // The current row of the results changed; nothing when no row is current.
    void accessSelected(std::optional<memhist::Access> access);
    // Every row loaded so far for the current query (after each page, and empty when a query starts).
    void resultsChanged(const QList<memhist::Access> &loadedSoFar);
    void exportFinished(bool ok, const QString &message);
    // For the window's status line: "Exporting to FILE…" at once when an export starts, its rows
    // written as they go, then its outcome when it succeeded or was cancelled.
    void exportStatusChanged(const QString &message);
    // The export failed (not cancelled): `message` says why.
    void exportFailed(const QString &message);

private:
    struct ExportOutcome
    {
        bool ok = false;
        qint64 rows = 0;
        QString message;
    };

    bool m_runsDefaultQuery = true;
    bool m_hasQuery = false;
    std::optional<memhist::ValueSearch> m_valueSearch;
    double m_searchProgress = 0;
    QAction *m_stopSearchAction = nullptr;
    QToolButton *m_stopSearchButton = nullptr;

    void buildLayout();
    void runFromInputs();
    void fillInputs(const HalfAxisQuery &query);
    // The query the inputs describe, or nothing and an explanation for the inline message.
    std::optional<HalfAxisQuery> queryFromInputs(QString *error) const;
    void showInputError(const QString &message);
    void updateStatus();
    void updatePlaceholders();
    void exportInteractively();
    void startExport(const QString &csvPath, ExportColumnsChoice columns);
    void finishExport(const ExportOutcome &outcome);
    void updateColumnVisibility();
    void updateResumeLabel();
    void dropResumePoint();
    void updateFunctionLabel();
    void startQuery(const HalfAxisQuery &query, const QString &noRowsHint);
    // The result's scroll bar follows the window and the table's own position in it.
    void syncResultScrollBar();
    void scrollResultsTo(int position);
    void askForRow();
    // Ctrl+End / Ctrl+Home in the table when the end / the start is not loaded: true when handled.
    bool jumpKey(int key, Qt::KeyboardModifiers modifiers);
    void showJumped();
    int visibleRows() const;
    // "Rows 1 to 500 of 100,000,000", with "≈" where a number is an estimate.
    QString windowText() const;
    enum class AfterJump { Nothing, SelectFirst, SelectLast, SelectTop, ShowBottom };
    AfterJump m_afterJump = AfterJump::Nothing;
    QString noRowsText() const;

    QString m_historyPath;
    HalfAxisQuery m_currentQuery;
    QString m_noRowsHint; // of m_currentQuery
    // The resume point the inputs show (the results start next to that row): part of their query.
    std::optional<RowId> m_inputsResumeAfter;
    // The function filter the inputs show (set by runQuery, lifted by its ✕): part of their query.
    FunctionFilter m_inputsFunction;
    QLabel *m_functionLabel = nullptr;
    QToolButton *m_clearFunctionButton = nullptr;
    ResultsModel *m_model = nullptr;
    bool m_columnsSized = false;
    bool m_hadCurrentRow = false;

    QLineEdit *m_transitionEdit = nullptr;
    QComboBox *m_directionCombo = nullptr;
    QLabel *m_resumeLabel = nullptr;
    QLineEdit *m_firstAddressEdit = nullptr;
    QLineEdit *m_lastAddressEdit = nullptr;
    QCheckBox *m_readsCheck = nullptr;
    QCheckBox *m_writesCheck = nullptr;
    QCheckBox *m_executesCheck = nullptr;
    ThreadFilter *m_threadFilter = nullptr;
    QPushButton *m_runButton = nullptr;
    QLabel *m_inputErrorLabel = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_statusLabel = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_goToRowAction = nullptr;
    QScrollBar *m_resultScrollBar = nullptr;
    QSet<QByteArray> m_unwantedColumns; // keys (ResultsModel::columnKey) the user hid

    // The export in flight. Its row count reaches the status line at most 10 times a second however
    // fast rows go.
    JobTracker m_export { this };
    bool m_exportCancelRequested = false;
    QAction *m_cancelExportAction = nullptr;
    QToolButton *m_cancelExportButton = nullptr;
    QString m_exportPath;
    QString m_exportHistory; // the history the running (or last) export reads
    QString m_lastExportMessage;
};

} // namespace memhist
