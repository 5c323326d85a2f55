// SPDX-License-Identifier: MIT
#include "widgets/query/querypanel.h"

#include "core/export/csvexport.h"
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"
#include "core/storage/threadspans.h"
#include "widgets/query/resultsmodel.h"
#include "widgets/query/threadfilter.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>
#include <limits>

namespace memhist {

namespace {

constexpr std::uint64_t lastAddress = ~std::uint64_t(0);

// The keys (ResultsModel::columnKey) of the columns the user hid, across runs.
const QString hiddenColumnsKey = QStringLiteral("results/hiddenColumns");

// Empty text is the default; otherwise decimal or 0x hex over the full 64-bit range, as on the
// command line.
// "1 row" / "41,797 rows", grouped as everywhere in the viewer (countText).
QString rowsText(qint64 rows)
{
    return rows == 1 ? QueryPanel::tr("1 row") : QueryPanel::tr("%1 rows").arg(countText(quint64(rows)));
}

bool parseField(const QLineEdit *edit, const QString &name, std::optional<std::uint64_t> *value, QString *error)
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty()) {
        value->reset();
        return true;
    }
    std::uint64_t number = 0;
    if (!parseTypedNumber(text, &number)) {
        *error = QueryPanel::tr("%1: '%2' is not a number (decimal or 0x hex, up to 64 bits)").arg(name, text);
        return false;
    }
    *value = number;
    return true;
}

// The first row of a query resuming after `resumeAfter` in `direction`: the row next to it.
qint64 firstRowAfter(RowId resumeAfter, Direction direction)
{
    return direction == Direction::Forward ? resumeAfter.value + 1 : resumeAfter.value - 1;
}

// The results table. Ctrl with a navigation key (Ctrl+Home, Ctrl+End, Ctrl+Up, …) selects the row
// it moves to, as a click does: an extended-selection view would only move the current row there,
// which the Detail pane and the plane follow while the table highlights another row.
class ResultsView : public QTableView
{
public:
    using QTableView::QTableView;
    // Keys the panel takes before the table (Ctrl+End to a row not loaded): true when taken.
    std::function<bool(int key, Qt::KeyboardModifiers)> keyHook;

protected:
    void keyPressEvent(QKeyEvent *event) override
    {
        if (keyHook && keyHook(event->key(), event->modifiers())) {
            event->accept();
            return;
        }
        QTableView::keyPressEvent(event);
    }

    QItemSelectionModel::SelectionFlags selectionCommand(const QModelIndex &index, const QEvent *event) const override
    {
        if (event && event->type() == QEvent::KeyPress) {
            const auto *key = static_cast<const QKeyEvent *>(event);
            if (key->modifiers().testFlag(Qt::ControlModifier) && !key->modifiers().testFlag(Qt::ShiftModifier)) {
                switch (key->key()) {
                case Qt::Key_Home:
                case Qt::Key_End:
                case Qt::Key_PageUp:
                case Qt::Key_PageDown:
                case Qt::Key_Up:
                case Qt::Key_Down:
                case Qt::Key_Left:
                case Qt::Key_Right:
                    return QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows;
                default:
                    break;
                }
            }
        }
        return QTableView::selectionCommand(index, event);
    }

    // The style draws no focus frame around an item view, and an empty table has no current cell
    // to draw one on: a Tab stop here would look like none. A frame in the highlight colour says it.
    void paintEvent(QPaintEvent *event) override
    {
        QTableView::paintEvent(event);
        if (!hasFocus())
            return;
        QPainter painter(viewport());
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(viewport()->rect().adjusted(1, 1, -1, -1));
    }
    void focusInEvent(QFocusEvent *event) override
    {
        QTableView::focusInEvent(event);
        viewport()->update();
    }
    void focusOutEvent(QFocusEvent *event) override
    {
        QTableView::focusOutEvent(event);
        viewport()->update();
    }
};

} // namespace

QueryPanel::QueryPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ResultsModel(this))
{
    for (const QString &key : QSettings().value(hiddenColumnsKey).toStringList())
        m_unwantedColumns.insert(key.toUtf8());
    buildLayout();

    connect(m_model, &ResultsModel::pageLoaded, this, [this] {
        if (!m_columnsSized && m_model->rowCount() > 0) {
            // Once per query, on its first page: later pages must not make the columns jump while
            // the user scrolls.
            m_view->resizeColumnsToContents();
            // Row ids and transitions grow as the user scrolls: room for ten digits, grouped as
            // shown, from the start.
            const int digits = QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont))
                                   .horizontalAdvance(countText(9'999'999'999));
            const int padding = 2 * m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 8;
            for (const int column : { ResultsModel::RowIdColumn, ResultsModel::TransitionColumn })
                m_view->setColumnWidth(column, std::max(m_view->columnWidth(column), digits + padding));
            m_columnsSized = true;
        }
        updateColumnVisibility();
        syncResultScrollBar();
        updateStatus();
        emit resultsChanged(m_model->loadedAccesses());
    });
    connect(m_model, &ResultsModel::searchProgress, this, [this](double fraction) {
        m_searchProgress = fraction;
        updateStatus();
    });
    connect(m_model, &ResultsModel::searchCancelled, this, [this] { updateStatus(); });
    connect(m_model, &ResultsModel::queryFailed, this, [this](const QString &message) {
        showInputError(tr("The query failed: %1").arg(message));
        updateStatus();
    });
    // A reset (new query or history) clears the current row without currentRowChanged.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this,
        [this] { m_hadCurrentRow = m_view->selectionModel()->currentIndex().isValid(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (std::exchange(m_hadCurrentRow, false))
            emit accessSelected(std::nullopt);
    });
    connect(
        m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
            if (current.isValid())
                emit accessSelected(m_model->accessAt(current.row()));
            else
                emit accessSelected(std::nullopt);
        });

    connect(m_model, &QAbstractItemModel::headerDataChanged, this, &QueryPanel::updateColumnVisibility);

    m_export.onProgress([this](const JobProgress &progress) {
        m_lastExportMessage = tr("Exporting to %1… %2 written").arg(m_exportPath, rowsText(progress.count));
        updateStatus();
        emit exportStatusChanged(m_lastExportMessage);
    });

    updatePlaceholders();
    // No history yet: nothing to run (setHistory() enables it).
    m_runButton->setEnabled(false);
    updateStatus();
}

