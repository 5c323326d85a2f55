// SPDX-License-Identifier: MIT
// The viewer's main window: the transition x address plane in the middle, the query results, the
// charts and the SQL console in tabbed docks below, the menus, the toolbar and the status bar. The
// jobs that feed them (open, import, record) run off the GUI thread in a JobController; the
// toolbar's click-to-query section is a ClickQueryControls.
#pragma once

#include "clickquery.h"
#include "historyinfo.h"
#include "importdialog.h"

#include <QMainWindow>
#include <optional>

class QDockWidget;
class QKeyEvent;
class QTimer;

namespace memhist {
class ChartsPanel;
class DetailPane;
class DiffPanel;
class MemoryPane;
class PlaneWidget;
class QueryPanel;
class SqlConsole;
} // namespace memhist

namespace memhist::viewer {

class ClickQueryControls;
class Comparison;
class JobController;
class MessageLog;
class StatusPanel;
class JobProgressWidget;
class Navigator;
class RecentFiles;
struct RecordRequest;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // The bottom tabs, in tab order (View ▸ Results is Ctrl+1, …, View ▸ Log Ctrl+6, View ▸
    // Differences Ctrl+8).
    enum class Panel {
        Results,
        Charts,
        Sql,
        Executions,
        Bookmarks,
        Log,
        Differences,
    };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // A .memhist (recognised by the SQLite magic, whatever its name) opens; anything else is taken
    // for a trace and imported, without asking where the history goes (beside the trace).
    void openPath(const QString &path);
    // Opens a history read-only; its summary is read in the background, then the panels load it.
    void openHistory(const QString &path);
    // Imports `traces` (files or trace directories) in the background into one history, in order,
    // then opens it. Asks for the output path first when `askForOutput` (and the window is
    // interactive), else writes beside the first trace (see importoutput.h).
    void importTraces(const QStringList &traces, bool askForOutput);
    // Runs `memhist record` in the background, then opens what it recorded. An existing output is
    // replaced only with `request.replaceConfirmed` (see JobController::record()).
    void record(const RecordRequest &request);
    // File ▸ Compare With… once the file is chosen: compares the open history (A, the top plane)
    // with `path` (B, drawn below it) off the GUI thread, into the Differences tab (comparison.h).
    // Compares the open history with `path`, leaving out what differs between it and `baseline`
    // (a second run of the open history's input) when one is given.
    void compareWith(const QString &path, const QString &baseline = {});
    // File ▸ Close Comparison: B's plane and the Differences tab go (so they do when another
    // history opens).
    void closeComparison();
    // The `memhist` command line that record() runs. Empty (the default) means findMemhistCli():
    // beside memhist-viewer or in PATH; tests name the one in their build tree.
    void setMemhistCli(const QString &path);
    QString memhistCli() const;

    // What a dropped set of local files does: one history opens, traces import. Public for tests.
    void handleDroppedPaths(const QStringList &paths);

    // Interactive windows ask where imports go and confirm with dialogs; tests and screenshots turn
    // this off.
    void setInteractive(bool interactive);
    bool isInteractive() const { return m_interactive; }

    QString historyPath() const { return m_historyPath; }
    const std::optional<HistoryInfo> &historyInfo() const { return m_info; }
    // The status line's description of the open history (describeHistory()).
    QString summaryText() const;
    QString hoverText() const;
    // The warnings of the import that made the open history; empty for any other. Shown in the
    // status line until another history opens, and kept in the Log panel.
    QStringList importWarnings() const;
    // The last error shown to the user (also in a message box), for tests and scripts.
    QString lastError() const { return m_lastError; }
    bool isJobRunning() const;

    ClickQuerySettings clickQuerySettings() const;
    void setClickQuerySettings(const ClickQuerySettings &settings);
    // What a click on the plane at (transition, address) does: run its query in the query panel.
    void runClickQuery(
        Transition transition, Address address, const std::optional<Access> &access, Qt::KeyboardModifiers modifiers);

    void showPanel(Panel panel);

