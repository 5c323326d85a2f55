// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "bookmarkspanel.h"
#include "clickquerycontrols.h"
#include "comparison.h"
#include "core/model/numbertext.h"
#include "executionspanel.h"
#include "filefilters.h"
#include "findvaluedialog.h"
#include "functionaccessesdialog.h"
#include "jobcontroller.h"
#include "jobprogresswidget.h"
#include "messagelog.h"
#include "mouseandkeys.h"
#include "navigator.h"
#include "recentfiles.h"
#include "recorddialog.h"
#include "recordjob.h"
#include "shortcutsdialog.h"
#include "shortcutsettings.h"
#include "statuspanel.h"
#include "traceselection.h"
#include "widgets/charts/chartspanel.h"
#include "widgets/detail/detailpane.h"
#include "widgets/detail/originview.h"
#include "widgets/diff/diffpanel.h"
#include "widgets/memory/memorypane.h"
#include "widgets/plane/planewidget.h"
#include "widgets/query/querypanel.h"
#include "widgets/query/threadfilter.h"
#include "widgets/sql/sqlconsole.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCompleter>
#include <QDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

namespace memhist::viewer {

namespace {

constexpr auto geometryKey = "window/geometry";
constexpr auto stateKey = "window/state";
constexpr auto lastDirectoryKey = "lastDirectory";
// Bumped when the docks change, so a saved layout of an older version is not restored over them.
constexpr int windowStateVersion = 6;
// Rows of the results table in the first layout, and the most of the window's height its dock may
// take: the plane is the main view and keeps the larger share, even in a 700 px high window.
constexpr int firstLayoutRows = 8;
constexpr int firstLayoutMaxPercent = 40;

QIcon applicationIcon()
{
    QIcon icon;
    for (const int size : { 32, 64, 128, 256 })
        icon.addFile(QStringLiteral(":/icons/memhist-%1.png").arg(size), QSize(size, size));
    return icon;
}

QString lastDirectory()
{
    return QSettings().value(QLatin1String(lastDirectoryKey)).toString();
}

void rememberDirectory(const QString &path)
{
    QSettings().setValue(QLatin1String(lastDirectoryKey), QFileInfo(path).absolutePath());
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("memhist viewer"));
    setWindowIcon(applicationIcon());
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    createPanels();
    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    connectPanels();
    // The least size from the docks as they are now (tabbed), not as an activation during their
    // setup saw them (side by side, 1148 px wide): a stale minimum would widen a window sized
    // before it is shown (to a 1024 px screen, or by --size 1024x700) to 1148 px.
    layout()->invalidate();
    layout()->activate();
    restoreSettings();
    updateNavigation();
    // The keys the user chose in Help ▸ Keyboard Shortcuts, over the defaults given above. One
    // chosen before a newer version gave the key to another item makes both silent: the Log says so.
    const QList<ShortcutEntry> entries = shortcutEntries(menuBar());
    applyStoredShortcuts(entries);
    QList<QList<QKeySequence>> keys;
    for (const ShortcutEntry &entry : entries)
        keys << entry.action->shortcuts();
    for (const ShortcutConflict &conflict : shortcutConflicts(entries, keys)) {
        m_log->append(tr("Keyboard shortcut in conflict"),
            tr("%1 is the key of %2: neither runs until one is changed in Help ▸ Keyboard Shortcuts.")
                .arg(conflict.keys.toString(QKeySequence::NativeText), conflict.titles.join(tr(" and "))));
    }
    // Sees the shortcut-override events of the window's text fields (see eventFilter()).
    qApp->installEventFilter(this);
}

MainWindow::~MainWindow() = default;

// --- Building the window -------------------------------------------------------------------------

void MainWindow::createPanels()
{
    m_plane = new PlaneWidget(this);
    m_plane->setObjectName(QStringLiteral("plane"));
    // A compared history's plane below the first one (hidden without a comparison), as tall.
    m_comparedPlane = new PlaneWidget(this);
    m_comparedPlane->setObjectName(QStringLiteral("comparedPlane"));
    // Hidden before the splitter takes it: added visible, it would count in the window's least
    // height (two planes' worth) until the window is shown.
    m_comparedPlane->hide();
    auto *planes = new QSplitter(Qt::Vertical, this);
    planes->setObjectName(QStringLiteral("planeSplitter"));
    planes->setChildrenCollapsible(false);
    planes->addWidget(m_plane);
    planes->addWidget(m_comparedPlane);
    setCentralWidget(planes);

    m_queryPanel = new QueryPanel(this);
    // A history opens with no query: one of everything would scatter meaningless markers. The
    // table's status line says how to start one.
    m_queryPanel->setRunsDefaultQuery(false);
    m_chartsPanel = new ChartsPanel(this);
    m_sqlConsole = new SqlConsole(this);
    m_detailPane = new DetailPane(this);
    m_detailPane->setObjectName(QStringLiteral("detailPane"));
    // Room for a few words per line: the results table, whose columns grow with their texts, would
    // otherwise squeeze it to a word per line. No more, so that the window still fits a 1024 px
    // wide screen beside the query panel (its code scrolls sideways, its lines break between names).
    m_detailPane->setMinimumWidth(fontMetrics().averageCharWidth() * 26);
    m_memoryPane = new MemoryPane(this);
    m_memoryPane->setObjectName(QStringLiteral("memoryPane"));

    const auto makeDock = [this](QWidget *widget, const QString &title, const QString &name) {
        auto *dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(widget);
        dock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea | Qt::LeftDockWidgetArea);
        dock->setFeatures(
            QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
        // The tabs name the panels already; a title bar above each would repeat the name and
        // take a line from the plane. View shows and hides them.
        dock->setTitleBarWidget(new QWidget(dock));
        addDockWidget(Qt::BottomDockWidgetArea, dock);
        // Moved or floated by the user once shown: the layout is theirs (see resizeEvent()).
        const auto adjusted = [this] { m_layoutAdjusted = m_layoutAdjusted || m_firstLayoutDone; };
        connect(dock, &QDockWidget::dockLocationChanged, this, adjusted);
        connect(dock, &QDockWidget::topLevelChanged, this, adjusted);
        return dock;
    };
    m_resultsDock = makeDock(m_queryPanel, tr("Results"), QStringLiteral("resultsDock"));
    // The two charts need about 340 px of height: in a scroll area, so that the tabs' dock (whose
    // least height is its tallest panel's) can leave the plane most of a 700 px high window.
    auto *chartsScroll = new QScrollArea(this);
    chartsScroll->setObjectName(QStringLiteral("chartsScroll"));
    chartsScroll->setWidget(m_chartsPanel);
    chartsScroll->setWidgetResizable(true);
    chartsScroll->setFrameShape(QFrame::NoFrame);
    m_chartsDock = makeDock(chartsScroll, tr("Charts"), QStringLiteral("chartsDock"));
    m_sqlDock = makeDock(m_sqlConsole, tr("SQL Console"), QStringLiteral("sqlDock"));
    // Beside the results (split before they are tabbed), so that the selected row and its detail
    // are seen together; not a tab, it keeps its title bar.
    m_detailDock = makeDock(m_detailPane, tr("Detail"), QStringLiteral("detailDock"));
    m_detailDock->setTitleBarWidget(nullptr);
    splitDockWidget(m_resultsDock, m_detailDock, Qt::Horizontal);
    // A tab behind the Detail pane: both are about the selection, and beside the results they are
    // seen with the rows that move it.
    m_memoryDock = makeDock(m_memoryPane, tr("Memory"), QStringLiteral("memoryDock"));
    m_memoryDock->setTitleBarWidget(nullptr);
    tabifyDockWidget(m_detailDock, m_memoryDock);
    tabifyDockWidget(m_resultsDock, m_chartsDock);
    tabifyDockWidget(m_chartsDock, m_sqlDock);
    m_navigator = new Navigator(m_plane, m_queryPanel, this);
    connect(m_navigator, &Navigator::statusMessage, this, &MainWindow::showStatus);
    m_executionsDock = makeDock(m_navigator->executionsPanel(), tr("Executions"), QStringLiteral("executionsDock"));
    m_bookmarksDock = makeDock(m_navigator->bookmarksPanel(), tr("Bookmarks"), QStringLiteral("bookmarksDock"));
    tabifyDockWidget(m_sqlDock, m_executionsDock);
    tabifyDockWidget(m_executionsDock, m_bookmarksDock);
    m_log = new MessageLog(this);
    m_logDock = makeDock(m_log, tr("Log"), QStringLiteral("logDock"));
    tabifyDockWidget(m_bookmarksDock, m_logDock);
    m_diffPanel = new DiffPanel(this);
    m_diffPanel->setObjectName(QStringLiteral("diffPanel"));
    m_differencesDock = makeDock(m_diffPanel, tr("Differences"), QStringLiteral("differencesDock"));
    tabifyDockWidget(m_logDock, m_differencesDock);
    // A tab only while a comparison is open (View ▸ Differences shows it anyway).
    m_differencesDock->hide();
    m_comparison = new Comparison(m_plane, m_comparedPlane, m_diffPanel, this);
    setTabPosition(Qt::BottomDockWidgetArea, QTabWidget::North);
    m_resultsDock->raise();
    m_detailDock->raise();
}

void MainWindow::createActions()
{
    QStyle *s = style();
    m_openAction
        = new QAction(QIcon::fromTheme(QStringLiteral("document-open"), s->standardIcon(QStyle::SP_DialogOpenButton)),
            tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a memhist history (.memhist), or import a trace"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openInteractively);

    m_importAction = new QAction(tr("&Import Trace…"), this);
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_importAction->setStatusTip(tr("Import one or more trace files, in order, into a new history"));
    connect(m_importAction, &QAction::triggered, this, &MainWindow::importInteractively);

    m_importDirectoryAction = new QAction(tr("Import Trace &Directory…"), this);
    m_importDirectoryAction->setStatusTip(tr("Import a trace directory (drmemtrace) into a new history"));
    connect(m_importDirectoryAction, &QAction::triggered, this, &MainWindow::importDirectoryInteractively);

    m_recordAction = new QAction(tr("Re&cord Program…"), this);
    m_recordAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_recordAction->setStatusTip(tr("Run a program under memhist record and open its history"));
    connect(m_recordAction, &QAction::triggered, this, &MainWindow::recordInteractively);

    m_compareAction = new QAction(tr("Compare &With…"), this);
    m_compareAction->setObjectName(QStringLiteral("compareAction"));
    m_compareAction->setStatusTip(
        tr("Compare the open history with another run of the same program: where they part, what each did "
           "to memory"));
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::compareInteractively);
    m_compareWithBaselineAction = new QAction(tr("Compare With &Baseline…"), this);
    m_compareWithBaselineAction->setObjectName(QStringLiteral("compareWithBaselineAction"));
    m_compareWithBaselineAction->setStatusTip(
        tr("Compare with another run, leaving out what also differs between the open history and a second run of "
           "its input (the stack canary, timings, thread ids)"));
    connect(m_compareWithBaselineAction, &QAction::triggered, this, &MainWindow::compareWithBaselineInteractively);
    m_closeComparisonAction = new QAction(tr("Close Co&mparison"), this);
    m_closeComparisonAction->setObjectName(QStringLiteral("closeComparisonAction"));
    m_closeComparisonAction->setStatusTip(tr("Remove the compared history's plane and the Differences tab"));
    connect(m_closeComparisonAction, &QAction::triggered, this, &MainWindow::closeComparison);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    createNavigationActions();
    m_clickControls = new ClickQueryControls(this);
}

void MainWindow::createNavigationActions()
{
    QStyle *s = style();
    m_backAction = new QAction(
        QIcon::fromTheme(QStringLiteral("go-previous"), s->standardIcon(QStyle::SP_ArrowBack)), tr("&Back"), this);
    // Alt+Left, and Backspace everywhere (the platform's Back has it under KDE and GNOME, not
    // without a desktop): a text field that uses Backspace keeps it (shortcut override).
    QList<QKeySequence> backKeys = QKeySequence::keyBindings(QKeySequence::Back);
    if (!backKeys.contains(QKeySequence(Qt::Key_Backspace)))
        backKeys << QKeySequence(Qt::Key_Backspace);
    m_backAction->setShortcuts(backKeys);
    m_backAction->setStatusTip(tr("Return to the previous view of the plane"));
    connect(m_backAction, &QAction::triggered, this, [this] { activePlane()->back(); });

    m_forwardAction = new QAction(
        QIcon::fromTheme(QStringLiteral("go-next"), s->standardIcon(QStyle::SP_ArrowForward)), tr("&Forward"), this);
    m_forwardAction->setShortcuts(QKeySequence::Forward);
    m_forwardAction->setStatusTip(tr("Go to the next view of the plane"));
    connect(m_forwardAction, &QAction::triggered, this, [this] { activePlane()->forward(); });

    // No style fallback: the styles' "home" is a folder, which says the wrong thing here.
    m_homeAction = new QAction(QIcon::fromTheme(QStringLiteral("zoom-fit-best")), tr("&Home"), this);
    m_homeAction->setShortcut(QKeySequence(Qt::Key_Home));
    m_homeAction->setStatusTip(tr("Show the whole history"));
    connect(m_homeAction, &QAction::triggered, this, [this] { activePlane()->home(); });

    m_zoomInAction = new QAction(QIcon::fromTheme(QStringLiteral("zoom-in")), tr("Zoom &In"), this);
    m_zoomInAction->setShortcuts({ QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal), QKeySequence::ZoomIn });
    m_zoomInAction->setStatusTip(tr("Zoom into the middle of the plane"));
    connect(m_zoomInAction, &QAction::triggered, this, [this] { activePlane()->zoomIn(); });
    m_zoomOutAction = new QAction(QIcon::fromTheme(QStringLiteral("zoom-out")), tr("Zoom &Out"), this);
    m_zoomOutAction->setShortcuts({ QKeySequence(Qt::Key_Minus), QKeySequence::ZoomOut });
    m_zoomOutAction->setStatusTip(tr("Zoom out around the middle of the plane"));
    connect(m_zoomOutAction, &QAction::triggered, this, [this] { activePlane()->zoomOut(); });