QueryPanel::~QueryPanel()
{
    // The export thread only touches its own connection and file: stopped, it removes its temporary
    // file before the application can exit.
    m_export.cancel();
    m_export.waitForFinished();
}

void QueryPanel::buildLayout()
{
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const auto makeEdit = [&](const QString &objectName, const QString &toolTip) {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(objectName);
        edit->setFont(fixed);
        edit->setToolTip(toolTip);
        edit->setClearButtonEnabled(true);
        connect(edit, &QLineEdit::returnPressed, this, &QueryPanel::runFromInputs);
        return edit;
    };
    m_transitionEdit = makeEdit(QStringLiteral("transitionEdit"),
        tr("Start transition T (decimal or 0x hex). Empty: the first transition forward, the last backward."));
    // A transition typed by the user starts at the transition, not next to the row shown beside it.
    connect(m_transitionEdit, &QLineEdit::textEdited, this, &QueryPanel::dropResumePoint);
    m_firstAddressEdit = makeEdit(QStringLiteral("firstAddressEdit"), tr("First byte of the address range (A)"));
    m_lastAddressEdit
        = makeEdit(QStringLiteral("lastAddressEdit"), tr("Last byte of the address range (B), inclusive"));

    m_directionCombo = new QComboBox(this);
    m_directionCombo->setObjectName(QStringLiteral("directionCombo"));
    m_directionCombo->addItem(tr("Forward (T and later)"), QVariant::fromValue(int(Direction::Forward)));
    m_directionCombo->addItem(tr("Backward (T and earlier)"), QVariant::fromValue(int(Direction::Backward)));
    connect(m_directionCombo, &QComboBox::currentIndexChanged, this, &QueryPanel::updatePlaceholders);
    connect(m_directionCombo, &QComboBox::activated, this, &QueryPanel::dropResumePoint);

    m_resumeLabel = new QLabel(this);
    m_resumeLabel->setObjectName(QStringLiteral("resumeLabel"));
    m_resumeLabel->setToolTip(tr("The results start at this row (the access clicked or found), not at the "
                                 "transition's first access: forward, the accesses its instruction made before it "
                                 "are left out; backward, those made after it. Edit the transition or the direction "
                                 "to start at the transition instead."));
    m_resumeLabel->hide();

    m_readsCheck = new QCheckBox(tr("Reads"), this);
    m_readsCheck->setObjectName(QStringLiteral("readsCheck"));
    m_writesCheck = new QCheckBox(tr("Writes"), this);
    m_writesCheck->setObjectName(QStringLiteral("writesCheck"));
    m_executesCheck = new QCheckBox(tr("Executes"), this);
    m_executesCheck->setObjectName(QStringLiteral("executesCheck"));

    m_runButton = new QPushButton(tr("Run"), this);
    m_runButton->setObjectName(QStringLiteral("runButton"));
    // Not a default button: Return in a field runs the query already (returnPressed), and a default
    // button's permanent frame would hide the focus frame of its Tab stop.
    m_runButton->setFocusPolicy(Qt::StrongFocus);
    m_runButton->setToolTip(tr("Run the query (Return in any field)"));
    connect(m_runButton, &QPushButton::clicked, this, &QueryPanel::runFromInputs);

    auto *inputs = new QGridLayout;
    inputs->setColumnStretch(1, 1);
    inputs->setColumnStretch(3, 1);
    inputs->addWidget(new QLabel(tr("Transition"), this), 0, 0);
    auto *transition = new QHBoxLayout;
    transition->addWidget(m_transitionEdit, 1);
    transition->addWidget(m_resumeLabel);
    inputs->addLayout(transition, 0, 1);
    inputs->addWidget(m_directionCombo, 0, 2, 1, 2);
    inputs->addWidget(new QLabel(tr("Addresses"), this), 1, 0);
    inputs->addWidget(m_firstAddressEdit, 1, 1);
    inputs->addWidget(new QLabel(tr("to"), this), 1, 2, Qt::AlignCenter);
    inputs->addWidget(m_lastAddressEdit, 1, 3);
    auto *operations = new QHBoxLayout;
    operations->addWidget(m_readsCheck);
    operations->addWidget(m_writesCheck);
    operations->addWidget(m_executesCheck);
    operations->addWidget(m_threadFilter = new ThreadFilter(this));
    connect(m_threadFilter, &ThreadFilter::threadsChanged, this, &QueryPanel::runFromInputs);
    m_functionLabel = new QLabel(this);
    m_functionLabel->setObjectName(QStringLiteral("functionLabel"));
    m_functionLabel->setToolTip(tr("Only the accesses of this function (Go ▸ Accesses by Function…)"));
    m_clearFunctionButton = new QToolButton(this);
    m_clearFunctionButton->setObjectName(QStringLiteral("clearFunctionButton"));
    m_clearFunctionButton->setText(QStringLiteral("✕"));
    m_clearFunctionButton->setAutoRaise(true);
    m_clearFunctionButton->setToolTip(tr("Every access again, not only the function's"));
    connect(m_clearFunctionButton, &QToolButton::clicked, this, [this] {
        m_inputsFunction = {};
        updateFunctionLabel();
        runFromInputs();
    });
    operations->addWidget(m_functionLabel);
    operations->addWidget(m_clearFunctionButton);
    operations->addStretch(1);
    operations->addWidget(m_runButton);
    inputs->addWidget(new QLabel(tr("Operations"), this), 2, 0);
    inputs->addLayout(operations, 2, 1, 1, 3);

    m_inputErrorLabel = new QLabel(this);
    m_inputErrorLabel->setObjectName(QStringLiteral("inputErrorLabel"));
    m_inputErrorLabel->setWordWrap(true);
    m_inputErrorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_inputErrorLabel->setFrameShape(QFrame::StyledPanel);
    m_inputErrorLabel->setMargin(4);
    m_inputErrorLabel->hide();

    m_view = new ResultsView(this);
    m_view->setObjectName(QStringLiteral("resultsView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setShowGrid(false);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->verticalHeader()->hide();
    // Uniform row heights: the view never measures rows, whatever the number loaded.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(
        QFontMetrics(QFontDatabase::systemFont(QFontDatabase::FixedFont)).height() + 6);
    m_view->horizontalHeader()->setHighlightSections(false);
    // The view's own scroll bar spans the rows loaded; the one beside it, shown instead while rows
    // are not loaded, spans the whole result.
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    static_cast<ResultsView *>(m_view)->keyHook
        = [this](int key, Qt::KeyboardModifiers modifiers) { return jumpKey(key, modifiers); };
    m_resultScrollBar = new QScrollBar(Qt::Vertical, this);
    m_resultScrollBar->setObjectName(QStringLiteral("resultScrollBar"));
    m_resultScrollBar->hide();
    // A drag moves the window when it is released, not at every pixel on the way.
    m_resultScrollBar->setTracking(false);
    connect(m_resultScrollBar, &QScrollBar::valueChanged, this, &QueryPanel::scrollResultsTo);
    connect(m_resultScrollBar, &QScrollBar::sliderMoved, this, [this](int position) {
        const QString exact = m_model->isResultSizeExact() ? QString() : QStringLiteral("≈ ");
        QToolTip::showText(QCursor::pos(),
            tr("Row %1%2 of %1%3")
                .arg(exact, countText(quint64(position) + 1), countText(quint64(m_model->resultSize()))),
            m_resultScrollBar);
    });
    QScrollBar *inner = m_view->verticalScrollBar();
    connect(inner, &QScrollBar::valueChanged, this, [this](int value) {
        // Near the window's first row: the rows before it, as the rows after it come near its last.
        if (value < visibleRows() && m_model->canFetchPrevious() && !m_model->isLoading())
            m_model->fetchPrevious();
        syncResultScrollBar();
    });
    connect(inner, &QScrollBar::rangeChanged, this, &QueryPanel::syncResultScrollBar);
    connect(m_model, &ResultsModel::rowsPrepended, this, [this](int count) {
        // The rows in sight stay in sight.
        m_view->doItemsLayout();
        m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->value() + count);
        syncResultScrollBar();
    });
    connect(m_model, &ResultsModel::jumped, this, &QueryPanel::showJumped);
    connect(m_model, &ResultsModel::resultSizeChanged, this, [this] {
        syncResultScrollBar();
        updateStatus();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &QueryPanel::syncResultScrollBar);
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint &position) {
        QMenu *menu = createColumnsMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_view->horizontalHeader()->mapToGlobal(position));
    });
    updateColumnVisibility();

    m_copyAction = new QAction(QIcon::fromTheme(QStringLiteral("edit-copy")), tr("Copy Rows as CSV"), this);
    m_copyAction->setObjectName(QStringLiteral("copyRowsAction"));
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copyAction->setToolTip(tr("Copy the selected rows to the clipboard as CSV (the visible columns)"));
    connect(m_copyAction, &QAction::triggered, this, &QueryPanel::copySelectedRows);
    m_view->addAction(m_copyAction);
    m_goToRowAction = new QAction(tr("Go to R&ow…"), this);
    m_goToRowAction->setObjectName(QStringLiteral("goToRowAction"));
    m_goToRowAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_goToRowAction->setShortcutContext(Qt::WindowShortcut);
    m_goToRowAction->setStatusTip(tr("Show a row of the results by its number, however far down"));
    connect(m_goToRowAction, &QAction::triggered, this, &QueryPanel::askForRow);
    m_view->addAction(m_goToRowAction);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_exportAction = new QAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("Export CSV…"), this);
    m_exportAction->setObjectName(QStringLiteral("exportCsvAction"));
    m_exportAction->setToolTip(tr("Write every result of the query (not only the loaded rows) to a CSV file"));
    m_exportAction->setEnabled(false);
    connect(m_exportAction, &QAction::triggered, this, &QueryPanel::exportInteractively);
    auto *exportButton = new QToolButton(this);
    exportButton->setDefaultAction(m_exportAction);
    exportButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    exportButton->setAutoRaise(true);

    // An export's Cancel, shown while it runs: the button beside its progress, and Esc anywhere in
    // the window (the action is disabled, its shortcut free, the rest of the time).
    m_cancelExportAction = new QAction(tr("Cancel Export"), this);
    m_cancelExportAction->setObjectName(QStringLiteral("cancelExportAction"));
    m_cancelExportAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelExportAction->setShortcutContext(Qt::WindowShortcut);
    m_cancelExportAction->setToolTip(tr("Stop the export; nothing is written (Esc)"));
    m_cancelExportAction->setEnabled(false);
    connect(m_cancelExportAction, &QAction::triggered, this, &QueryPanel::cancelExport);
    addAction(m_cancelExportAction);
    m_cancelExportButton = new QToolButton(this);
    m_cancelExportButton->setObjectName(QStringLiteral("cancelExportButton"));
    m_cancelExportButton->setDefaultAction(m_cancelExportAction);
    m_cancelExportButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_cancelExportButton->hide();

    m_stopSearchAction = new QAction(tr("Stop"), this);
    m_stopSearchAction->setObjectName(QStringLiteral("stopSearchAction"));
    m_stopSearchAction->setToolTip(tr("Stop the value search; the rows found so far stay"));
    connect(m_stopSearchAction, &QAction::triggered, this, [this] {
        m_model->cancelSearch();
        updateStatus();
    });
    m_stopSearchButton = new QToolButton(this);
    m_stopSearchButton->setObjectName(QStringLiteral("stopSearchButton"));
    m_stopSearchButton->setDefaultAction(m_stopSearchAction);
    m_stopSearchButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_stopSearchButton->hide();

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    auto *status = new QHBoxLayout;
    status->addWidget(m_statusLabel, 1);
    status->addWidget(m_stopSearchButton);
    status->addWidget(m_cancelExportButton);
    status->addWidget(exportButton);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(inputs);
    layout->addWidget(m_inputErrorLabel);
    auto *table = new QHBoxLayout;
    table->setContentsMargins(0, 0, 0, 0);
    table->setSpacing(0);
    table->addWidget(m_view, 1);
    table->addWidget(m_resultScrollBar);
    layout->addLayout(table, 1);
    layout->addLayout(status);

    // Tab follows the layout, row by row: the direction sits beside the transition.
    QWidget *const tabOrder[] = { m_transitionEdit, m_directionCombo, m_firstAddressEdit, m_lastAddressEdit,
        m_readsCheck, m_writesCheck, m_executesCheck, m_threadFilter, m_runButton, m_view };
    for (std::size_t i = 1; i < std::size(tabOrder); ++i)
        setTabOrder(tabOrder[i - 1], tabOrder[i]);

    fillInputs(m_currentQuery);
}