    PlaneWidget *plane() const { return m_plane; }
    // The second history's plane, below the first while a comparison is open (hidden otherwise).
    PlaneWidget *comparedPlane() const { return m_comparedPlane; }
    DiffPanel *diffPanel() const { return m_diffPanel; }
    Comparison *comparison() const { return m_comparison; }
    QueryPanel *queryPanel() const { return m_queryPanel; }
    ChartsPanel *chartsPanel() const { return m_chartsPanel; }
    SqlConsole *sqlConsole() const { return m_sqlConsole; }
    // The Go menu: steps to the previous/next write or read, go to, executions, bookmarks.
    Navigator *navigator() const { return m_navigator; }
    DetailPane *detailPane() const { return m_detailPane; }
    // The memory after the position line's transition, beside the Detail pane.
    MemoryPane *memoryPane() const { return m_memoryPane; }
    // Shows the Memory pane (a tab behind the Detail pane).
    void showMemoryPane();
    // Find Value… (Ctrl+F): asks for a value, then runs its search into the Results tab.
    void showFindValue();
    // Accesses by Function… (Ctrl+Shift+F): its dialog, then the query into the Results tab.
    void showFunctionAccesses();
    MessageLog *messageLog() const { return m_log; }
    // Help ▸ Mouse and Keys (not modal: the user tries the keys with the page open).
    void showMouseAndKeys();
    // Help ▸ Keyboard Shortcuts: the menus' keys, editable (see shortcutsdialog.h).
    void showShortcuts();
    // View ▸ Next Pane (Ctrl+Tab, step 1) / Previous Pane (Ctrl+Shift+Tab, step -1): the focus to
    // the next visible pane in panes()' order, into its rows or first field.
    void focusPane(int step);
    // The plane, then the docks shown (the front tab of each group), in the order Ctrl+Tab visits.
    QList<QWidget *> panes() const;

signals:
    void historyOpened(const QString &path);
    void importFinished(bool ok, const QString &message);
    void recordFinished(bool ok, const QString &message);
    void errorShown(const QString &message);

protected:
    bool event(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createPanels();
    void createActions();
    // Back, Forward, Home, Zoom In and Zoom Out: window-wide keys (the plane need not have focus).
    void createNavigationActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    void connectPanels();
    void connectOriginTree();
    void connectMemoryPane();
    void restoreSettings();
    // The first layout (no saved one): the results table shows up to 8 rows in at most 40 % of the
    // window's height, the plane gets the rest. Fitted again when the window is resized, until the
    // user moves a dock separator.
    void fitFirstLayout(int pass);

    void openInteractively();
    void importInteractively();
    void importDirectoryInteractively();
    void recordInteractively();
    // The history to compare the open one with, as the user picks it (empty: cancelled).
    QString askForComparedHistory();
    void compareInteractively();
    void compareWithBaselineInteractively();
    // The plane Back, Forward, Home and the zoom keys act on.
    PlaneWidget *activePlane() const;
    void updateCompareActions();
    void showAbout();
    // What a pane's key in the View menu does: open `dock`, bring it to the front and focus it; hide
    // it when the focus is in it already.
    void togglePane(QDockWidget *dock);
    void focusInPane(QWidget *pane);
    // Shown and in front of its tab group.
    static bool isInFront(const QDockWidget *dock);
    // A key a text field of the window would take (shortcut override) that runs the window's
    // action instead (see eventFilter()).
    bool windowKeyWins(const QKeyEvent &key) const;

    // A history's summary has been read: the panels load it. The status line then says
    // `openedStatus` when given (a recording's summary must outlive the open), else "Opened …".
    void historyReady(const QString &path, const HistoryInfo &info, const QString &openedStatus);
    // Where an interactive import goes (empty: the user cancelled).
    std::optional<ImportChoice> chooseImport(const QStringList &traces, const QString &suggested);
    void updateNavigation();
    void showError(const QString &title, const QString &message);
    void showStatus(const QString &message);

    PlaneWidget *m_plane = nullptr;
    PlaneWidget *m_comparedPlane = nullptr;
    DiffPanel *m_diffPanel = nullptr;
    Comparison *m_comparison = nullptr;
    QDockWidget *m_differencesDock = nullptr;
    QueryPanel *m_queryPanel = nullptr;
    ChartsPanel *m_chartsPanel = nullptr;
    SqlConsole *m_sqlConsole = nullptr;
    DetailPane *m_detailPane = nullptr;
    MemoryPane *m_memoryPane = nullptr;
    QDockWidget *m_resultsDock = nullptr;
    QDockWidget *m_chartsDock = nullptr;
    QDockWidget *m_sqlDock = nullptr;
    Navigator *m_navigator = nullptr;
    QDockWidget *m_executionsDock = nullptr;
    QDockWidget *m_bookmarksDock = nullptr;
    QDockWidget *m_detailDock = nullptr;
    QDockWidget *m_memoryDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    MessageLog *m_log = nullptr;

    QAction *m_openAction = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_importDirectoryAction = nullptr;
    QAction *m_recordAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_compareWithBaselineAction = nullptr;
    QAction *m_closeComparisonAction = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_backAction = nullptr;
    QAction *m_forwardAction = nullptr;
    QAction *m_homeAction = nullptr;
    QAction *m_zoomInAction = nullptr;
    QAction *m_zoomOutAction = nullptr;
    ClickQueryControls *m_clickControls = nullptr;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    RecentFiles *m_recentFiles = nullptr;

    StatusPanel *m_status = nullptr;
    JobProgressWidget *m_jobProgress = nullptr;
    JobController *m_jobs = nullptr;

    QString m_historyPath;
    std::optional<HistoryInfo> m_info;
    // The warnings of the import running or just done, for the history it writes.
    QString m_warnedHistory;
    QStringList m_pendingWarnings;
    QString m_lastError;
    bool m_interactive = true;
    bool m_layoutRestored = false;
    bool m_firstLayoutDone = false;
    int m_firstLayoutRequest = 0;
    // The user pressed on a dock separator: the layout is theirs, no longer refitted on resize.
    bool m_layoutAdjusted = false;
    QTimer *m_refitTimer = nullptr;
};

} // namespace memhist::viewer