    // Window-wide: they work with the focus in the results table or a chart too. A text field
    // that uses a key itself (Home, Backspace and + in the query panel's fields or the SQL editor)
    // keeps it: it takes the shortcut-override event first.
    for (QAction *action : { m_backAction, m_forwardAction, m_homeAction, m_zoomInAction, m_zoomOutAction }) {
        action->setShortcutContext(Qt::WindowShortcut);
        addAction(action);
    }
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    // Its entries are the files of the moment: Keyboard Shortcuts leaves them out.
    m_recentMenu->setProperty("memhistNoShortcuts", true);
    m_recentFiles = new RecentFiles(m_recentMenu, this);
    connect(m_recentFiles, &RecentFiles::fileChosen, this, &MainWindow::openPath);
    file->addSeparator();
    file->addAction(m_importAction);
    file->addAction(m_importDirectoryAction);
    file->addAction(m_recordAction);
    file->addSeparator();
    file->addAction(m_compareAction);
    file->addAction(m_compareWithBaselineAction);
    file->addAction(m_closeComparisonAction);
    file->addSeparator();
    QAction *exportAction = m_queryPanel->exportAction();
    if (exportAction->shortcut().isEmpty())
        exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setStatusTip(tr("Write every result of the current query to a CSV file"));
    file->addAction(exportAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(m_backAction);
    m_viewMenu->addAction(m_forwardAction);
    m_viewMenu->addAction(m_homeAction);
    m_viewMenu->addAction(m_zoomInAction);
    m_viewMenu->addAction(m_zoomOutAction);
    m_viewMenu->addSeparator();
    // Each pane once: checked while it is open; its key opens it, brings it to the front and gives
    // it the focus, and hides it when it has the focus already (as an IDE's tool windows do).
    const auto addPaneAction
        = [this](QDockWidget *dock, const QString &text, const QKeySequence &key, const QString &name) {
              QAction *action = m_viewMenu->addAction(text);
              action->setObjectName(name);
              action->setCheckable(true);
              action->setChecked(!dock->isHidden());
              action->setShortcut(key);
              action->setShortcutContext(Qt::WindowShortcut);
              connect(dock->toggleViewAction(), &QAction::toggled, action, &QAction::setChecked);
              connect(action, &QAction::triggered, this, [this, dock, action] {
                  togglePane(dock);
                  action->setChecked(!dock->isHidden());
              });
          };
    // Ctrl+1 … Ctrl+6 in the tabs' order.
    addPaneAction(
        m_resultsDock, tr("&Results"), QKeySequence(Qt::CTRL | Qt::Key_1), QStringLiteral("resultsPaneAction"));
    addPaneAction(m_chartsDock, tr("&Charts"), QKeySequence(Qt::CTRL | Qt::Key_2), QStringLiteral("chartsPaneAction"));
    addPaneAction(m_sqlDock, tr("&SQL Console"), QKeySequence(Qt::CTRL | Qt::Key_3), QStringLiteral("sqlPaneAction"));
    addPaneAction(m_executionsDock, tr("&Executions"), QKeySequence(Qt::CTRL | Qt::Key_4),
        QStringLiteral("executionsPaneAction"));
    addPaneAction(
        m_bookmarksDock, tr("Boo&kmarks"), QKeySequence(Qt::CTRL | Qt::Key_5), QStringLiteral("bookmarksPaneAction"));
    addPaneAction(m_logDock, tr("&Log"), QKeySequence(Qt::CTRL | Qt::Key_6), QStringLiteral("logPaneAction"));
    addPaneAction(m_detailDock, tr("&Detail"), QKeySequence(Qt::CTRL | Qt::Key_7), QStringLiteral("detailPaneAction"));
    addPaneAction(m_memoryDock, tr("&Memory"), QKeySequence(Qt::CTRL | Qt::Key_M), QStringLiteral("showMemoryAction"));
    m_viewMenu->actions().constLast()->setStatusTip(
        tr("The memory after the position line's transition, beside the Detail pane"));
    addPaneAction(m_differencesDock, tr("Differe&nces"), QKeySequence(Qt::CTRL | Qt::Key_8),
        QStringLiteral("differencesPaneAction"));
    m_viewMenu->actions().constLast()->setStatusTip(tr("What a comparison (File ▸ Compare With…) found"));
    m_viewMenu->addSeparator();
    QAction *nextPane = m_viewMenu->addAction(tr("Next &Pane"), this, [this] { focusPane(1); });
    nextPane->setObjectName(QStringLiteral("nextPaneAction"));
    nextPane->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Tab));
    nextPane->setShortcutContext(Qt::WindowShortcut);
    nextPane->setStatusTip(tr("The focus to the next pane: the plane, the tab below it, the pane beside it"));
    QAction *previousPane = m_viewMenu->addAction(tr("Pre&vious Pane"), this, [this] { focusPane(-1); });
    previousPane->setObjectName(QStringLiteral("previousPaneAction"));
    previousPane->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab));
    previousPane->setShortcutContext(Qt::WindowShortcut);
    previousPane->setStatusTip(tr("The focus to the previous pane"));

    QMenu *go = menuBar()->addMenu(tr("&Go"));
    for (QAction *action : m_navigator->menuActions()) {
        if (action)
            go->addAction(action);
        else
            go->addSeparator();
    }
    go->addSeparator();
    QAction *findValue = go->addAction(tr("Find &Value…"), this, &MainWindow::showFindValue);
    findValue->setObjectName(QStringLiteral("findValueAction"));
    findValue->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    findValue->setShortcutContext(Qt::WindowShortcut);
    findValue->setStatusTip(tr("The accesses whose bytes contain a value, into the Results tab"));
    QAction *functionAccesses = go->addAction(tr("Accesses by F&unction…"), this, &MainWindow::showFunctionAccesses);
    functionAccesses->setObjectName(QStringLiteral("functionAccessesAction"));
    functionAccesses->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    functionAccesses->setShortcutContext(Qt::WindowShortcut);
    functionAccesses->setStatusTip(
        tr("The accesses a function's instructions made (or made while it ran), into the Results tab"));
    // A row of the results by its number (Ctrl+L), however far down.
    go->addAction(m_queryPanel->goToRowAction());
    go->addSeparator();
    go->addAction(m_detailPane->comeFromAction());
    go->addAction(m_detailPane->wentToAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *keys = help->addAction(tr("&Mouse and Keys"), this, &MainWindow::showMouseAndKeys);
    keys->setObjectName(QStringLiteral("mouseAndKeysAction"));
    keys->setShortcut(QKeySequence::HelpContents);
    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts…"), this, &MainWindow::showShortcuts);
    shortcuts->setObjectName(QStringLiteral("keyboardShortcutsAction"));
    shortcuts->setStatusTip(tr("Change the keys of the menus' actions"));
    help->addSeparator();
    QAction *about = help->addAction(tr("&About memhist viewer"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar()
{
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_openAction);
    bar->addSeparator();
    bar->addAction(m_backAction);
    bar->addAction(m_forwardAction);
    bar->addAction(m_homeAction);
    bar->addSeparator();
    bar->addActions(m_navigator->toolBarActions());
    bar->addSeparator();
    m_clickControls->addTo(bar);
    bar->addSeparator();
    bar->addAction(m_queryPanel->exportAction());
    // Open, Back and Forward have an icon everywhere (the style's when the theme has none): they
    // show only it, so that every control fits in a 1024 px wide window, the click-query section
    // included, rather than going into the » overflow. Their tooltips name them.
    for (QAction *action : { m_openAction, m_backAction, m_forwardAction }) {
        if (auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(action)))
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
    }

    m_viewMenu->addSeparator();
    QAction *toolBarAction = bar->toggleViewAction();
    toolBarAction->setText(tr("&Toolbar"));
    m_viewMenu->addAction(toolBarAction);
}

void MainWindow::createStatusBar()
{
    m_status = new StatusPanel(this);
    m_jobProgress = new JobProgressWidget(this);
    m_jobProgress->setObjectName(QStringLiteral("jobProgress"));
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_jobProgress);

    m_jobs = new JobController(m_jobProgress, this);
    m_jobs->setImportChooser(
        [this](const QStringList &traces, const QString &suggested) { return chooseImport(traces, suggested); });
    connect(m_jobs, &JobController::historyReady, this, &MainWindow::historyReady);
    connect(m_jobs, &JobController::failed, this, &MainWindow::showError);
    connect(m_jobs, &JobController::statusChanged, this, &MainWindow::showStatus);
    connect(m_jobs, &JobController::importFinished, this, &MainWindow::importFinished);
    connect(m_jobs, &JobController::recordFinished, this, &MainWindow::recordFinished);
    connect(m_jobs, &JobController::importWarned, this, [this](const QString &history, const QStringList &warnings) {
        m_warnedHistory = QFileInfo(history).absoluteFilePath();
        m_pendingWarnings = warnings;
    });
    connect(m_jobs, &JobController::logged, m_log, &MessageLog::append);
}