void QueryPanel::setHistory(const QString &path)
{
    m_historyPath = path;
    m_valueSearch.reset();
    // "Exported N rows to …" was about the history before.
    m_lastExportMessage.clear();
    m_model->setHistory(path);
    // Another history starts at its first row and first column, wherever the previous one was.
    m_view->verticalScrollBar()->setValue(0);
    m_view->horizontalScrollBar()->setValue(0);
    m_threadFilter->setHistory(path);
    m_exportAction->setEnabled(!path.isEmpty() && !isExporting());
    m_runButton->setEnabled(!path.isEmpty());
    if (path.isEmpty()) {
        updateStatus();
        return;
    }
    if (m_runsDefaultQuery) {
        runQuery(HalfAxisQuery {});
        return;
    }
    m_hasQuery = false;
    m_currentQuery = HalfAxisQuery {};
    fillInputs(m_currentQuery);
    m_exportAction->setEnabled(false);
    updateStatus();
    emit resultsChanged({});
}

void QueryPanel::runQuery(const HalfAxisQuery &query, const QString &noRowsHint)
{
    fillInputs(query);
    startQuery(query, noRowsHint);
}

void QueryPanel::runFromInputs()
{
    // Run is disabled then; Return in a field or a thread chosen does nothing either.
    if (m_historyPath.isEmpty())
        return;
    QString error;
    const std::optional<HalfAxisQuery> query = queryFromInputs(&error);
    if (!query) {
        showInputError(error);
        return;
    }
    startQuery(*query, {});
}

void QueryPanel::runValueSearch(const ValueSearch &search)
{
    fillInputs(search.query);
    m_inputErrorLabel->hide();
    m_hasQuery = true;
    m_currentQuery = search.query;
    m_valueSearch = search;
    m_searchProgress = 0;
    m_noRowsHint.clear();
    m_lastExportMessage.clear();
    m_columnsSized = false;
    m_model->setValueSearch(search);
    updateStatus();
    emit resultsChanged({});
}

void QueryPanel::startQuery(const HalfAxisQuery &query, const QString &noRowsHint)
{
    m_valueSearch.reset();
    m_inputErrorLabel->hide();
    m_hasQuery = true;
    m_exportAction->setEnabled(!m_historyPath.isEmpty() && !isExporting());
    m_currentQuery = query;
    m_noRowsHint = noRowsHint;
    m_lastExportMessage.clear();
    m_columnsSized = false;
    m_model->setQuery(query);
    updateStatus();
    emit resultsChanged({});
}

std::optional<HalfAxisQuery> QueryPanel::inputsQuery() const
{
    QString error;
    return queryFromInputs(&error);
}

bool QueryPanel::selectAccessRow(RowId rowId)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->accessAt(row).rowId == rowId) {
            const QModelIndex index = m_model->index(row, ResultsModel::TransitionColumn);
            m_view->selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            m_view->scrollTo(index);
            return true;
        }
    }
    return false;
}