void MainWindow::connectPanels()
{
    // Tab leaves the results table for the next field, as everywhere else; the arrows move in it.
    // (Tab from cell to cell moved the current row without the selection, and the Detail pane
    // followed a row the table did not show as selected.)
    m_queryPanel->resultsView()->setTabKeyNavigation(false);
    connect(m_plane, &PlaneWidget::pointClicked, this, &MainWindow::runClickQuery);
    connect(m_comparedPlane, &PlaneWidget::hoverTextChanged, this,
        [this](const QString &text) { m_status->setHoverText(tr("B: ") + text); });
    connect(m_comparison, &Comparison::statusMessage, this, &MainWindow::showStatus);
    connect(m_comparison, &Comparison::failed, this, [this](const QString &message) {
        showError(tr("Cannot compare"), message);
        updateCompareActions();
    });
    connect(m_comparison, &Comparison::finished, this, &MainWindow::updateCompareActions);
    connect(m_comparison, &Comparison::entryPickedOnPlane, this, [this] { showPanel(Panel::Differences); });
    connect(m_plane, &PlaneWidget::navigationChanged, this, &MainWindow::updateNavigation);
    connect(
        m_plane, &PlaneWidget::hoverTextChanged, this, [this](const QString &text) { m_status->setHoverText(text); });
    connect(m_plane, &PlaneWidget::visibleRangeChanged, m_chartsPanel, &ChartsPanel::setVisibleRange);
    connect(m_queryPanel, &QueryPanel::resultsChanged, m_plane, &PlaneWidget::setMarkedAccesses);
    connect(m_queryPanel, &QueryPanel::accessSelected, m_plane, &PlaneWidget::setCurrentAccess);
    // The plane shows the threads the query panel's filter shows: chosen there, or those of a query
    // run (a click query, a query of the navigation history), which the filter shows silently.
    connect(m_queryPanel->threadFilter(), &ThreadFilter::threadsChanged, m_plane, &PlaneWidget::setThreadFilter);
    connect(m_queryPanel, &QueryPanel::resultsChanged, m_plane,
        [this] { m_plane->setThreadFilter(m_queryPanel->threadFilter()->threads()); });
    connect(m_queryPanel, &QueryPanel::accessSelected, m_detailPane, &DetailPane::showAccess);
    connectOriginTree();
    connectMemoryPane();
    connect(m_queryPanel, &QueryPanel::exportStatusChanged, this, &MainWindow::showStatus);
    connect(m_queryPanel, &QueryPanel::exportFailed, this,
        [this](const QString &message) { showError(tr("Export failed"), message); });
}