int QueryPanel::visibleRows() const
{
    return std::max(1, m_view->viewport()->height() / std::max(1, m_view->verticalHeader()->defaultSectionSize()));
}

void QueryPanel::syncResultScrollBar()
{
    const qint64 rows = m_model->rowCount();
    const qint64 total = std::max(m_model->resultSize(), m_model->windowStart() + rows);
    const int visible = visibleRows();
    // QScrollBar counts in int: a result beyond 2^31 rows scrolls over its first 2^31 (the end and
    // Go to Row still reach every row).
    const int maximum = int(std::clamp<qint64>(total - visible, 0, std::numeric_limits<int>::max()));
    // The table's own scroll bar while every row is loaded (or nothing can jump: a value search);
    // this one, spanning the rows not loaded, otherwise.
    const bool spansMore = m_model->canJump() && !(m_model->isAtStart() && m_model->isExhausted());
    if (spansMore != m_resultScrollBar->isVisibleTo(this)) {
        m_view->setVerticalScrollBarPolicy(spansMore ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
        m_resultScrollBar->setVisible(spansMore);
    }
    const QSignalBlocker blocker(m_resultScrollBar);
    m_resultScrollBar->setRange(0, maximum);
    m_resultScrollBar->setPageStep(visible);
    m_resultScrollBar->setSingleStep(1);
    if (!m_resultScrollBar->isSliderDown()) {
        const qint64 top = m_model->windowStart() + m_view->verticalScrollBar()->value();
        // The window's last page at the end of the result: the scroll bar at its end.
        const bool atEnd
            = m_model->isExhausted() && m_view->verticalScrollBar()->value() >= m_view->verticalScrollBar()->maximum();
        m_resultScrollBar->setValue(atEnd ? maximum : int(std::min<qint64>(top, maximum)));
    }
    m_resultScrollBar->setToolTip(m_hasQuery ? windowText() : QString());
}

void QueryPanel::scrollResultsTo(int position)
{
    QScrollBar *inner = m_view->verticalScrollBar();
    const qint64 start = m_model->windowStart();
    const qint64 rows = m_model->rowCount();
    const int visible = visibleRows();
    const qint64 lastTop = start + std::max<qint64>(0, rows - visible);
    if (position >= start && position <= lastTop) {
        inner->setValue(int(position - start));
        return;
    }
    const bool pastEnd = position > lastTop;
    // Within a page of the window (or nothing to jump with): the window grows there, as when the
    // table is scrolled to its edge.
    const bool near = pastEnd ? position < lastTop + m_model->pageSize() : position > start - m_model->pageSize();
    if (!m_model->canJump() || near) {
        if (pastEnd) {
            inner->setValue(inner->maximum()); // the view fetches more at its end
        } else {
            inner->setValue(0);
            m_model->fetchPrevious();
        }
        syncResultScrollBar();
        return;
    }
    if (position >= m_resultScrollBar->maximum()) {
        m_afterJump = AfterJump::ShowBottom;
        m_model->showEnd();
    } else {
        m_afterJump = AfterJump::SelectTop;
        m_model->showPosition(position);
    }
    updateStatus();
}

bool QueryPanel::jumpKey(int key, Qt::KeyboardModifiers modifiers)
{
    if (modifiers != Qt::ControlModifier || !m_model->canJump())
        return false;
    if (key == Qt::Key_End && !m_model->isExhausted()) {
        m_afterJump = AfterJump::SelectLast;
        m_model->showEnd();
        updateStatus();
        return true;
    }
    if (key == Qt::Key_Home && !m_model->isAtStart()) {
        m_afterJump = AfterJump::SelectFirst;
        m_model->showStart();
        updateStatus();
        return true;
    }
    return false;
}

void QueryPanel::showJumped()
{
    // The view lays its rows out later; the row to show must be there now.
    m_view->doItemsLayout();
    const int rows = m_model->rowCount();
    const auto select = [this](int row) {
        const QModelIndex index = m_model->index(row, ResultsModel::TransitionColumn);
        m_view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(index);
    };
    if (rows > 0) {
        switch (std::exchange(m_afterJump, AfterJump::Nothing)) {
        case AfterJump::SelectFirst:
            select(0);
            break;
        case AfterJump::SelectLast:
            select(rows - 1);
            m_view->scrollToBottom();
            break;
        case AfterJump::SelectTop:
            m_view->verticalScrollBar()->setValue(0);
            break;
        case AfterJump::ShowBottom:
            m_view->scrollToBottom();
            break;
        case AfterJump::Nothing:
            break;
        }
    }
    syncResultScrollBar();
    updateStatus();
}

void QueryPanel::goToRow(qint64 row)
{
    if (!m_model->canJump() && m_model->rowCount() == 0)
        return;
    const qint64 position = std::max<qint64>(0, row - 1);
    const qint64 start = m_model->windowStart();
    if (position >= start && position < start + m_model->rowCount()) {
        const QModelIndex index = m_model->index(int(position - start), ResultsModel::TransitionColumn);
        m_view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(index, QAbstractItemView::PositionAtTop);
        return;
    }
    if (!m_model->canJump())
        return;
    if (position >= m_model->resultSize() - 1) {
        m_afterJump = AfterJump::SelectLast;
        m_model->showEnd();
    } else {
        m_afterJump = AfterJump::SelectFirst;
        m_model->showPosition(position);
    }
    updateStatus();
}

void QueryPanel::askForRow()
{
    if (!m_model->canJump() && m_model->rowCount() == 0)
        return;
    const QString about = m_model->isResultSizeExact() ? QString() : QStringLiteral("≈ ");
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Go to Row"),
        tr("Row of the results, 1 to %1%2 (not the row id):").arg(about, countText(quint64(m_model->resultSize()))),
        QLineEdit::Normal, QString(), &ok);
    if (!ok || text.trimmed().isEmpty())
        return;
    std::uint64_t row = 0;
    if (!parseTypedNumber(text.trimmed(), &row) || row == 0
        || row > std::uint64_t(std::numeric_limits<qint64>::max())) {
        showInputError(tr("Go to Row: '%1' is not a row number (1 or more)").arg(text.trimmed()));
        return;
    }
    m_inputErrorLabel->hide();
    goToRow(qint64(row));
}

QString QueryPanel::windowText() const
{
    const qint64 rows = m_model->rowCount();
    if (rows == 0)
        return {};
    const QString positions = m_model->arePositionsExact() ? QString() : QStringLiteral("≈ ");
    const QString size = m_model->isResultSizeExact() ? QString() : QStringLiteral("≈ ");
    return tr("Rows %1%2 to %3 of %4%5")
        .arg(positions, countText(quint64(m_model->windowStart() + 1)),
            countText(quint64(m_model->windowStart() + rows)), size, countText(quint64(m_model->resultSize())));
}

void QueryPanel::fillInputs(const HalfAxisQuery &query)
{
    m_transitionEdit->setText(query.at ? QString::number(query.at->value) : QString());
    m_directionCombo->setCurrentIndex(query.direction == Direction::Forward ? 0 : 1);
    m_firstAddressEdit->setText(query.first.value == 0 ? QString() : hexText(query.first.value));
    m_lastAddressEdit->setText(query.last.value == lastAddress ? QString() : hexText(query.last.value));
    m_readsCheck->setChecked(query.operations.testFlag(Operation::Read));
    m_writesCheck->setChecked(query.operations.testFlag(Operation::Write));
    m_executesCheck->setChecked(query.operations.testFlag(Operation::Execute));
    m_threadFilter->setThreads(query.threads);
    m_inputsResumeAfter = query.resumeAfter;
    updateResumeLabel();
    m_inputsFunction = query.function;
    updateFunctionLabel();
}

void QueryPanel::updateFunctionLabel()
{
    const FunctionFilter &function = m_inputsFunction;
    if (function.isSet())
        m_functionLabel->setText(
            function.withCallees ? tr("while %1 ran").arg(function.name) : tr("by %1").arg(function.name));
    m_functionLabel->setVisible(function.isSet());
    m_clearFunctionButton->setVisible(function.isSet());
}

void QueryPanel::updateResumeLabel()
{
    if (m_inputsResumeAfter) {
        m_resumeLabel->setText(tr("starting at row %1")
                                   .arg(countText(quint64(firstRowAfter(
                                       *m_inputsResumeAfter, Direction(m_directionCombo->currentData().toInt()))))));
    }
    m_resumeLabel->setVisible(m_inputsResumeAfter.has_value());
}

void QueryPanel::dropResumePoint()
{
    m_inputsResumeAfter.reset();
    updateResumeLabel();
}

std::optional<HalfAxisQuery> QueryPanel::queryFromInputs(QString *error) const
{
    HalfAxisQuery query;
    std::optional<std::uint64_t> at, first, last;
    if (!parseField(m_transitionEdit, tr("Transition"), &at, error)
        || !parseField(m_firstAddressEdit, tr("First address"), &first, error)
        || !parseField(m_lastAddressEdit, tr("Last address"), &last, error))
        return std::nullopt;
    if (at)
        query.at = Transition { *at };
    query.resumeAfter = m_inputsResumeAfter;
    query.function = m_inputsFunction;
    query.first = Address { first.value_or(0) };
    query.last = Address { last.value_or(lastAddress) };
    if (query.first > query.last) {
        *error = tr("The first address %1 is greater than the last address %2")
                     .arg(hexText(query.first.value), hexText(query.last.value));
        return std::nullopt;
    }
    query.direction = Direction(m_directionCombo->currentData().toInt());
    Operations operations;
    operations.setFlag(Operation::Read, m_readsCheck->isChecked());
    operations.setFlag(Operation::Write, m_writesCheck->isChecked());
    operations.setFlag(Operation::Execute, m_executesCheck->isChecked());
    if (!operations) {
        *error = tr("Select at least one operation (reads, writes or executes)");
        return std::nullopt;
    }
    query.operations = operations;
    return m_threadFilter->applyTo(query);
}

void QueryPanel::showInputError(const QString &message)
{
    // A red that stays legible on light and dark backgrounds.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    QPalette palette = m_inputErrorLabel->palette();
    palette.setColor(QPalette::WindowText, dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c));
    m_inputErrorLabel->setPalette(palette);
    m_inputErrorLabel->setText(message);
    m_inputErrorLabel->show();
}

void QueryPanel::updatePlaceholders()
{
    const bool forward = m_directionCombo->currentIndex() == 0;
    m_transitionEdit->setPlaceholderText(forward ? tr("0 (the first)") : tr("the last transition"));
    m_firstAddressEdit->setPlaceholderText(hexText(0));
    m_lastAddressEdit->setPlaceholderText(hexText(lastAddress));
}