void MainWindow::connectOriginTree()
{
    // Where did this come from? / Where did it go? on a result row too.
    QTableView *results = m_queryPanel->resultsView();
    auto *separator = new QAction(results);
    separator->setSeparator(true);
    results->addActions({ separator, m_detailPane->comeFromAction(), m_detailPane->wentToAction() });
    // The tree's memory hops are drawn on the plane as a path.
    connect(m_detailPane->originView(), &OriginView::originShown, this, [this] {
        const std::optional<OriginResult> &result = m_detailPane->originView()->result();
        m_plane->setOriginPath(result ? result->tree : OriginTree {});
    });
    // A click on a hop selects its access as a click on a byte of the Memory pane does: the results
    // list the accesses to its bytes back in time from it, it the current row, on the plane and in
    // the Detail pane (whose Origin tab keeps the tree).
    connect(m_detailPane, &DetailPane::hopActivated, this, [this](const Access &access) {
        m_navigator->selectAccess(access, Direction::Backward);
        showStatus(tr("Selected the %1 at transition %2, row %3")
                       .arg(access.operation == Operation::Write ? tr("write") : tr("read"),
                           countText(access.transition.value), countText(quint64(access.rowId.value))));
    });
}

void MainWindow::connectMemoryPane()
{
    // It follows the position line: the selected access, a transition gone to, a click on the plane
    // (at the access under the cursor when there is one).
    connect(m_queryPanel, &QueryPanel::accessSelected, m_memoryPane, &MemoryPane::showAccess);
    connect(m_navigator, &Navigator::transitionShown, m_memoryPane, &MemoryPane::showTransition);
    // An execution picked: the plane goes to its time at once, then to the bytes it accessed.
    connect(m_navigator->executionsPanel(), &ExecutionsPanel::accessesFound, this,
        [this](Transition t, Address first, Address last) {
            m_plane->setVisibleRange(
                framedOnExecution(m_plane->visibleRange(), t, first, last, m_plane->occupiedRegions()));
            showStatus(tr("Transition %1: its accesses, %2 to %3")
                           .arg(countText(t.value), hexText(first.value), hexText(last.value)));
        });
    connect(m_plane, &PlaneWidget::pointClicked, m_memoryPane,
        [this](Transition t, Address a, const std::optional<Access> &access) {
            if (access)
                m_memoryPane->showPoint(access->transition, access->physical);
            else
                m_memoryPane->showPoint(t, a);
        });
    // Its address field takes what Go to Address takes, completed the same way.
    m_memoryPane->setAddressResolver([this](const QString &text, Address *address, QString *error) {
        return m_navigator->addressOfText(text, address, nullptr, error);
    });
    auto *completer = new QCompleter(m_navigator->symbolCompleter()->model(), m_memoryPane);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    completer->setMaxVisibleItems(16);
    m_memoryPane->setCompleter(completer);
    // A click on a byte selects the access that tells it as a step of the Go menu would: the
    // results list the accesses to its bytes from it (back in time from a write or read, which is
    // where one goes on asking who wrote the value; forward from a later read), it the current row,
    // on the plane and in the Detail pane.
    connect(m_memoryPane, &MemoryPane::accessPicked, this, [this](const Access &access, KnownBy knownBy) {
        m_navigator->selectAccess(access, knownBy == KnownBy::LaterRead ? Direction::Forward : Direction::Backward);
        showStatus(tr("Selected the %1 at transition %2, row %3")
                       .arg(access.operation == Operation::Write ? tr("write") : tr("read"),
                           countText(access.transition.value), countText(quint64(access.rowId.value))));
    });
    connect(m_memoryPane, &MemoryPane::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::restoreSettings()
{
    m_clickControls->restoreSettings();
    const QSettings settings;
    if (!restoreGeometry(settings.value(QLatin1String(geometryKey)).toByteArray())) {
        // No larger than the screen (a 1024x768 laptop): the first layout is fitted to this size.
        const QRect available = screen()->availableGeometry();
        resize(std::min(1280, available.width()), std::min(820, available.height()));
    }
    m_layoutRestored = restoreState(settings.value(QLatin1String(stateKey)).toByteArray(), windowStateVersion);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_layoutRestored && !m_firstLayoutDone) {
        // The first layout, once shown (when the window has its real size) and laid out.
        m_firstLayoutDone = true;
        QMetaObject::invokeMethod(
            this, [this] { fitFirstLayout(0); }, Qt::QueuedConnection);
    }
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // A window manager sizes a new window after it is shown (to the screen, maximized): the first
    // layout follows, until the user has sized the docks themselves.
    if (m_firstLayoutDone && !m_layoutRestored && !m_layoutAdjusted) {
        if (!m_refitTimer) {
            m_refitTimer = new QTimer(this);
            m_refitTimer->setSingleShot(true);
            m_refitTimer->setInterval(0);
            connect(m_refitTimer, &QTimer::timeout, this, [this] {
                if (!m_layoutAdjusted)
                    fitFirstLayout(0);
            });
        }
        m_refitTimer->start();
    }
}

void MainWindow::fitFirstLayout(int pass)
{
    // The results table gets firstLayoutRows rows, no more, and its dock at most
    // firstLayoutMaxPercent of the window's height: the plane gets the rest.
    // The detail pane beside the results gets about a third of the width: at 1600 px, room for a
    // line of disassembly with its address and the bytes of a 7-byte instruction (wider code
    // scrolls sideways).
    // The Memory pane behind it asks for the width of its 16 bytes a row when that is more, up to 45 %.
    if (pass == 0) {
        const int memoryWidth = m_memoryPane->sizeHint().width()
            + 2 * style()->pixelMetric(QStyle::PM_DockWidgetFrameWidth, nullptr, m_memoryDock);
        const int right = std::clamp(memoryWidth, width() * 36 / 100, width() * 45 / 100);
        resizeDocks({ m_resultsDock, m_detailDock }, { width() - right, right }, Qt::Horizontal);
    }
    const int maxHeight = std::max(200, height() * firstLayoutMaxPercent / 100);
    const auto *table = m_queryPanel->findChild<QTableView *>(QStringLiteral("resultsView"));
    if (!table || !table->isVisible()) {
        resizeDocks({ m_resultsDock }, { maxHeight }, Qt::Vertical);
        return;
    }
    // The height resizeDocks() is given and the table's differ by what the dock area holds besides
    // the rows (tabs, fields, header, status line): the same at any height. A first pass measures
    // it; the second, after the layout has applied the first, corrects by what is still missing.
    const int missing = firstLayoutRows * table->verticalHeader()->defaultSectionSize() - table->viewport()->height();
    const int request = (pass == 0 ? m_resultsDock->height() : m_firstLayoutRequest) + missing;
    m_firstLayoutRequest = std::min(request, maxHeight);
    resizeDocks({ m_resultsDock }, { m_firstLayoutRequest }, Qt::Vertical);
    if (pass == 0 && missing != 0)
        QMetaObject::invokeMethod(
            this, [this] { fitFirstLayout(1); }, Qt::QueuedConnection);
}

// --- Settings of click-to-query ------------------------------------------------------------------

ClickQuerySettings MainWindow::clickQuerySettings() const
{
    return m_clickControls->settings();
}

void MainWindow::setInteractive(bool interactive)
{
    m_interactive = interactive;
    m_navigator->setInteractive(interactive);
}

void MainWindow::setClickQuerySettings(const ClickQuerySettings &settings)
{
    m_clickControls->setSettings(settings);
}

void MainWindow::runClickQuery(
    Transition transition, Address address, const std::optional<Access> &access, Qt::KeyboardModifiers modifiers)
{
    if (m_historyPath.isEmpty())
        return;
    // The thread chosen in the query panel holds for click queries too.
    m_queryPanel->runQuery(
        m_queryPanel->threadFilter()->applyTo(clickQuery(transition, address, access, modifiers, clickQuerySettings())),
        clickQueryNoRowsHint(access));
    showPanel(Panel::Results);
}

void MainWindow::showPanel(Panel panel)
{
    QDockWidget *dock = m_logDock;
    switch (panel) {
    case Panel::Results:
        dock = m_resultsDock;
        break;
    case Panel::Charts:
        dock = m_chartsDock;
        break;
    case Panel::Sql:
        dock = m_sqlDock;
        break;
    case Panel::Executions:
        dock = m_executionsDock;
        break;
    case Panel::Bookmarks:
        dock = m_bookmarksDock;
        break;
    case Panel::Log:
        break;
    case Panel::Differences:
        dock = m_differencesDock;
        break;
    }
    dock->show();
    dock->raise();
}

void MainWindow::showMemoryPane()
{
    m_memoryDock->show();
    m_memoryDock->raise();
}

QList<QWidget *> MainWindow::panes() const
{
    // The plane, then the tabs below it, then the panes beside them; a dock behind another's tab
    // or closed is not visible and not a pane to go to.
    QList<QWidget *> panes { m_plane };
    for (QDockWidget *dock : { m_resultsDock, m_chartsDock, m_sqlDock, m_executionsDock, m_bookmarksDock, m_logDock,
             m_differencesDock, m_detailDock, m_memoryDock }) {
        if (isInFront(dock))
            panes << dock;
    }
    return panes;
}

void MainWindow::focusInPane(QWidget *pane)
{
    QWidget *target = pane;
    if (pane == m_resultsDock) {
        // The rows, not the query fields above them: they are what the pane is for.
        target = m_queryPanel->resultsView();
    } else if (auto *dock = qobject_cast<QDockWidget *>(pane)) {
        // Its first field or view that Tab would stop at.
        target = dock->widget();
        for (QWidget *next = target->nextInFocusChain(); next && next != dock->widget();
             next = next->nextInFocusChain()) {
            if (!dock->widget()->isAncestorOf(next))
                continue;
            if ((next->focusPolicy() & Qt::TabFocus) && next->isVisible() && next->isEnabled()) {
                target = next;
                break;
            }
        }
    }
    target->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::focusPane(int step)
{
    const QList<QWidget *> list = panes();
    const QWidget *focus = QApplication::focusWidget();
    qsizetype current = -1;
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (focus && (list[i] == focus || list[i]->isAncestorOf(focus)))
            current = i;
    }
    const qsizetype count = list.size();
    const qsizetype next = current < 0 ? (step > 0 ? 0 : count - 1) : ((current + step) % count + count) % count;
    focusInPane(list[next]);
}

bool MainWindow::isInFront(const QDockWidget *dock)
{
    // A dock behind another's tab stays "visible", moved out of sight: nothing of it is seen.
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}

void MainWindow::togglePane(QDockWidget *dock)
{
    const QWidget *focus = QApplication::focusWidget();
    if (isInFront(dock) && focus && dock->isAncestorOf(focus)) {
        dock->hide();
        m_plane->setFocus(Qt::ShortcutFocusReason);
        return;
    }
    dock->show();
    dock->raise();
    focusInPane(dock);
}

void MainWindow::showShortcuts()
{
    ShortcutsDialog dialog(shortcutEntries(menuBar()), this);
    dialog.exec();
}

void MainWindow::showFindValue()
{
    if (m_historyPath.isEmpty()) {
        showStatus(tr("Open a history first: Find Value searches the bytes its accesses moved"));
        return;
    }
    // A history without values: the search says so in the Results tab's message.
    FindValueDialog dialog(
        [this](const QString &text, std::uint64_t *address, QString *error) {
            Address found;
            QString description;
            if (!m_navigator->addressOfText(text, &found, &description, error))
                return false;
            *address = found.value;
            return true;
        },
        this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ValueSearch search = dialog.search();
    search.query = m_queryPanel->threadFilter()->applyTo(search.query);
    m_queryPanel->runValueSearch(search);
    showPanel(Panel::Results);
}

void MainWindow::showFunctionAccesses()
{
    if (m_historyPath.isEmpty()) {
        showStatus(tr("Open a history first: Accesses by Function lists the accesses of a function it ran"));
        return;
    }
    if (!m_navigator->symbolsRead()) {
        showStatus(tr("Still reading the history's function names: try again in a moment"));
        return;
    }
    QStringList names;
    for (const NamedRange &symbol : m_navigator->symbols()) {
        if (symbol.kind == NamedRange::Kind::Function)
            names << symbol.name;
    }
    names.removeDuplicates();
    FunctionAccessesDialog dialog(names, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const HalfAxisQuery query = m_queryPanel->threadFilter()->applyTo(dialog.query());
    m_queryPanel->runQuery(query);
    showPanel(Panel::Results);
    showStatus(query.function.withCallees ? tr("The accesses made while %1 ran").arg(query.function.name)
                                          : tr("The accesses made by %1").arg(query.function.name));
}

void MainWindow::updateNavigation()
{
    m_backAction->setEnabled(m_plane->canGoBack());
    m_forwardAction->setEnabled(m_plane->canGoForward());
    m_homeAction->setEnabled(!m_historyPath.isEmpty());
    m_zoomInAction->setEnabled(!m_historyPath.isEmpty());
    m_zoomOutAction->setEnabled(!m_historyPath.isEmpty());
    updateCompareActions();
}

PlaneWidget *MainWindow::activePlane() const
{
    // The compared history's plane when the user works in it (the keys go where the focus is);
    // else the open history's, wherever the focus is in the window.
    return m_comparedPlane->isVisible() && m_comparedPlane->hasFocus() ? m_comparedPlane : m_plane;
}

void MainWindow::updateCompareActions()
{
    m_compareAction->setEnabled(!m_historyPath.isEmpty());
    m_compareWithBaselineAction->setEnabled(!m_historyPath.isEmpty());
    m_closeComparisonAction->setEnabled(m_comparison->isOpen() || m_comparison->isRunning());
}

// --- Comparing -----------------------------------------------------------------------------------

QString MainWindow::askForComparedHistory()
{
    return QFileDialog::getOpenFileName(this, tr("Compare %1 With").arg(QFileInfo(m_historyPath).fileName()),
        QFileInfo(m_historyPath).absolutePath(), historyFileFilters());
}

void MainWindow::compareInteractively()
{
    if (m_historyPath.isEmpty())
        return;
    const QString path = askForComparedHistory();
    if (path.isEmpty())
        return;
    compareWith(path);
}

void MainWindow::compareWithBaselineInteractively()
{
    if (m_historyPath.isEmpty())
        return;
    const QString path = askForComparedHistory();
    if (path.isEmpty())
        return;
    const QString baseline = QFileDialog::getOpenFileName(this,
        tr("Baseline: Another Run of %1's Input").arg(QFileInfo(m_historyPath).fileName()),
        QFileInfo(path).absolutePath(), historyFileFilters());
    if (baseline.isEmpty())
        return;
    compareWith(path, baseline);
}

void MainWindow::compareWith(const QString &path, const QString &baseline)
{
    if (m_historyPath.isEmpty()) {
        showStatus(tr("Open a history first: Compare With compares another run with it"));
        return;
    }
    m_comparison->start(m_historyPath, path,
        m_info && m_info->summary.lastTransition ? m_info->summary.lastTransition : std::optional<Transition> {},
        baseline);
    showPanel(Panel::Differences);
    updateCompareActions();
}

void MainWindow::closeComparison()
{
    m_comparison->close();
    m_differencesDock->hide();
    updateCompareActions();
}

// --- Opening -------------------------------------------------------------------------------------

void MainWindow::openPath(const QString &path)
{
    m_jobs->openPath(path);
}

void MainWindow::openHistory(const QString &path)
{
    m_jobs->openHistory(path);
}

void MainWindow::historyReady(const QString &path, const HistoryInfo &info, const QString &openedStatus)
{
    // A comparison was of the history open before.
    if (m_comparison->isOpen() || m_comparison->isRunning())
        closeComparison();
    m_historyPath = path;
    m_info = info;
    m_plane->setHistory(m_historyPath);
    m_queryPanel->setHistory(m_historyPath);
    m_detailPane->setHistory(m_historyPath);
    m_memoryPane->setHistory(m_historyPath);
    m_chartsPanel->setHistory(m_historyPath);
    m_sqlConsole->setHistory(m_historyPath);
    m_navigator->setHistory(m_historyPath);
    if (info.summary.firstTransition && info.summary.lastTransition)
        m_navigator->setTransitionRange(std::pair { *info.summary.firstTransition, *info.summary.lastTransition });
    else
        m_navigator->setTransitionRange(std::nullopt);
    // The transitions the line names are those of the first and the last access: a recording's
    // instruction count ("recorded 132,813 instructions") also counts the instructions before and
    // after them that touched no memory.
    const QString transitionsNote = info.summary.firstTransition
        ? tr("Transitions %1..%2: from the first to the last access; instructions before or after them "
             "that touched no memory are not in the history.")
              .arg(countText(info.summary.firstTransition->value), countText(info.summary.lastTransition->value))
        : QString();
    m_status->setSummary(describeHistory(info),
        QDir::toNativeSeparators(m_historyPath) + QStringLiteral("\n") + countText(quint64(info.summary.fileBytes))
            + tr(" bytes") + QStringLiteral("\n") + info.sourcePaths.join(u'\n')
            + (transitionsNote.isEmpty() ? QString() : QStringLiteral("\n") + transitionsNote));
    setWindowTitle(tr("%1 — memhist viewer").arg(QFileInfo(path).fileName()));
    setWindowFilePath(m_historyPath);
    m_recentFiles->add(m_historyPath);
    // The warnings stay until another history opens; only the import that made this one has any.
    m_status->setImportWarnings(m_warnedHistory == m_historyPath ? m_pendingWarnings : QStringList());
    m_warnedHistory.clear();
    m_pendingWarnings.clear();
    updateNavigation();
    showStatus(openedStatus.isEmpty() ? tr("Opened %1").arg(QFileInfo(m_historyPath).fileName()) : openedStatus);
    emit historyOpened(m_historyPath);
}

void MainWindow::openInteractively()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Open History or Trace"), lastDirectory(), openFileFilters());
    if (path.isEmpty())
        return;
    rememberDirectory(path);
    if (isSqliteDatabase(path))
        openHistory(path);
    else
        importTraces({ path }, true);
}

// --- Importing -----------------------------------------------------------------------------------

bool MainWindow::isJobRunning() const
{
    return m_jobs->isBusy();
}

void MainWindow::importTraces(const QStringList &traces, bool askForOutput)
{
    // Every file of a drmemtrace directory selected (or dropped): the directory.
    m_jobs->importTraces(tracesToImport(traces), askForOutput);
}

std::optional<ImportChoice> MainWindow::chooseImport(const QStringList &traces, const QString &suggested)
{
    if (!m_interactive)
        return ImportChoice { suggested, {} };
    ImportDialog dialog(traces, suggested, this);
    dialog.setOpenHistory(m_historyPath);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.choice();
}

void MainWindow::importInteractively()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Import Traces (in this order)"), lastDirectory(), importFileFilters());
    if (paths.isEmpty())
        return;
    rememberDirectory(paths.constFirst());
    importTraces(paths, true);
}

void MainWindow::importDirectoryInteractively()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Import Trace Directory"), lastDirectory());
    if (path.isEmpty())
        return;
    rememberDirectory(path);
    importTraces({ path }, true);
}