void QueryPanel::updateStatus()
{
    QString text;
    const int rows = m_model->rowCount();
    if (m_historyPath.isEmpty())
        text = tr("No history open");
    else if (!m_hasQuery)
        text = tr("No query yet: click the plane (Ctrl+click: the accesses before a point), or fill in the fields "
                  "above and Run");
    else if (m_model->hasFailed())
        text = tr("%1 loaded; the query failed").arg(rowsText(rows));
    else if (m_model->isExhausted() && rows == 0)
        text = noRowsText();
    else if (m_model->isExhausted() && m_model->isAtStart())
        text = tr("%1 loaded (all)").arg(rowsText(rows));
    else if (m_model->isLoading() && rows == 0)
        text = tr("Loading…");
    else if (m_model->canJump())
        text = windowText() + (m_model->isLoading() ? tr("; loading…") : tr("; Ctrl+End: the last, Ctrl+L: any row"));
    else
        text = tr("%1 loaded, scroll for more").arg(rowsText(rows));
    if (m_valueSearch && !m_historyPath.isEmpty()) {
        // The search's own words: what it looks for, how far it got, whether it was stopped.
        const QString value = QString::fromLatin1(m_valueSearch->value.toHex(' '));
        if (m_model->isCancelled())
            text = tr("%1 holding %2 loaded; the search was stopped").arg(rowsText(rows), value);
        else if (m_model->isExhausted() && rows == 0 && !m_model->hasFailed())
            text = tr("No access holds %1 in this window and time").arg(value);
        else if (m_model->isLoading())
            text = tr("%1 holding %2 loaded; searching… %3 % of the time to search")
                       .arg(rowsText(rows), value)
                       .arg(int(m_searchProgress * 100));
        else
            text = tr("%1 holding %2: %3").arg(rowsText(rows), value, text);
    }
    if (!m_lastExportMessage.isEmpty())
        text += QStringLiteral(" · ") + m_lastExportMessage;
    m_statusLabel->setText(text);
    m_stopSearchButton->setVisible(m_valueSearch && m_model->isLoading() && !m_model->isCancelled());
    // Nothing to export before a query, nor once it has matched nothing, nor a search's matches
    // (the export writes every match of a query).
    const bool matchedNothing = m_model->isExhausted() && !m_model->hasFailed() && rows == 0;
    m_exportAction->setEnabled(
        !m_historyPath.isEmpty() && m_hasQuery && !isExporting() && !matchedNothing && !m_valueSearch);
}

QString QueryPanel::noRowsText() const
{
    // The query in words: what, where, from when, which threads.
    const HalfAxisQuery &query = m_currentQuery;
    QStringList operations;
    if (query.operations.testFlag(Operation::Read))
        operations << tr("read");
    if (query.operations.testFlag(Operation::Write))
        operations << tr("write");
    if (query.operations.testFlag(Operation::Execute))
        operations << tr("execute");
    QString text = tr("No %1").arg(operations.join(tr(" or ")));
    if (query.function.isSet())
        text += query.function.withCallees ? tr(" while %1 ran").arg(query.function.name)
                                           : tr(" by %1").arg(query.function.name);

    const std::uint64_t span = query.last.value - query.first.value;
    if (query.first.value == 0 && query.last.value == lastAddress) {
        // Every address: nothing to say.
    } else if (span == 0) {
        text += tr(" at %1").arg(hexText(query.first.value));
    } else if (span % 2 == 0) {
        // What a click where no access is under the cursor asks: a window around the clicked point.
        text += tr(" within ± %1 B of %2").arg(countText(span / 2), hexText(query.first.value + span / 2));
    } else {
        text += tr(" in %1 to %2").arg(hexText(query.first.value), hexText(query.last.value));
    }

    const bool forward = query.direction == Direction::Forward;
    const QString transition = query.at ? countText(query.at->value) : QString();
    if (query.resumeAfter) {
        const QString row = countText(quint64(firstRowAfter(*query.resumeAfter, query.direction)));
        if (query.at)
            text += forward ? tr(" from transition %1 (row %2) on").arg(transition, row)
                            : tr(" up to transition %1 (row %2)").arg(transition, row);
        else
            text += forward ? tr(" from row %1 on").arg(row) : tr(" up to row %1").arg(row);
    } else if (query.at) {
        text += forward ? tr(" from transition %1 on").arg(transition) : tr(" up to transition %1").arg(transition);
    }

    if (!query.threads.isEmpty()) {
        QStringList threads;
        for (const qint64 thread : query.threads)
            threads << QString::number(thread);
        text += threads.size() == 1 ? tr(" in thread %1").arg(threads.constFirst())
                                    : tr(" in threads %1").arg(threads.join(QStringLiteral(", ")));
    }
    if (!m_noRowsHint.isEmpty())
        text += QStringLiteral(" — ") + m_noRowsHint;
    return text;
}

bool QueryPanel::isColumnWanted(int column) const
{
    return !m_unwantedColumns.contains(ResultsModel::columnKey(column));
}

void QueryPanel::setColumnWanted(int column, bool wanted)
{
    const QByteArray key = ResultsModel::columnKey(column);
    if (key.isEmpty() || wanted == isColumnWanted(column))
        return;
    if (wanted)
        m_unwantedColumns.remove(key);
    else
        m_unwantedColumns.insert(key);
    QStringList keys;
    for (const QByteArray &hidden : std::as_const(m_unwantedColumns))
        keys << QString::fromUtf8(hidden);
    keys.sort();
    QSettings().setValue(hiddenColumnsKey, keys);
    updateColumnVisibility();
}

QMenu *QueryPanel::createColumnsMenu(QWidget *parent)
{
    auto *menu = new QMenu(tr("Columns"), parent);
    for (int column = 0; column < ResultsModel::ColumnCount; ++column) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        const bool available = m_model->hasColumnData(column);
        QAction *action = menu->addAction(available ? title : tr("%1 (not in this history)").arg(title));
        action->setObjectName(QStringLiteral("column-") + QString::fromLatin1(ResultsModel::columnKey(column)));
        action->setCheckable(true);
        action->setChecked(isColumnWanted(column));
        action->setEnabled(available);
        connect(action, &QAction::toggled, this, [this, column](bool checked) { setColumnWanted(column, checked); });
    }
    return menu;
}

void QueryPanel::updateColumnVisibility()
{
    for (int column = 0; column < ResultsModel::ColumnCount; ++column)
        m_view->setColumnHidden(column, !m_model->hasColumnData(column) || !isColumnWanted(column));
}

QByteArray QueryPanel::selectedRowsAsCsv() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    QList<int> columns;
    const QHeaderView *header = m_view->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (!m_view->isColumnHidden(column))
            columns << column;
    }
    return m_model->rowsAsCsv(rows, columns);
}

void QueryPanel::copySelectedRows()
{
    if (!m_view->selectionModel()->hasSelection())
        return;
    auto *mime = new QMimeData;
    const QByteArray csv = selectedRowsAsCsv();
    mime->setText(QString::fromUtf8(csv));
    mime->setData(QStringLiteral("text/csv"), csv);
    QApplication::clipboard()->setMimeData(mime);
}

void QueryPanel::exportInteractively()
{
    if (m_historyPath.isEmpty() || isExporting())
        return;
    const QStringList filters = exportFileFilters();
    QString chosen = filters.constFirst();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the query's results"),
        QFileInfo(m_historyPath)
            .dir()
            .filePath(QFileInfo(m_historyPath).completeBaseName() + QStringLiteral("-query.csv")),
        filters.join(QStringLiteral(";;")), &chosen);
    if (!path.isEmpty())
        startExport(path, chosen == filters.at(1) ? ExportColumnsChoice::PlainRows : ExportColumnsChoice::AsTheTable);
}

QStringList QueryPanel::exportFileFilters()
{
    return { tr("CSV with the table's columns (*.csv)"), tr("CSV of plain rows, no context columns (*.csv)"),
        tr("All files, the table's columns (*)") };
}

void QueryPanel::exportTo(const QString &csvPath, ExportColumnsChoice columns)
{
    startExport(csvPath, columns);
}

void QueryPanel::startExport(const QString &csvPath, ExportColumnsChoice columnsChoice)
{
    if (isExporting()) {
        emit exportFinished(false, tr("An export is already running"));
        return;
    }
    if (m_historyPath.isEmpty()) {
        emit exportFinished(false, tr("No history open"));
        return;
    }
    m_exportPath = csvPath;
    m_exportHistory = m_historyPath;
    m_exportCancelRequested = false;

    // The export thread opens its own read-only connection (one connection per thread) and writes
    // every match: limitRows is false, exactly as `memhist export` without --limit (and with
    // --thread-column when the history records threads).
    // The context columns the table shows, unless plain rows were chosen (--context).
    const bool context = columnsChoice == ExportColumnsChoice::AsTheTable && m_model->hasContext();
    const auto run = [historyPath = m_historyPath, query = m_currentQuery, csvPath, context](const JobTicket &ticket) {
        ExportOutcome outcome;
        QString error;
        const auto database = HistoryDatabase::open(historyPath, &error);
        if (!database) {
            outcome.message = error;
            return outcome;
        }
        ExportReport report;
        ExportColumns columns;
        columns.threads = ThreadSpans(*database).available();
        columns.context = context;
        outcome.ok = exportQueryToCsv(
            *database, query, false, csvPath, &report, &error,
            [&](qint64 written) {
                ticket.report({ -1, written, csvPath });
                return !ticket.cancelled();
            },
            columns);
        outcome.rows = report.rows;
        outcome.message = outcome.ok ? tr("Exported %1 to %2").arg(rowsText(report.rows), csvPath) : error;
        return outcome;
    };

    m_export.start(run, [this](const ExportOutcome &outcome) { finishExport(outcome); });
    // At once, in place of the previous export's outcome; the rows written follow as they go.
    m_lastExportMessage = tr("Exporting to %1…").arg(csvPath);
    m_cancelExportAction->setEnabled(true);
    m_cancelExportButton->show();
    updateStatus();
    emit exportStatusChanged(m_lastExportMessage);
}

void QueryPanel::cancelExport()
{
    if (!isExporting())
        return;
    // The worker sees it after its current page and removes its temporary file.
    m_exportCancelRequested = true;
    m_export.stop();
}

void QueryPanel::finishExport(const ExportOutcome &outcome)
{
    const bool cancelled = m_exportCancelRequested;
    m_cancelExportAction->setEnabled(false);
    m_cancelExportButton->hide();

    QString message
        = cancelled && !outcome.ok ? tr("Export cancelled; %1 was not written").arg(m_exportPath) : outcome.message;
    // Another history was opened while it ran: the message says which history the rows are of.
    if (outcome.ok && m_exportHistory != m_historyPath)
        message = tr("Exported %1 of %2 to %3")
                      .arg(rowsText(outcome.rows), QFileInfo(m_exportHistory).fileName(), m_exportPath);
    m_lastExportMessage = outcome.ok || cancelled ? message : tr("Export failed");
    updateStatus();
    // A failure is shown once, by whoever listens to exportFailed() (the main window's error box).
    if (outcome.ok || cancelled)
        emit exportStatusChanged(message);
    else
        emit exportFailed(message);
    emit exportFinished(outcome.ok, message);
}

} // namespace memhist