void MainWindow::handleDroppedPaths(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    QStringList histories;
    for (const QString &path : paths) {
        if (QFileInfo(path).isFile() && isSqliteDatabase(path))
            histories << path;
    }
    if (histories.isEmpty()) {
        importTraces(paths, true);
    } else if (paths.size() == 1) {
        openHistory(paths.constFirst());
    } else {
        showError(tr("Cannot open the dropped files"),
            tr("%1 is a history, not a trace: drop one history to open it, or traces to import them together.")
                .arg(QFileInfo(histories.constFirst()).fileName()));
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl &url) { return url.isLocalFile(); }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // Not from inside the drop: a save dialog opened here would block the drag source.
    QMetaObject::invokeMethod(
        this, [this, paths] { handleDroppedPaths(paths); }, Qt::QueuedConnection);
}

// --- Recording -----------------------------------------------------------------------------------

void MainWindow::setMemhistCli(const QString &path)
{
    m_jobs->setMemhistCli(path);
}

QString MainWindow::memhistCli() const
{
    return m_jobs->memhistCli();
}

void MainWindow::recordInteractively()
{
    if (memhistCli().isEmpty()) {
        showError(tr("Cannot record"),
            tr("Recording runs the memhist command line, found neither beside memhist-viewer nor in PATH."));
        return;
    }
    RecordDialog dialog(this);
    dialog.setOpenHistory(m_historyPath);
    if (dialog.exec() != QDialog::Accepted)
        return;
    record(dialog.request());
}

void MainWindow::record(const RecordRequest &request)
{
    m_jobs->record(request);
}

// --- Messages ------------------------------------------------------------------------------------

void MainWindow::showError(const QString &title, const QString &message)
{
    m_lastError = message;
    showStatus(title + QStringLiteral(": ") + message);
    // Window-modal but not blocking (open(), not exec()): background jobs and tests go on.
    auto *box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit errorShown(message);
}

void MainWindow::showStatus(const QString &message)
{
    // In the hover text's place (the next hover replaces it) rather than QStatusBar::showMessage(),
    // which would paint over the summary.
    m_status->setHoverText(message);
}

QString MainWindow::summaryText() const
{
    return m_info ? describeHistory(*m_info) : QString();
}

QString MainWindow::hoverText() const
{
    return m_status->hoverText();
}

QStringList MainWindow::importWarnings() const
{
    return m_status->importWarnings();
}

void MainWindow::showMouseAndKeys()
{
    auto *dialog = new MouseAndKeysDialog(menuBar(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

// --- Events --------------------------------------------------------------------------------------

bool MainWindow::event(QEvent *event)
{
    switch (event->type()) {
    case QEvent::StatusTip:
        // The tips of the toolbar and the menus go to the hover line, not to QStatusBar::showMessage(),
        // which would hide both lines of the status area (the history's summary with them).
        if (m_status)
            m_status->showStatusTip(static_cast<QStatusTipEvent *>(event)->tip());
        return true;
    case QEvent::MouseButtonPress:
        // Only a press on the window itself comes here, not one on a panel: one on a separator
        // between the plane and the docks (or between two docks), whose size the user now chooses.
        m_layoutAdjusted = true;
        break;
    case QEvent::ChildPolished:
        // Watched for when it closes (see eventFilter()).
        if (auto *dialog = qobject_cast<QDialog *>(static_cast<QChildEvent *>(event)->child()))
            dialog->installEventFilter(this);
        break;
    default:
        break;
    }
    return QMainWindow::event(event);
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride && watched->isWidgetType()
        && static_cast<QWidget *>(watched)->window() == this && windowKeyWins(*static_cast<QKeyEvent *>(event))) {
        // Not offered to the field: the shortcut runs.
        event->ignore();
        return true;
    }
    // A dialog of the window has closed: the window takes the keyboard back if nothing else has it.
    // A window manager does that itself; without one (Xvfb, some kiosk sessions) the window stays
    // inactive, and its window-wide shortcuts (Ctrl+I, Ctrl+G, …) do nothing until it is clicked,
    // while typed text still reaches its focused field.
    if (event->type() == QEvent::Hide && qobject_cast<QDialog *>(watched)
        && static_cast<QWidget *>(watched)->isWindow()) {
        QTimer::singleShot(0, this, [this] {
            const QWidget *active = QApplication::activeWindow();
            if (isVisible() && !QApplication::activeModalWidget() && !QApplication::activePopupWidget()
                && (!active || !active->isVisible()))
                activateWindow();
        });
    }
    return QMainWindow::eventFilter(watched, event);
}

bool MainWindow::windowKeyWins(const QKeyEvent &key) const
{
    // Ctrl+E (Export) and Ctrl+D (Add Bookmark) are also a text field's end-of-line and delete keys
    // under X11's key bindings (emacs style): a query field with the focus took them, and Export
    // did nothing. The window's own keys with Ctrl win over those; the editing keys every field
    // needs (copy, paste, undo, select all, the word and document moves) stay the field's.
    if (!(key.modifiers() & Qt::ControlModifier))
        return false;
    const QKeySequence pressed(key.keyCombination());
    for (const QKeySequence::StandardKey standard :
        { QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo, QKeySequence::Redo,
            QKeySequence::SelectAll, QKeySequence::MoveToNextWord, QKeySequence::MoveToPreviousWord,
            QKeySequence::SelectNextWord, QKeySequence::SelectPreviousWord, QKeySequence::DeleteStartOfWord,
            QKeySequence::DeleteEndOfWord, QKeySequence::MoveToStartOfDocument, QKeySequence::MoveToEndOfDocument,
            QKeySequence::SelectStartOfDocument, QKeySequence::SelectEndOfDocument }) {
        if (QKeySequence::keyBindings(standard).contains(pressed))
            return false;
    }
    for (const ShortcutEntry &entry : shortcutEntries(menuBar())) {
        if (entry.action->isEnabled() && entry.action->shortcuts().contains(pressed))
            return true;
    }
    return false;
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About memhist viewer"),
        tr("<h3>memhist viewer %1</h3>"
           "<p>Explore the memory history of a program run: every load and store, on a transition × "
           "address plane, with instant forward and backward queries.</p>"
           "<p>Histories are plain SQLite files (<tt>.memhist</tt>) in the storage model of the "
           "rvnmemhistwriter library. Record them with <tt>memhist record</tt> or import Valgrind "
           "Lackey, drmemtrace, Tenet and CSV traces.</p>")
            .arg(QStringLiteral(MEMHIST_VERSION)));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (isJobRunning() && m_interactive) {
        const auto answer = QMessageBox::question(this, tr("Quit memhist viewer"),
            tr("An import or recording is running. Cancel it and quit?"), QMessageBox::Yes | QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
    }
    m_jobs->cancel();
    if (m_interactive) {
        QSettings settings;
        settings.setValue(QLatin1String(geometryKey), saveGeometry());
        settings.setValue(QLatin1String(stateKey), saveState(windowStateVersion));
    }
    event->accept();
}

} // namespace memhist::viewer
